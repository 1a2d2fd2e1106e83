"""``companion dragon ...``: one-shot commands for every step of a Dragon's Den turn.

Each action command answers the action's step (:mod:`.engine.steps`) from its options (``--got`` faces,
``--chit`` chits, ``--shield``/``--haste``) or the session's virtual dice, and records one ``dragon``
event through ``Session.record``, so ``companion log``, ``undo`` and replays see it. The guided
``companion play`` menu runs the very same steps.

Only typer is imported here at module level: everything else is imported inside the commands.
"""

from __future__ import annotations

import typer

from companion.games.dragons_den.cli import actions, setup, tables

app = typer.Typer(
    help="D&D The Dragon's Den at the table: attacks, abilities, breath, chits, the alarm and the score. "
    "Every action is recorded in the current session (undo and the log see it).",
    no_args_is_help=True,
    add_completion=False,
)

# The commands, by what they are about (each module registers on its own typer app; the order is
# the order of ``companion dragon --help``).
for _part in (setup, actions, tables):
    app.registered_commands.extend(_part.app.registered_commands)
