"""Exact fight odds, checked against brute-force enumeration and against the engine itself."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from companion.dice.expr import dc
from companion.dice.roll import evaluate
from companion.engine.requests import RollRequest
from companion.games.inverted_tower import data as d
from companion.games.inverted_tower import rules
from companion.games.inverted_tower.engine import play
from companion.games.inverted_tower.model import Fight
from companion.games.inverted_tower.odds import fight_odds, plan_of
from tests.it_helpers import make_state

DC = dc()


def brute_force(
    hp: int, attribute: int, floor: int, normal: int, strong: bool, plan: tuple[int, ...], strong_damage: int
) -> dict[int, Fraction]:
    """Every sequence of faces, long enough for any fight, played with the core DC and counted."""
    damages = [1] * normal + ([strong_damage] if strong else [])
    base = attribute - (0 if floor == 1 else floor)
    length = len(damages) + hp
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, 7), repeat=length):
        h, k = hp, 0
        for i, face in enumerate(faces):
            if h <= 0 or k == len(damages):
                break
            bonus = plan[i] if i < len(plan) else 0
            if evaluate(DC, (face,), base + bonus).success:
                k += 1
            else:
                h -= damages[k]
        end = max(h, 0)
        counts[end] = counts.get(end, 0) + 1
    total = 6**length
    return {h: Fraction(c, total) for h, c in sorted(counts.items())}


CASES = [
    # hp, attribute, floor, normal, elite/boss, daggers, variants
    (1, 0, 1, 1, False, 0, ()),
    (3, 1, 1, 2, False, 0, ()),
    (2, 0, 2, 1, True, 0, ()),
    (3, 2, 3, 1, True, 0, (d.ELITES_DEAL_2,)),
    (2, 4, 1, 2, False, 0, ()),  # +4: only a natural 1 fails
    (3, 0, 4, 1, False, 2, ()),  # -4: only a natural 6 passes, daggers wasted below need 6
    (2, 1, 1, 1, True, (2, 0, 1), ()),
    (3, 0, 2, 0, True, 1, (d.ELITES_DEAL_2,)),
]


@pytest.mark.parametrize(("hp", "attribute", "floor", "normal", "strong", "daggers", "variants"), CASES)
def test_fight_odds_equal_brute_force_enumeration(hp, attribute, floor, normal, strong, daggers, variants):
    o = fight_odds(hp, attribute, floor, normal, elite=strong, daggers=daggers, variants=variants)
    damage = 2 if d.ELITES_DEAL_2 in variants else 1
    expected = brute_force(hp, attribute, floor, normal, strong, plan_of(daggers), damage)
    assert o.hp == expected
    assert o.win + o.death == 1
    assert o.win == sum(p for h, p in expected.items() if h > 0)
    assert o.hp_left == sum(h * p for h, p in expected.items())


def test_a_lone_foe_matches_the_closed_form():
    # One Skeleton Warrior, HP h, pass chance p: the hero dies only after h fails in a row.
    for hp in range(1, 8):
        for attribute in range(-2, 5):
            p = Fraction(7 - max(2, min(6, 5 - attribute)), 6)
            o = fight_odds(hp, attribute, 1, 1)
            assert o.death == (1 - p) ** hp


def test_boss_and_elite_fight_alike_and_the_boss_comes_after_its_minions():
    assert fight_odds(5, 1, 2, 4, boss=True) == fight_odds(5, 1, 2, 4, elite=True)
    with pytest.raises(ValueError):
        fight_odds(5, 1, 2, 4, boss=True, elite=True)


def engine_odds(hp: int, attribute: int, floor: int, normal: int, elite: bool, plan: tuple[int, ...], variants=()):
    """Explore every die path through the real engine's fight, and weigh where each path ends."""
    out: dict[int, Fraction] = {}

    def explore(path: tuple[int, ...], weight: Fraction) -> None:
        state = make_state(variants)
        state.log.enabled = False
        rules.create_hero(state, "STR")
        state.game.attributes["STR"] = attribute
        rules.enter_floor(state, floor)
        t = state.trackers
        t.counters["hp"].value = t.counters["hp"].max = hp
        t.items.update({"dagger": sum(plan), "potion": 0})
        state.game.rooms = ["stairs"]  # so the turn asks, and the fight is the one we set up
        engine = play(state)
        request = next(engine)
        assert request.key == "turn"
        request = engine.send("new")
        request = engine.send(evaluate(DC, (1,), 0))  # room DC failed: an encounter
        count_face = {1: 1, 2: 3, 3: 5}[normal + elite]
        request = engine.send(evaluate(request.expr, (count_face,), 0))
        request = engine.send(evaluate(request.expr, (6 if elite else 1,), 0))
        request = engine.send("STR")
        rolls = 0
        i = 0
        while state.game.fight is not None and state.finished is None:
            if request.key == "combat.daggers":
                spend = plan[rolls] if rolls < len(plan) else 0
                request = engine.send(str(spend))
                continue
            if request.key == "level.attribute":
                request = engine.send("DEX")  # DEX is not the fighting attribute: the odds stay the same
                continue
            assert isinstance(request, RollRequest) and request.key == "combat.roll"
            if i == len(path):
                for face in range(1, 7):
                    explore((*path, face), weight / 6)
                return
            try:
                request = engine.send(evaluate(DC, (path[i],), request.mod))
            except StopIteration:  # the hero died: the engine is over
                request = None
            i += 1
            rolls += 1
        end = t.counters["hp"].value
        out[end] = out.get(end, Fraction(0)) + weight

    explore((), Fraction(1))
    return dict(sorted(out.items()))


@pytest.mark.parametrize(
    ("hp", "attribute", "floor", "normal", "elite", "plan", "variants"),
    [
        (2, 1, 1, 1, False, (), ()),
        (3, 0, 2, 1, True, (), ()),
        (2, 0, 1, 1, True, (), (d.ELITES_DEAL_2,)),
        (3, 1, 3, 2, False, (2, 1), ()),
    ],
)
def test_the_engine_fights_exactly_as_the_odds_say(hp, attribute, floor, normal, elite, plan, variants):
    expected = fight_odds(hp, attribute, floor, normal, elite=elite, daggers=plan, variants=variants)
    assert engine_odds(hp, attribute, floor, normal, elite, plan, variants) == expected.hp


def test_fight_text_and_names_follow_the_order_of_the_fight():
    f = Fight(2, "elite", killed=1)
    assert rules.foe_name(f, 1) == "Skeleton Warrior 1 of 2"
    assert rules.foe_name(f, 3) == "Lich (elite)"
    assert rules.fight_text(f) == "Mob 1 (killed) Mob 2 Mob 3 (elite)"
    assert rules.fight_text(f, dead=True) == "Mob 1 (killed) Mob 2 (alive) Mob 3 (elite) (alive)"
