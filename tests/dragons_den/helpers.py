"""Helpers for driving the Dragon's Den rules with chosen dice and chits (no terminal, no files)."""

from __future__ import annotations

from typing import Any

from companion.dice.roll import evaluate
from companion.engine.requests import Choice, Number, Request, RollRequest, Text
from companion.errors import InputError
from companion.games.dragons_den import GAME
from companion.games.dragons_den.engine import actions, common
from companion.games.dragons_den.model import Den
from companion.session.service import new_state
from companion.session.state import Meta, State


def fresh(*variants: str) -> State:
    meta = Meta(name="t", slug="t", game="dragons-den", seed=1, dice="virtual", variants=list(variants))
    return new_state(GAME, meta)


class Script:
    """Answers requests in order: an int (or tuple) for a roll's faces, a str/int for anything else.

    ``asked`` keeps every request, so a test can check what was (and was not) asked.
    """

    def __init__(self, *answers: Any) -> None:
        self.answers = list(answers)
        self.asked: list[Request] = []

    def __call__(self, request: Request) -> Any:
        error = common.reask_error(request)
        if error:  # the step asks again after a wrong chit: as a one-shot command does, refuse
            raise InputError(error)
        self.asked.append(request)
        assert self.answers, f"no scripted answer for {request!r}"
        answer = self.answers.pop(0)
        if isinstance(request, RollRequest):
            faces = answer if isinstance(answer, tuple) else (answer,)
            return evaluate(request.expr, faces, request.mod, parts=request.parts, source="physical")
        if isinstance(request, Choice):
            assert answer in request.values(), (answer, request.values())
        if isinstance(request, Number):
            assert request.lo <= answer <= request.hi
        if isinstance(request, Text):
            assert isinstance(answer, str)
        return answer

    def keys(self) -> list[str]:
        return [r.key for r in self.asked]


def act(state: State, do: str, args: dict[str, Any], *answers: Any) -> Script:
    """Run one action with scripted answers; every scripted answer must be used."""
    script = Script(*answers)
    actions.drive(state, do, args, script)
    assert not script.answers, f"unused answers {script.answers}; asked {script.keys()}"
    return script


def den(state: State) -> Den:
    return state.game


def table(heroes: tuple[int, ...] = (7, 2), dragon: int = 9, discards: tuple[int, ...] | None = None) -> State:
    """A den set up with real (typed) chits: the given heroes, dragon chit and chits set aside."""
    state = fresh()
    if discards is None:
        discards = tuple(n for n in range(1, 13) if n != dragon)[:2]
    act(state, "setup", {"heroes": list(heroes), "chits": "physical"}, dragon, *discards)
    return state


def room(state: State, number: int, *chits: str) -> None:
    act(state, "reveal", {"room": number}, *chits)


def hp(state: State, key: str) -> int:
    f = den(state).figure(key)
    assert f is not None
    return f.health


def log_text(state: State) -> str:
    from companion.log.markdown import body

    return body(state.log.entries)


def end_turn(state: State) -> None:
    """End the turn; a dragon turn after the alarm begins with a countdown chit (the first left)."""
    d = den(state)
    last_hero = d.phase == "heroes" and all(h.number >= d.figure(d.turn).number for h in d.heroes_in())
    chit = (d.cup[0],) if last_hero and d.alarm and d.cup else ()
    act(state, "end-turn", {}, *chit)


def to_dragon_turn(state: State) -> None:
    """End hero turns until the dragon player's turn."""
    while den(state).phase == "heroes":
        end_turn(state)


def next_round(state: State) -> None:
    """End turns until the first hero of the next round."""
    to_dragon_turn(state)
    end_turn(state)
