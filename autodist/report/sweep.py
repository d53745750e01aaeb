"""The report of ``autodist sweep``: a table, CSV, JSON and crossover sentences."""

from __future__ import annotations

import csv
import io
from typing import Any

from ..sweep import PROCS, Crossover, SweepPoint, SweepResult
from ..sweep.axes import Axis
from ..sweep.planner import Outcome

#: CSV columns after the varied quantities (and ``procs``), in order.
CSV_COLUMNS = (
    "sequential_s", "static_s", "dynamic_s", "static_speedup", "dynamic_speedup",
    "chosen", "chosen_s", "chosen_speedup", "chosen_mapping", "static_mapping", "dynamic_mapping",
    "static_computation_s", "static_movement_s",
    "dynamic_computation_s", "dynamic_movement_s", "dynamic_remapping_s", "dynamic_remaps",
)


def _axis(result: SweepResult, key: str) -> Axis:
    return next(a for a in result.axes if a.key == key)


def _where(result: SweepResult, fixed: tuple[tuple[str, float], ...]) -> str:
    """``on 16 processors`` / ``with message latency 2 us``: what a
    crossover's line holds fixed."""
    procs = result.procs if result.procs is not None else dict(fixed).get(PROCS)
    others = [_axis(result, k).phrase(v) for k, v in fixed if k != PROCS]
    parts = ([f"on {int(procs)} processors"] if procs is not None else []) + (
        ["with " + ", ".join(others)] if others else [])
    return " ".join(parts)


def crossover_text(result: SweepResult, c: Crossover) -> str:
    """``static wins above 2.97 us/byte (dynamic below) at 16 processors``,
    ``dynamic pays from 6 processors (static at 5; swept: 4 and 8)``."""
    axis = _axis(result, c.key)
    old, new = c.below, c.above
    a, b = c.bracket
    if c.solution_changes:
        verb = "pays" if new.chosen == "dynamic" else "wins"
        if axis.integer:
            text = f"{new.chosen} {verb} from {axis.format(c.at)} ({old.chosen} at {int(a)}"
            text += f"; swept: {int(c.grid[0])} and {int(c.grid[1])})" if c.refined and (a, b) != c.grid else ")"
        elif c.refined:
            text = f"{new.chosen} {verb} above {axis.format(c.at)} ({old.chosen} below)"
        else:
            text = f"{new.chosen} {verb} above a {axis.label} between {axis.format(a)} and {axis.format(b)}"
    else:
        what = f"the chosen {new.chosen} mapping changes from {old.best.mapping} to {new.best.mapping}"
        if axis.integer:
            text = f"{what} from {axis.format(c.at)}"
        elif c.refined:
            text = f"{what} at {axis.format(c.at)}"
        else:
            text = f"{what} between {axis.format(a)} and {axis.format(b)}"
    where = _where(result, c.fixed)
    return f"{text} {where}" if where else text


def _g(x: float) -> str:
    return f"{x:.4g}"


def sweep_table(result: SweepResult) -> str:
    """The points as a text table, then the crossovers."""
    heads = [a.heading() for a in result.axes]
    widths = [max(len(h), 9) for h in heads]
    show_procs = result.procs is not None
    head = "  ".join(f"{h:>{w}}" for h, w in zip(heads, widths))
    if show_procs:
        head += f"  {'procs':>5}"
    head += (f"  {'seq(s)':>9}  {'static(s)':>10}  {'dynamic(s)':>10}  {'S_static':>8}  {'S_dynamic':>9}"
             f"  {'chosen':<8} {'remaps':>6}  mapping")
    lines = [head]
    for p in result.points:
        row = "  ".join(f"{_g(a.display(p.value(a.key))):>{w}}" for a, w in zip(result.axes, widths))
        if show_procs:
            row += f"  {p.procs:>5}"
        row += (f"  {_g(p.sequential):>9}  {_g(p.static.total):>10}  {_g(p.dynamic.total):>10}"
                f"  {_g(p.speedup('static')):>8}  {_g(p.speedup('dynamic')):>9}"
                f"  {p.chosen:<8} {p.best.remaps:>6g}  {p.best.mapping}")
        lines.append(row)
    lines.append("")
    texts = [crossover_text(result, c) for c in result.crossovers]
    if texts:
        lines.append("Crossovers:")
        lines.extend(f"  {t}" for t in texts)
    else:
        chosen = sorted({p.chosen for p in result.points})
        lines.append(f"No crossover: {' and '.join(chosen)} chosen at every point.")
    return "\n".join(lines) + "\n"


def _values(result: SweepResult, p: SweepPoint) -> dict[str, Any]:
    """The varied quantities of a point (integers as integers) and ``procs``."""
    out: dict[str, Any] = {a.key: (int(p.value(a.key)) if a.integer else p.value(a.key)) for a in result.axes}
    out.setdefault(PROCS, p.procs)
    return out


def _row(result: SweepResult, p: SweepPoint) -> dict[str, Any]:
    row = _values(result, p)
    best = p.best
    row.update(
        sequential_s=p.sequential, static_s=p.static.total, dynamic_s=p.dynamic.total,
        static_speedup=p.speedup("static"), dynamic_speedup=p.speedup("dynamic"),
        chosen=p.chosen, chosen_s=best.total, chosen_speedup=p.speedup(p.chosen), chosen_mapping=best.mapping,
        static_mapping=p.static.mapping, dynamic_mapping=p.dynamic.mapping,
        static_computation_s=p.static.computation, static_movement_s=p.static.movement,
        dynamic_computation_s=p.dynamic.computation, dynamic_movement_s=p.dynamic.movement,
        dynamic_remapping_s=p.dynamic.remapping, dynamic_remaps=p.dynamic.remaps,
    )
    return row


def csv_columns(result: SweepResult) -> list[str]:
    keys = [a.key for a in result.axes]
    if PROCS not in keys:
        keys.append(PROCS)
    return keys + list(CSV_COLUMNS)


def sweep_csv(result: SweepResult) -> str:
    """One row per point; times in seconds, parameters in the profile's units."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=csv_columns(result), lineterminator="\n")
    writer.writeheader()
    for p in result.points:
        writer.writerow(_row(result, p))
    return out.getvalue()


def _outcome_json(o: Outcome, p: SweepPoint, kind: str) -> dict[str, Any]:
    return {"total_cost": o.total, "speedup": p.speedup(kind), "computation": o.computation,
            "movement": o.movement, "remapping": o.remapping, "remaps": o.remaps, "mapping": o.mapping}


def sweep_json(result: SweepResult, files: list[str]) -> dict[str, Any]:
    m = result.machine
    points = []
    for p in result.points:
        d = _values(result, p)
        d.update(sequential=p.sequential, static=_outcome_json(p.static, p, "static"),
                 dynamic=_outcome_json(p.dynamic, p, "dynamic"), chosen=p.chosen)
        points.append(d)
    crossovers = []
    for c in result.crossovers:
        crossovers.append({
            "axis": c.key,
            "fixed": dict(c.fixed) | ({PROCS: result.procs} if result.procs is not None else {}),
            "kind": "solution" if c.solution_changes else "mapping",
            "from": {"chosen": c.below.chosen, "mapping": c.below.best.mapping},
            "to": {"chosen": c.above.chosen, "mapping": c.above.best.mapping},
            "at": c.at, "bracket": list(c.bracket), "grid": list(c.grid), "refined": c.refined,
            "text": crossover_text(result, c),
        })
    return {
        "program": list(files),
        "machine": {"name": m.name, "file": m.source, **m.as_dict()},
        "procs": result.procs,
        "axes": [{"key": a.key, "label": a.label, "unit": a.unit, "scale": a.scale,
                  "values": [int(v) if a.integer else v for v in a.values]} for a in result.axes],
        "points": points,
        "crossovers": crossovers,
    }
