"""The Dark Tower's exact odds against brute force over every face and against icepool."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.dark_tower import odds

FACES = (1, 2, 3, 4, 5, 6)  # 4 and 5 are ♥, 6 is ★


def _read(faces: tuple[int, ...]) -> tuple[int, int, int]:
    return sum(f for f in faces if f <= 3), sum(1 for f in faces if f in (4, 5)), sum(1 for f in faces if f == 6)


def _brute_check(check: int, dice: int) -> Fraction:
    every = list(product(FACES, repeat=dice))
    return Fraction(sum(1 for fs in every if _read(fs)[0] > check), len(every))


def _brute_fight(bonus: int, strength: int, dice: int, boosts: list[tuple[int, int]]) -> dict:
    """Every outcome by hand: the stars buy the best subset of spells (each once), then compare."""
    every = list(product(FACES, repeat=dice))
    win = tie = Fraction(0)
    damage: dict[int, Fraction] = {}
    for fs in every:
        s, _, st = _read(fs)
        best = 0
        for mask in range(1 << len(boosts)):
            chosen = [boosts[i] for i in range(len(boosts)) if mask >> i & 1]
            if sum(c for _, c in chosen) <= st:
                best = max(best, sum(b for b, _ in chosen))
        total = bonus + s + best
        p = Fraction(1, len(every))
        if total > strength:
            win += p
        else:
            tie += p if total == strength else 0
            damage[strength - total] = damage.get(strength - total, Fraction(0)) + p
    return {"win": win, "tie": tie, "damage": dict(sorted(damage.items()))}


@pytest.mark.parametrize("dice", [3, 4])
@pytest.mark.parametrize("check", range(-1, 13))
def test_check_chance_is_exact(check, dice):
    assert odds.check_chance(check, dice) == _brute_check(check, dice)


def test_check_chance_agrees_with_icepool():
    die = icepool.Die([1, 2, 3, 0, 0, 0])
    for dice in (3, 4):
        pool = dice @ die
        for check in range(0, 10):
            assert odds.check_chance(check, dice) == Fraction(pool.probability(">", check))


def test_check_hearts_are_binomial_one_in_three():
    co = odds.check_odds(5)
    assert co.hearts == {0: Fraction(8, 27), 1: Fraction(12, 27), 2: Fraction(6, 27), 3: Fraction(1, 27)}
    assert co.passed + co.failed == 1


@pytest.mark.parametrize(
    ("bonus", "strength", "dice", "boosts"),
    [
        (0, 4, 4, []),
        (4, 4, 4, []),
        (2, 9, 4, [(4, 1)]),
        (6, 12, 5, [(4, 1), (3, 2)]),
        (-1, 3, 3, []),
        (9, 9, 4, [(1, 1)]),
    ],
)
def test_fight_odds_match_every_outcome(bonus, strength, dice, boosts):
    fo = odds.fight_odds(bonus, strength, dice, boosts)
    brute = _brute_fight(bonus, strength, dice, boosts)
    assert fo.win == brute["win"]
    assert fo.tie == brute["tie"]
    assert fo.damage == brute["damage"]
    assert fo.win + sum(fo.damage.values()) == 1
    assert sum(fo.outcomes.values()) == 1


def test_fight_win_chance_agrees_with_icepool():
    die = icepool.Die([1, 2, 3, 0, 0, 0])
    pool = 4 @ die
    for bonus in range(0, 8):
        for strength in range(0, 16):
            assert odds.win_chance(bonus, strength) == Fraction(pool.probability(">", strength - bonus))


def test_hearts_and_energy_of_a_fight_are_the_pools_marginals():
    fo = odds.fight_odds(2, 6)
    assert sum(fo.hearts.values()) == 1 and sum(fo.energy.values()) == 1
    assert fo.hearts[4] == Fraction(1, 81)  # all four dice hearts: (1/3)^4
    assert fo.energy[4] == Fraction(1, 1296)  # all four stars: (1/6)^4


def test_a_star_spent_on_a_spell_raises_the_win_chance():
    plain = odds.fight_odds(2, 9)
    boosted = odds.fight_odds(2, 9, boosts=[(4, 1)])
    assert boosted.win > plain.win
    assert odds.best_boost(1, [(4, 1), (3, 1)]) == 4
    assert odds.best_boost(2, [(4, 1), (3, 1)]) == 7
    assert odds.best_boost(2, [(5, 2), (3, 1)]) == 5
    assert odds.best_boost(0, [(5, 1)]) == 0


def test_fall_chance_counts_the_hearts_first_and_helpers_without_them():
    fo = odds.fight_odds(0, 12)
    brute_roller = brute_helper = Fraction(0)
    for fs in product(FACES, repeat=4):
        s, h, _ = _read(fs)
        dmg = max(0, 12 - s) if s <= 12 else 0
        p = Fraction(1, 6**4)
        if min(6, 5 + h) - dmg <= 0:
            brute_roller += p
        if 5 - dmg <= 0:
            brute_helper += p
    assert odds.fall_chance(fo, 5, 6) == brute_roller
    assert odds.fall_chance(fo, 5, 6, heals=False) == brute_helper
    assert brute_helper > brute_roller > 0


# ---- many activated spells: a knapsack, not every subset (#13 "Exact odds at table speed") ---------


@given(
    st.lists(st.tuples(st.integers(-2, 8), st.integers(0, 4)), max_size=9),
    st.integers(0, 8),
)
def test_the_best_use_of_the_stars_is_the_best_subset(boosts, stars):
    from itertools import combinations

    best = max(
        (
            sum(b for b, _ in chosen)
            for r in range(len(boosts) + 1)
            for chosen in combinations(boosts, r)
            if sum(c for _, c in chosen) <= stars
        ),
        default=0,
    )
    assert odds.best_boost(stars, boosts) == best
    assert odds.boost_table(boosts, stars)[stars] == best


def _best_by_cost_classes(boosts: list[tuple[int, int]], stars: int) -> int:
    """An independent count for spells costing 1-3 ★: how many of each cost, each class's best bonuses."""
    classes = {c: sorted((b for b, cost in boosts if cost == c and b > 0), reverse=True) for c in (1, 2, 3)}
    best = 0
    for k1 in range(len(classes[1]) + 1):
        for k2 in range(len(classes[2]) + 1):
            for k3 in range(len(classes[3]) + 1):
                if k1 + 2 * k2 + 3 * k3 <= stars:
                    best = max(best, sum(classes[1][:k1]) + sum(classes[2][:k2]) + sum(classes[3][:k3]))
    return best


def test_sixteen_and_sixty_four_spells_are_counted_exactly():
    many = [(i % 5 + 1, i % 3 + 1) for i in range(64)]
    table = odds.boost_table(many, 12)
    assert table == [_best_by_cost_classes(many, e) for e in range(13)]
    sixteen = many[:16]
    assert odds.fight_odds(3, 40, 12, sixteen).outcomes == odds.fight_odds(3, 40, 12, sixteen[::-1]).outcomes
    assert odds.fight_odds(0, 30, 12, many).win > odds.fight_odds(0, 30, 12, sixteen).win > 0
