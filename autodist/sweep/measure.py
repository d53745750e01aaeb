"""``sweep --measure``: run the solutions of the points that fit this machine
with the MPI runtime, next to the predictions (DDT Figure 9).

Every point whose processor count is at most ``max_procs`` (by default the
number of cores) is planned again, its static solution (and its dynamic one
when that remaps) is annotated and run (:mod:`autodist.measure`), and the
measured times and speedups (against the measured one-processor run) are set
beside the predicted ones.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..measure import SolutionMeasure, measure_solution


@dataclass(frozen=True)
class MeasuredPoint:
    values: tuple[tuple[str, float], ...]
    procs: int
    runs: tuple[SolutionMeasure, ...]

    def measured(self, kind: str) -> SolutionMeasure | None:
        return next((m for m in self.runs if m.kind == kind), None)


def measure_points(planner, result, include_dirs=(), timeout: float = 600.0,
                   max_procs: int | None = None) -> tuple[list[MeasuredPoint], float | None]:
    """Measured runs of the sweep's points that fit; also the measured time on
    one processor (the reference of measured speedups)."""
    limit = max_procs or os.cpu_count() or 1
    clock = planner.pipeline.clock
    out: list[MeasuredPoint] = []
    sequential: float | None = None
    done: dict[tuple, MeasuredPoint] = {}
    for point in result.points:
        if point.procs > limit:
            continue
        changes = {k: v for k, v in point.values if k not in ("procs", "processors")}
        key = (tuple(sorted(changes.items())), point.procs)
        if key in done:
            continue
        plan = planner.plan(changes, point.procs)
        kinds = ["static", "dynamic"] if plan.dynamic.remaps else ["static"]
        runs = tuple(measure_solution(plan, plan.solution(k), include_dirs, timeout, clock=clock) for k in kinds)
        done[key] = MeasuredPoint(point.values, point.procs, runs)
        out.append(done[key])
        if sequential is None:
            one = planner.plan(changes, 1)
            sequential = measure_solution(one, one.static, include_dirs, timeout, clock=clock).measured_total
    return out, sequential


def measured_table(points: list[MeasuredPoint], sequential: float | None) -> str:
    lines = [f"Measured on this machine (one processor: {sequential:.4g} s):" if sequential else "Measured:",
             f"  {'point':<28}{'static pred':>12}{'static meas':>12}{'S meas':>8}"
             f"{'dyn pred':>10}{'dyn meas':>10}{'S meas':>8}  elements"]
    for p in points:
        label = ", ".join(f"{k}={v:g}" for k, v in p.values) or f"procs={p.procs}"
        s, d = p.measured("static"), p.measured("dynamic")
        cells = ""
        for m, w in ((s, 12), (d, 10)):
            if m is None:
                cells += f"{'-':>{w}}{'-':>{w}}{'-':>8}"
            else:
                sp = sequential / m.measured_total if sequential and m.measured_total == m.measured_total else float("nan")
                cells += f"{m.predicted_total:>{w}.4g}{m.measured_total:>{w}.4g}{sp:>8.3g}"
        agree = all(m.elements_agree for m in p.runs if m.status == 0)
        failed = [m.message for m in p.runs if m.status != 0]
        note = "predicted = measured" if agree and not failed else ("run failed: " + failed[0] if failed else "differ")
        lines.append(f"  {label:<28}{cells}  {note}")
    return "\n".join(lines) + "\n"
