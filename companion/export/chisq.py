"""The chi-square test the dice audit needs: the statistic and its p-value, in the standard library.

The p-value of a chi-square statistic ``x`` with ``k`` degrees of freedom is the survival function
``Q(k/2, x/2)``, the regularized upper incomplete gamma function. scipy has it, but scipy (with
numpy) is tens of megabytes and ~300 ms to import for one function of a few lines, so it is computed
here with the classic series and continued fraction (Numerical Recipes, 3rd ed., §6.2), to about
1e-12 relative accuracy. ``tests/test_dice_audit.py`` checks it against a table of reference values
and against the closed forms for even degrees of freedom. See docs/dice.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

_EPS = 1e-15
_TINY = 1e-300
_MAX_ITER = 10_000


def _lower_series(a: float, x: float) -> float:
    """P(a, x) by its power series (converges fast for x < a + 1)."""
    term = total = 1.0 / a
    ap = a
    for _ in range(_MAX_ITER):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction, modified Lentz (converges fast for x >= a + 1)."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_ITER):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a), for a > 0, x >= 0."""
    if a <= 0 or x < 0:
        raise ValueError("gamma_q needs a > 0 and x >= 0")
    if x == 0:
        return 1.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _lower_series(a, x))
    return _upper_fraction(a, x)


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square distributed with ``dof`` degrees of freedom."""
    if dof < 1:
        raise ValueError("a chi-square test needs at least one degree of freedom")
    return gamma_q(dof / 2.0, max(0.0, x) / 2.0)


def statistic(counts: Sequence[int], probabilities: Sequence[float]) -> float:
    """Pearson's chi-square statistic of ``counts`` against the expected ``probabilities``."""
    n = sum(counts)
    return sum((c - n * p) ** 2 / (n * p) for c, p in zip(counts, probabilities, strict=True))


def p_value(counts: Sequence[int], probabilities: Sequence[float]) -> float:
    """The goodness-of-fit p-value of ``counts`` against ``probabilities`` (k - 1 degrees of freedom)."""
    return chi2_sf(statistic(counts, probabilities), len(counts) - 1)
