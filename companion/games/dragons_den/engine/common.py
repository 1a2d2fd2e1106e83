"""The Dragon's Den's action steps: what every step uses (the den on the state, names in the log, log
lines, a figure by key, a yes or no, a re-asked request, a d6 check).

One of the action steps shared by guided play and the one-shot commands: see :mod:`.engine.steps`.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from companion.dice.expr import parse
from companion.engine.requests import Option, Request, RollRequest, choice
from companion.errors import InputError
from companion.games.dragons_den import data, rules
from companion.games.dragons_den.model import HIDDEN, Den, Figure
from companion.session.state import State

Steps = Generator[Request, Any, Any]


#: A request asked again after a wrong answer starts its prompt with this (the one-shot answerer
#: turns it into an error line instead of asking again).
REASK = "✗ "


YES, NO = "yes", "no"


def den_of(state: State) -> Den:
    return state.game


def who(f: Figure) -> str:
    """How the log names a figure: heroes by name, monsters and the dragon with "the"."""
    if f.kind == "hero":
        return f.name
    if f.kind == "dragon" and f.status == HIDDEN:
        return "the dragon"
    return f"the {f.name}"


def cap(text: str) -> str:
    """The first letter in capitals, the rest as it is ("the Goblin" → "The Goblin")."""
    return text[:1].upper() + text[1:]


def open_line(state: State, text: str) -> str:
    """Open the log line of one action; rolls and effects hang under it."""
    den = den_of(state)
    den.lines += 1
    key = f"dd-{den.lines}"
    state.log.line(key, text)
    return key


def say(state: State, *lines: str) -> None:
    for line in lines:
        state.log.text(line)


def figure(den: Den, key: str) -> Figure:
    f = den.figure(key)
    if f is None:
        raise InputError(f"nobody called {key!r} is on the board")
    return f


def reask_error(request: Request) -> str | None:
    """The error a re-asked request carries (for the one-shot answerer), else None."""
    prompt = getattr(request, "prompt", "")
    if prompt.startswith(REASK):
        return prompt[len(REASK) :].split(" — ", 1)[0]
    return None


def yes_no(key: str, prompt: str, yes: str, no: str, info: tuple[str, ...] = ()) -> Request:
    return choice(key, prompt, Option(YES, yes), Option(NO, no), info=info)


def check_roll(key: str, health: int, why: str, info: tuple[str, ...] = ()) -> RollRequest:
    """A d6 that succeeds at or under ``health`` (an attack or a breath save)."""
    return RollRequest(key, parse(f"1d{data.ATTACK_DIE}<={rules.attack_target(health)}"), why, info=info)
