"""The Dragon's Den's action steps: drawing from the cups (a virtual 1dN, or the chit the players
type) and from the hoard.

One of the action steps shared by guided play and the one-shot commands: see :mod:`.engine.steps`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from companion.dice.expr import parse
from companion.engine.requests import Number, Request, RollRequest
from companion.errors import InputError
from companion.games.dragons_den import data, rules
from companion.games.dragons_den.engine.common import REASK, Steps, den_of, say
from companion.games.dragons_den.model import IN
from companion.session.state import State


def draw(
    state: State,
    cup: Callable[[], list[Any]],
    *,
    key: str,
    what: str,
    entered: bool,
    read: Callable[[Any], Any],
    ask: Callable[[str], Request],
    secret: bool = False,
    where: str = "in the cup",
    name: Callable[[Any], str] | None = None,
) -> Generator[Request, Any, tuple[Any, str] | None]:
    """Draw one chit from ``cup()`` (re-read after every request); returns (chit, how it was drawn).

    Virtual: a roll of 1dN over the N chits left, read as the N-th; the log keeps it as a draw and
    names the chit it drew (``name(chit)``, default ``WHAT CHIT``), unless the draw is secret. Entered:
    the player types the chit (``ask`` makes the request from a prompt; ``read`` turns the answer into
    a chit, or raises). The caller removes the chit from its cup.
    """
    error = ""
    while True:
        chits = cup()
        if not chits:
            return None
        if entered:
            prompt = f"Which {what} was drawn?"
            answer = yield ask(f"{REASK}{error} — {prompt}" if error else prompt)
            try:
                chit = read(answer)
            except InputError as exc:
                error = exc.message
                continue
            if chit not in cup():
                error = f"{answer} is not {where} (left: {len(cup())} chits)"
                continue
            return chit, f"{what} {chit} entered by the players"
        if len(chits) == 1:
            return chits[0], f"the last {what} {where}"
        roll = yield RollRequest(
            key,
            parse(f"1d{len(chits)}"),
            f"draw a {what} ({len(chits)} {where})",
            secret=secret,
            virtual=True,
        )
        chits = cup()
        if not 1 <= roll.total <= len(chits):  # the cup changed while the roll was asked
            continue
        faces = " ".join(f"[{f}]" for f in roll.faces) if roll.faces else str(roll.total)
        chit = chits[roll.total - 1]
        if not secret:
            state.log.drew(name(chit) if name is not None else f"{what} {chit}")
        return chit, f"1d{len(chits)} → {faces} · {roll.source}"


def _number(key: str, lo: int, hi: int, where: str, secret: bool = False) -> Callable[[str], Request]:
    return lambda prompt: Number(key, prompt, lo, hi, where=where, secret=secret)


def _as_int(answer: Any) -> int:
    return int(answer)


def draw_number(
    state: State,
    cup: Callable[[], list[Any]],
    key: str,
    what: str,
    highest: int,
    typed: str,
    *,
    entered: bool,
    secret: bool = False,
    where: str = "in the cup",
    name: Callable[[Any], str] | None = None,
) -> Generator[Request, Any, tuple[Any, str] | None]:
    """:func:`draw` of a numbered chit (1 to ``highest``); ``typed`` says where its number is, when typed."""
    return (
        yield from draw(
            state,
            cup,
            key=key,
            what=what,
            entered=entered,
            read=_as_int,
            ask=_number(key, 1, highest, typed, secret=secret),
            secret=secret,
            where=where,
            name=name,
        )
    )


def draw_hoard(state: State, hero_key: str, count: int) -> Steps:
    """A hero takes ``count`` chits from the hoard, at random (face down in the lair)."""
    for _ in range(count):
        den = den_of(state)
        hero = den.figure(hero_key)
        if hero is None or hero.status != IN or not den.hoard:
            return
        got = yield from draw_number(
            state,
            lambda: den_of(state).hoard,
            "dd.draw.hoard",
            "dragon treasure chit",
            data.HOARD_CHITS,
            "the number on the dragon treasure chit",
            entered=den.chits == "physical",
            where="in the lair",
            name=lambda n: f"dragon treasure {n}",
        )
        if got is None:
            return
        n = got[0]
        den = den_of(state)
        hero = den.figure(hero_key)
        if hero is None or n not in den.hoard:
            return
        say(state, *rules.give(den, hero, f"D{n}", state.data))
