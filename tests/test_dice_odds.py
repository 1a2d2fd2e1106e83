"""Exact odds, checked against icepool (a test-only oracle that computes dice odds exactly)."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice.expr import TALISMAN, Expr, dc, parse, sr
from companion.dice.odds import (
    MAX_SUPPORT,
    dc_chance,
    dc_faces_needed,
    dt_pool,
    odds,
    percent,
    sum_counts,
    target_text,
)
from companion.dice.roll import evaluate
from companion.errors import InputError

#: The Dark Tower die as icepool sees it: the number each face adds, and its (sum, ♥, ★) vector.
DT_VALUE = icepool.Die([1, 2, 3, 0, 0, 0])
DT_VECTOR = icepool.Die([icepool.Vector(v) for v in [(1, 0, 0), (2, 0, 0), (3, 0, 0), (0, 1, 0), (0, 1, 0), (0, 0, 1)]])


def oracle_die(expr: Expr) -> icepool.Die:
    """The distribution of ``expr``'s total (with its own constant), built by icepool."""
    total = icepool.Die([expr.const])
    for term in expr.terms:
        one = DT_VALUE if term.die.custom else icepool.d(term.die.sides)
        pool = term.count @ one
        total = total + pool if term.sign > 0 else total - pool
    return total


def oracle_totals(die: icepool.Die, shift: int = 0) -> dict[int, Fraction]:
    n = die.denominator()
    return {int(o) + shift: Fraction(q, n) for o, q in die.items() if q}


def nonzero(d: dict) -> dict:
    return {k: v for k, v in d.items() if v}


# --- sums with comparisons, generated ------------------------------------------------------------

_small_die = st.sampled_from(["d2", "d3", "d4", "d6", "d8", "d10", "d12", "d20", "dt", "d%"])


@st.composite
def check_text(draw):
    terms = draw(st.lists(st.tuples(st.integers(1, 4), _small_die, st.sampled_from("+-")), min_size=1, max_size=3))
    text = "".join(f"{sign}{n}{die}" for n, die, sign in terms).lstrip("+")
    const = draw(st.integers(-10, 10))
    if const:
        text += f"{const:+d}"
    if draw(st.integers(0, 4)):  # mostly with a comparison
        text += draw(st.sampled_from([">=", "<=", "==", ">", "<"])) + str(draw(st.integers(-30, 60)))
    return text


_ICEPOOL_OP = {">=": ">=", "<=": "<=", "==": "==", ">": ">", "<": "<"}


@settings(max_examples=120, deadline=None)
@given(check_text(), st.integers(-6, 6))
def test_sum_odds_match_icepool(text, modifier):
    e = parse(text)
    o = odds(e, modifier)
    die = oracle_die(e)
    assert nonzero(o.totals) == oracle_totals(die, modifier)
    assert sum(o.totals.values()) == 1
    if e.op is None:
        assert o.success is None
    else:
        expected = (die + modifier).probability(_ICEPOOL_OP[e.op], e.target)
        assert o.success == expected


@pytest.mark.parametrize(
    ("text", "p"),
    [
        ("2d6>=7", Fraction(7, 12)),
        ("2d6>=9", Fraction(5, 18)),
        ("1d6+3>=7", Fraction(1, 2)),
        ("1d6<=4", Fraction(2, 3)),
        ("1d10>=5", Fraction(3, 5)),
        ("d20>=11", Fraction(1, 2)),
        ("d100<=5", Fraction(1, 20)),
        ("2d6-1d4>=5", None),  # checked against icepool below
    ],
)
def test_known_check_odds(text, p):
    e = parse(text)
    expected = oracle_die(e).probability(_ICEPOOL_OP[e.op], e.target)
    assert odds(e).success == expected
    if p is not None:
        assert expected == p


def test_big_sums_match_icepool():
    for text in ["10d6>=35", "3d100-2d20>=120", "6dt+3d10>=20", "20d20<=200"]:
        e = parse(text)
        die = oracle_die(e)
        o = odds(e)
        assert nonzero(o.totals) == oracle_totals(die)
        assert o.success == die.probability(_ICEPOOL_OP[e.op], e.target)


# --- the named rolls ------------------------------------------------------------------------------


@pytest.mark.parametrize("modifier", range(-8, 9))
def test_dc_odds_match_icepool(modifier):
    d6 = icepool.d6
    passes = d6.map(lambda f: f == 6 or (f != 1 and f + modifier >= 5))
    expected = passes.probability(True)
    assert dc_chance(modifier) == expected
    o = odds(dc(), modifier)
    assert o.success == expected
    assert o.totals == oracle_totals(d6, modifier)
    # the same odds whether the modifier is written in the expression or given on top
    assert odds(dc(modifier)).success == expected


@given(st.integers(-(10**6), 10**6))
def test_property_dc_odds_agree_with_the_rule(modifier):
    passing = sum(1 for f in range(1, 7) if evaluate(dc(), (f,), modifier).success)
    assert dc_chance(modifier) == Fraction(passing, 6)
    assert Fraction(1, 6) <= dc_chance(modifier) <= Fraction(5, 6)
    assert 2 <= dc_faces_needed(modifier) <= 6


def test_dc_plus_2_is_two_thirds():
    assert odds(dc(), 2).success == Fraction(2, 3)
    assert odds(parse("DC+2")).success == Fraction(2, 3)
    assert odds(parse("DC+1"), 1).success == Fraction(2, 3)


def test_ec_odds():
    o = odds(parse("EC"))
    assert o.success == icepool.d6.probability(6) == Fraction(1, 6)
    assert o.target == "a natural 6"


def test_sr_odds():
    o = odds(sr("STR", "DEX", "INT"))
    assert o.success is None
    assert o.options == {k: (icepool.d6.map(lambda f: (f + 1) // 2)).probability(k) for k in (1, 2, 3)}
    assert set(o.options.values()) == {Fraction(1, 3)}


def test_talisman_odds():
    o = odds(TALISMAN)
    assert o.success == (2 @ icepool.d6).probability(12) == Fraction(1, 36)
    assert o.target == "12"


def test_dr_odds_are_the_bare_die():
    assert odds(parse("DR events")).totals == oracle_totals(icepool.d6)


@pytest.mark.parametrize("kind", ["EC", "SR", "DR", "talisman"])
def test_odds_refuse_a_modifier_on_bare_rolls(kind):
    with pytest.raises(InputError):
        odds(parse(kind), 1)


def test_odds_refuse_huge_sums_in_one_line():
    with pytest.raises(InputError, match="too many totals") as info:
        odds(parse(f"100d{MAX_SUPPORT // 50}"))
    assert "\n" not in info.value.message


# --- Dark Tower pools: joint (sum, ♥, ★) and each marginal ---------------------------------------


@pytest.mark.parametrize("count", range(1, 7))
def test_dt_pool_joint_matches_icepool(count):
    joint = count @ DT_VECTOR
    n = joint.denominator()
    expected = {tuple(int(x) for x in v): Fraction(q, n) for v, q in joint.items()}
    assert dt_pool(count) == expected


@pytest.mark.parametrize("count", range(1, 7))
@pytest.mark.parametrize(
    ("index", "face_die"),
    [
        (0, DT_VALUE),
        (1, icepool.Die([0, 0, 0, 1, 1, 0])),
        (2, icepool.Die([0, 0, 0, 0, 0, 1])),
    ],
    ids=["sum", "hearts", "stars"],
)
def test_dt_pool_marginals_match_icepool(count, index, face_die):
    marginal: dict[int, Fraction] = {}
    for key, p in dt_pool(count).items():
        marginal[key[index]] = marginal.get(key[index], 0) + p
    assert marginal == oracle_totals(count @ face_die)


@pytest.mark.parametrize("count", range(1, 7))
def test_dt_sum_odds_match_icepool(count):
    o = odds(parse(f"{count}dt"))
    assert nonzero(o.totals) == oracle_totals(count @ DT_VALUE)


# --- words and percentages ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "modifier", "words"),
    [
        ("DC", 0, "5+"),
        ("DC", 2, "3+"),
        ("DC", 3, "2+"),
        ("DC", 10, "2+"),
        ("DC", -1, "6+"),
        ("DC", -2, "a natural 6"),
        ("EC", 0, "a natural 6"),
        ("talisman", 0, "12"),
        ("2d6>=9", 0, "9+"),
        ("1d6<=4", 0, "4 or less"),
        ("2d6>7", 0, "more than 7"),
        ("2d6<7", 0, "less than 7"),
        ("2d6==7", 0, "exactly 7"),
        # A target no roll meets keeps the number asked (not the most the dice show); one every roll
        # meets reads as the least the dice show.
        ("3dt>20", 0, "more than 20"),
        ("2d6>=14", 0, "14+"),
        ("2d6<=1", 0, "1 or less"),
        ("2d6<1", 0, "less than 1"),
        ("2d6>=1", 0, "2+"),
        ("2d6<=13", 0, "12 or less"),
        ("3dt>-4", 0, "more than -1"),
        ("2d6", 0, None),
        ("SR", 0, None),
    ],
)
def test_target_text(text, modifier, words):
    assert target_text(parse(text), modifier) == words


def test_percent():
    assert percent(Fraction(2, 3)) == "66.7%"
    assert percent(Fraction(1, 36)) == "2.8%"
    assert percent(Fraction(1)) == "100.0%"


def test_sum_counts_are_integers_over_all_outcomes():
    counts, n = sum_counts(parse("2d6-1d4"))
    assert n == 6 * 6 * 4
    assert sum(counts.values()) == n
    assert min(counts) == -2 and max(counts) == 11
