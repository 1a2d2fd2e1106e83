"""Whole games with random choices and virtual dice: no crash, and the den's bookkeeping always adds up."""

from __future__ import annotations

import random

import pytest

from companion.dice.source import VirtualDice
from companion.engine.requests import Choice, Number, RollRequest
from companion.games.dragons_den import GAME, data
from tests.dragons_den.helpers import den, fresh


def check(state) -> None:
    d = den(state)
    for f in d.figures():
        assert 0 <= f.health <= f.max_health, f
        assert (f.health == 0) == (f.status == "slain") or f.status in ("escaped", "trapped"), f
        if f.kind == "hero":
            for key, used in f.uses.items():
                limit = data.ABILITIES[key].max_uses if key in data.ABILITIES else None
                assert limit is None or used <= limit
    held = [c for h in d.heroes for c in h.treasure]
    assert len(held) == len(set(held))
    dragon_chits = sorted([int(c[1:]) for c in held if c[0] == "D"] + d.hoard)
    assert dragon_chits == list(range(1, 11))
    room_chits = [c for chits in d.rooms.values() for c in chits]
    assert len(room_chits) + len(d.room_cup) == 40 and not set(room_chits) & set(d.room_cup)
    assert set(d.loose) <= set(room_chits)
    if d.dragon is not None:
        assert len(d.cup) + len(d.drawn) + len(d.discards) + 1 == 12


@pytest.mark.parametrize("seed", range(12))
def test_random_games(seed):
    rng = random.Random(seed)
    variants = rng.choice([(), ("long",), ("one-each",), ("shield-attacks-only",)])
    state = fresh(*variants)
    dice = VirtualDice(seed)
    engine = GAME.play(state)
    request = next(engine)
    for _ in range(3000):
        if isinstance(request, RollRequest):
            answer = dice.roll(request.expr, request.mod, request.parts)
        elif isinstance(request, Choice):
            values = [v for v in request.values() if v != "back"]
            if request.key == "dd.setup.hero":
                answer = "done" if "done" in values and rng.random() < 0.4 else rng.choice(values)
            elif request.key == "dd.menu":  # end turns often enough for the countdown to run out
                answer = "end" if rng.random() < 0.3 else rng.choice(values)
            else:
                answer = rng.choice(values)
        elif isinstance(request, Number):
            answer = rng.randint(request.lo, request.hi)
        else:
            answer = rng.choice(["m", "t"]) + str(rng.randint(1, 20))
        try:
            request = engine.send(answer)
        except StopIteration:
            break
        if getattr(request, "key", "") == "dd.menu":  # between actions, the books must balance
            check(state)
    else:
        pytest.fail("the game did not end")
    assert den(state).phase == "over" and state.finished
    assert den(state).score is not None
