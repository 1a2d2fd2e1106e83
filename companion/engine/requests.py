"""What an engine can ask for, and the answers it gets back.

- :class:`RollRequest` is answered with a :class:`companion.dice.roll.Roll`;
- :class:`Choice` with the ``value`` of one of its options (a str);
- :class:`Number` with an int within its bounds;
- :class:`Text` with a non-empty str.

Requests are small frozen objects with slots: the simulator makes hundreds of thousands a second.
Every request has a ``key`` naming what is asked (``room.dc``, ``trap.kind``); a replay checks that
each saved answer meets a request with the same key, so a save never silently drifts from the rules.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, TypeAlias

from companion.dice.expr import Expr


@dataclass(frozen=True, slots=True)
class RollRequest:
    """Roll ``expr`` with ``mod`` (whose labelled parts are ``parts``) because of ``why``."""

    key: str
    expr: Expr
    why: str
    mod: int = 0
    parts: tuple[tuple[str, int], ...] = ()
    #: Extra lines to show before the roll (e.g. fight odds); the shell shows the roll's own odds.
    info: tuple[str, ...] = ()
    #: Hidden information (a chit drawn in secret): the fold does not log the roll, and the shell
    #: neither shows it nor echoes typed faces. The game logs what it may reveal, when it may.
    secret: bool = False
    #: A draw companion makes for the players (from a cup it keeps): the shell answers it at once
    #: with the session's virtual dice, even when the players roll their own dice.
    virtual: bool = False


@dataclass(frozen=True, slots=True)
class Option:
    value: str
    label: str
    #: A short explanation shown beside the label (odds, costs).
    hint: str = ""
    #: The option's key, where the game gives it one (:mod:`companion.engine.keys`: else made from its
    #: value or label): a few letters that stay the same while the table changes.
    key: str = ""


@dataclass(frozen=True, slots=True)
class Choice:
    key: str
    prompt: str
    options: tuple[Option, ...]
    info: tuple[str, ...] = ()
    #: Options for one player's eyes (the Dragon's Den's secret dragon): a front end shows them only
    #: while the menu is open and clears them once it is answered.
    private: bool = False

    def values(self) -> tuple[str, ...]:
        return tuple(o.value for o in self.options)

    def option(self, value: str) -> Option:
        for o in self.options:
            if o.value == value:
                return o
        raise KeyError(value)


@dataclass(frozen=True, slots=True)
class Number:
    key: str
    prompt: str
    lo: int
    hi: int
    #: Where the player finds this number (e.g. "the Paladin's row in the book's table, page 12").
    where: str = ""
    default: int | None = None
    #: Hidden information typed by one player (the shell does not echo it).
    secret: bool = False


@dataclass(frozen=True, slots=True)
class Text:
    key: str
    prompt: str
    default: str = ""


class _Refresh:
    """The type of :data:`REFRESH` (one instance; never recorded, never compared by value)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "REFRESH"


#: Sent to an engine whose game sets ``Game.refresh`` in place of an answer, when a one-shot
#: event changed the state while the engine waited: the engine drops what it was asking and asks
#: again from the fresh state (a menu built before ``companion haunted attack`` would be stale).
REFRESH = _Refresh()

Request: TypeAlias = RollRequest | Choice | Number | Text
#: A guided game: yields requests, receives answers, returns when the game is over.
Engine: TypeAlias = Generator[Request, Any, None]


def choice(key: str, prompt: str, *options: tuple[str, str] | Option, info: tuple[str, ...] = ()) -> Choice:
    """Build a Choice from (value, label) pairs or Options."""
    opts = tuple(o if isinstance(o, Option) else Option(o[0], o[1]) for o in options)
    return Choice(key, prompt, opts, info)
