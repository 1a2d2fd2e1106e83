"""Exact odds, checked against icepool's absorbing Markov chains and against brute-force counting."""

from __future__ import annotations

import itertools
from fractions import Fraction

import icepool
import pytest

from companion.games.dragons_den import odds


def oracle(first: int, second: int) -> dict[tuple[int, int, int], Fraction]:
    """icepool: (first's health, second's health, who strikes next) until one side is at 0."""

    def step(state):
        a, b, turn = state
        if a == 0 or b == 0:
            return state
        if turn == 0:
            p = min(a, 6)
            return icepool.Die({(a, b - 1, 1): p, (a, b, 1): 6 - p}) if p < 6 else icepool.Die([(a, b - 1, 1)])
        q = min(b, 6)
        return icepool.Die({(a - 1, b, 0): q, (a, b, 0): 6 - q}) if q < 6 else icepool.Die([(a - 1, b, 0)])

    die = icepool.map(step, (first, second, 0), repeat="inf")
    total = die.denominator()
    return {outcome: Fraction(q, total) for outcome, q in die.items()}


@pytest.mark.parametrize(("first", "second"), list(itertools.product(range(1, 9), range(1, 9))))
def test_exchange_matches_icepool(first, second):
    ex = odds.exchange(first, second)
    end = oracle(first, second)
    assert ex.win == sum(p for (a, b, _), p in end.items() if b == 0)
    for h, p in ex.first_left.items():
        assert p == sum(q for (a, b, _), q in end.items() if b == 0 and a == h)
    for h, p in ex.second_left.items():
        assert p == sum(q for (a, b, _), q in end.items() if a == 0 and b == h)
    assert ex.win + ex.lose == 1
    assert sum(ex.first_left.values()) + sum(ex.second_left.values()) == 1


def test_exchange_by_hand():
    # 1 against 1, striking first: win = 1/6 + (5/6)(5/6) win  →  win = (1/6) / (11/36) = 6/11
    assert odds.exchange(1, 1).win == Fraction(6, 11)
    # health 6 or more never misses: 6 against 1 wins at once
    assert odds.exchange(6, 1).win == 1
    assert odds.exchange(6, 1).first_left == {6: 1}


def test_a_dragon_sized_exchange_is_fast_and_exact():
    ex = odds.exchange(24, 24)
    assert ex.win + ex.lose == 1
    assert ex.win > Fraction(1, 2)  # striking first at full health is an edge


def test_single_chances():
    assert [odds.attack_chance(h) for h in range(0, 9)] == [0, *(Fraction(min(h, 6), 6) for h in range(1, 9))]
    assert odds.breath_save_chance(3) == Fraction(1, 2)
    assert odds.shield_chance() == Fraction(5, 6)
    assert odds.haste_chance() == Fraction(5, 6)


@pytest.mark.parametrize(("run", "haste"), [(False, False), (True, False), (False, True), (True, True)])
def test_movement_by_brute_force(run, haste):
    speed = 3
    counts: dict[int, int] = {}
    d10 = range(1, 11) if run else [0]
    h = range(1, 7) if haste else [None]
    for a, b, c in itertools.product(range(1, 7), d10, h):
        extra = 0 if c is None or c == 6 else c
        total = a + b + speed + extra
        counts[total] = counts.get(total, 0) + 1
    n = sum(counts.values())
    assert odds.movement(speed, run=run, haste=haste) == {t: Fraction(c, n) for t, c in sorted(counts.items())}
    assert odds.at_least(odds.movement(speed, run=run, haste=haste), 0) == 1


@pytest.mark.parametrize("health", range(1, 9))
def test_breath_loss_by_brute_force(health):
    greater: dict[int, int] = {}
    shielded: dict[int, int] = {}
    for save, shield in itertools.product(range(1, 7), range(1, 7)):
        loss = 1 if save <= health else 2
        greater[loss] = greater.get(loss, 0) + 1
        total = 1 + (0 if shield <= 5 else loss)
        shielded[total] = shielded.get(total, 0) + 1
    assert odds.breath_loss(health, True) == {k: Fraction(v, 36) for k, v in greater.items()}
    assert odds.breath_loss(health, True, shield=True) == {k: Fraction(v, 36) for k, v in sorted(shielded.items())}
    assert odds.breath_loss(health, False) == {1: 1}
    assert odds.breath_loss(health, False, shield=True) == {1: Fraction(5, 6), 2: Fraction(1, 6)}


def test_exchange_needs_living_figures():
    with pytest.raises(ValueError):
        odds.exchange(0, 3)


def test_reach_text_lists_exact_chances_over_the_range():
    text = odds.reach_text(odds.movement(2))
    assert text == "at least 4: 83.3%, 5: 66.7%, 6: 50%, 7: 33.3%, 8: 16.7%"
    assert odds.reach_text({5: Fraction(1)}) == "always 5"
