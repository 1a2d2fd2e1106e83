"""Where faces come from: seeded virtual dice (replayable, fair) or typed physical dice, checked."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.dice.expr import TALISMAN, dc, parse
from companion.dice.source import VirtualDice, new_seed, read_physical, total_note
from companion.errors import InputError

# --- virtual dice --------------------------------------------------------------------------------

EXPRS = [
    "DC",
    "EC",
    "SR STR,DEX,INT",
    "DR",
    "talisman",
    "2d6",
    "1d6+3>=7",
    "d20",
    "1d10>=5",
    "d%",
    "3dt",
    "4dt+2",
    "2d6-1d4",
    "d6+d10+2",
]


@given(
    st.integers(0, 2**63),
    st.lists(st.sampled_from(EXPRS), min_size=1, max_size=8),
    st.integers(-3, 3),
)
def test_property_same_seed_same_rolls(seed, texts, mod):
    a, b = VirtualDice(seed), VirtualDice(seed)
    for text in texts:
        e = parse(text)
        m = mod if e.kind in ("DC", "sum") else 0
        assert a.roll(e, m) == b.roll(e, m)
    assert a.draws == b.draws == sum(len(parse(t).dice) for t in texts)


@given(st.integers(0, 2**32))
def test_property_faces_are_in_range(seed):
    v = VirtualDice(seed)
    e = parse("d6+d10+d20+d100+2dt+1d2+1d1000")
    faces = v.faces(e)
    assert all(1 <= f <= d.sides for f, d in zip(faces, e.dice, strict=True))


def test_one_draw_per_die_and_d_shares_the_stream():
    a, b = VirtualDice(42), VirtualDice(42)
    faces = a.faces(parse("2d6+1d20"))
    assert faces == (b.d(6), b.d(6), b.d(20))
    assert a.draws == b.draws == 3


def test_skip_replays_a_stream():
    a, b = VirtualDice(7), VirtualDice(7)
    for _ in range(3):
        a.roll(parse("2d6"))
    b.skip(6)
    assert b.draws == a.draws == 6
    assert b.roll(parse("2d6")) == a.roll(parse("2d6"))
    assert a.draws == b.draws == 8


def test_state_round_trip():
    a = VirtualDice(9)
    a.roll(parse("3d6"))
    state, draws = a.getstate(), a.draws
    later = a.roll(parse("3d6"))
    b = VirtualDice(0)
    b.setstate(state, draws)
    assert b.roll(parse("3d6")) == later
    assert b.draws == a.draws


def test_virtual_source_and_seed_known_values():
    """The stream is random.Random(seed).random(), one draw per die (pinned so replays survive)."""
    r = random.Random(1)
    expected = tuple(int(r.random() * 6) + 1 for _ in range(2))
    roll = VirtualDice(1).roll(parse("2d6"))
    assert roll.faces == expected == (1, 6)
    assert roll.source == "virtual"


def test_virtual_roll_refuses_modifier_on_bare_roll():
    with pytest.raises(InputError):
        VirtualDice(1).roll(parse("EC"), 1)


def test_new_seed_is_a_non_negative_int():
    seeds = {new_seed() for _ in range(20)}
    assert all(isinstance(s, int) and 0 <= s < 10**9 for s in seeds)
    assert len(seeds) > 1


# --- fairness: a chi-square goodness-of-fit test with a fixed seed (deterministic) ---------------

#: Upper 0.1% points of the chi-square distribution (p = 0.001), by degrees of freedom.
CHI2_CRITICAL_P001 = {4: 18.467, 5: 20.515, 9: 27.877, 19: 43.820}


def _chi2_sf(x: float, df: int) -> float:
    """P(X > x) for chi-square with integer ``df``: Q(df/2, x/2) in closed form (stdlib only)."""
    y = x / 2
    if df % 2 == 0:
        term = total = math.exp(-y)
        for i in range(1, df // 2):
            term *= y / i
            total += term
        return total
    # odd df: Q(k + 1/2, y) = erfc(sqrt y) + e^-y * sum over j < k of y^(j + 1/2) / Gamma(j + 3/2)
    total = math.erfc(math.sqrt(y))
    term = math.sqrt(y) * math.exp(-y) / math.gamma(1.5)
    for j in range((df - 1) // 2):
        total += term
        term *= y / (j + 1.5)
    return total


@pytest.mark.parametrize("df", sorted(CHI2_CRITICAL_P001))
def test_critical_values_are_the_p001_points(df):
    assert _chi2_sf(CHI2_CRITICAL_P001[df], df) == pytest.approx(0.001, rel=1e-3)


def _chi2(counts: dict[object, int], probs: dict[object, float]) -> float:
    n = sum(counts.values())
    assert set(counts) <= set(probs)
    return sum((counts.get(k, 0) - n * p) ** 2 / (n * p) for k, p in probs.items())


def _sample(seed: int, text: str, rolls: int) -> dict[object, int]:
    v = VirtualDice(seed)
    e = parse(text)
    counts: dict[object, int] = {}
    for _ in range(rolls):
        for die, face in zip(e.dice, v.faces(e), strict=True):
            key = die.symbol(face)
            counts[key] = counts.get(key, 0) + 1
    return counts


FAIRNESS = [
    # (seed, pool rolled, rolls, category probabilities, degrees of freedom)
    (20240611, "10d6", 6_000, {str(f): 1 / 6 for f in range(1, 7)}, 5),
    (20240612, "10d10", 6_000, {str(f): 1 / 10 for f in range(1, 11)}, 9),
    (20240613, "10d20", 6_000, {str(f): 1 / 20 for f in range(1, 21)}, 19),
    (20240614, "10dt", 6_000, {"1": 1 / 6, "2": 1 / 6, "3": 1 / 6, "♥": 2 / 6, "★": 1 / 6}, 4),
]


@pytest.mark.parametrize(("seed", "pool", "rolls", "probs", "df"), FAIRNESS, ids=["d6", "d10", "d20", "dt"])
def test_virtual_dice_are_fair(seed, pool, rolls, probs, df):
    """60,000 dice of each kind from one fixed seed: deterministic, so it cannot flake."""
    assert len(probs) - 1 == df
    counts = _sample(seed, pool, rolls)
    assert sum(counts.values()) == rolls * 10
    stat = _chi2(counts, probs)
    assert stat < CHI2_CRITICAL_P001[df], (pool, stat, counts)


def test_fairness_check_catches_a_loaded_die():
    """The statistic is not vacuous: a d6 that turns a tenth of its 1s into 6s fails it."""
    seed, pool, rolls, probs, df = FAIRNESS[0]
    counts = _sample(seed, pool, rolls)
    assert _chi2(counts, probs) < CHI2_CRITICAL_P001[df]
    moved = counts["1"] // 10
    counts["1"] -= moved
    counts["6"] += moved
    assert _chi2(counts, probs) > CHI2_CRITICAL_P001[df]


# --- physical dice: typed, checked, one clear line when wrong ------------------------------------


@pytest.mark.parametrize(
    ("text", "got", "faces"),
    [
        ("DC", "5", (5,)),
        ("DC", " 5 ", (5,)),
        ("2d6", "3,5", (3, 5)),
        ("2d6", "3 5", (3, 5)),
        ("2d6", "3, 5", (3, 5)),
        ("2d6", "3;5", (3, 5)),
        ("1d10", "0", (10,)),
        ("d100", "00", (100,)),
        ("d100", "0", (100,)),
        ("3dt", "1,heart,star", (1, 4, 6)),
        ("3dt", "4 5 6", (4, 5, 6)),
        ("3dt", "♥,★,2", (4, 6, 2)),
        ("3dt", "h,s,*", (4, 6, 6)),
        ("2d6-1d4", "6,6,4", (6, 6, 4)),
        ("d6+d10", "6,0", (6, 10)),
        ("talisman", "6,6", (6, 6)),
    ],
)
def test_physical_faces(text, got, faces):
    r = read_physical(parse(text), got)
    assert r.faces == faces
    assert r.source == "physical"


def test_physical_dark_tower_reads_4_5_as_hearts_6_as_star():
    r = read_physical(parse("4dt"), "4,5,6,3")
    assert (r.total, r.hearts, r.stars) == (3, 2, 1)


def test_physical_keeps_the_rules():
    assert read_physical(dc(), "1", 10).success is False
    assert read_physical(dc(), "6", -10).success is True
    assert read_physical(TALISMAN, "6 6").success is True
    assert read_physical(TALISMAN, "6 5").success is False
    assert read_physical(parse("SR a,b,c"), "4").option_name == "b"


@pytest.mark.parametrize(
    ("text", "got", "total", "success"),
    [
        ("2d6", "=7", 7, None),
        ("2d6", "= 7", 7, None),
        ("2d6>=8", "=7", 7, False),
        ("2d6+1", "=7", 8, None),
        ("talisman", "=12", 12, True),
        ("talisman", "=11", 11, False),
        ("2d6-1d4", "=-2", -2, None),
        ("3d6", "=18", 18, None),
    ],
)
def test_physical_total_only(text, got, total, success):
    r = read_physical(parse(text), got)
    assert r.faces is None
    assert (r.total, r.success) == (total, success)
    assert r.source == "physical"


def test_a_bare_number_for_several_dice_is_their_total_as_at_the_prompt():
    """The command line and the prompt take the same inputs: ``7`` and ``=7`` are both the total."""
    for text in ("7", "=7", " = 7 "):
        roll = read_physical(parse("2d6"), text)
        assert roll.total == 7 and roll.faces is None
        assert total_note(roll) == "took 7 as the total of 2d6 (type each die, e.g. 3 4, to keep the faces)"
    assert total_note(read_physical(parse("2d6"), "7", 2)).startswith("took 7 as the total of 2d6")
    with pytest.raises(InputError, match="needs 2 values, got 1"):
        read_physical(parse("2d6"), "7", allow_total=False)


@pytest.mark.parametrize(
    ("text", "got", "pieces"),
    [
        ("DC", "7", ["'7' is not a face of a d6", "a d6 accepts a whole number from 1 to 6"]),
        ("DC", "0", ["'0' is not a face of a d6", "1 to 6"]),
        ("DC", "x", ["'x' is not a face of a d6", "1 to 6"]),
        ("2d6", "3,7", ["'7' is not a face of a d6", "1 to 6"]),
        ("2d6", "3 4 5", ["2d6 needs 2 values, got 3", "1 to 6", "one number for the total (7 or =7)"]),
        ("2d6", "=3 4", ["=TOTAL takes one number"]),
        ("2d6", "1,2,3", ["2d6 needs 2 values, got 3"]),
        ("DC", "3,4", ["DC (1d6) needs 1 value, got 2", "1 to 6"]),
        ("DC", "", ["no value given for DC (1d6)", "1 to 6"]),
        ("DC", "   ", ["no value given for DC (1d6)"]),
        ("2d6", "", ["no value given for 2d6", "1 to 6"]),
        ("1d10", "11", ["'11' is not a face of a d10", "1 to 10 (0 reads as 10)"]),
        ("d100", "101", ["'101' is not a face of a d100", "0 or 00 reads as 100"]),
        ("d20", "0", ["'0' is not a face of a d20", "1 to 20"]),
        ("3dt", "1,2,7", ["'7' is not a face of a dt", "♥", "★"]),
        ("3dt", "1,2", ["3dt needs 3 values, got 2"]),
        ("2d6", "=13", ["13 cannot be rolled on 2d6", "from 2 to 12"]),
        ("2d6", "=1", ["1 cannot be rolled on 2d6"]),
        ("2d6", "=x", ["'x' is not a total for 2d6", "from 2 to 12"]),
        ("2d6-1d4", "=12", ["12 cannot be rolled on 2d6 + 1d4", "from -2 to 11"]),
        ("talisman", "=13", ["13 cannot be rolled on 2d6"]),
        ("1d6", "=5", ["'=5' is not a face of a d6"]),
        ("3dt", "=3", ["3dt needs 3 values, got 1"]),
    ],
)
def test_physical_refusals_are_one_clear_line(text, got, pieces):
    with pytest.raises(InputError) as info:
        read_physical(parse(text), got)
    message = info.value.message
    assert "\n" not in message
    for piece in pieces:
        assert piece in message
    assert info.value.exit_code == 2


def test_physical_refuses_a_modifier_on_a_bare_roll_before_reading():
    with pytest.raises(InputError, match="takes no modifier"):
        read_physical(parse("EC"), "6", 1)


@given(st.integers(1, 6), st.integers(1, 6), st.integers(-20, 20))
def test_property_physical_equals_virtual_reading(a, b, mod):
    """Typed faces and drawn faces are read the same way: same faces, same roll but the source."""
    from companion.dice.roll import evaluate

    e = parse("2d6>=7")
    r = read_physical(e, f"{a},{b}", mod)
    assert r == evaluate(e, (a, b), mod, source="physical")
    assert read_physical(e, f"={a + b}", mod).total == r.total


@pytest.mark.parametrize(
    ("expr", "typed", "faces", "both"),
    [
        ("2d6", "53", ("5", "3"), False),  # no total of 53: the faces
        ("2d6", "12", None, True),  # a total of 12, or the dice 1 and 2: both readings said
        ("3d6", "464", ("4", "6", "4"), False),  # no total of 464: three faces, never 'two ways'
        ("3d6", "111", ("1", "1", "1"), False),
        ("3dt", "464", ("4", "6", "4"), False),  # Dark Tower dice have no total to type
    ],
)
def test_a_bare_line_of_one_digit_a_die_reads_as_the_faces_unless_it_is_also_a_total(expr, typed, faces, both):
    from companion.engine.pending import _read_faces
    from companion.engine.requests import RollRequest

    reading = _read_faces(RollRequest("k", parse(expr), "a roll"), typed)
    assert bool(reading.both) == both, reading
    if faces is not None:
        assert reading.words == faces and reading.ok
