"""``companion haunted ...``: each step of the Haunted Tower at the table in one command.

Every command that changes the game records one ``haunted`` event through ``Session.record`` (so
the log, undo and replay see it) and applies :mod:`.rules` exactly as guided play does. Rolls are
virtual, or the faces you rolled with ``--got``; a session in physical-dice mode asks for them at a
terminal. Only typer is imported here at module level.
"""

from __future__ import annotations

import typer

from companion.games.haunted_tower.cli import fights as cli_fights
from companion.games.haunted_tower.cli import items as cli_items
from companion.games.haunted_tower.cli import setup as cli_setup
from companion.games.haunted_tower.cli import view as cli_view

app = typer.Typer(
    help="D&D The Haunted Tower at the table: heroes, fights by the rules, health, climbing, score.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog="A fight: fight HERO MONSTER → init → attack (whoever's turn it is) or run → ...",
)

# The commands, by what they are about (each module registers on its own typer app; the order is
# the order of ``companion haunted --help``).
for _part in (cli_setup, cli_fights, cli_items, cli_view):
    app.registered_commands.extend(_part.app.registered_commands)
