"""Crossovers: where along an axis the chosen solution changes.

Between two neighbouring grid points whose chosen solution differs, the
change is located by bisection on the cost model: continuous parameters
until the bracket is narrower than a relative tolerance (in the axis' own
spacing: geometric for log axes); integer ones (processor counts) down to
two consecutive integers, giving the first value from which the other
solution wins.

Two kinds of change: static vs dynamic (a *crossover*: bisected on the
chosen kind alone), and, between neighbours that choose the same kind, a
change of the chosen mapping (bisected on the mapping).  A bracket holding
several changes is split until each has its own, within a budget of plans
per grid interval (:data:`MAX_EVALUATIONS`, :data:`MAX_MAPPING_EVALUATIONS`
for a change of mapping: near-ties between mappings can flip back and forth
many times); what the budget leaves is reported as a wider bracket.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .axes import Axis
from .points import SweepPoint

#: Plans at most per grid interval for a static/dynamic crossover (one change
#: across a decade to a relative 1e-3 needs ~12), and for a change of mapping.
MAX_EVALUATIONS = 40
MAX_MAPPING_EVALUATIONS = 16


@dataclass(frozen=True)
class Crossover:
    """A change of the chosen solution along ``key``.

    ``grid``: the two sweep values around it; ``below``/``above``: the
    points at the ends of the final bracket (the grid points when not
    bisected); ``at``: the value where it happens (integer axes: the first
    value with the new choice; continuous ones: the bracket's middle);
    ``refined``: the bracket is as narrow as asked (consecutive integers,
    or within the relative tolerance).  ``fixed``: the values of the other
    axis (2-D sweeps)."""

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


class _Budget:
    def __init__(self, limit: int):
        self.left = limit


def _split(axis: Axis, lo: SweepPoint, hi: SweepPoint, evaluate: Callable[[float], SweepPoint],
           tolerance: float, same: Callable[[SweepPoint, SweepPoint], bool],
           budget: _Budget) -> list[tuple[SweepPoint, SweepPoint]]:
    """The brackets of every change between ``lo`` and ``hi`` found by bisection."""
    if same(lo, hi):
        return []
    a, b = lo.value(axis.key), hi.value(axis.key)
    mid = axis.between(a, b)
    if budget.left <= 0 or axis.close(a, b, tolerance) or mid <= a or mid >= b:
        return [(lo, hi)]
    budget.left -= 1
    p = evaluate(mid)
    return (_split(axis, lo, p, evaluate, tolerance, same, budget)
            + _split(axis, p, hi, evaluate, tolerance, same, budget))


def _same_kind(p: SweepPoint, q: SweepPoint) -> bool:
    return p.chosen == q.chosen


def _same_regime(p: SweepPoint, q: SweepPoint) -> bool:
    return p.regime == q.regime


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
        if lo.chosen != hi.chosen:
            same, budget = _same_kind, _Budget(MAX_EVALUATIONS)
        else:
            same, budget = _same_regime, _Budget(MAX_MAPPING_EVALUATIONS)
        brackets = _split(axis, lo, hi, evaluate, tolerance, same, budget) if refine else [(lo, hi)]
        for below, above in brackets:
            a, b = below.value(axis.key), above.value(axis.key)
            at = b if axis.integer else axis.between(a, b)
            out.append(Crossover(axis.key, fixed, grid, below, above, at, axis.close(a, b, tolerance)))
    return out
