"""The whole-fight chain (``odds/fight_chain.py``) against the rules' own round, situation by situation.

The chain enumerates a round once per *signature* (the flags, and the hits left where few enough to
matter in one round) and reuses it as a shift of the hit counts. Here every situation a fight can reach
is checked: the chain's round from it must equal :func:`odds.round_ends` (the step functions played
every possible way from that very situation), with bigger hit counts than the other odds tests use, so
the signatures' caps are crossed. The floats the table shows must equal the exact fractions.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from companion.games.adventure_in_the_dungeon import data as D
from companion.games.adventure_in_the_dungeon import odds as O
from companion.games.adventure_in_the_dungeon import rules as R
from companion.games.adventure_in_the_dungeon.odds import forward
from companion.games.adventure_in_the_dungeon.odds.fight_chain import T_ROUND, Chain


def _case(rng: random.Random) -> tuple[R.Model, R.Fight]:
    area = rng.choice(D.AREAS)
    maxh = (rng.randint(2, 6), rng.randint(1, 5), rng.randint(1, 5), rng.randint(1, 5))
    nums = R.Numbers(
        maxh,
        (4, rng.randint(5, 10), rng.randint(5, 10), rng.randint(6, 11)),
        (11, rng.randint(5, 9), rng.randint(5, 9), rng.randint(4, 8)),
    )
    variants = frozenset(rng.sample([R.GORGON_EACH, R.MAGIC_TWO_SKELETONS, R.FLEE_WITH_ALL], rng.randint(0, 2)))
    model = R.compile_model(area, nums, variants)
    hs = tuple(rng.randint(0, x - 1) if rng.random() < 0.6 else 0 for x in maxh)
    flags = {
        7: {"twine": rng.randint(0, 15)},
        8: {"para": rng.randint(0, 15), "cure": rng.random() < 0.3},
        10: {"lock": rng.randint(0, 15)},
        11: {"trap": rng.randint(0, 15)},
    }.get(area.number, {})
    s = R.settle(model, R.Fight(rng.randint(0, area.hits - 1), hs, **flags))  # type: ignore[arg-type]
    return model, s


def _norm(model: R.Model, n: R.Fight) -> tuple:
    """What a round start means, whatever its form: the hits of the living, their flags, the end."""
    live = R.alive(model, n)
    return (
        min(n.m, model.area.hits),
        tuple(n.hs[h] if live >> h & 1 else None for h in range(4)),
        n.twine & live,
        n.trap & live,
        n.para & live,
        n.lock & live,
        R.outcome(model, n),
    )


@pytest.mark.parametrize("seed", range(24))
def test_every_reachable_situations_round_is_the_rules_round(seed):
    rng = random.Random(seed)
    model, s = _case(rng)
    first = rng.random() < 0.7
    ch = Chain(model, first)
    start = ch.encode(R.begin_round(s))
    seen, todo = {start}, [start]
    while todo:
        key = todo.pop()
        st = ch.decode(key)
        if R.outcome(model, st):
            continue
        weights: dict[tuple, int] = {}  # out of T_ROUND
        for w, off, _, end in ch.kernel(st):
            n = ch.decode(key + off)
            assert end == R.outcome(model, n)
            what = _norm(model, n)
            weights[what] = weights.get(what, 0) + w
            if end is None and key + off not in seen:
                seen.add(key + off)
                todo.append(key + off)
        mine = {what: Fraction(w, T_ROUND) for what, w in weights.items()}
        rules: dict[tuple, Fraction] = {}
        for n, p in O.round_ends(model, st, first_strike=first).items():
            what = _norm(model, n)
            rules[what] = rules.get(what, 0) + p
        assert mine == rules, (model.area.number, st)


def _assert_the_same_figures(fast: O.FightOdds, exact: O.FightOdds) -> None:
    """The floats of every figure in detail are the exact fractions, to 1e-12."""
    pairs = [(fast.slain, exact.slain), (fast.wiped, exact.wiped), (fast.stuck, exact.stuck)]
    pairs += list(zip(fast.standing, exact.standing, strict=True))
    pairs += list(zip(fast.survivors, exact.survivors, strict=True))
    pairs.append((fast.hits_left, exact.hits_left))
    for f, x in pairs:
        assert f == pytest.approx(float(x), abs=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_the_tables_floats_are_the_exact_fractions(seed):
    rng = random.Random(100 + seed)
    model, s = _case(rng)
    exact = O.fight_odds(model, s, detail=True)
    fast = O.fight_odds(model, s, detail=True, exact=False)
    assert isinstance(fast.slain, float) and isinstance(exact.slain, Fraction)
    assert fast.states == exact.states
    _assert_the_same_figures(fast, exact)


def _dense_cases() -> list[tuple[int, R.Fight, str]]:
    """Fights from every point of a round, some with what a party carries in from earlier areas (a
    hero drowned, the cure spent, a hero still paralysed) or meets in the area (tentacles, webs,
    lock-outs)."""
    rng = random.Random(7)
    cases = []
    here = {7: {"twine": 0b0110}, 8: {"para": 0b1000}, 10: {"lock": 0b0011}, 11: {"trap": 0b0101}}
    for area in (1, 3, 6, 9, 13, 2, 5, 7, 8, 10, 11):
        for carried in ({}, {"dead": 0b0100, "cure": True}, {"para": 0b0010}, *([here[area]] if area in here else [])):
            hs = (rng.randint(0, 2), rng.randint(0, 1), 0, rng.randint(0, 1))
            at = ("start", "begun", "choice")[len(cases) % 3]
            m = max(0, next(a for a in D.AREAS if a.number == area).hits - 4)  # late in the fight: cheap
            cases.append((area, R.Fight(m, hs, **carried), at))  # type: ignore[arg-type]
    return cases


@pytest.mark.parametrize("area, s, at", _dense_cases())
def test_the_dense_pass_gives_the_exact_fractions(area, s, at):
    """The table's dense pass (flat lists of hit counts, one for each set of flags) runs everywhere but
    against the Remorhaz (whose lock-outs change on a round that stays on its level), and its floats
    are the exact fractions of the level pass, from the start of a round, a round begun and the
    choice, with the flags a party carries in (a hero paralysed dies if the Paladin falls with the
    cure unspent) or meets in the area."""
    nums = R.Numbers((3, 3, 2, 2), (4, 6, 5, 9), (11, 9, 10, 8))
    model = R.compile_model(next(a for a in D.AREAS if a.number == area), nums)
    s = R.settle(model, s)
    ch = O.chain(model)
    start = ch.encode(R.begin_round(s))
    dense = forward.dense_pass(ch, {start: 1.0}, T_ROUND)
    assert (dense is None) == (area == 10), "the dense pass runs but against the Remorhaz"
    exact = O.fight_odds(model, s, at=at, detail=True)
    fast = O.fight_odds(model, s, at=at, detail=True, exact=False)
    assert fast.states == exact.states > 0
    _assert_the_same_figures(fast, exact)


def test_too_many_sets_of_flags_for_the_dense_pass_fall_back_to_the_level_pass(monkeypatch):
    """Lists of every hit count for every set of flags met are capped (``DENSE_MAX`` entries in all):
    a fight that meets more sets of flags (the octopus entwines heroes in many ways) is counted by
    the level pass instead, with the same figures."""
    nums = R.Numbers((3, 3, 2, 2), (4, 6, 5, 9), (11, 9, 10, 8))
    model = R.compile_model(next(a for a in D.AREAS if a.number == 7), nums)
    s = R.Fight(4, (0, 0, 0, 0))
    ch = O.chain(model)
    start = ch.encode(R.begin_round(s))
    assert forward.dense_pass(ch, {start: 1.0}, T_ROUND) is not None
    wide = O.fight_odds(model, s, detail=True, exact=False)
    monkeypatch.setattr(forward, "DENSE_MAX", 2 * ch.flag_stride)  # room for two sets of flags only
    assert forward.dense_pass(ch, {start: 1.0}, T_ROUND) is None
    narrow = O.fight_odds(model, s, detail=True, exact=False)
    assert narrow.states == wide.states
    for f, x in [(narrow.slain, wide.slain), (narrow.wiped, wide.wiped), (narrow.hits_left, wide.hits_left)]:
        assert f == pytest.approx(x, abs=1e-12)


@pytest.mark.parametrize("area, s, at", _dense_cases())
def test_the_exact_dense_pass_gives_the_level_pass_fractions(area, s, at, monkeypatch):
    """Exact odds over flat lists (``forward.exact_dense_pass``, for the bigger fights) give the very
    fractions of the level pass, end situation by end situation, and summed by outcome alike; it runs
    but against the Remorhaz (#28). Here the small fights are made to take it too."""
    monkeypatch.setattr(forward, "EXACT_DENSE_MIN", 0)
    nums = R.Numbers((3, 3, 2, 2), (4, 6, 5, 9), (11, 9, 10, 8))
    model = R.compile_model(next(a for a in D.AREAS if a.number == area), nums)
    s = R.settle(model, s)
    if R.outcome(model, s):
        return
    ch = Chain(model)
    start = ch.encode(R.begin_round(s) if at == "start" else s)
    dense = forward.exact_dense_pass(ch, {start: Fraction(1)}, T_ROUND)
    if area == 10 or dense is None:
        assert area in (7, 10) and dense is None  # the Remorhaz's lock-outs; the octopus's tentacles
        return
    level = forward.level_pass(ch, [(start, None, Fraction(1))], True, T_ROUND)
    as_fractions = [{k: (o, Fraction(n, den)) for k, (o, n) in ends.items()} for ends, den, _ in (dense, level)]
    assert as_fractions[0] == as_fractions[1] and dense[2] == level[2]
    summed, den, _ = forward.exact_dense_pass(ch, {start: Fraction(1)}, T_ROUND, keys=False)
    by: dict[str, Fraction] = {}
    for o, p in as_fractions[1].values():
        by[o] = by.get(o, Fraction(0)) + p
    assert {o: Fraction(n, den) for o, n in summed.values()} == by


def test_a_fresh_fight_against_the_xorn_counts_the_same_fractions_over_lists():
    """The Xorn against the example log's house numbers: big enough for the exact dense pass as the
    table runs it, and the same fractions as the level pass."""
    nums = R.Numbers((9, 7, 8, 5), (4, 6, 5, 9), (11, 9, 10, 8))
    model = R.compile_model(next(a for a in D.AREAS if a.number == 9), nums)
    ch = Chain(model)
    start = ch.encode(R.begin_round(R.Fight(0, (0, 0, 0, 0))))
    assert ch.flag_stride >= forward.EXACT_DENSE_MIN
    dense = forward.exact_dense_pass(ch, {start: Fraction(1)}, T_ROUND)
    level = forward.level_pass(ch, [(start, None, Fraction(1))], True, T_ROUND)
    assert dense is not None
    assert {k: Fraction(n, dense[1]) for k, (_, n) in dense[0].items()} == {
        k: Fraction(n, level[1]) for k, (_, n) in level[0].items()
    }
