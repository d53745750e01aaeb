"""The JSON report of ``autodist run --report`` and its reader.

Built on rank 0 from every rank's :class:`~autodist.runtime.comm.stats.CommStats`
(gathered after the run) and the executor's record of how each phase ran.
Format (``version`` 1)::

    {"version": 1, "program": ["adi.f"], "nprocs": 4, "seconds": 0.21,
     "stop": null,
     "phases": [{"procedure": "ADI", "id": 4, "file": "adi.f", "first_line": 53,
                 "last_line": 58, "mode": "pipelined", "reason": "",
                 "vectorized": [["I"]], "executions": 10,
                 "predicted_elements_received": [0, 512, 512, 512],
                 "ranks": [{"rank": 0, "compute_time": ..., "comm_time": ...,
                            "elements_sent": ..., "elements_received": ...,
                            "bytes_sent": ..., "bytes_received": ...,
                            "messages_sent": ..., "messages_received": ...}, ...]}],
     "remaps": [{"procedure": "ADI", "line": 50, "array": "X", "from": "(*,BLOCK)",
                 "to": "(BLOCK,*)", "executions": 10, "ranks": [...]}],
     "linked": [{"routine": "WTIME", "calls": 2, "mode": "replicated", "ranks": [...]}],
     "other": [{"region": "scalar access", "ranks": [...]}],
     "totals": [...per rank...],
     "replicated": [{"array": "MAIN.NAMES", "reason": "a CHARACTER array: ..."}]}

``seconds`` is the program's time on the slowest rank, numba's left out
(compiling, loading cached kernels: the ``jit`` section's ``compile_seconds``)
and the planning of phases (their code and exchanges, once per phase and
layout: ``planning_seconds``, the slowest rank's).
Counters are per rank and summed over every execution of the region;
``executions`` is how many times the region ran (the same on every rank:
control flow outside phases is replicated);
``predicted_elements_received`` is, per rank, what one execution must
receive by :func:`autodist.owner.needs.phase_needs`.  A call phase
(``kind`` "call", mode "call") reports the time of its calls, the callee's
own phases included (those are listed under the callee too).  ``mode`` is
``distributed``, ``pipelined``, ``replicated`` (gathered on every rank) or
``inline`` (outside the vectorizable subset, run on replicated data);
``reason`` says why a phase was not distributed.  ``linked`` lists the
routines of the ``--link`` libraries the program called: how many times, and
how (``replicated``: every rank calls it on the whole arrays,
:mod:`autodist.runtime.spmd.linked`); their counters are the calls' time and
the gathers of the arrays passed.  ``replicated`` lists the arrays whose
directives map them but which the runtime keeps whole on every rank, and why.
``totals`` sums every region per rank, the call phases' time left out (it
holds their callees' phases, counted under those).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...analysis.model import ProgramAnalysis
from ..spmd.linked import region_of

_FIELDS = ("compute_time", "comm_time", "elements_sent", "elements_received", "bytes_sent", "bytes_received",
           "messages_sent", "messages_received")


def _rank_rows(per_rank: list[dict], region: str) -> list[dict]:
    rows = []
    for r, d in enumerate(per_rank):
        reg = d["regions"].get(region, {})
        rows.append({"rank": r, **{k: reg.get(k, 0) for k in _FIELDS}})
    return rows


def build_report(per_rank: list[dict], analysis: ProgramAnalysis, phase_modes: dict, remap_log: dict,
                 predicted: dict[str, list[int]], executions: dict[str, int], files: tuple[str, ...],
                 nprocs: int, seconds: float, stop, linked: dict[str, int] | None = None,
                 kept_replicated: dict[str, str] | None = None, phase_paths: dict | None = None,
                 compiled: dict | None = None) -> dict[str, Any]:
    """The report (see the module docstring) from every rank's counters;
    ``linked``: the calls of each ``--link`` routine; ``kept_replicated``: the
    arrays the runtime keeps whole against their directives, and why;
    ``phase_paths``: per phase region, the path that ran and why it was not
    compiled; ``compiled``: the ``jit`` section (:func:`jit_section`)."""
    phases = []
    used: set[str] = set()
    paths = phase_paths or {}
    for proc in analysis.procedures:
        for ph in proc.phases:
            region = f"{proc.name}:{ph.id}"
            used.add(region)
            mode, reason, vec = phase_modes.get(region, ("not run", "", ()))
            counts, why = paths.get(region, ({}, ""))
            path = ("jit" if counts.get("jit") else max(counts, key=counts.get)) if counts else (
                "call" if ph.kind == "call" else "not run")
            phases.append({
                "procedure": proc.name, "id": ph.id, "kind": ph.kind, "file": ph.span.file,
                "first_line": ph.span.first,
                "last_line": ph.span.last, "mode": mode, "reason": reason, "path": path, "paths": dict(counts), "path_reason": why,
                "vectorized": [list(c) for c in vec], "executions": executions.get(region, 0),
                "predicted_elements_received": predicted.get(region, []),
                "ranks": _rank_rows(per_rank, region),
            })
    remaps = []
    for region, (unit, line, array, src, dst) in sorted(remap_log.items(), key=lambda kv: (kv[1][0], kv[1][1])):
        used.add(region)
        remaps.append({"procedure": unit, "line": line, "array": array, "from": src, "to": dst,
                       "executions": executions.get(region, 0), "ranks": _rank_rows(per_rank, region)})
    calls = []
    for name, count in sorted((linked or {}).items()):
        region = region_of(name)
        used.add(region)
        calls.append({"routine": name, "calls": count, "mode": "replicated", "ranks": _rank_rows(per_rank, region)})
    others = sorted({k for d in per_rank for k in d["regions"]} - used)
    other = [{"region": k, "ranks": _rank_rows(per_rank, k)} for k in others]
    calls_of = {f"{proc.name}:{ph.id}" for proc in analysis.procedures for ph in proc.phases if ph.kind != "loop"}
    totals = []
    for r, d in enumerate(per_rank):
        row = {"rank": r, **{k: 0 for k in _FIELDS}}
        for region, reg in d["regions"].items():
            for k in _FIELDS:
                if not (k == "compute_time" and region in calls_of):  # inclusive of the callees' regions
                    row[k] += reg.get(k, 0)
        totals.append(row)
    return {"version": 1, "program": list(files), "nprocs": nprocs, "seconds": seconds, "completed": True,
            "stop": stop if stop is None or isinstance(stop, (int, str)) else str(stop),
            "phases": phases, "remaps": remaps, "linked": calls, "other": other, "totals": totals,
            "replicated": [{"array": a, "reason": why} for a, why in sorted((kept_replicated or {}).items())],
            "jit": compiled or {"enabled": False, "reason": "", "procedures": []}}


def jit_counts(ex) -> tuple[float, int, int]:
    """One rank's numba seconds (loading cached kernels included), kernels it
    compiled and kernels it loaded from the cache."""
    return (ex.jit.compile_seconds, ex.jit.compiled, ex.jit.loaded) if ex.jit is not None else (0.0, 0, 0)


def jit_section(ex, ranks: list[tuple[float, int, int]] | None = None) -> dict[str, Any]:
    """The ``jit`` section of the report from an executor (rank 0's): whether
    compiled execution was on (and why not), numba's compile time (loading
    cached kernels included), and per procedure the path its calls took;
    with ``ranks`` (:func:`jit_counts` of every rank), what each rank compiled
    and loaded (one compiles a kernel, the others load it: see
    :meth:`~..jit.compiler.Module.compiling`)."""
    if ex.jit is None:
        return {"enabled": False, "reason": ex.jit_off, "compile_seconds": 0.0, "kernels_compiled": 0,
                "kernels_loaded": 0, "procedures": []}
    procs = []
    reasons = ex.kernels.k.unit_reasons if ex.kernels is not None else {}
    calls = ex.kernels.calls if ex.kernels is not None else {}
    for u in ex.program.units:
        if u.kind == "blockdata":
            continue
        compiled, python = calls.get(u.name, (0, 0))
        why = reasons.get(u.name, "")
        if why:
            path = "inline"
        elif python:
            path = "mixed" if compiled else "inline"
            why = ex.kernels.python_why.get(u.name, "")
        else:
            path = "jit" if compiled else "not run"
        procs.append({"procedure": u.name, "path": path, "reason": why, "compiled_calls": compiled,
                      "python_calls": python})
    out = {"enabled": True, "reason": "", "compile_seconds": ex.jit.compile_seconds,
           "kernels_compiled": ex.jit.compiled, "kernels_loaded": ex.jit.loaded, "procedures": procs}
    if ranks is not None:
        out["ranks"] = [{"rank": r, "compile_seconds": s, "kernels_compiled": c, "kernels_loaded": n}
                        for r, (s, c, n) in enumerate(ranks)]
    return out


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class RegionRecord:
    """Counters of one region on one rank."""

    rank: int
    compute_time: float
    comm_time: float
    elements_sent: int
    elements_received: int
    bytes_sent: int
    bytes_received: int
    messages_sent: int
    messages_received: int


@dataclass(frozen=True)
class PhaseRecord:
    procedure: str
    id: int
    first_line: int
    last_line: int
    mode: str
    reason: str
    executions: int
    ranks: tuple[RegionRecord, ...]
    predicted_elements_received: tuple[int, ...] = ()
    vectorized: tuple[tuple[str, ...], ...] = ()
    kind: str = "loop"
    path: str = ""  # "jit", "numpy" or "inline": what ran
    path_reason: str = ""  # why it was not compiled

    @property
    def key(self) -> str:
        return f"{self.procedure}:{self.id}"

    @property
    def elements_received(self) -> tuple[int, ...]:
        return tuple(r.elements_received for r in self.ranks)


@dataclass(frozen=True)
class RemapRecord:
    procedure: str
    line: int
    array: str
    source: str
    target: str
    executions: int
    ranks: tuple[RegionRecord, ...]

    @property
    def elements_received(self) -> tuple[int, ...]:
        return tuple(r.elements_received for r in self.ranks)


@dataclass(frozen=True)
class LinkedRecord:
    """The calls of one ``--link`` routine."""

    routine: str
    calls: int
    mode: str
    ranks: tuple[RegionRecord, ...]


@dataclass(frozen=True)
class RunReport:
    """What ``autodist run`` reports, parsed (see :func:`parse_report`)."""

    status: int
    stdout: str
    stderr: str
    nprocs: int = 0
    seconds: float = 0.0
    phases: tuple[PhaseRecord, ...] = ()
    remaps: tuple[RemapRecord, ...] = ()
    linked: tuple[LinkedRecord, ...] = ()
    raw: dict = field(default_factory=dict, compare=False, repr=False)
    arrays: dict = field(default_factory=dict, compare=False, repr=False)

    def phase(self, procedure: str, pid: int) -> PhaseRecord:
        for p in self.phases:
            if p.procedure == procedure and p.id == pid:
                return p
        raise KeyError(f"{procedure}:{pid}")


def _regions(rows: list[dict]) -> tuple[RegionRecord, ...]:
    return tuple(RegionRecord(**{k: row[k] for k in ("rank",) + _FIELDS}) for row in rows)


def parse_report(raw: dict, status: int = 0, stdout: str = "", stderr: str = "", arrays=None) -> RunReport:
    """A :class:`RunReport` from the JSON document (and the run's output)."""
    phases = tuple(PhaseRecord(p["procedure"], p["id"], p["first_line"], p["last_line"], p["mode"], p["reason"],
                               p["executions"], _regions(p["ranks"]), tuple(p.get("predicted_elements_received", ())),
                               tuple(tuple(c) for c in p.get("vectorized", ())), p.get("kind", "loop"),
                               p.get("path", ""), p.get("path_reason", ""))
                   for p in raw.get("phases", ()))
    remaps = tuple(RemapRecord(r["procedure"], r["line"], r["array"], r["from"], r["to"], r["executions"],
                               _regions(r["ranks"])) for r in raw.get("remaps", ()))
    linked = tuple(LinkedRecord(r["routine"], r["calls"], r["mode"], _regions(r["ranks"])) for r in raw.get("linked", ()))
    return RunReport(status, stdout, stderr, raw.get("nprocs", 0), raw.get("seconds", 0.0), phases, remaps, linked,
                     raw, arrays or {})
