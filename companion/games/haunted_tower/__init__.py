"""D&D: The Haunted Tower, a board game for 3 to 6 heroes: companion is the table assistant.

The board, the stand-ups and the chits stay on the table. companion resolves fights by the rules
(initiative, attacks, damage, every monster's special rule, running away), keeps every figure's
health, looks up the tables, checks the climb to the next tower, trades chits for −1 chits and adds
up the score. ``companion play`` is a menu of what can happen at the table now; the ``haunted``
command group does each step in one command. Both call the same ``rules/`` modules.

- ``data/`` (``__init__`` and ``monsters``, the monster listing): the rulebook's numbers;
- ``model.py``: the state; ``rules/``: ``lookup`` and ``numbers``, ``rolls``, ``heroes``, ``fights``,
  ``items``, ``climb``, ``score``: every step; ``events``: the one-shot commands' events; ``odds.py``:
  exact odds;
- ``engine.py``: guided play; ``cli/``: the commands;
- ``view.py``: odds lines, the health table, the score table.

``GAME`` is built on first use (in :mod:`.spec`), so that importing the command group loads only typer.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "GAME":
        from companion.games.haunted_tower.spec import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
