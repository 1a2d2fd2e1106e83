"""Тёмная Башня (Dark Tower): a co-operative card game for 1-4 players, as a table assistant.

The rule text is in Russian and prints no card lists, so the players enter each card as it comes up
(kept in their catalogue for the next game), and companion does the arithmetic, the dice, the health
and the turn order: ``companion new dark-tower``, then ``companion play`` or ``companion dark ...``.

``GAME`` is built on first use (in :mod:`.spec`), so that importing the command group loads only typer.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "GAME":
        from companion.games.dark_tower.spec import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
