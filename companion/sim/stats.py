"""95% confidence intervals for the simulator's figures, in plain Python (no numpy or scipy at run time).

- A proportion (the win rate, the share of deaths on floor 3) gets the **Wilson score interval**. It
  stays inside 0..1 and behaves well near 0 and 1, where the plain normal interval does not (a win
  rate of 0 in 1,000 runs is not "exactly 0").
- A mean (the floor reached, the rooms, the XP) gets the **Student t interval**, mean ± t(0.975, n−1)
  × s / √n, with s the sample standard deviation. With thousands of runs t is the normal quantile
  1.96 to three decimals; for a small ``--runs`` it widens as it should.

The sums are kept as integers (every figure of a run is a whole number), so splitting the runs into
chunks, over any number of processes, gives exactly the same interval.
"""

from __future__ import annotations

import math
from statistics import NormalDist

#: The two-sided 95% level.
LEVEL = 0.95
_Q = 1 - (1 - LEVEL) / 2
#: The normal quantile for 95%: 1.959963984540054.
Z95 = NormalDist().inv_cdf(_Q)


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` out of ``n`` (``(0, 1)`` when ``n`` is 0)."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError("successes must be between 0 and n")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo, hi = centre - half, centre + half
    # At 0 or n successes one end is exactly 0 or 1; rounding must not push it past.
    return (0.0 if successes == 0 else max(0.0, lo), 1.0 if successes == n else min(1.0, hi))


def t_within(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with a whole number of degrees of freedom, in closed form.

    With θ = atan(t/√df): for odd df, 2/π (θ + sin θ (cos θ + 2/3 cos³θ + ...)); for even df,
    sin θ (1 + 1/2 cos²θ + 1·3/(2·4) cos⁴θ + ...), each series having (df − 1) // 2 terms
    (Abramowitz & Stegun 26.7.3-4).
    """
    theta = math.atan(t / math.sqrt(df))
    s, c = math.sin(theta), math.cos(theta)
    c2 = c * c
    if df % 2:
        if df == 1:
            return 2 * theta / math.pi
        term = total = c
        for k in range(3, df - 1, 2):  # the coefficients 2/3, 2·4/(3·5), ...
            term *= c2 * (k - 1) / k
            total += term
        return 2 / math.pi * (theta + s * total)
    term = total = 1.0
    for k in range(2, df - 1, 2):  # the coefficients 1/2, 1·3/(2·4), ...
        term *= c2 * (k - 1) / k
        total += term
    return s * total


#: Past this many degrees of freedom the series below is exact to 1e-9 and the closed form is slow.
_EXACT_DF = 400


def t_quantile(p: float, df: int) -> float:
    """Student's t quantile for ``p`` > 0.5: the closed-form CDF solved by bisection up to 400
    degrees of freedom, the Cornish-Fisher series (Abramowitz & Stegun 26.7.5) beyond."""
    if df < 1:
        raise ValueError("a t quantile needs at least 1 degree of freedom")
    if not 0.5 < p < 1:
        raise ValueError("p must be between 0.5 and 1")
    if df <= _EXACT_DF:
        want = 2 * p - 1  # P(|T| < t)
        lo, hi = 0.0, 1.0
        while t_within(hi, df) < want:
            hi *= 2
        for _ in range(100):
            mid = (lo + hi) / 2
            if t_within(mid, df) < want:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2
    z = NormalDist().inv_cdf(p)
    v = float(df)
    z2 = z * z
    g1 = (z2 + 1) * z / 4
    g2 = ((5 * z2 + 16) * z2 + 3) * z / 96
    g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384
    g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160
    return z + g1 / v + g2 / v**2 + g3 / v**3 + g4 / v**4


def mean_interval(n: int, total: int, squares: int) -> tuple[float, float, float]:
    """(mean, low, high) of ``n`` whole numbers with this ``total`` and sum of ``squares``.

    One value, or values that are all equal, give a zero-width interval at the mean.
    """
    if n <= 0:
        return (math.nan, math.nan, math.nan)
    mean = total / n
    if n == 1:
        return (mean, mean, mean)
    # The variance from integer sums, exactly: (n·Σx² − (Σx)²) / (n(n−1)).
    spread = n * squares - total * total
    if spread <= 0:
        return (mean, mean, mean)
    sd = math.sqrt(spread / (n * (n - 1)))
    half = t_quantile(_Q, n - 1) * sd / math.sqrt(n)
    return (mean, mean - half, mean + half)
