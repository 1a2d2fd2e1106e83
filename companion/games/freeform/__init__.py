"""Freeform: any game without a module of its own. Dice, trackers, notes and the log, no rules."""

from companion.games.base import GameSpec

GAME = GameSpec(name="freeform", title="Freeform session")
