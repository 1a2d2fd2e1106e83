"""The single-die fast path of the dice core gives exactly the records and the stream of the general path.

``VirtualDice.roll`` draws one die without building the dice tuple, and ``evaluate`` serves repeated
rolls of one to four dice from a cache. Both must be invisible: the same Roll, field for field, and the same
seeded stream, as the general code path (``faces`` then the uncached evaluation) gives.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import roll as roll_module
from companion.dice.expr import parse
from companion.dice.roll import evaluate
from companion.dice.source import VirtualDice

EXPRESSIONS = ["DC", "DC+2", "DC-3", "DR", "DR events", "EC", "SR", "SR STR,DEX,INT", "d20", "1d6+3>=7", "dt", "d%"]
MULTI = ["2d6", "3dt", "talisman", "d6+d10+2", "4dt+1"]
MODIFIABLE = {"DC", "DC+2", "DC-3", "d20", "1d6+3>=7", "dt", "d%", "2d6", "3dt", "d6+d10+2", "4dt+1"}


def general(dice: VirtualDice, expr, modifier, parts):
    """The general path, as it was before the fast path: every die through ``faces``, no cache."""
    return roll_module._evaluate(expr, dice.faces(expr), modifier, "virtual", parts)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    texts=st.lists(st.sampled_from(EXPRESSIONS + MULTI), min_size=1, max_size=30),
    modifier=st.integers(-4, 4),
)
def test_virtual_rolls_equal_the_general_path_and_draw_the_same_stream(seed, texts, modifier):
    fast, slow = VirtualDice(seed), VirtualDice(seed)
    for text in texts:
        expr = parse(text)
        mod = modifier if text in MODIFIABLE else 0
        parts = (("STR", mod),) if mod else ()
        assert fast.roll(expr, mod, parts) == general(slow, expr, mod, parts)
        assert fast.draws == slow.draws
    assert fast.rng.random() == slow.rng.random()  # the streams are at the same place


def test_a_cached_roll_is_equal_to_a_fresh_evaluation_for_every_face_and_source():
    roll_module._SINGLE.clear()
    for text in EXPRESSIONS:
        expr = parse(text)
        sides = expr.terms[0].die.sides
        for face in range(1, sides + 1):
            for source in ("virtual", "physical", "amended"):
                mod = 1 if text in MODIFIABLE else 0
                fresh = roll_module._evaluate(expr, (face,), mod, source, ())
                first = evaluate(expr, (face,), mod, source=source)
                again = evaluate(expr, (face,), mod, source=source)
                assert first == fresh and again is first


def test_equal_expressions_made_apart_share_nothing_but_still_agree():
    # Two equal Exprs (not the same object) and two equal parts tuples get their own cache entries.
    a, b = parse("DC+1"), parse("DC+1")
    pa, pb = (("DEX", 2),), tuple([("DEX", 2)])
    ra = evaluate(a, (4,), 2, parts=pa)
    rb = evaluate(b, (4,), 2, parts=pb)
    assert ra == rb and ra.expr is a and rb.expr is b and ra.success and ra.total == 7


def test_a_cached_roll_of_a_few_dice_is_equal_to_a_fresh_evaluation():
    roll_module._SMALL.clear()
    for text in ("2d6", "2d6>=7", "3dt", "d6+d10+2", "4dt+1"):
        expr = parse(text)
        dice = VirtualDice(7)
        for _ in range(60):
            faces = dice.faces(expr)
            for source in ("virtual", "physical"):
                mod = 1 if expr.kind not in roll_module.NO_MODIFIER else 0
                fresh = roll_module._evaluate(expr, faces, mod, source, ())
                first = evaluate(expr, faces, mod, source=source)
                assert first == fresh and evaluate(expr, faces, mod, source=source) is first
    five = parse("5d6")  # more dice than the cache keeps: evaluated afresh, the same record
    assert (
        evaluate(five, (1, 2, 3, 4, 5))
        == evaluate(five, (1, 2, 3, 4, 5))
        == roll_module._evaluate(five, (1, 2, 3, 4, 5), 0, "virtual", ())
    )


def test_the_cache_stays_bounded():
    roll_module._SINGLE.clear()
    expr = parse("d20")
    rng = random.Random(5)
    for _ in range(roll_module._SINGLE_LIMIT + 500):
        evaluate(expr, (rng.randint(1, 20),), 0, parts=(("x", rng.randint(-(10**6), 10**6)),))
    assert len(roll_module._SINGLE) <= roll_module._SINGLE_LIMIT
    roll_module._SMALL.clear()
    pair = parse("2d6")
    for _ in range(roll_module._SINGLE_LIMIT + 500):
        evaluate(pair, (rng.randint(1, 6), rng.randint(1, 6)), 0, parts=(("x", rng.randint(-(10**6), 10**6)),))
    assert len(roll_module._SMALL) <= roll_module._SINGLE_LIMIT
