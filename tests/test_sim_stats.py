"""The simulator's 95% intervals: Wilson for proportions, Student t for means, from integer sums."""

from __future__ import annotations

import itertools
import math
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.sim.runner import HISTOGRAM, MEAN, RATE, Metric, Tally
from companion.sim.stats import Z95, mean_interval, t_quantile, t_within, wilson

#: Student's t at 0.975, as the printed tables give it (4 decimals).
T_TABLE = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 5: 2.5706, 10: 2.2281, 30: 2.0423, 100: 1.9840, 1000: 1.9623}


@pytest.mark.parametrize(("df", "expected"), sorted(T_TABLE.items()))
def test_t_quantiles_match_the_tables(df, expected):
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=6e-5)


def test_the_closed_form_t_cdf_is_a_cdf_and_tends_to_the_normal():
    for df in (1, 2, 3, 7, 8, 50):
        values = [t_within(x / 4, df) for x in range(0, 40)]
        assert values[0] == 0 and all(a < b for a, b in itertools.pairwise(values)) and values[-1] < 1
    # With many degrees of freedom P(|T| < 1.96) is the normal 95%.
    assert t_within(Z95, 400) == pytest.approx(0.95, abs=2e-3)
    assert t_quantile(0.975, 401) == pytest.approx(t_quantile(0.975, 400), abs=1e-4)  # the two methods meet


def test_wilson_intervals_match_known_values_and_stay_in_bounds():
    # Wilson (1927) score interval, z = 1.96: 0/10 → (0, 0.2775), 5/10 → (0.2366, 0.7634), 10/10 → (0.7225, 1).
    assert wilson(0, 10) == pytest.approx((0.0, 0.27753), abs=1e-5)
    assert wilson(5, 10) == pytest.approx((0.23659, 0.76341), abs=1e-5)
    assert wilson(10, 10) == pytest.approx((0.72247, 1.0), abs=1e-5)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(11, 10)


@given(st.integers(1, 10**6), st.data())
def test_a_wilson_interval_holds_the_observed_rate(n, data):
    k = data.draw(st.integers(0, n))
    lo, hi = wilson(k, n)
    assert 0 <= lo <= k / n <= hi <= 1


@given(st.lists(st.integers(-50, 500), min_size=2, max_size=200))
def test_the_mean_interval_is_the_t_interval_of_the_sample(values):
    n = len(values)
    mean, lo, hi = mean_interval(n, sum(values), sum(v * v for v in values))
    assert mean == pytest.approx(statistics.fmean(values))
    sd = statistics.stdev(values)
    half = t_quantile(0.975, n - 1) * sd / math.sqrt(n)
    assert lo == pytest.approx(mean - half, rel=1e-9, abs=1e-9)
    assert hi == pytest.approx(mean + half, rel=1e-9, abs=1e-9)


def test_a_single_value_or_equal_values_give_a_point():
    assert mean_interval(1, 7, 49) == (7.0, 7.0, 7.0)
    assert mean_interval(4, 12, 36) == (3.0, 3.0, 3.0)
    assert all(math.isnan(x) for x in mean_interval(0, 0, 0))


@given(st.lists(st.integers(0, 40), min_size=1, max_size=120), st.integers(1, 30))
def test_tallies_merged_in_any_chunks_give_the_same_sums(values, chunk):
    metrics = (Metric("x", "x", MEAN), Metric("h", "h", HISTOGRAM), Metric("r", "r", RATE))

    def figures(v: int) -> dict:
        return {"x": v, "h": v % 5, "r": v % 3 == 0}

    whole = Tally()
    for i, v in enumerate(values):
        whole.add_run(metrics, figures(v), i)
    merged = Tally()
    parts = [values[i : i + chunk] for i in range(0, len(values), chunk)]
    for start, part in reversed(list(zip(range(0, len(values), chunk), parts, strict=True))):  # any order
        t = Tally()
        for j, v in enumerate(part):
            t.add_run(metrics, figures(v), start + j)
        merged.merge(t)
    assert merged == whole
