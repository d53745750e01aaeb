"""Statistics of the calibration: medians, spreads, the flop/access split."""

from __future__ import annotations

import pytest

from autodist.calibrate import split_compute, summarize


def test_summary_of_an_odd_count():
    s = summarize([5.0, 1.0, 4.0, 2.0, 3.0])
    assert (s.median, s.low, s.high, s.iqr, s.count) == (3.0, 1.0, 5.0, 2.0, 5)
    assert s.relative_iqr == pytest.approx(2 / 3)
    assert "median 3 s of 5 (min 1, max 5, IQR 66.7% of the median)" == s.text()


def test_summary_quantiles_interpolate_between_ranks():
    s = summarize([10.0, 1.0, 3.0, 2.0])
    assert s.median == 2.5 and s.iqr == pytest.approx(4.75 - 1.75)


def test_summary_needs_samples():
    with pytest.raises(ValueError):
        summarize([])


def test_split_recovers_exact_times():
    f, a = 2e-9, 1e-9
    kernels = [(3, 5, 3 * f + 5 * a), (1, 3, f + 3 * a), (0, 2, 2 * a), (5, 7, 5 * f + 7 * a)]
    s = split_compute(kernels)
    assert s.flop_time == pytest.approx(f, rel=1e-9) and s.access_time == pytest.approx(a, rel=1e-9)
    assert s.residual == pytest.approx(0, abs=1e-9)
    assert s.predict(3, 5) == pytest.approx(11e-9)


def test_two_kernels_are_solved_exactly():
    s = split_compute([(3, 5, 7.0), (1, 3, 3.0)])  # 3f + 5a = 7 and f + 3a = 3: f = 1.5, a = 0.5
    assert 3 * s.flop_time + 5 * s.access_time == pytest.approx(7.0)
    assert s.flop_time + 3 * s.access_time == pytest.approx(3.0)
    assert (s.flop_time, s.access_time) == (pytest.approx(1.5), pytest.approx(0.5))


def test_a_negative_time_is_clamped_to_the_best_fit_on_one_axis():
    # unconstrained: f + a = 1, 2f + a = 2.5 -> f = 1.5, a = -0.5; with a = 0 the
    # relative least squares give f = (1 + 0.8) / (1 + 0.64) = 45/41
    s = split_compute([(1, 1, 1.0), (2, 1, 2.5)])
    assert s.access_time == 0.0 and s.flop_time == pytest.approx(45 / 41)
    assert s.residual > 0


def test_split_needs_two_kernels():
    with pytest.raises(ValueError):
        split_compute([(1, 1, 1.0)])


def test_latency_unit_is_the_time_beyond_the_throughput_per_unit():
    from autodist.calibrate.fit import latency_unit

    assert latency_unit([(1e-9, 6, 1e-9 + 6 * 5e-10), (2e-9, 1, 2e-9 + 5e-10)]) == pytest.approx(5e-10)
    assert latency_unit([(3e-9, 2, 2e-9)]) == 0.0  # faster than its throughput: not below 0
    assert latency_unit([]) == 0.0
