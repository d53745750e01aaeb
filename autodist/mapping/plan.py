"""The mapping decision for a program on one machine: static, dynamic, chosen.

:func:`make_plan` runs the whole mapping stage on an analyzed program:
global arrays, alignment, static candidates, the dynamic (interprocedural)
selection, and turns both into :class:`Solution` values that the emitter and
the reports read: per phase the mapping and its cost, per remap its array,
layouts, place, count and cost.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..analysis.model import ProgramAnalysis
from ..ir import Span
from ..layout.model import Layout
from ..machine import MachineProfile
from .arrays import ArrayTable, build_array_table
from .candidates import Alignment, align_program
from .dynamic import DynamicOptimizer, ProcEntry, ProcSolution, phase_name
from .evaluate import Evaluator
from .model import Mapping, PhaseCost
from .remap import remap_volume
from .static import StaticCandidate, static_candidates


@dataclass(frozen=True)
class PhaseDecision:
    """The mapping of one phase in a solution and what it costs."""

    procedure: str
    phase: int
    kind: str
    span: Span
    executions: float  # per run of the program
    mapping: Mapping  # global ids -> layouts of the arrays the phase uses
    cost: PhaseCost | None  # per execution (None for call phases)
    callee: str | None = None
    entry: str | None = None  # the callee's database entry used (call phases)


@dataclass(frozen=True)
class RemapEvent:
    """Arrays remapped on the way into a phase: ``count`` times per run."""

    procedure: str
    array: str  # global id
    name: str  # the procedure's name for it
    source: int  # phase id the array comes from (0: entry of the procedure)
    target: int  # phase id it is remapped before
    count: float
    src: Layout
    dst: Layout
    bytes: int  # per remapping, most loaded rank
    messages: int
    cost: float  # seconds, all ``count`` remappings


@dataclass(frozen=True)
class Solution:
    """A complete mapping of the program and its predicted cost per run."""

    kind: str  # "static" | "dynamic" | "as-written"
    phases: tuple[PhaseDecision, ...]
    remaps: tuple[RemapEvent, ...]
    entry: tuple[tuple[str, Mapping], ...]  # procedure -> mapping on entry
    method: str = ""
    notes: tuple[str, ...] = ()

    @property
    def computation(self) -> float:
        return sum(p.executions * p.cost.computation for p in self.phases if p.cost is not None)

    @property
    def movement(self) -> float:
        return sum(p.executions * p.cost.movement for p in self.phases if p.cost is not None)

    @property
    def remapping(self) -> float:
        return sum(r.cost for r in self.remaps)

    @property
    def total(self) -> float:
        return self.computation + self.movement + self.remapping

    def entry_of(self, procedure: str) -> Mapping:
        return dict(self.entry).get(procedure, Mapping(()))

    def describe(self) -> str:
        seen: dict[str, str] = {}
        for _, m in self.entry:
            for a, lay in m.layouts:
                seen.setdefault(a, lay.distribute_str())
        groups: dict[str, list[str]] = {}
        for a, d in sorted(seen.items()):
            groups.setdefault(d, []).append(a)
        return " ".join(f"{','.join(v)}{k}" for k, v in groups.items()) or "replicated"


@dataclass(frozen=True)
class Plan:
    """Everything the mapping stage decided for one processor count."""

    procs: int
    machine: MachineProfile
    table: ArrayTable
    alignment: Alignment
    statics: tuple[StaticCandidate, ...]
    static: Solution
    dynamic: Solution
    analysis: ProgramAnalysis = field(repr=False, compare=False)

    def solution(self, mode: str) -> Solution:
        """``static``, ``dynamic`` or ``best`` (the cheaper; static on a tie)."""
        if mode == "static":
            return self.static
        if mode == "dynamic":
            return self.dynamic
        return self.dynamic if self.dynamic.total < self.static.total * (1 - 1e-9) else self.static

    @property
    def chosen(self) -> str:
        return self.solution("best").kind


# --------------------------------------------------------------------------- static


def static_solution(cand: StaticCandidate, an: ProgramAnalysis, table: ArrayTable) -> Solution:
    mapping = cand.evaluation.mapping
    phases = []
    touched: dict[str, set[str]] = {}
    for pe in cand.evaluation.phases:
        proc = an.procedure(pe.procedure)
        ph = proc.phase(pe.phase)
        gids = _gids(proc, ph, table, mapping)
        touched.setdefault(proc.name, set()).update(gids)
        phases.append(PhaseDecision(pe.procedure, pe.phase, pe.kind, pe.span, pe.executions,
                                    mapping.restrict(gids), pe.cost if pe.kind == "loop" else None, pe.callee))
    entry = tuple((p.name, mapping.restrict(touched.get(p.name, ()))) for p in an.procedures)
    return Solution("static", tuple(phases), (), entry, method=cand.describe())


def _gids(proc, ph, table: ArrayTable, mapping: Mapping) -> tuple[str, ...]:
    out = set()
    for name in ph.arrays:
        g = table.global_id(proc.name, name)
        if g is not None and g in mapping:
            out.add(g)
    return tuple(sorted(out))


# --------------------------------------------------------------------------- dynamic


def dynamic_solution(opt: DynamicOptimizer, an: ProgramAnalysis) -> Solution:
    """Expand the bottom-up selections top-down from the main program."""
    main = an.bottom_up[-1] if an.bottom_up else None
    if main is None:
        return Solution("dynamic", (), (), ())
    phases: list[PhaseDecision] = []
    remaps: list[RemapEvent] = []
    entry: dict[str, Mapping] = {}
    notes: list[str] = []
    methods: list[str] = []

    def expand_dynamic(name: str, scale: float) -> None:
        sol = opt.solutions[name]
        proc = an.procedure(name)
        methods.append(f"{name}: {sol.selection.method}")
        first: dict[str, Layout] = {}
        for ph in proc.phases:
            m, cost, e = sol.chosen(phase_name(ph))
            for a, lay in m.layouts:
                first.setdefault(a, lay)
            execs = proc.flow.execution(ph.id) * scale
            phases.append(PhaseDecision(name, ph.id, ph.kind, ph.span, execs, m, cost, ph.callee,
                                        e.name if e is not None else None))
            if e is not None and ph.callee in opt.solutions:
                if e.static:
                    expand_static(ph.callee, e.entry, execs)
                else:
                    expand_dynamic(ph.callee, execs)
                if opt.semantics == "hpf":
                    # the way back to the caller's mapping is paid inside the call
                    for a, lay in e.exit.layouts:
                        back = e.entry.layout(a)
                        if back is not None and back != lay:
                            remaps.append(_event(opt, proc.name, a, ph.id, ph.id, execs, lay, back, an))
        for a, lay in sol_entry(sol).items():
            first.setdefault(a, lay)
        _merge_entry(entry, name, first)
        for r in sol.selection.remaps:
            src = _phase_id(r.source)
            dst = _phase_id(r.target)
            if dst is None:
                continue  # leaving the procedure: the caller accounts for it
            remaps.append(_event(opt, name, r.array, src or 0, dst, r.count * scale, r.key_from, r.key_to, an))

    def expand_static(name: str, mapping: Mapping, scale: float) -> None:
        proc = an.procedure(name)
        touched = set()
        for ph in proc.phases:
            gids = _gids(proc, ph, opt.table, mapping)
            touched |= set(gids)
            m = mapping.restrict(gids)
            pe = opt.ev.phase(proc, ph, m, opt.machine)
            phases.append(PhaseDecision(name, ph.id, ph.kind, ph.span, proc.flow.execution(ph.id) * scale, m,
                                        pe.cost if ph.kind == "loop" else None, ph.callee, "static"))
            if ph.kind == "call" and ph.callee in opt.solutions:
                expand_static(ph.callee, mapping, proc.flow.execution(ph.id) * scale)
        _merge_entry(entry, name, dict(mapping.restrict(touched).layouts))

    def _merge_entry(entry: dict, name: str, layouts: dict) -> None:
        if name in entry and dict(entry[name].layouts) != layouts:
            notes.append(f"{name} is called with different mappings (it would be cloned)")
        entry.setdefault(name, Mapping.of(layouts))

    expand_dynamic(main, 1.0)
    order = {p.name: k for k, p in enumerate(an.procedures)}
    entries = tuple(sorted(entry.items(), key=lambda kv: order.get(kv[0], 0)))
    return Solution("dynamic", tuple(phases), tuple(remaps), entries,
                    method="; ".join(dict.fromkeys(methods)), notes=tuple(dict.fromkeys(notes)))


def sol_entry(sol: ProcSolution) -> dict[str, Layout]:
    out: dict[str, Layout] = {}
    for p in sol.problem.phases:
        if p.name.startswith("in:"):
            m = sol.pools[p.name][sol.selection.chosen(p.name)][0]
            out.update(dict(m.layouts))
    return out


def _phase_id(name: str) -> int | None:
    if name.startswith("in:"):
        return 0
    if name.startswith("out:"):
        return None
    return int(name.rsplit(":", 1)[1])


def _event(opt: DynamicOptimizer, proc: str, gid: str, src: int, dst: int, count: float,
           a: Layout, b: Layout, an: ProgramAnalysis) -> RemapEvent:
    elem = opt.table.array(gid).elem_size
    v = remap_volume(a, b, opt.nranks, elem)
    once = opt.machine.message_cost(v.bytes, v.messages) if v.bytes else 0.0
    name = opt.table.local_name(gid, proc) or gid
    return RemapEvent(proc, gid, name, src, dst, count, a, b, v.bytes, v.messages, once * count)


# --------------------------------------------------------------------------- the plan


def make_plan(an: ProgramAnalysis, machine: MachineProfile, procs: int, *,
              semantics: str = "hpf", fixed: dict[str, Layout] | None = None,
              measured: dict[str, float] | None = None, table: ArrayTable | None = None,
              alignment: Alignment | None = None, evaluator: Evaluator | None = None) -> Plan:
    """Static and dynamic solutions of ``an`` on ``procs`` processors.

    ``fixed``: layouts the user's directives impose (global ids), kept in every
    candidate; ``measured``: sequential phase times from a profile run
    (``"UNIT:id" -> seconds``); ``table``/``alignment``/``evaluator``: reuse
    across calls (a sweep over processor counts aligns once; a sweep over
    machine parameters at one processor count keeps the evaluator, whose
    cached work is independent of the machine's speeds).
    """
    table = table or build_array_table(an.program)
    alignment = alignment or align_program(an, table, machine.solver_time_limit)
    if evaluator is None or evaluator.nranks != procs:
        evaluator = Evaluator(an, table, procs, measured)
    statics = static_candidates(evaluator, alignment, machine, fixed)
    static = static_solution(statics[0], an, table)
    opt = DynamicOptimizer(an, evaluator, statics, machine, semantics, alignment)
    opt.solve_all(machine.solver_time_limit)
    dynamic = dynamic_solution(opt, an)
    return Plan(procs, machine, table, alignment, tuple(statics), static, dynamic, an)


__all__ = ["Plan", "Solution", "PhaseDecision", "RemapEvent", "make_plan", "ProcEntry"]
