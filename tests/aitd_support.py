"""Helpers for The Adventure in the Dungeon's tests: a state with the player's numbers, and a driver
that answers the engine with chosen dice.

The numbers below are test fixtures standing in for what a player enters from their book; they are not
shipped anywhere.
"""

from __future__ import annotations

from typing import Any

from companion.dice.roll import Roll, evaluate
from companion.engine.requests import Choice, Number, RollRequest, Text
from companion.games.adventure_in_the_dungeon import GAME
from companion.session.state import Meta, State

DATA: dict[str, Any] = {
    "source": "house",
    "rangeress.hits": 7,
    "rangeress.to_hit": 6,
    "rangeress.be_hit": 9,
    "fighter.hits": 8,
    "fighter.to_hit": 5,
    "fighter.be_hit": 10,
    "wizard.hits": 5,
    "wizard.to_hit": 9,
    "wizard.be_hit": 8,
    "area12.kind": "empty",
}

AREA12 = {
    "area12.kind": "monster",
    "area12.name": "Gelatinous Thing",
    "area12.hits": 3,
    "area12.attacks": 2,
    "area12.bonus": 1,
    "area12.penalty": 1,
    "area12.damage": 1,
    "area12.form": "poison",
}


def make_state(data: dict[str, Any] | None = None, variants: tuple[str, ...] = (), log: bool = True) -> State:
    state = State(meta=Meta(name="t", slug="t", game="talisman", seed=1, dice="virtual", variants=list(variants)))
    assert GAME.setup is not None
    GAME.setup(state)
    state.log.enabled = log
    state.data.update(DATA if data is None else data)
    return state


def started(state: State) -> State:
    """The state once the party's tallies are written (as the engine does before the first area)."""
    from companion.games.adventure_in_the_dungeon.engine import start

    start(state)
    return state


def faces_for(req: RollRequest, hit: bool, total: int | None = None) -> tuple[int, int]:
    """Two faces that make ``req`` succeed (the lowest such total) or fail (the lowest total)."""
    for t in [total] if total is not None else range(2, 13):
        faces = (min(6, t - 1), t - min(6, t - 1))
        roll = evaluate(req.expr, faces, req.mod, parts=req.parts)
        if total is not None or bool(roll.success) == hit:
            return faces
    raise AssertionError(f"{req.why}: no roll can {'hit' if hit else 'miss'} ({req.expr} {req.mod:+d})")


class Driver:
    """Drive the engine generator: every answer checks the request's key first."""

    def __init__(self, state: State) -> None:
        self.state = state
        assert GAME.play is not None
        self.engine = GAME.play(state)
        self.req: Any = next(self.engine)
        self.done = False
        self.keys: list[str] = []

    def _send(self, value: Any) -> Driver:
        self.keys.append(self.req.key)
        try:
            self.req = self.engine.send(value)
        except StopIteration:
            self.req = None
            self.done = True
        return self

    def expect(self, key: str) -> Any:
        assert self.req is not None, f"the game is over, but {key!r} was expected"
        assert self.req.key == key, f"expected {key!r}, the game asks {self.req.key!r} ({self.describe()})"
        return self.req

    def describe(self) -> str:
        r = self.req
        if isinstance(r, RollRequest):
            return f"roll {r.expr} {r.mod:+d}: {r.why}"
        if isinstance(r, Choice):
            return f"choice {r.values()}"
        return type(r).__name__

    def choose(self, value: str, key: str | None = None) -> Driver:
        req = self.expect(key) if key else self.req
        assert isinstance(req, Choice), self.describe()
        assert value in req.values(), f"{value!r} is not offered: {req.values()}"
        return self._send(value)

    def number(self, n: int | str, key: str | None = None) -> Driver:
        req = self.expect(key) if key else self.req
        assert isinstance(req, (Number, Text, Choice)), self.describe()
        return self._send(n)

    def roll(self, *faces: int, key: str | None = None) -> Roll:
        req = self.expect(key) if key else self.req
        assert isinstance(req, RollRequest), self.describe()
        roll = evaluate(req.expr, tuple(faces), req.mod, parts=req.parts)
        self._send(roll)
        return roll

    def hit(self, key: str | None = None) -> Driver:
        req = self.expect(key) if key else self.req
        assert isinstance(req, RollRequest), self.describe()
        self.roll(*faces_for(req, True))
        return self

    def miss(self, key: str | None = None) -> Driver:
        req = self.expect(key) if key else self.req
        assert isinstance(req, RollRequest), self.describe()
        self.roll(*faces_for(req, False))
        return self

    def enter(self, area: int) -> Driver:
        return self.choose(str(area), "area.enter")

    def log_text(self) -> str:
        from companion.log.markdown import render

        return render(self.state, "The Adventure in the Dungeon")

    def tally(self, name: str) -> Any:
        return self.state.trackers.tallies[name]
