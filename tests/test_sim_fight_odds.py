"""Exact fight odds: checked against icepool's absorbing chains, and against fights the engine plays.

- The Inverted Tower: on many random fights, :func:`fight_odds` equals the absorbing Markov chain
  icepool solves from the combat rule alone (an oracle written here, not the game's code).
- The Dark Tower: the one-roll fight equals icepool's joint distribution of the Dark Tower dice.
- The odds are also checked against fights the real engine plays with the session's virtual dice:
  the win rate lies in its 99.9% Wilson interval around the exact chance, and the mean HP left in
  its interval around the exact expectation.
- Every game's :class:`~companion.sim.fights.FightOutcome` adds up to 1.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import icepool
import pytest

from companion.dice.expr import dc
from companion.dice.roll import evaluate
from companion.dice.source import VirtualDice
from companion.games.dark_tower import odds as dt_odds
from companion.games.inverted_tower import data as d
from companion.games.inverted_tower import rules
from companion.games.inverted_tower.engine import play
from companion.games.inverted_tower.odds import fight_odds, fight_outcome
from companion.sim.fights import FIGHT_ODDS, outcome_function
from companion.sim.stats import wilson
from tests.it_helpers import make_state

DC = dc()
Z999 = 3.2905  # two-sided 99.9%


# ---- The Inverted Tower against icepool -----------------------------------------------------------
def icepool_fight(
    hp: int, attribute: int, floor: int, normal: int, strong: bool, plan: tuple[int, ...], strong_damage: int
) -> dict[int, Fraction]:
    """The HP at the end, from icepool's absorbing chain over (roll number, foes killed, HP).

    Written from the rule text: a DC (a natural 6 passes, a natural 1 fails, else face + attribute
    − floor (not on floor 1) + daggers ≥ 5) kills the foe in front; a fail costs 1 HP, or
    ``strong_damage`` against the strong foe fought last.
    """
    damages = [1] * normal + ([strong_damage] if strong else [])
    base = attribute - (0 if floor == 1 else floor)
    foes, last = len(damages), len(plan)

    def step(state: tuple[int, int, int], face: int) -> tuple[int, int, int]:
        i, k, h = state
        if h <= 0 or k == foes:
            return state  # absorbing: the fight is over
        modifier = base + (plan[i] if i < last else 0)
        passed = face == 6 or (face != 1 and face + modifier >= 5)
        nxt = min(i + 1, last)
        return (nxt, k + 1, h) if passed else (nxt, k, max(0, h - damages[k]))

    chain = icepool.map(step, (0, 0, hp), icepool.d6, star=False, repeat="inf")
    ends: dict[int, int] = {}
    for (_, _, h), count in chain.items():
        ends[h] = ends.get(h, 0) + count
    total = chain.denominator()
    return {h: Fraction(c, total) for h, c in sorted(ends.items())}


def random_fights(n: int, seed: int) -> list[tuple]:
    rng = random.Random(seed)
    cases = []
    for _ in range(n):
        normal = rng.randint(0, 4)
        strong = rng.random() < 0.5 or normal == 0
        plan = tuple(rng.randint(0, 2) for _ in range(rng.randint(0, 3)))
        cases.append(
            (rng.randint(1, 7), rng.randint(-1, 5), rng.randint(1, 10), normal, strong, plan, rng.randint(1, 2))
        )
    return cases


@pytest.mark.parametrize("case", random_fights(60, 2026))
def test_inverted_tower_odds_equal_icepools_absorbing_chain(case):
    hp, attribute, floor, normal, strong, plan, strong_damage = case
    variants = (d.ELITES_DEAL_2,) if strong_damage == 2 else ()
    o = fight_odds(hp, attribute, floor, normal, elite=strong, daggers=plan, variants=variants)
    assert o.hp == icepool_fight(hp, attribute, floor, normal, strong, plan, strong_damage)
    assert o.win == sum(p for h, p in o.hp.items() if h > 0)
    assert o.hp_left == sum(h * p for h, p in o.hp.items())


def test_a_twenty_hp_fight_equals_icepool_too():
    o = fight_odds(20, 2, 3, 4, boss=True, daggers=(1, 1, 0, 2), variants=(d.ELITES_DEAL_2,))
    assert o.hp == icepool_fight(20, 2, 3, 4, True, (1, 1, 0, 2), 2)


# ---- The Dark Tower against icepool ---------------------------------------------------------------
def icepool_dt(bonus: int, strength: int, dice: int, boosts: tuple[tuple[int, int], ...]) -> dict[int, Fraction]:
    """Margin (total − strength) distribution: icepool's joint (numbers, ♥, ★) of the Dark Tower dice,
    the ★ spent on the best set of spells (each at most once)."""
    v = icepool.Vector
    die = icepool.Die([v((1, 0, 0)), v((2, 0, 0)), v((3, 0, 0)), v((0, 1, 0)), v((0, 1, 0)), v((0, 0, 1))])
    pool = die
    for _ in range(dice - 1):
        pool = pool + die

    def best(stars: int) -> int:
        return max(
            (
                sum(b for b, _ in chosen)
                for r in range(len(boosts) + 1)
                for chosen in itertools.combinations(boosts, r)
                if sum(c for _, c in chosen) <= stars
            ),
            default=0,
        )

    out: dict[int, Fraction] = {}
    total = pool.denominator()
    for (s, _, st), count in pool.items():
        m = bonus + s + best(st) - strength
        out[m] = out.get(m, Fraction(0)) + Fraction(count, total)
    return out


@pytest.mark.parametrize(
    ("bonus", "strength", "dice", "boosts"),
    [(0, 4, 4, ()), (3, 9, 4, ()), (5, 12, 5, ((2, 1),)), (-2, 3, 3, ((1, 1), (3, 2))), (8, 20, 6, ((4, 1), (2, 1)))],
)
def test_dark_tower_odds_equal_icepools_dice(bonus, strength, dice, boosts):
    fo = dt_odds.fight_odds(bonus, strength, dice, boosts)
    margins: dict[int, Fraction] = {}
    for (m, _, _), p in fo.outcomes.items():
        margins[m] = margins.get(m, Fraction(0)) + p
    assert margins == icepool_dt(bonus, strength, dice, boosts)
    o = dt_odds.fight_outcome(bonus, strength, dice, boosts, health=3, max_health=5)
    assert o.win + o.lose + o.draw == 1
    assert o.win == sum(p for m, p in margins.items() if m > 0)


# ---- the odds against fights the engine plays --------------------------------------------------
def engine_fight(state_args: tuple, dice: VirtualDice) -> int:
    """One fight played by the real engine: the set-up faces chosen, every combat roll from ``dice``."""
    hp, attribute, floor, normal, elite, plan, variants = state_args
    state = make_state(variants)
    state.log.enabled = False
    rules.create_hero(state, "STR")
    state.game.attributes["STR"] = attribute
    rules.enter_floor(state, floor)
    t = state.trackers
    t.counters["hp"].value = t.counters["hp"].max = hp
    t.items.update({"dagger": sum(plan), "potion": 0})
    state.game.rooms = ["stairs"]
    engine = play(state)
    assert next(engine).key == "turn"
    request = engine.send("new")
    request = engine.send(evaluate(DC, (1,), 0))  # the room's DC fails: an encounter
    request = engine.send(evaluate(request.expr, ({1: 1, 2: 3, 3: 5}[normal + elite],), 0))
    request = engine.send(evaluate(request.expr, (6 if elite else 1,), 0))
    request = engine.send("STR")
    rolls = 0
    while state.game.fight is not None and state.finished is None:
        if request.key == "combat.daggers":
            request = engine.send(str(plan[rolls] if rolls < len(plan) else 0))
            continue
        assert request.key == "combat.roll"
        try:
            request = engine.send(dice.roll(request.expr, request.mod, request.parts))
        except StopIteration:
            break
        rolls += 1
    return t.counters["hp"].value


@pytest.mark.parametrize(
    "fight",
    [
        (5, 1, 1, 2, True, (), ()),
        (4, 2, 3, 1, True, (1, 1), (d.ELITES_DEAL_2,)),
        (6, 0, 2, 3, False, (2,), ()),
    ],
)
def test_the_exact_odds_lie_within_the_simulated_fights_intervals(fight):
    hp, attribute, floor, normal, elite, plan, variants = fight
    exact = fight_odds(hp, attribute, floor, normal, elite=elite, daggers=plan, variants=variants)
    dice = VirtualDice(99)
    n = 2500
    ends = [engine_fight(fight, dice) for _ in range(n)]
    wins = sum(1 for h in ends if h > 0)
    lo, hi = wilson(wins, n, z=Z999)
    assert lo <= float(exact.win) <= hi
    mean = sum(ends) / n
    sd = math.sqrt(sum((h - mean) ** 2 for h in ends) / (n - 1))
    assert abs(mean - float(exact.hp_left)) <= Z999 * sd / math.sqrt(n)
    # and the whole distribution: each end within its own interval
    for h, p in exact.hp.items():
        lo, hi = wilson(ends.count(h), n, z=Z999)
        assert lo <= float(p) <= hi, h


# ---- every game's outcome ---------------------------------------------------------------------------
EXAMPLES = {
    "inverted-tower": {"hp": 5, "attribute": 1, "floor": 2, "normal": 2, "elite": True, "daggers": 1},
    "dark-tower": {"bonus": 3, "strength": [5, 4], "boosts": [(2, 1)], "health": 4, "max_health": 6},
}


@pytest.mark.parametrize("game", list(FIGHT_ODDS))
def test_every_registered_game_gives_an_outcome_that_adds_up(game):
    o = outcome_function(game)(**EXAMPLES[game])
    assert o.game == game
    total = o.win + o.lose + (o.flee or 0) + (o.draw or 0)
    assert total == 1
    for chart in o.charts:
        assert sum(p for _, p in chart.rows) == 1, chart.title
    if o.hp_left is not None:
        assert o.hp_left >= 0


def test_the_inverted_tower_outcome_is_its_fight_odds():
    o = fight_outcome(5, 1, 2, 2, elite=True, daggers=1)
    exact = fight_odds(5, 1, 2, 2, elite=True, daggers=1)
    assert (o.win, o.lose, o.death, o.hp_left) == (exact.win, exact.death, exact.death, exact.hp_left)
    assert o.charts[0].rows[0] == ("dead", exact.death)
