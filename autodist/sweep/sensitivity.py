"""What would change the decision: the assumptions it rests on and, for each,
the nearest values on either side of the one used at which the best mapping
changes (``autodist explain``, "what would change it").

An assumption is a quantity the prediction takes as given: a parameter of the
machine profile (the remote access time, the time per flop...), the processor
count, the trip count assumed for loops whose bounds are unknown
(``default_trip_count``, what ``--trip-count`` sets) and the probability assumed
for branches that cannot be decided (``branch_probability``).  Each is examined
as a one-quantity sweep (:func:`autodist.sweep.run_sweep`) over a grid around
the value used — three decades either side for times, two for trip counts, the
whole of [0, 1] for probabilities, powers of two up to four times the
processor count — and the change of decision nearest that value on each side
is bisected by the sweep's own crossover search
(:func:`autodist.sweep.crossover.find_crossovers`), so the value reported is
the one ``autodist sweep`` finds over the same bracket.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from ..errors import AutodistError, UsageError
from ..machine import MAX_PROCESSORS, MAX_TRIP_COUNT, MachineProfile
from . import SweepResult, run_sweep
from .axes import PROCS, Axis, vary_profile
from .crossover import Crossover, find_crossovers
from .planner import Planner
from .points import SweepPoint, evaluate_point

#: Decades examined either side of a time (or bandwidth) and of a trip count.
TIME_DECADES = 3
TRIP_DECADES = 2
#: Grid points per decade (log grids).
PER_DECADE = 2
#: Ranges examined for a time whose value is 0 (nothing to scale from).
ZERO_RANGES = {
    "latency": (1e-8, 1e-2),
    "parallel_overhead": (1e-8, 1e-2),
    "memory_access_time": (1e-11, 1e-5),
    "remote_access_time": (1e-12, 1e-4),
}
#: What each examinable quantity stands for (the report's wording).
MEANINGS = {
    PROCS: "the processor count",
    "remote_access_time": "seconds per byte accessed remotely (linear model)",
    "latency": "seconds per message",
    "bandwidth": "bytes per second",
    "flop_time": "seconds per floating-point operation",
    "memory_access_time": "seconds per local array access",
    "recurrence_time": "seconds per latency unit of a loop-carried chain of operations",
    "parallel_overhead": "seconds to start a parallel loop",
    "default_trip_count": "trips assumed for a loop whose bounds are unknown (--trip-count)",
    "branch_probability": "probability assumed for a branch that cannot be decided",
}
#: Quantities of the analysis (the rest are machine parameters).
ANALYSIS = ("default_trip_count", "branch_probability")


@dataclass(frozen=True)
class Sensitivity:
    """One assumption examined: the grid around its value (``result``, whose
    crossovers are the refined changes nearest the value: ``below`` and
    ``above``, None where the decision holds to the end of the grid)."""

    key: str
    current: float
    result: SweepResult
    below: Crossover | None
    above: Crossover | None

    @property
    def axis(self) -> Axis:
        return self.result.x

    @property
    def flips(self) -> tuple[Crossover, ...]:
        return tuple(c for c in (self.below, self.above) if c is not None)

    @property
    def matters(self) -> bool:
        """Whether the predicted cost of the best solution moves at all over the grid."""
        totals = [p.best.total for p in self.result.points]
        return bool(max(totals) - min(totals) > 1e-12 * max(max(totals), 1e-300))

    @property
    def span(self) -> tuple[float, float]:
        return self.axis.values[0], self.axis.values[-1]


def _clean(v: float) -> float:
    return float(f"{v:.12g}")


def _valid(base: MachineProfile, key: str, values) -> list[float]:
    out = []
    for v in values:
        try:
            vary_profile(base, {key: int(v) if key == "default_trip_count" else v})
        except AutodistError:
            continue
        out.append(v)
    return out


def assumption_axis(key: str, base: MachineProfile, procs: int) -> Axis:
    """The grid examined for ``key`` around its value on ``base`` (and ``procs``)."""
    if key == PROCS:
        values, p = {float(procs)}, 1
        while p <= min(4 * procs, MAX_PROCESSORS):
            values.add(float(p))
            p *= 2
        return Axis(PROCS, tuple(sorted(values)), "lin", True)
    if key not in MEANINGS:
        raise UsageError(f"--assumptions: '{key}' cannot be examined (known: {', '.join(sorted(MEANINGS))})")
    v = getattr(base, key)
    if key == "branch_probability":
        grid = {k / 10 for k in range(11)} | {float(v)}
        return Axis(key, tuple(sorted(grid)), "lin", False)
    if key == "default_trip_count":
        steps = range(-TRIP_DECADES * PER_DECADE, TRIP_DECADES * PER_DECADE + 1)
        grid = {float(min(max(1, round(v * 10 ** (k / PER_DECADE))), MAX_TRIP_COUNT)) for k in steps} | {float(v)}
        return Axis(key, tuple(sorted(grid)), "log", True)
    if v > 0:
        steps = range(-TIME_DECADES * PER_DECADE, TIME_DECADES * PER_DECADE + 1)
        grid = {_clean(v * 10 ** (k / PER_DECADE)) for k in steps} | {float(v)}
    else:
        lo, hi = ZERO_RANGES.get(key, (1e-9, 1e-3))
        n = round(math.log10(hi / lo))
        grid = {0.0} | {_clean(lo * 10 ** k) for k in range(n + 1)}
    return Axis(key, tuple(sorted(_valid(base, key, grid))), "log", False)


def default_keys(base: MachineProfile, unknown_trips: bool, branches: bool) -> tuple[str, ...]:
    """The assumptions worth examining: the processor count, the movement
    parameters of the profile's model, the compute parameters, and the trip
    count and branch probability when the program leaves some to them."""
    movement = ("remote_access_time",) if base.communication_model == "linear" else ("latency", "bandwidth")
    keys = (PROCS,) + movement + ("flop_time", "memory_access_time", "parallel_overhead")
    keys += ("recurrence_time",) if base.recurrence_time > 0 else ()
    return keys + (("default_trip_count",) if unknown_trips else ()) + (("branch_probability",) if branches else ())


def _nearest(crossovers, current: float) -> tuple[Crossover | None, Crossover | None]:
    below = [c for c in crossovers if c.grid[1] <= current]
    above = [c for c in crossovers if c.grid[0] >= current]
    return (max(below, key=lambda c: c.grid[1]) if below else None,
            min(above, key=lambda c: c.grid[0]) if above else None)


def examine(planner: Planner, key: str, procs: int, *, tolerance: float = 1e-3,
            progress: Callable[[], None] | None = None) -> Sensitivity:
    """The nearest changes of the best mapping either side of ``key``'s value."""
    axis = assumption_axis(key, planner.base, procs)
    fixed_procs = None if key == PROCS else procs
    current = float(procs) if key == PROCS else float(getattr(planner.base, key))

    def at(v: float) -> SweepPoint:
        if progress is not None:
            progress()
        return evaluate_point(planner, (axis,), {key: v}, fixed_procs or 0)

    grid = run_sweep(planner, (axis,), fixed_procs, refine=False, tolerance=tolerance, progress=progress)
    # on one processor every mapping is the same: a change from there is no change of decision
    near = _nearest([c for c in grid.crossovers if key != PROCS or c.grid[0] > 1], current)
    refined: list[Crossover | None] = []
    for side, c in zip(("below", "above"), near):
        if c is None:
            refined.append(None)
            continue
        found = find_crossovers(axis, [c.below, c.above], at, (), True, tolerance)
        refined.append((found[-1] if side == "below" else found[0]) if found else c)
    flips = tuple(c for c in refined if c is not None)
    result = SweepResult(grid.machine, grid.axes, grid.procs, grid.points, flips)
    return Sensitivity(key, current, result, refined[0], refined[1])


def grid_size(key: str, base: MachineProfile, procs: int) -> int:
    """Points of the grid examined for ``key`` (for progress bars)."""
    return len(assumption_axis(key, base, procs).values)


__all__ = ["ANALYSIS", "MEANINGS", "Sensitivity", "assumption_axis", "default_keys", "examine", "grid_size"]
