"""From raw timings to profile values: medians with their spread, and the
split of compute time into time per flop and time per memory access."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median


@dataclass(frozen=True)
class Summary:
    """Repeated measurements of one quantity: the median is what is reported."""

    median: float
    low: float
    high: float
    iqr: float  # interquartile range
    count: int

    @property
    def relative_iqr(self) -> float:
        return self.iqr / self.median if self.median > 0 else 0.0

    def text(self, unit: str = "s") -> str:
        return (f"median {self.median:.4g} {unit} of {self.count} (min {self.low:.4g}, max {self.high:.4g}, "
                f"IQR {100 * self.relative_iqr:.1f}% of the median)")


def _quantile(sorted_values: list[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def summarize(samples: list[float]) -> Summary:
    if not samples:
        raise ValueError("no measurements to summarize")
    s = sorted(samples)
    return Summary(median(s), s[0], s[-1], _quantile(s, 0.75) - _quantile(s, 0.25), len(s))


@dataclass(frozen=True)
class Split:
    """Compute time per element = ``flops * flop_time + accesses * access_time``."""

    flop_time: float
    access_time: float
    residual: float  # root-mean-square relative error of the fit over the kernels
    floored: bool = False  # flop_time not measured but set to a share of access_time (see .profile)

    def predict(self, flops: float, accesses: float) -> float:
        return flops * self.flop_time + accesses * self.access_time


def split_compute(kernels: list[tuple[float, float, float]]) -> Split:
    """Least-squares fit, with both times >= 0, of kernels given as
    ``(flops, accesses, seconds per element)``; each kernel weighs by its
    relative error (the fit minimizes ``sum ((predicted - t) / t)^2``)."""
    if len(kernels) < 2:
        raise ValueError("splitting compute time needs at least two kernels")
    rows = [(f / t, a / t) for f, a, t in kernels]  # scaled so that the target is 1

    def solve_one(col: int) -> float:
        num = sum(r[col] for r in rows)
        den = sum(r[col] ** 2 for r in rows)
        return max(num / den, 0.0) if den > 0 else 0.0

    sff = sum(r[0] * r[0] for r in rows)
    saa = sum(r[1] * r[1] for r in rows)
    sfa = sum(r[0] * r[1] for r in rows)
    sf = sum(r[0] for r in rows)
    sa = sum(r[1] for r in rows)
    det = sff * saa - sfa * sfa
    f = a = -1.0
    if det > 1e-12 * max(sff * saa, 1e-300):
        f = (sf * saa - sa * sfa) / det
        a = (sa * sff - sf * sfa) / det
    if f < 0 or a < 0:  # the best non-negative fit lies on an axis
        cands = [(solve_one(0), 0.0), (0.0, solve_one(1))]
        f, a = min(cands, key=lambda c: sum((r[0] * c[0] + r[1] * c[1] - 1) ** 2 for r in rows))
    residual = math.sqrt(sum((r[0] * f + r[1] * a - 1) ** 2 for r in rows) / len(rows))
    return Split(f, a, residual)


def latency_unit(loops: list[tuple[float, float, float]]) -> float:
    """Seconds per latency unit of a recurrence chain, from loops given as
    ``(predicted seconds per element without the chain, chain units, measured
    seconds per element)``: the least-squares fit of ``t - predicted = chain *
    unit`` weighted by relative error, not below 0."""
    rows = [(c / t, 1 - p / t) for p, c, t in loops if t > 0 and c > 0]
    den = sum(c * c for c, _ in rows)
    return max(sum(c * r for c, r in rows) / den, 0.0) if den > 0 else 0.0
