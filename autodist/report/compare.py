"""The report of ``autodist compare``: static vs dynamic per processor count."""

from __future__ import annotations

from typing import Any

from ..mapping.plan import Plan, Solution
from .mapping import remaps_json, solution_json


def _solution_summary(plan: Plan, sol: Solution) -> dict[str, Any]:
    full = solution_json(plan, sol)
    out = {
        "total_cost": sol.total,
        "computation": sol.computation,
        "movement": sol.movement,
        "mapping": full["mapping"],
        "description": sol.describe(plan.procs),
        "method": sol.method,
    }
    if sol.kind != "static":
        out["remapping"] = sol.remapping
        out["remaps"] = remaps_json(sol)
    if sol.solver:
        out["solver"] = list(sol.solver)
    return out


def compare_json(rows: list[tuple[Plan, Solution | None]], machine_source: str) -> dict[str, Any]:
    runs = []
    for plan, written in rows:
        run: dict[str, Any] = {
            "procs": plan.procs,
            "static": _solution_summary(plan, plan.static),
            "dynamic": _solution_summary(plan, plan.dynamic),
            "chosen": plan.chosen,
        }
        if written is not None:
            run["as_written"] = _solution_summary(plan, written)
        runs.append(run)
    machine = rows[0][0].machine if rows else None
    return {"machine": {"name": machine.name, "file": machine_source} if machine else None, "runs": runs}


def _group_remaps(sol: Solution) -> list[str]:
    groups: dict[tuple, list[str]] = {}
    phase_line = {(p.procedure, p.phase): p.span.first for p in sol.phases}
    for r in sol.remaps:
        key = (r.procedure, r.src.distribute_str(), r.dst.distribute_str(), r.target, r.count, r.bytes)
        groups.setdefault(key, []).append(r.name)
    out = []
    for (proc, a, b, target, count, nbytes), names in groups.items():
        cost = sum(r.cost for r in sol.remaps if (r.procedure, r.target, r.count, r.bytes) == (proc, target, count, nbytes)
                   and r.name in names)
        line = phase_line.get((proc, target))
        where = f"before phase {target}" + (f" (line {line})" if line else "") + (f" of {proc}" if proc else "")
        out.append(f"{','.join(names)} {a} -> {b} {where}: {count:g} times, {nbytes} bytes each, {cost:.6g} s")
    return out


def compare_table(rows: list[tuple[Plan, Solution | None]]) -> str:
    written = any(w is not None for _, w in rows)
    head = f"{'procs':>6}  {'static(s)':>11}  {'dynamic(s)':>11}"
    if written:
        head += f"  {'written(s)':>11}"
    head += f"  {'chosen':<8} {'remaps':>6}  {'comp(s)':>9}  {'move(s)':>9}  {'remap(s)':>9}  mapping"
    lines = [head]
    details = []
    for plan, w in rows:
        best = plan.solution("best")
        line = f"{plan.procs:>6}  {plan.static.total:>11.6g}  {plan.dynamic.total:>11.6g}"
        if written:
            line += f"  {w.total:>11.6g}" if w is not None else f"  {'-':>11}"
        nremap = sum(r.count for r in plan.dynamic.remaps)
        line += (f"  {plan.chosen:<8} {nremap:>6g}  {best.computation:>9.4g}  {best.movement:>9.4g}  "
                 f"{best.remapping:>9.4g}  {best.describe(plan.procs)}")
        lines.append(line)
        if plan.dynamic.remaps:
            details.append(f"P = {plan.procs}, dynamic solution remaps:")
            details.extend("  " + d for d in _group_remaps(plan.dynamic))
    return "\n".join(lines + ([""] + details if details else [])) + "\n"
