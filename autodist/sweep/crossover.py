"""Crossovers: where along an axis the chosen solution changes.

Between two neighbouring grid points whose chosen solution differs (static
vs dynamic, or another mapping), the change is located by bisection on the
cost model: continuous parameters until the bracket is narrower than a
relative tolerance (in the axis' own spacing: geometric for log axes);
integer ones (processor counts) down to two consecutive integers, giving the
first value from which the other solution wins.  A bracket holding several
changes is split until each has its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .axes import Axis
from .points import SweepPoint

#: Bisection steps at most per change (a relative tolerance of 1e-3 needs ~10).
MAX_STEPS = 60


@dataclass(frozen=True)
class Crossover:
    """A change of the chosen solution along ``key``.

    ``grid``: the two sweep values around it; ``below``/``above``: the
    points at the ends of the final bracket (equal to the grid points when
    not refined); ``at``: the value where it happens (integer axes: the
    first value with the new choice; continuous ones: the bracket's middle).
    ``fixed``: the values of the other axis (2-D sweeps)."""

    key: str
    fixed: tuple[tuple[str, float], ...]
    grid: tuple[float, float]
    below: SweepPoint
    above: SweepPoint
    at: float
    refined: bool

    @property
    def solution_changes(self) -> bool:
        """True for a static/dynamic crossover, False when only the chosen
        mapping changes."""
        return self.below.chosen != self.above.chosen

    @property
    def bracket(self) -> tuple[float, float]:
        return self.below.value(self.key), self.above.value(self.key)


def _split(axis: Axis, lo: SweepPoint, hi: SweepPoint, evaluate: Callable[[float], SweepPoint],
           tolerance: float, steps: int) -> list[tuple[SweepPoint, SweepPoint]]:
    """The brackets of every change between ``lo`` and ``hi`` found by bisection."""
    if lo.regime == hi.regime:
        return []
    a, b = lo.value(axis.key), hi.value(axis.key)
    mid = axis.between(a, b)
    if steps >= MAX_STEPS or axis.close(a, b, tolerance) or mid <= a or mid >= b:
        return [(lo, hi)]
    p = evaluate(mid)
    return _split(axis, lo, p, evaluate, tolerance, steps + 1) + _split(axis, p, hi, evaluate, tolerance, steps + 1)


def find_crossovers(axis: Axis, line: list[SweepPoint], evaluate: Callable[[float], SweepPoint],
                    fixed: tuple[tuple[str, float], ...] = (), refine: bool = True,
                    tolerance: float = 1e-3) -> list[Crossover]:
    """The changes along one line of points (sorted by ``axis``);
    ``evaluate(value)`` makes the point at another value of the axis on the
    same line (used only when ``refine``)."""
    out: list[Crossover] = []
    for lo, hi in zip(line, line[1:]):
        if lo.regime == hi.regime or (lo.chosen == hi.chosen and 1 in (lo.procs, hi.procs)):
            continue  # on one processor every mapping is the same: not a change of mapping
        grid = (lo.value(axis.key), hi.value(axis.key))
        brackets = _split(axis, lo, hi, evaluate, tolerance, 0) if refine else [(lo, hi)]
        for below, above in brackets:
            a, b = below.value(axis.key), above.value(axis.key)
            at = b if axis.integer else axis.between(a, b)
            out.append(Crossover(axis.key, fixed, grid, below, above, at, refine))
    return out
