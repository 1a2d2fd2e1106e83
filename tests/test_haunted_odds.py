"""Exact Haunted Tower odds, checked against brute force and against icepool's absorbing chains."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from companion.games.haunted_tower.data.monsters import EFFECT_DAMAGE, MONSTERS, Monster
from companion.games.haunted_tower.odds import (
    duel,
    duel_ends,
    duel_text,
    hit_chance,
    initiative_chance,
    run_chance,
)

icepool = pytest.importorskip("icepool")


# ---- one roll, by enumeration ------------------------------------------------------------------


@pytest.mark.parametrize(("attack", "ac"), [(a, c) for a in range(-3, 12) for c in range(0, 14)])
def test_hit_chance_is_the_share_of_d6_faces_that_hit(attack, ac):
    assert hit_chance(attack, ac) == Fraction(sum(1 for f in range(1, 7) if f + attack >= ac), 6)


@pytest.mark.parametrize("att", range(0, 13))
def test_run_chance_is_the_share_of_d10_faces_at_or_above_the_attack(att):
    assert run_chance(att) == Fraction(sum(1 for f in range(1, 11) if f >= att), 10)


@pytest.mark.parametrize("key", ["ghoul", "pit-viper", "zombie"])
def test_initiative_with_ties_rolled_again(key):
    m = MONSTERS[key]
    if m.initiative == "last":
        assert initiative_chance(m) == 1
        return
    bonus = m.initiative_bonus
    wins = sum(1 for h, x in product(range(1, 7), repeat=2) if h > x + bonus)
    losses = sum(1 for h, x in product(range(1, 7), repeat=2) if h < x + bonus)
    assert initiative_chance(m) == Fraction(wins, wins + losses)
    assert initiative_chance(MONSTERS["pit-viper"]) == Fraction(10, 31)


# ---- whole duels, against an independent model solved by icepool ---------------------------------

_POS = {"round": "R", "hero-first": "H1", "hero-last": "H2", "monster-first": "M1", "monster-last": "M2"}


def oracle(
    monster: Monster,
    *,
    hero_hp: int,
    hero_attack: int,
    hero_ac: int,
    hero_damage: int,
    monster_hp: int | None = None,
    run_at: int = 0,
    items: int = 0,
    drained: bool = False,
    slowed: bool = False,
    turn: str = "round",
    free_attack: bool = True,
    keep_hp: bool = False,
) -> dict:
    """The duel written again from the rulebook, one die at a time, and solved by icepool: how it
    ends → chance, or with ``keep_hp`` (how it ends, the hero's HP then) → chance."""
    d6, d10 = icepool.d6, icepool.d10
    bonus = 1 if monster.initiative == "+1" else 0
    drains = monster.on_hit in ("drain", "double-drain")
    table = {t: eff for lo, hi, eff in monster.table for t in range(lo, hi + 1)}

    def end(what: str, h: int = 0) -> tuple:
        return ("end", what, h if keep_hp else 0, 0, 0, 0, 0)

    def step(state: tuple) -> object:
        pos, h, m, pen, may, slow, it = state
        if pos == "end":
            return state
        if pos == "R":
            if monster.initiative == "last":
                return ("H1", h, m, pen, may, slow, it)

            def init(a: int, b: int) -> tuple:
                if a == b + bonus:
                    return state  # a tie: roll again
                return ("H1" if a > b + bonus else "M1", h, m, pen, may, slow, it)

            return icepool.map(init, d6, d6)
        if pos in ("H1", "H2"):
            nxt = "M2" if pos == "H1" else "R"
            if run_at and h <= run_at:

                def run(r: int) -> tuple:
                    if r >= monster.att:
                        return end("escape", h)
                    if pos == "H2":
                        return ("MX" if free_attack else "R", h, m, pen, may, slow, it)
                    return ("M2", h, m, pen, may, slow, it)

                return d10.map(run)
            att = hero_attack - pen - (2 if slow else 0)

            def attack(r: int) -> tuple:
                if r + att >= monster.ac and hero_damage > 0:
                    if m - hero_damage <= 0:
                        return end("win", h)
                    return (nxt, h, m - hero_damage, pen, may, 0, it)
                return (nxt, h, m, pen, may, 0, it)

            return d6.map(attack)
        nxt = "H2" if pos == "M1" else "R"

        def effect(eff: str) -> tuple:
            if eff == "steal":
                return (nxt, h, m, pen, may, slow, it - 1) if it > 0 else end("away", h)
            if eff == "rust":
                return (nxt, h, m, pen, may, slow, it)
            if eff == "stone":
                return end("fall")
            nh = h - EFFECT_DAMAGE[eff]
            npen, nmay = (pen + 1, 0) if drains and may else (pen, may)
            if nh <= 0:
                return end("fall")
            return (nxt, nh, m, npen, nmay, 1 if (slow or eff == "slow") else 0, it)

        def monster_attack(r: int) -> object:
            if r + monster.att < hero_ac:
                return (nxt, h, m, pen, may, slow, it)
            if table:
                return d10.map(lambda t: effect(table[t]))
            return effect(monster.on_hit)

        return d6.map(monster_attack)

    pos = {**_POS, "monster-extra": "MX"}[turn]
    m_hp = monster.hp if monster_hp is None else monster_hp
    start = icepool.Die([(pos, hero_hp, m_hp, 0, 0 if drained else 1, 1 if slowed else 0, items)])
    result = start.map(step, repeat="inf")
    total = result.denominator()
    if keep_hp:
        return {(o[1], o[2]): Fraction(q, total) for o, q in result.items()}
    return {outcome[1]: Fraction(q, total) for outcome, q in result.items()}


CASES = [
    ("dire-wolf", {}),
    ("ghoul", {}),
    ("basilisk", {"hero_attack": 5}),
    ("black-widow-spider", {"hero_hp": 3}),
    ("bone-golem", {"hero_attack": 6, "hero_ac": 8}),
    ("carrion-crawler", {}),
    ("carrion-crawler", {"slowed": True, "turn": "hero-last"}),
    ("pit-viper", {"run_at": 2}),
    ("robber-fly", {"items": 2}),
    ("rust-monster", {"hero_attack": 4}),
    ("wight", {}),
    ("wraith", {"drained": True, "monster_hp": 2}),
    ("vampire", {"hero_attack": 5, "run_at": 2, "free_attack": False}),
    ("specter", {"hero_attack": 6, "run_at": 3}),
    ("specter", {"hero_attack": 6, "run_at": 6, "turn": "hero-last"}),
    ("zombie", {"run_at": 5}),
    ("giant-rat", {"turn": "monster-first", "hero_hp": 1}),
    ("gargoyle", {"hero_damage": 0, "run_at": 6}),
]


@pytest.mark.parametrize(("key", "kw"), CASES, ids=[f"{k}-{i}" for i, (k, _) in enumerate(CASES)])
def test_duel_matches_an_independent_model(key, kw):
    args = {"hero_hp": 6, "hero_attack": 3, "hero_ac": 5, "hero_damage": 1, **kw}
    exact = duel(MONSTERS[key], **args)
    expected = oracle(MONSTERS[key], **args)
    assert exact.as_dict() == {k: expected.get(k, Fraction(0)) for k in exact.as_dict()}
    assert sum(exact.as_dict().values()) == 1


@pytest.mark.parametrize(("key", "kw"), CASES, ids=[f"{k}-{i}" for i, (k, _) in enumerate(CASES)])
def test_duel_ends_with_the_heroes_hp_match_the_independent_model(key, kw):
    """The whole distribution (how it ends, the hero's HP then) that companion odds fight charts."""
    args = {"hero_hp": 6, "hero_attack": 3, "hero_ac": 5, "hero_damage": 1, **kw}
    assert dict(duel_ends(MONSTERS[key], **args)) == oracle(MONSTERS[key], **args, keep_hp=True)


def test_a_fight_nobody_can_end_is_reported_as_endless():
    # the hero cannot hurt the gargoyle without magic, and it cannot hit AC 12; nobody runs
    odds = duel(MONSTERS["gargoyle"], hero_hp=6, hero_attack=3, hero_ac=12, hero_damage=0)
    assert odds.endless == 1
    assert duel_text(odds) == "no end 100.0%"


def test_the_rust_monster_cannot_make_the_hero_fall():
    odds = duel(MONSTERS["rust-monster"], hero_hp=1, hero_attack=2, hero_ac=1, hero_damage=1)
    assert odds.win == 1 and odds.fall == 0


def test_a_small_case_worked_by_hand():
    """A giant rat (HP 1, Att 1, AC 5) against a hero with HP 1, Att 3, AC 5, hit 1.

    The hero hits on 2+ (5/6); the rat hits on 4+ (1/2); each goes first half the time.
    From a round: hero first → win 5/6, else the rat: falls 1/2 → 1/12 fall; back 1/12.
    Rat first → fall 1/2, else the hero wins 5/6 → win 5/12; back 1/12.
    So win = (5/12 + 5/24) / (1 - 1/12) = 15/22 and fall = (1/24 + 1/4) / (11/12) = 7/22.
    """
    odds = duel(MONSTERS["giant-rat"], hero_hp=1, hero_attack=3, hero_ac=5, hero_damage=1)
    assert (odds.win, odds.fall) == (Fraction(15, 22), Fraction(7, 22))
