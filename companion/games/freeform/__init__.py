"""Freeform: any game without a module of its own. Dice, trackers, notes and the log, no rules; a table
pack's fight in progress on the shell's bar (:mod:`companion.games.freeform.view`).

Its rooms are the ones it has content for: the spec (:mod:`.spec`) and the view (:mod:`.view`).
``GAME`` is built on first use, as every game's is.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "GAME":
        from companion.games.freeform.spec import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
