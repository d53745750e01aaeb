"""``autodist explain``: the layout over the program, why, and what would change it.

:func:`explain` turns a :class:`~autodist.mapping.plan.Plan` (and the
sensitivities of :mod:`autodist.sweep.sensitivity`) into an
:class:`Explanation`, the one value the text, JSON, pictures and HTML page
are made from:

* a :class:`Timeline` per solution shown: the phases in execution order
  (grouped by procedure instance, the loops around them as :class:`LoopBand`),
  the arrays, the layout of each array in each phase that uses it (the
  *layout key*: the distribution seen from the array's own dimensions, such as
  ``(BLOCK,*)``, or ``replicated``), the remaps between phases and the
  predicted computation and movement of every phase;
* the reasons (:mod:`.why`): per array the chosen layout and the runner-ups,
  per replicated array why;
* the assumptions and where they flip the decision.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from .. import ir
from ..analysis.loops import bounds_text
from ..mapping.plan import Plan, Solution
from ..sweep.sensitivity import Sensitivity
from .why import REPLICATED, ArrayWhy, DecisionWhy, ReplicatedWhy, array_labels, layout_key, reasons

#: More arrays than this: those replicated in every phase share one row.
MAX_ROWS = 40
#: The id of that row.
FOLDED = "*replicated*"

@dataclass(frozen=True)
class PhaseView:
    """One phase on the timeline; costs are seconds per run of the program."""

    index: int  # position along the timeline (0-based)
    instance: str  # the procedure instance (a clone has its own)
    unit: str  # the procedure it is a version of
    phase: int
    kind: str  # "loop" | "call"
    span: ir.Span
    executions: float
    computation: float
    movement: float
    callee: str | None
    cells: tuple[tuple[str, str], ...]  # (global array id, layout key) for the arrays the phase uses
    parallel_loops: tuple[int, ...] = ()

    @property
    def key(self) -> str:
        return f"{self.instance}:{self.phase}"

    @property
    def label(self) -> str:
        """``phase 4 (line 39) of ADI``."""
        return f"phase {self.phase} (line {self.span.first}) of {self.instance}"

    def layout(self, array: str) -> str | None:
        return dict(self.cells).get(array)


@dataclass(frozen=True)
class RemapMark:
    """Arrays remapped between two phases: ``at`` is the x position of the mark
    (a boundary between phases, ``index - 0.5``)."""

    at: float
    before: int  # index of the phase it is paid before (or, on a call's return, the call)
    source: int | None  # index of the phase the layout comes from (None: the procedure's entry)
    array: str
    name: str
    src: str  # layout keys
    dst: str
    count: float
    bytes: int
    cost: float  # seconds per run, all ``count`` remaps


@dataclass(frozen=True)
class LoopBand:
    """A loop of a procedure that holds several phases (``first``..``last``,
    timeline indices); ``depth`` 0 is the outermost."""

    instance: str
    first: int
    last: int
    depth: int
    line: int
    text: str  # "DO ITER = 1, 10"


@dataclass(frozen=True)
class Timeline:
    """One solution laid out over the program."""

    kind: str  # "static" | "dynamic"
    total: float
    computation: float
    movement: float
    remapping: float
    phases: tuple[PhaseView, ...]
    arrays: tuple[tuple[str, str], ...]  # (global id, display name), top to bottom
    remaps: tuple[RemapMark, ...]
    loops: tuple[LoopBand, ...]
    groups: tuple[tuple[str, int, int], ...]  # (instance, first index, last index)
    folded: tuple[str, ...] = ()  # arrays replicated in every phase, drawn on the last row (:data:`FOLDED`)

    @property
    def array_count(self) -> int:
        """Arrays used by some phase (the folded ones included)."""
        return len(self.arrays) - (1 if self.folded else 0) + len(self.folded)

    def row(self, array: str) -> int | None:
        """The row an array is drawn on (None: not drawn)."""
        return self._rows.get(array)

    @cached_property
    def _rows(self) -> dict[str, int]:
        out = {g: r for r, (g, _) in enumerate(self.arrays)}
        out.update((g, len(self.arrays) - 1) for g in self.folded)
        return out

    @property
    def keys(self) -> tuple[str, ...]:
        """The layout keys used, distributed ones first (sorted), then replicated."""
        seen = {k for p in self.phases for _, k in p.cells}
        return tuple(sorted(seen - {REPLICATED})) + ((REPLICATED,) if REPLICATED in seen else ())


@dataclass(frozen=True)
class UnknownTrip:
    """A loop whose trip count the analysis had to assume."""

    procedure: str
    file: str
    line: int
    text: str  # "DO K = 0, GRID_POINTS(3)-1"
    assumed: float | None
    phase: int | None  # the phase it is in (None: a loop around phases)


@dataclass(frozen=True)
class Explanation:
    files: tuple[str, ...]
    machine: str
    machine_source: str
    procs: int
    mode: str
    chosen: str  # the kind of the solution explained
    static_total: float
    dynamic_total: float
    timelines: tuple[Timeline, ...]  # the chosen solution first
    decision: DecisionWhy
    arrays: tuple[ArrayWhy, ...]
    replicated: tuple[ReplicatedWhy, ...]
    unknown_trips: tuple[UnknownTrip, ...]
    sensitivities: tuple[Sensitivity, ...]
    sources: tuple[tuple[str, tuple[str, ...]], ...]  # (file, lines) of the program
    used: int = 0  # the processors the chosen solution runs on when it leaves some idle, else 0

    @property
    def timeline(self) -> Timeline:
        return self.timelines[0]

    @property
    def idle(self) -> str:
        """`` on 4 of 16 processors`` when the chosen solution leaves processors idle, else ""."""
        return f" on {self.used} of {self.procs} processors" if self.used else ""


# --------------------------------------------------------------------------- building


def _cells(plan: Plan, sol: Solution, ph) -> tuple[tuple[str, str], ...]:
    """The arrays a phase uses and their layouts (arrays outside the mapping
    are replicated)."""
    an = plan.analysis
    unit = sol.unit_of(ph.procedure)
    phase = an.procedure(unit).phase(ph.phase)
    out: dict[str, str] = {}
    for name in dict.fromkeys(phase.arrays + tuple(a.array for a in phase.accesses)):
        gid = plan.table.global_id(unit, name)
        if gid is not None:
            out[gid] = layout_key(ph.mapping.layout(gid))
    if ph.kind == "call":  # the actuals passed, as the call's mapping gives them
        for gid, lay in ph.mapping.layouts:
            out.setdefault(gid, layout_key(lay))
    return tuple(sorted(out.items()))


def _loops_of(unit: ir.Unit | None) -> list[ir.Stmt]:
    if unit is None:
        return []
    return [s for s in unit.statements() if isinstance(s, (ir.Do, ir.DoWhile))]


def _loop_text(s: ir.Stmt) -> str:
    if isinstance(s, ir.Do):
        return f"DO {s.var} = {bounds_text(s)}"
    return "DO WHILE"


def _bands(plan: Plan, sol: Solution, phases: list[PhaseView]) -> tuple[LoopBand, ...]:
    """The loops of each procedure instance that hold phases (a loop phase's
    own DO is the phase, not a loop around it)."""
    out: list[LoopBand] = []
    by_instance: dict[str, list[PhaseView]] = {}
    for p in phases:
        by_instance.setdefault(p.instance, []).append(p)
    for inst, views in by_instance.items():
        unit = plan.analysis.program.unit(sol.unit_of(inst))
        found = []
        for s in _loops_of(unit):
            inside = [p for p in views if p.span.file == s.span.file and s.span.first <= p.span.first
                      and p.span.last <= s.span.last and (p.span.first, p.span.last) != (s.span.first, s.span.last)]
            if inside:  # (a loop inside a loop phase holds no phase)
                found.append((s, inside[0].index, inside[-1].index))
        for s, first, last in found:
            depth = sum(1 for o, _, _ in found if o is not s and o.span.first <= s.span.first
                        and s.span.last <= o.span.last)
            out.append(LoopBand(inst, first, last, depth, s.span.first, _loop_text(s)))
    return tuple(out)


def timeline(plan: Plan, sol: Solution) -> Timeline:
    """The solution laid out phase by phase."""
    names = array_labels(plan)
    views: list[PhaseView] = []
    index: dict[tuple[str, int], int] = {}
    for ph in sol.phases:
        cost = ph.cost
        comp = ph.executions * cost.computation if cost is not None else 0.0
        move = ph.executions * cost.movement if cost is not None else 0.0
        v = PhaseView(len(views), ph.procedure, sol.unit_of(ph.procedure), ph.phase, ph.kind, ph.span,
                      ph.executions, comp, move, ph.callee, _cells(plan, sol, ph),
                      tuple(cost.parallel_loops) if cost is not None else ())
        index[(ph.procedure, ph.phase)] = v.index
        views.append(v)
    marks = []
    for r in sol.remaps:
        if r.target == 0:
            before = next((v.index for v in views if v.instance == r.procedure), None)
            at = None if before is None else before - 0.5
        else:
            before = index.get((r.procedure, r.target))
            at = None if before is None else (before + 0.5 if r.source == r.target else before - 0.5)
        if before is None:
            continue
        marks.append(RemapMark(at, before, index.get((r.procedure, r.source)) if r.source else None, r.array,
                               r.name, layout_key(r.src), layout_key(r.dst), r.count, r.bytes, r.cost))
    first_use: dict[str, int] = {}
    distributed: set[str] = set()
    for v in views:
        for gid, key in v.cells:
            first_use.setdefault(gid, v.index)
            if key != REPLICATED:
                distributed.add(gid)
    order = sorted(first_use, key=lambda g: (g not in distributed, first_use[g], names.get(g, g)))
    folded: tuple[str, ...] = ()
    if len(order) > MAX_ROWS:  # the arrays replicated in every phase share one row
        keep = [g for g in order if g in distributed]
        folded = tuple(g for g in order if g not in distributed)
        if len(keep) + len(folded) > MAX_ROWS and folded:
            order = keep
        else:
            folded = ()
    rows = tuple((g, names.get(g, g)) for g in order)
    if folded:
        rows += ((FOLDED, f"{len(folded)} more, replicated"),)
    groups: list[tuple[str, int, int]] = []
    for v in views:
        if groups and groups[-1][0] == v.instance:
            groups[-1] = (v.instance, groups[-1][1], v.index)
        else:
            groups.append((v.instance, v.index, v.index))
    return Timeline(sol.kind, sol.total, sol.computation, sol.movement, sol.remapping, tuple(views), rows,
                    tuple(marks), _bands(plan, sol, views), tuple(groups), folded)


def unknown_trips(plan: Plan) -> tuple[UnknownTrip, ...]:
    """The loops whose trip counts were assumed, in phases and around them
    (those a ``--profile`` measured are not assumed)."""
    out: list[UnknownTrip] = []
    profile = plan.analysis.options.profile
    seen: set[tuple[str, int]] = set()
    if profile is not None:
        seen.update((f, int(n)) for f, _, n in (k.rpartition(":") for k in profile.loops) if n.isdigit())
    for proc in plan.analysis.procedures:
        for ph in proc.phases:
            for lp in ph.loops:
                if not lp.trip_known and (ph.span.file, lp.line) not in seen:
                    seen.add((ph.span.file, lp.line))
                    out.append(UnknownTrip(proc.name, ph.span.file, lp.line, f"DO {lp.var} = {lp.bounds}",
                                           lp.trip_count, ph.id))
        for text in proc.flow.assumptions:  # loops around phases: "DO K at line 12: trip count 100"
            where, _, assumed = text.partition(":")
            m = re.search(r"line (\d+)", where)
            if m is None or (proc.span.file, int(m.group(1))) in seen:
                continue
            seen.add((proc.span.file, int(m.group(1))))
            n = re.search(r"[\d.]+(e[+-]?\d+)?", assumed)
            out.append(UnknownTrip(proc.name, proc.span.file, int(m.group(1)), where.replace(f" at {m.group(0)}", ""),
                                   float(n.group(0)) if n else None, None))
    return tuple(out)


def explain(plan: Plan, mode: str, machine_source: str, sensitivities: tuple[Sensitivity, ...] = ()) -> Explanation:
    """Everything ``explain`` shows about ``plan`` (the solution of ``mode``)."""
    chosen = plan.solution(mode)
    other = plan.dynamic if chosen.kind == "static" else plan.static
    shown = [chosen] + ([other] if other.remaps or chosen.remaps else [])
    program = plan.analysis.program
    decision, arrays, replicated = reasons(plan, chosen)
    return Explanation(
        files=tuple(program.files), machine=plan.machine.name, machine_source=machine_source, procs=plan.procs,
        mode=mode, chosen=chosen.kind, static_total=plan.static.total, dynamic_total=plan.dynamic.total,
        timelines=tuple(timeline(plan, s) for s in shown),
        decision=decision, arrays=arrays, replicated=replicated,
        unknown_trips=unknown_trips(plan),
        sensitivities=tuple(sensitivities),
        sources=tuple(program.sources), used=chosen.fewer(plan.procs),
    )


__all__ = ["Explanation", "LoopBand", "PhaseView", "RemapMark", "Timeline", "UnknownTrip", "explain",
           "layout_key", "timeline", "unknown_trips", "REPLICATED"]
