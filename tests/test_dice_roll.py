"""Faces read under each roll's rules: DC, EC, SR, DR, talisman, sums, comparisons, dt pools."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.dice.expr import TALISMAN, Expr, dc, parse, sr
from companion.dice.faces import D6, D10, DT, HEART, STAR, plain, read_face
from companion.dice.roll import check_modifier, evaluate, evaluate_total
from companion.errors import InputError

# --- Dice Check: 5+ passes, a natural 6 always passes, a natural 1 always fails ---------------


@pytest.mark.parametrize(("face", "passes"), [(1, False), (2, False), (3, False), (4, False), (5, True), (6, True)])
def test_dc_bare(face, passes):
    r = evaluate(dc(), (face,))
    assert r.success is passes
    assert r.total == face
    assert r.option is None


@pytest.mark.parametrize("mod", [0, 3, 4, 5, 10, 100, 10**6])
def test_dc_natural_1_fails_under_any_bonus(mod):
    r = evaluate(dc(), (1,), mod)
    assert r.success is False
    assert r.natural == 1
    assert r.total == 1 + mod  # the total still shows the sum; the rule decides


@pytest.mark.parametrize("mod", [0, -1, -4, -5, -10, -100, -(10**6)])
def test_dc_natural_6_passes_under_any_penalty(mod):
    r = evaluate(dc(), (6,), mod)
    assert r.success is True
    assert r.natural == 6
    assert r.total == 6 + mod


def test_dc_modifier_in_expression_and_on_top_add_up():
    r = evaluate(parse("DC+1"), (3,), 1)
    assert r.modifier == 2
    assert r.total == 5
    assert r.success is True
    r = evaluate(parse("DC-1"), (5,), 0)
    assert r.total == 4
    assert r.success is False


@pytest.mark.parametrize(("mod", "lowest_pass"), [(-10, 6), (-2, 6), (-1, 6), (0, 5), (1, 4), (2, 3), (3, 2), (9, 2)])
def test_dc_lowest_passing_face(mod, lowest_pass):
    passing = [f for f in range(1, 7) if evaluate(dc(), (f,), mod).success]
    assert passing == list(range(lowest_pass, 7))


@given(st.integers(-(10**9), 10**9))
def test_property_dc_natural_1_never_passes_natural_6_always_does(mod):
    assert evaluate(dc(), (1,), mod).success is False
    assert evaluate(dc(), (6,), mod).success is True
    assert evaluate(dc(mod), (1,)).success is False
    assert evaluate(dc(mod), (6,)).success is True


@given(st.integers(-50, 50), st.integers(-50, 50), st.integers(2, 5))
def test_property_dc_middle_faces_follow_the_total(const, mod, face):
    r = evaluate(dc(const), (face,), mod)
    assert r.success is (face + const + mod >= 5)


# --- Extra Check: a natural 6 only -------------------------------------------------------------


@pytest.mark.parametrize("face", range(1, 7))
def test_ec(face):
    r = evaluate(parse("EC"), (face,))
    assert r.success is (face == 6)


@pytest.mark.parametrize("kind", ["EC", "SR", "DR", "talisman"])
def test_modifier_refused_on_bare_rolls(kind):
    with pytest.raises(InputError, match="takes no modifier"):
        check_modifier(parse(kind), 1)
    check_modifier(parse(kind), 0)  # no modifier is fine


def test_modifier_accepted_on_dc_and_sums():
    check_modifier(dc(), -3)
    check_modifier(parse("2d6>=7"), 2)


# --- Split Roll: 1-2, 3-4, 5-6 ------------------------------------------------------------------


@pytest.mark.parametrize(("face", "option"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_split_roll_bands(face, option):
    r = evaluate(sr(), (face,))
    assert r.option == option
    assert r.option_name == str(option)
    assert r.success is None


@pytest.mark.parametrize(("face", "name"), [(1, "STR"), (2, "STR"), (3, "DEX"), (4, "DEX"), (5, "INT"), (6, "INT")])
def test_split_roll_named(face, name):
    r = evaluate(parse("SR STR,DEX,INT"), (face,))
    assert r.option_name == name


# --- Dice Roll: the bare face, for a table ------------------------------------------------------


@pytest.mark.parametrize("face", range(1, 7))
def test_dice_roll_is_the_face(face):
    r = evaluate(parse("DR events"), (face,))
    assert r.total == face
    assert r.success is None
    assert r.option is None


# --- Talisman: found on 12 only ------------------------------------------------------------------


@pytest.mark.parametrize("a", range(1, 7))
@pytest.mark.parametrize("b", range(1, 7))
def test_talisman_found_only_on_12(a, b):
    r = evaluate(TALISMAN, (a, b))
    assert r.total == a + b
    assert r.success is (a == b == 6)


@pytest.mark.parametrize(("total", "found"), [(12, True), (11, False), (2, False), (7, False)])
def test_talisman_total_only(total, found):
    assert evaluate_total(TALISMAN, total).success is found


# --- sums and comparisons ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "faces", "total", "success"),
    [
        ("2d6", (3, 5), 8, None),
        ("2d6+1", (3, 5), 9, None),
        ("1d6+3>=7", (4,), 7, True),
        ("1d6+3>=7", (3,), 6, False),
        ("1d6<=4", (4,), 4, True),
        ("1d6<=4", (5,), 5, False),
        ("1d10>=5", (5,), 5, True),
        ("1d10>=5", (4,), 4, False),
        ("1d10>=5", (10,), 10, True),
        ("2d6>7", (3, 4), 7, False),
        ("2d6<7", (3, 3), 6, True),
        ("2d6==7", (3, 4), 7, True),
        ("2d6-1d4", (6, 6, 4), 8, None),
        ("2d6-1d4", (1, 1, 4), -2, None),
        ("-1d6+10", (6,), 4, None),
        ("d6+d10+2", (6, 10), 18, None),
        ("d100", (100,), 100, None),
        ("d20", (20,), 20, None),
    ],
)
def test_sums(text, faces, total, success):
    r = evaluate(parse(text), faces)
    assert r.total == total
    assert r.success is success
    assert r.faces == faces
    assert r.hearts is None and r.stars is None


def test_sum_with_extra_modifier():
    r = evaluate(parse("1d6+3>=7"), (2,), 2)
    assert (r.modifier, r.total, r.success) == (5, 7, True)


@pytest.mark.parametrize(("face", "natural"), [(1, 1), (20, 20), (10, None)])
def test_natural_of_a_single_die(face, natural):
    assert evaluate(parse("d20"), (face,)).natural == natural


def test_no_natural_on_several_dice():
    assert evaluate(parse("2d6"), (6, 6)).natural is None
    assert evaluate(parse("2d6"), (1, 1)).natural is None


# --- Dark Tower: 1, 2, 3 count; ♥ and ★ count 0 and are tallied ----------------------------------


def test_dark_tower_faces_read():
    assert [DT.value(f) for f in range(1, 7)] == [1, 2, 3, 0, 0, 0]
    assert [DT.symbol(f) for f in range(1, 7)] == ["1", "2", "3", HEART, HEART, STAR]


@pytest.mark.parametrize(
    ("faces", "total", "hearts", "stars"),
    [
        ((1, 2, 3), 6, 0, 0),
        ((4, 5, 6), 0, 2, 1),
        ((1, 4, 6), 1, 1, 1),
        ((6, 6, 6, 6), 0, 0, 4),
        ((3, 3, 5, 4), 6, 2, 0),
    ],
)
def test_dark_tower_pool(faces, total, hearts, stars):
    r = evaluate(parse(f"{len(faces)}dt"), faces)
    assert (r.total, r.hearts, r.stars) == (total, hearts, stars)
    assert r.success is None
    assert r.natural is None


def test_dark_tower_pool_with_constant_and_comparison():
    r = evaluate(parse("3dt+2>=6"), (1, 2, 6))
    assert (r.total, r.hearts, r.stars, r.success) == (5, 0, 1, False)
    r = evaluate(parse("3dt+2>=6"), (1, 3, 6))
    assert (r.total, r.success) == (6, True)


def test_mixed_pool_counts_only_dark_tower_symbols():
    r = evaluate(parse("1dt+1d6"), (6, 6))
    assert (r.total, r.hearts, r.stars) == (6, 0, 1)


# --- totals stay within bounds ------------------------------------------------------------------


def _bounds(expr: Expr, modifier: int) -> tuple[int, int]:
    lo = hi = expr.const + modifier
    for t in expr.terms:
        values = [t.die.value(f) for f in range(1, t.die.sides + 1)]
        a, b = t.count * min(values), t.count * max(values)
        if t.sign < 0:
            a, b = -b, -a
        lo += a
        hi += b
    return lo, hi


_die = st.one_of(st.sampled_from([D6, D10, DT, plain(4), plain(20), plain(100)]), st.integers(2, 1000).map(plain))


@st.composite
def expr_and_faces(draw):
    terms = draw(st.lists(st.tuples(st.integers(1, 5), _die, st.sampled_from([1, -1])), min_size=1, max_size=4))
    text = ""
    for count, die, sign in terms:
        text += ("-" if sign < 0 else "+") + f"{count}{die.name}"
    const = draw(st.integers(-20, 20))
    expr = parse(f"{text.lstrip('+')}{const:+d}")
    faces = tuple(draw(st.integers(1, d.sides)) for d in expr.dice)
    return expr, faces


@given(expr_and_faces(), st.integers(-100, 100))
def test_property_totals_within_bounds(pair, modifier):
    expr, faces = pair
    r = evaluate(expr, faces, modifier)
    lo, hi = _bounds(expr, modifier)
    assert lo <= r.total <= hi
    assert r.total == expr.const + modifier + sum(
        sign * die.value(f)
        for (sign, die), f in zip([(t.sign, t.die) for t in expr.terms for _ in range(t.count)], faces, strict=True)
    )


def test_bounds_are_reached():
    e = parse("2d6-1d4+1")
    assert evaluate(e, (1, 1, 4)).total == _bounds(e, 0)[0] == -1
    assert evaluate(e, (6, 6, 1)).total == _bounds(e, 0)[1] == 12


# --- reading typed faces -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "text", "face"),
    [
        (D6, "1", 1),
        (D6, "6", 6),
        (D6, " 3 ", 3),
        (D6, "0", None),
        (D6, "7", None),
        (D6, "x", None),
        (D6, "", None),
        (D6, "-1", None),
        (D6, "2.0", None),
        (D6, "５", None),
        (D10, "0", 10),
        (D10, "10", 10),
        (D10, "1", 1),
        (D10, "11", None),
        (plain(100), "0", 100),
        (plain(100), "00", 100),
        (plain(100), "100", 100),
        (plain(100), "1", 1),
        (plain(100), "101", None),
        (plain(20), "0", None),
        (plain(20), "20", 20),
        (plain(20), "21", None),
    ],
)
def test_read_face_plain(die, text, face):
    assert read_face(die, text) == face


@pytest.mark.parametrize(
    ("text", "face"),
    [
        ("1", 1),
        ("2", 2),
        ("3", 3),
        ("4", 4),
        ("5", 5),
        ("♥", 4),
        ("h", 4),
        ("H", 4),
        ("heart", 4),
        ("Hearts", 4),
        ("6", 6),
        ("★", 6),
        ("*", 6),
        ("s", 6),
        ("star", 6),
        ("STARS", 6),
        ("0", None),
        ("7", None),
        ("x", None),
        ("", None),
    ],
)
def test_read_face_dark_tower(text, face):
    got = read_face(DT, text)
    assert got == face
    if face is not None:
        expected = {4: HEART, 5: HEART, 6: STAR}.get(face, str(face))
        assert DT.symbol(got) == expected
