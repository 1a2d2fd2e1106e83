"""D&D The Dragon's Den: a table assistant for the board game of one dragon against up to seven heroes.

The board, the stand-ups and the chits stay on the table. companion resolves attacks, abilities and
breath by the rules, keeps every figure's health, draws from the cups (or takes the chits the players
drew), looks up the tables, sounds the alarm, counts the gates down and reads both victory charts.

- ``companion play``: a menu of what can happen at the table now (:mod:`.engine`);
- ``companion dragon ...``: one-shot commands for each step (:mod:`.cli`);
- both run the same action steps (:mod:`.engine.steps`) over the same rules (:mod:`.rules`) and numbers
  (:mod:`.data`); exact odds are in :mod:`.odds`; the spec is in :mod:`.spec`.

``GAME`` is built on first use, so that importing the command group (``companion dragon --help``)
loads only typer.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "GAME":
        from companion.games.dragons_den.spec import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
