"""The table at a glance, as data: the fight in progress, every hero or player, and the rest.

A game's ``Game.board(state)`` gives a :class:`Board`; the shell's bottom bar packs it into the
terminal's width (:mod:`companion.shell.toolbar`), and the pending step names who acts from it.
Nothing here prints: a front end decides how to draw it, and what to shorten first (never a hero).

A game's ``Game.controls(state)`` gives the :class:`Control` buttons of its own figures (a hero's
health through the game's own command); the page (``companion serve``) shows them beside the figures.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    """One figure on the table: its name, its health as a number (``7/10``), and the one figure that
    matters most in its game (``●2 chits``, ``♥4 ★2``), with whose turn it is."""

    name: str
    health: str = ""
    extra: str = ""
    turn: bool = False
    #: Out of the game (dead, gone): still listed, marked.
    out: bool = False


@dataclass(frozen=True)
class Board:
    #: The heroes or players, in the order of play: never dropped from the bar.
    heroes: tuple[Figure, ...] = ()
    #: The fight in progress: every figure in it (the heroes in it are in ``heroes`` too).
    fight: tuple[Figure, ...] = ()
    #: The fight's own line (``round 2``), shown before its figures.
    fight_title: str = ""
    #: The rest: floor, room, the Talisman search, the deck.
    rest: tuple[str, ...] = ()
    #: False where the game marks whose turn it is only loosely (who moves first this round): the
    #: pending step then names who acts only when its own text names a hero.
    turn_known: bool = True

    @property
    def actor(self) -> str:
        """Whose turn it is (the first figure marked), or ``""``."""
        for f in (*self.fight, *self.heroes):
            if f.turn:
                return f.name
        return ""


@dataclass(frozen=True)
class Control:
    """A figure a player changes by hand, with the command words of a step down and of a step up.

    ``key`` names it among the table's controls (the page posts it back); ``who`` is the figure it
    belongs to (a hero's name, or ``""`` for the table's own trackers); ``minus``/``plus`` are the
    words of the one-shot command each button runs (``("haunted", "hp", "Aria", "-1")``), empty where
    that way is closed."""

    key: str
    label: str
    value: str
    minus: tuple[str, ...] = ()
    plus: tuple[str, ...] = ()
    who: str = ""
