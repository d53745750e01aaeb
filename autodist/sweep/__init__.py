"""Sensitivity sweeps (DDT §7): how the best mapping of a program depends on
the processor count and on the machine's parameters.

>>> planner = Planner(program, load_profile("machine_profiles/ddt1997.yaml"))
>>> axis = parse_vary("remote_access_time=1e-9:1e-3:log:25", planner.base)
>>> result = run_sweep(planner, (axis,), procs=16)
>>> [c.at for c in result.crossovers if c.solution_changes]   # ~2.97e-06 s/byte

One or two axes make a line or a grid of points (the first axis is the one
plotted and searched for crossovers, the second gives one line per value);
each point holds the best static and dynamic solution, their predicted times
and speedups over one processor of the same machine, and which is chosen.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable

from ..errors import UsageError
from ..machine import MachineProfile
from .axes import PROCS, Axis, numeric_keys, parse_vary, procs_axis, vary_profile
from .crossover import Crossover, find_crossovers
from .planner import Outcome, Planner, mapping_text
from .points import SweepPoint, evaluate_point


@dataclass(frozen=True)
class SweepResult:
    """The points of a sweep (second axis outer, first inner) and the
    crossovers along the first axis."""

    machine: MachineProfile
    axes: tuple[Axis, ...]
    procs: int | None  # the processor count when it is not an axis
    points: tuple[SweepPoint, ...]
    crossovers: tuple[Crossover, ...]

    @property
    def x(self) -> Axis:
        return self.axes[0]

    @property
    def y(self) -> Axis | None:
        return self.axes[1] if len(self.axes) > 1 else None

    def lines(self) -> list[tuple[tuple[tuple[str, float], ...], list[SweepPoint]]]:
        """The points per value of the second axis (one line for a 1-D
        sweep), each sorted along the first."""
        if self.y is None:
            return [((), list(self.points))]
        out = []
        for v in self.y.values:
            line = [p for p in self.points if p.value(self.y.key) == v]
            out.append((((self.y.key, v),), line))
        return out


def run_sweep(planner: Planner, axes: tuple[Axis, ...], procs: int | None = None, *,
              refine: bool = True, tolerance: float = 1e-3,
              progress: Callable[[], None] | None = None) -> SweepResult:
    """Evaluate every point of the grid, then find (and with ``refine``,
    bisect) the crossovers along the first axis.  ``procs`` is required
    unless ``procs`` is one of the axes; ``progress()`` is called after
    each grid point."""
    if not 1 <= len(axes) <= 2:
        raise UsageError("a sweep varies one or two quantities (the processor count counts as one)")
    if len({a.key for a in axes}) != len(axes):
        raise UsageError(f"--vary {axes[-1].key}: the same quantity is varied twice")
    has_procs = any(a.key == PROCS for a in axes)
    if not has_procs and procs is None:
        raise UsageError("a sweep needs a processor count (--procs)")
    fixed_procs = None if has_procs else int(procs)
    if not 0 < tolerance < 1:
        raise UsageError(f"--tolerance must be between 0 and 1, got {tolerance:g}")

    def point(values: dict[str, float]) -> SweepPoint:
        return evaluate_point(planner, axes, values, fixed_procs or 0)

    x = axes[0]
    y_values = axes[1].values if len(axes) > 1 else (None,)
    points: list[SweepPoint] = []
    for yv, xv in itertools.product(y_values, x.values):
        values = {x.key: xv}
        if yv is not None:
            values[axes[1].key] = yv
        points.append(point(values))
        if progress is not None:
            progress()
    result = SweepResult(planner.base, tuple(axes), fixed_procs, tuple(points), ())
    crossovers: list[Crossover] = []
    for fixed, line in result.lines():
        def at(v: float, fixed=fixed) -> SweepPoint:
            return point({x.key: v, **dict(fixed)})

        crossovers += find_crossovers(x, line, at, fixed, refine, tolerance)
    return SweepResult(planner.base, tuple(axes), fixed_procs, tuple(points), tuple(crossovers))


__all__ = [
    "Axis", "Crossover", "Outcome", "Planner", "SweepPoint", "SweepResult", "mapping_text",
    "numeric_keys", "parse_vary", "procs_axis", "run_sweep", "vary_profile", "PROCS",
]
