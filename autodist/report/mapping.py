"""JSON documents and text tables of mapping decisions (annotate, compare)."""

from __future__ import annotations

from typing import Any

from ..hpf import model as m
from ..hpf.emit import _align_parts, directive_text
from ..layout.model import Layout
from ..mapping.model import PhaseCost
from ..mapping.plan import Plan, Solution
from .analysis import unknown_trips_json, values_json


def align_text(name: str, lay: Layout, template: str = "T") -> str:
    """``X(I,J) WITH T(I,J)``."""
    source, subs = _align_parts(lay)
    text = directive_text(m.Align((name,), source or None, lay.template_name or template, subs))
    return text.split(None, 1)[1]


def mapping_json(layouts: dict[str, Layout]) -> dict[str, Any]:
    return {
        name: {"align": align_text(name, lay), "distribute": lay.distribute_str(),
               "processors": list(lay.grid)}
        for name, lay in sorted(layouts.items())
    }


def phase_cost_json(pid: int, first: int, last: int, executions: float, cost: PhaseCost | None,
                    kind: str, callee: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {"id": pid, "kind": kind, "first_line": first, "last_line": last,
                           "executions": executions}
    if callee:
        out["callee"] = callee
    if cost is None:
        out.update(parallel_loops=[], computation=0.0, movement=0.0, movement_bytes=0, routines=[])
        return out
    out.update(
        parallel_loops=list(cost.parallel_loops),
        serialized_loops=list(cost.serialized_loops),
        computation=cost.computation,
        movement=cost.movement,
        movement_bytes=cost.movement_bytes,
        movement_messages=cost.movement_messages,
        routines=[
            {"routine": r.routine, "array": r.array, "dim": r.dim, "elements": r.elements,
             "bytes": r.bytes, "messages": r.messages, "cost": r.cost}
            for r in cost.routines
        ],
    )
    if cost.replicated:
        out["replicated"] = list(cost.replicated)
    return out


def _local(plan: Plan, procedure: str, mapping) -> dict[str, Layout]:
    out = {}
    for gid, lay in mapping.layouts:
        out[plan.table.local_name(gid, procedure) or gid] = lay
    return out


def procedure_solution_json(plan: Plan, sol: Solution, procedure: str) -> dict[str, Any]:
    phases = [p for p in sol.phases if p.procedure == procedure]
    layouts: dict[str, Layout] = {}
    for p in phases:
        for name, lay in _local(plan, procedure, p.mapping).items():
            layouts.setdefault(name, lay)
    for name, lay in _local(plan, procedure, sol.entry_of(procedure)).items():
        layouts.setdefault(name, lay)
    total = sum(p.executions * p.cost.total for p in phases if p.cost is not None)
    total += sum(r.cost for r in sol.remaps if r.procedure == procedure)
    return {
        "procedure": procedure,
        "mapping": mapping_json(layouts),
        "phases": [
            phase_cost_json(p.phase, p.span.first, p.span.last, p.executions, p.cost, p.kind, p.callee)
            for p in phases
        ],
        "total_cost": total,
    }


def remaps_json(sol: Solution) -> list[dict[str, Any]]:
    return [
        {"procedure": r.procedure, "array": r.name, "from": r.src.distribute_str(), "to": r.dst.distribute_str(),
         "from_align": align_text(r.name, r.src), "to_align": align_text(r.name, r.dst),
         "before_phase": r.target, "after_phase": r.source, "count": r.count,
         "bytes": r.bytes, "messages": r.messages, "cost": r.cost}
        for r in sol.remaps
    ]


def solution_json(plan: Plan, sol: Solution) -> dict[str, Any]:
    main = plan.analysis.bottom_up[-1] if plan.analysis.bottom_up else ""
    out = procedure_solution_json(plan, sol, main) if main else {"procedure": None, "mapping": {}, "phases": []}
    out.update(
        kind=sol.kind,
        total_cost=sol.total,
        computation=sol.computation,
        movement=sol.movement,
        remapping=sol.remapping,
        method=sol.method,
        procedures=[procedure_solution_json(plan, sol, p.name) for p in plan.analysis.procedures],
        remaps=remaps_json(sol),
        notes=list(sol.notes),
        solver=list(sol.solver),
    )
    return out


def candidates_json(plan: Plan) -> list[dict[str, Any]]:
    from ..mapping.plan import static_solution

    out = []
    for cand in plan.statics:
        sol = static_solution(cand, plan.analysis, plan.table, plan.procs, plan.machine)
        for proc in plan.analysis.procedures:
            d = procedure_solution_json(plan, sol, proc.name)
            d["description"] = cand.describe()
            d["program_total_cost"] = cand.total
            out.append(d)
    return out


def plan_json(plan: Plan, mode: str, machine_source: str) -> dict[str, Any]:
    chosen = plan.solution(mode)
    return {
        "procs": plan.procs,
        "machine": {"name": plan.machine.name, "file": machine_source, **plan.machine.as_dict()},
        "mode": mode,
        "alignment": alignment_json(plan),
        "chosen": solution_json(plan, chosen),
        "static": {"total_cost": plan.static.total, "description": plan.static.describe(plan.procs)},
        "dynamic": {"total_cost": plan.dynamic.total, "description": plan.dynamic.describe(plan.procs)},
        "candidates": candidates_json(plan),
        "replicated": [{"array": a, "reason": r} for a, r in plan.alignment.replicated],
        "values": values_json(plan.analysis),
        "unknown_trip_counts": unknown_trips_json(plan.analysis),
    }


def alignment_json(plan: Plan) -> dict[str, Any]:
    res = plan.alignment.result
    out: dict[str, Any] = {"templates": [
        {"name": g.name, "bounds": [list(b) for b in g.bounds], "arrays": [a for a, _ in g.members]}
        for g in plan.alignment.groups
    ]}
    if res is not None:
        out.update(method=res.method, heuristic_cut=res.heuristic_cut, ilp_cut=res.ilp_cut,
                   optimal=res.optimal,
                   solver=(res.ilp.solver if res.ilp else None), status=(res.ilp.status if res.ilp else None))
    if plan.alignment.offsets is not None:
        out["misaligned"] = [x.describe() for x in plan.alignment.offsets.misaligned]
    return out
