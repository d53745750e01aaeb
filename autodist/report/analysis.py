"""The report of ``autodist analyze``: a readable text table and stable JSON."""

from __future__ import annotations

from typing import Any

from .. import ir
from ..analysis.model import Phase, ProcedureAnalysis, ProgramAnalysis, TripAssumption


def _fmt_count(x: float | None) -> str:
    if x is None:
        return "?"
    return f"{x:.0f}" if abs(x - round(x)) < 1e-9 else f"{x:.3g}"


def arrays_of(program: ir.Program) -> list[dict[str, Any]]:
    rows = []
    for u in program.units:
        for s in u.arrays:
            rows.append({
                "name": s.name,
                "procedure": u.name,
                "shape": list(s.shape) if s.shape is not None else None,
                "bounds": [_dim_text(d) for d in s.dims or ()],
                "type": str(s.type),
                "bytes": s.bytes,
                "common": s.common,
                "dummy": s.dummy,
                "equivalenced": s.equivalenced,
            })
    return rows


def _dim_text(d: ir.Dim) -> str:
    from ..analysis.text import expr_text

    lo = expr_text(d.lower)
    hi = "*" if d.upper is None else expr_text(d.upper)
    return hi if lo == "1" else f"{lo}:{hi}"


def phase_json(proc: ProcedureAnalysis, p: Phase) -> dict[str, Any]:
    return {
        "id": p.id,
        "kind": p.kind,
        "file": p.span.file,
        "first_line": p.span.first,
        "last_line": p.span.last,
        "executions": proc.executions(p.id),
        "loops": [
            {
                "var": lp.var,
                "line": lp.line,
                "depth": lp.depth,
                "bounds": lp.bounds,
                "parallel": lp.parallel,
                "reason": lp.reason,
                "independent_by": list(lp.independent_by),
                "trip_count": lp.trip_count,
                "trip_count_known": lp.trip_known,
                "trip_count_source": lp.trip_source,
                "trip_count_depends_on": list(lp.trip_names),
                "trip_count_note": lp.trip_note,
                "private": list(lp.private),
                "private_arrays": [{"name": n, "reason": dict(lp.private_reasons).get(n, "")}
                                   for n in (lp.private_arrays if lp.parallel else ())],
                "reductions": [{"name": n, "op": op} for n, op in lp.reductions],
            }
            for lp in p.loops
        ],
        "reads": list(p.reads),
        "writes": list(p.writes),
        "callee": p.callee,
        "calls": list(p.calls),
        "flops": p.flops,
        "memory_accesses": p.memory_accesses,
        "opaque": list(p.opaque),
    }


def values_json(an: ProgramAnalysis) -> list[dict[str, Any]]:
    """The integer variables the program fixes, the user states or the program defaults."""
    return [{"name": v.name, "value": v.value, "how": v.how, "procedures": list(v.units),
             "set_at": list(v.set_at), "read_at": list(v.read_at)} for v in an.values]


def trip_json(t: TripAssumption) -> dict[str, Any]:
    return {"procedure": t.procedure, "file": t.file, "line": t.line, "loop": t.text, "assumed": t.trips,
            "source": t.source, "depends_on": list(t.names), "note": t.note}


def unknown_trips_json(an: ProgramAnalysis) -> list[dict[str, Any]]:
    """The DO loops whose trip counts are not known, with the value assumed and the
    variables their bounds use (what ``--trip-count NAME=N`` can state)."""
    return [trip_json(t) for t in an.trip_assumptions]


def _statable(names: tuple[str, ...]) -> tuple[str, ...]:
    """The names ``--trip-count NAME=N`` can state: scalars and constant elements."""
    from ..analysis.knownvalues import parse_name

    return tuple(n for n in names if parse_name(n) is not None)


def unknown_trips_text(an: ProgramAnalysis, limit: int = 12) -> list[str]:
    """Lines saying which loops have trip counts not known, grouped by the
    variables their bounds use, with the values assumed."""
    groups: dict[tuple[str, ...], list[TripAssumption]] = {}
    for t in an.trip_assumptions:
        groups.setdefault(t.names, []).append(t)
    if not groups:
        return []
    n = sum(len(g) for g in groups.values())
    out = [f"trip counts not known ({n} loop{'s' * (n != 1)}; state a value with --trip-count NAME=N):"]
    for names, ts in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:limit]:
        assumed = sorted({t.trips for t in ts})
        values = ", ".join(_fmt_count(v) for v in assumed[:4]) + (", ..." if len(assumed) > 4 else "")
        where = ", ".join(f"{t.file.rsplit('/', 1)[-1]}:{t.line}" for t in ts[:4]) + (", ..." if len(ts) > 4 else "")
        what = ", ".join(names) if names else "no variable"
        how = ("from the program's defaults" if all(t.source == "default" for t in ts)
               else "the default trip count" if all(t.source == "assumed" for t in ts) else "defaults and assumed")
        out.append(f"  {what}: {len(ts)} loop{'s' * (len(ts) != 1)} ({where}), assumed {values} ({how})")
        notes = list(dict.fromkeys(t.note for t in ts if t.source == "default" and t.note))
        for note in notes[:2]:
            out.append(f"      {note}")
    if len(groups) > limit:
        out.append(f"  ... and {len(groups) - limit} more groups (analyze --format json lists every loop)")
    return out


def values_text(an: ProgramAnalysis, limit: int = 20) -> list[str]:
    fixed = [v for v in an.values if v.how == "fixed"]
    other = [v for v in an.values if v.how != "fixed"]
    out: list[str] = []
    if fixed:
        shown = ", ".join(f"{v.name} = {v.value}" for v in fixed[:limit]) + (", ..." if len(fixed) > limit else "")
        out.append(f"values the program fixes ({len(fixed)}, substituted): {shown}")
    for v in other[:limit]:
        why = ("stated" if v.how == "stated" else
               f"the program's default (set at {', '.join(v.set_at[:3])}; read at {', '.join(v.read_at[:3])})"
               if v.read_at else f"the program's default (set at {', '.join(v.set_at[:3])})")
        out.append(f"value assumed: {v.name} = {v.value} in {', '.join(v.units[:3])}"
                   f"{', ...' if len(v.units) > 3 else ''}: {why}")
    if len(other) > limit:
        out.append(f"... and {len(other) - limit} more values assumed")
    return out


def to_json(an: ProgramAnalysis) -> dict[str, Any]:
    procs = []
    opaque = []
    for proc in an.procedures:
        procs.append({
            "name": proc.name,
            "kind": proc.kind,
            "file": proc.span.file,
            "first_line": proc.span.first,
            "last_line": proc.span.last,
            "invocations": proc.invocations,
            "phases": [phase_json(proc, p) for p in proc.phases],
            "transitions": [
                {"from": t.source, "to": t.target, "count": t.count} for t in proc.flow.transitions
            ],
            "assumptions": list(proc.flow.assumptions),
        })
        for span, reason in proc.opaque:
            opaque.append({"procedure": proc.name, "file": span.file, "line": span.first, "reason": reason})
    return {
        "procedures": procs,
        "arrays": arrays_of(an.program),
        "call_graph": [list(e) for e in an.call_graph],
        "opaque": opaque,
        "files": list(an.program.files),
        "values": values_json(an),
        "unknown_trip_counts": unknown_trips_json(an),
    }


def to_text(an: ProgramAnalysis) -> str:
    out: list[str] = []
    for proc in an.procedures:
        head = f"{proc.kind.upper()} {proc.name}  ({proc.span.file}:{proc.span.first}-{proc.span.last})"
        nph = len(proc.phases)
        calls = "" if proc.invocations == 1 else f", called {_fmt_count(proc.invocations)} times"
        out.append(f"{head}: {nph} phase{'s' if nph != 1 else ''}{calls}")
        for p in proc.phases:
            what = ("loop" if p.kind == "loop" else f"CALL {p.callee}" if p.kind == "call"
                    else "calls " + ", ".join(p.calls))
            out.append(
                f"  phase {p.id:<3} lines {p.span.first}-{p.span.last:<6} {what:<12} "
                f"runs {_fmt_count(proc.executions(p.id))}x"
                + (f"  {p.flops:.4g} flops" if p.kind == "loop" else "")
            )
            for lp in p.loops:
                flag = "parallel  " if lp.parallel else "sequential"
                trips = _fmt_count(lp.trip_count) + ("" if lp.trip_known else "?")
                out.append(f"      {'  ' * lp.depth}DO {lp.var} = {lp.bounds:<14} line {lp.line:<5} {flag} "
                           f"trips {trips:<6} {lp.reason}")
                for name, why in lp.private_reasons:
                    out.append(f"      {'  ' * lp.depth}  NEW {name}: {why}")
            rw = f"writes {', '.join(p.writes) or '-'}; reads {', '.join(p.reads) or '-'}"
            out.append(f"      {rw}")
        for a in proc.flow.assumptions:
            out.append(f"  note: {a}")
        out.append("")
    arrays = arrays_of(an.program)
    if arrays:
        out.append("arrays:")
        w = max(len(a["name"]) for a in arrays)
        for a in arrays:
            shape = "(" + ",".join(a["bounds"]) + ")"
            size = f"{a['bytes']} bytes" if a["bytes"] is not None else "size unknown"
            extra = []
            if a["common"] is not None:
                extra.append(f"COMMON /{a['common']}/")
            if a["dummy"]:
                extra.append("dummy")
            if a["equivalenced"]:
                extra.append("EQUIVALENCE")
            out.append(f"  {a['name']:<{w}}  {a['procedure']:<10} {a['type']:<17} {shape:<16} {size:<14} {' '.join(extra)}")
        out.append("")
    known = values_text(an)
    unknown = unknown_trips_text(an)
    if known or unknown:
        out += known + unknown + [""]
    if an.call_graph:
        out.append("call graph: " + ", ".join(f"{a} -> {b}" for a, b in an.call_graph))
    opaque = [(proc.name, span, reason) for proc in an.procedures for span, reason in proc.opaque]
    if opaque:
        out.append("not modelled (treated conservatively):")
        for name, span, reason in opaque:
            out.append(f"  {span.file}:{span.first} ({name}): {reason}")
    return "\n".join(out).rstrip() + "\n"
