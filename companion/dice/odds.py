"""Exact odds of a roll, as fractions. Never sampled.

Distributions are counted with integers (how many of the ``sides ** n`` equally likely outcomes give
each total) and only turned into :class:`~fractions.Fraction` at the end, so the figures are exact
and fast: convolving with a uniform die is a sliding window sum.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from companion.dice.expr import DC_TARGET, Expr
from companion.dice.faces import Die
from companion.dice.roll import check_modifier, compare
from companion.dice.targets import target_text
from companion.errors import InputError

#: Odds of sums whose distribution would have more entries than this are refused (one line).
MAX_SUPPORT = 20_000


@dataclass(frozen=True, slots=True)
class Odds:
    """The exact odds of one roll.

    ``success`` is the chance to pass (None for rolls that do not pass or fail); ``totals`` the chance
    of each total after the modifier; ``options`` the chance of each Split Roll option.
    """

    expr: Expr
    modifier: int
    success: Fraction | None
    totals: dict[int, Fraction]
    options: dict[int, Fraction]
    target: str | None


def dc_faces_needed(modifier: int) -> int | None:
    """The lowest face that passes a DC with this modifier (6 at worst, 2 at best)."""
    return max(2, min(6, DC_TARGET - modifier))


def dc_chance(modifier: int) -> Fraction:
    """P(pass) of a Dice Check: a natural 6 always passes, a natural 1 always fails."""
    return Fraction(7 - dc_faces_needed(modifier), 6)  # type: ignore[operator]


def _uniform(counts: dict[int, int], die: Die, sign: int) -> dict[int, int]:
    """Convolve a count distribution with one die (uniform faces, or the Dark Tower's values)."""
    if die.custom:
        values: dict[int, int] = {}
        for face in range(1, die.sides + 1):
            v = sign * die.value(face)
            values[v] = values.get(v, 0) + 1
        out: dict[int, int] = {}
        for total, c in counts.items():
            for v, k in values.items():
                out[total + v] = out.get(total + v, 0) + c * k
        return out
    if sign < 0:  # old - f == -((-old) + f)
        flipped = _uniform({-t: c for t, c in counts.items()}, die, 1)
        return {-t: c for t, c in flipped.items()}
    lo = min(counts)
    hi = max(counts)
    dense = [counts.get(t, 0) for t in range(lo, hi + 1)]
    s = die.sides
    prefix = [0]
    for c in dense:
        prefix.append(prefix[-1] + c)
    out: dict[int, int] = {}
    for j in range(len(dense) + s - 1):
        # the new total lo + 1 + j collects old totals lo + j - s + 1 .. lo + j
        c = prefix[min(len(dense), j + 1)] - prefix[max(0, j - s + 1)]
        if c:
            out[lo + 1 + j] = c
    return out


def sum_counts(expr: Expr) -> tuple[dict[int, int], int]:
    """Counts of each numeric total (before modifiers) and the number of equally likely outcomes."""
    support = 1
    lo_hi = 0
    for term in expr.terms:
        lo_hi += term.count * term.die.sides
    if lo_hi > MAX_SUPPORT:
        from companion.i18n import _, number

        raise InputError(
            _("{dice} has too many totals for exact odds (at most {n})").format(
                dice=expr, n=number(MAX_SUPPORT, group=True)
            )
        )
    counts = {0: 1}
    for term in expr.terms:
        for _ in range(term.count):
            counts = _uniform(counts, term.die, term.sign)
            support *= term.die.sides
    return counts, support


def odds(expr: Expr, modifier: int = 0) -> Odds:
    """The exact odds of ``expr`` rolled with an extra ``modifier``."""
    check_modifier(expr, modifier)
    mod = expr.const + modifier
    target = target_text(expr, modifier)
    if expr.kind == "DC":
        p = dc_chance(mod)
        totals = {f + mod: Fraction(1, 6) for f in range(1, 7)}
        return Odds(expr, modifier, p, totals, {}, target)
    if expr.kind == "EC":
        return Odds(expr, modifier, Fraction(1, 6), {f: Fraction(1, 6) for f in range(1, 7)}, {}, target)
    if expr.kind == "SR":
        third = Fraction(1, 3)
        return Odds(
            expr, modifier, None, {f: Fraction(1, 6) for f in range(1, 7)}, {1: third, 2: third, 3: third}, target
        )
    counts, n = sum_counts(expr)
    totals = {t + mod: Fraction(c, n) for t, c in sorted(counts.items())}
    success = None
    if expr.op is not None:
        good = sum(c for t, c in counts.items() if compare(t + mod, expr.op, expr.target))  # type: ignore[arg-type]
        success = Fraction(good, n)
    return Odds(expr, modifier, success, totals, {}, target)


def dt_pool(count: int) -> dict[tuple[int, int, int], Fraction]:
    """Joint odds of (numeric sum, hearts, stars) for ``count`` Dark Tower dice."""
    dist: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    step = [(1, 0, 0), (2, 0, 0), (3, 0, 0), (0, 1, 0), (0, 1, 0), (0, 0, 1)]
    for _ in range(count):
        nxt: dict[tuple[int, int, int], int] = {}
        for (s, h, st), c in dist.items():
            for ds, dh, dst in step:
                key = (s + ds, h + dh, st + dst)
                nxt[key] = nxt.get(key, 0) + c
        dist = nxt
    total = 6**count
    return {k: Fraction(c, total) for k, c in sorted(dist.items())}


def percent(p: Fraction) -> str:
    """A chance as a percentage with one decimal, for display beside the fraction.

    A possible outcome never reads 0.0% (``<0.1%``, e.g. 1/7776), nor one short of certain 100.0%
    (``>99.9%``): the same rule as the fight charts (``companion.sim.fights.share_text``)."""
    from companion.i18n import percent as shown

    if 0 < p < Fraction(1, 2000):
        return shown(0.1, sign="<")
    if 1 - Fraction(1, 2000) < p < 1:
        return shown(99.9, sign=">")
    return shown(float(p) * 100)
