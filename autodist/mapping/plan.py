"""The mapping decision for a program on one machine: static, dynamic, chosen.

:func:`make_plan` runs the whole mapping stage on an analyzed program:
global arrays, alignment, static candidates, the dynamic (interprocedural)
selection, and turns both into :class:`Solution` values that the emitter and
the reports read: per phase the mapping and its cost, per remap its array,
layouts, place, count and cost.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from ..analysis.model import ProgramAnalysis
from ..errors import ProfileError
from ..ir import ENTRY_REASON, Opaque, Span, Unit
from ..layout.model import Layout
from ..machine import MachineProfile
from .arrays import ArrayTable, build_array_table
from .candidates import Alignment, align_program
from .dynamic import DynamicOptimizer, InnerChoice, ProcEntry, phase_name
from .evaluate import Evaluator, shared_cost
from .memory import footprint, mapping_footprint
from .model import Mapping, PhaseCost, Progress
from .remap import remap_cost, remap_volume
from .static import DYNAMIC_WITHOUT_REMAPS, StaticCandidate, static_candidates


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
    clones: tuple[tuple[str, str], ...] = ()  # (procedure, clone name)
    solver: tuple[dict, ...] = ()  # per procedure: how its selection was solved
    call_sites: tuple[tuple[str, int, str], ...] = ()  # (caller, call line, callee instance)

    def unit_of(self, instance: str) -> str:
        """The procedure an instance (clone) is a version of."""
        return dict((c, p) for p, c in self.clones).get(instance, instance)

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

    def processors(self) -> int:
        """The most processors any of its layouts is distributed over (1: all replicated)."""
        layouts = [lay for _, m in self.entry for _, lay in m.layouts]
        layouts += [lay for p in self.phases for _, lay in p.mapping.layouts]
        layouts += [lay for r in self.remaps for lay in (r.src, r.dst)]
        return max((lay.nprocs for lay in layouts), default=1)

    def fewer(self, procs: int) -> int:
        """The processors it runs on when that leaves some of ``procs`` idle, else 0."""
        used = self.processors() if procs else 0
        return used if 1 < used < procs else 0

    def describe(self, procs: int = 0) -> str:
        """``A,B,X(BLOCK,*)`` for a static solution; the layouts each array goes
        through for a dynamic one: ``A,B,X(BLOCK,*)<->(*,BLOCK)``; given the
        processor count ``procs``, one that leaves some of them idle says so:
        ``A,B,X(BLOCK,*) on 4 of 16 processors``."""
        used = self.fewer(procs)
        return self._layouts_text() + (f" on {used} of {procs} processors" if used else "")

    def _layouts_text(self) -> str:
        seen: dict[str, list[str]] = {}
        for _, m in self.entry:
            for a, lay in m.layouts:
                seen.setdefault(a, []).append(lay.distribute_str())
        for p in self.phases:
            for a, lay in p.mapping.layouts:
                d = lay.distribute_str()
                if d not in seen.setdefault(a, []):
                    seen[a].append(d)
        groups: dict[str, list[str]] = {}
        for a, ds in sorted(seen.items()):
            ds = list(dict.fromkeys(ds))
            key = ds[0] if len(ds) == 1 else "<->".join(ds) if len(ds) == 2 else "->".join(ds)
            groups.setdefault(key, []).append(a)
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


def static_solution(cand: StaticCandidate, an: ProgramAnalysis, table: ArrayTable,
                    nranks: int, machine: MachineProfile) -> Solution:
    """The static candidate as a solution; an actual mapped otherwise than its
    dummy is remapped into the call and back (events at the call's phase)."""
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
    remaps = tuple(remap_event(table, nranks, machine, c.procedure, c.array, c.phase, c.phase, c.executions, x, y)
                   for c in cand.evaluation.calls
                   for x, y in ((c.actual_layout, c.dummy_layout), (c.dummy_layout, c.actual_layout)))
    return Solution("static", tuple(phases), remaps, entry, method=cand.describe())


def _gids(proc, ph, table: ArrayTable, mapping: Mapping) -> tuple[str, ...]:
    out = set()
    for name in ph.arrays:
        g = table.global_id(proc.name, name)
        if g is not None and g in mapping:
            out.add(g)
    return tuple(sorted(out))


# --------------------------------------------------------------------------- dynamic


@dataclass
class _Instance:
    """One version of a procedure in a dynamic solution (a clone when a
    procedure is called with different mappings)."""

    name: str
    procedure: str
    entry: ProcEntry | None  # None: the main program (its own dynamic selection)
    scale: float = 0.0  # invocations per run
    shared: float = 0.0  # of them, those each processor runs (owner-computes at calls: see Evaluator.call_share)

    @property
    def share(self) -> float:
        return self.shared / self.scale if self.scale else 1.0


def dynamic_solution(opt: DynamicOptimizer, an: ProgramAnalysis) -> Solution:
    """Expand the bottom-up selections top-down from the main program.

    A procedure whose call sites choose different entries of the procedure
    database becomes several instances (``CALC1``, ``CALC1_1``, ...): the
    annotated program holds one clone per instance.
    """
    main = an.bottom_up[-1] if an.bottom_up else None
    if main is None:
        return Solution("dynamic", (), (), ())
    # the main program, and every procedure no other calls (a library's
    # routines, one passed as an argument) as often as the analysis assumes
    called = {callee for _caller, callee in an.call_graph}
    roots = [main] + [n for n in reversed(an.bottom_up) if n != main and n not in called]
    instances: dict[str, _Instance] = {
        n: _Instance(n, n, None, 1.0 if n == main else an.procedure(n).invocations) for n in roots}
    for inst in instances.values():
        inst.shared = inst.scale
    by_key: dict[tuple, str] = {}
    sites: list[tuple[str, int, str]] = []  # (caller instance, call line, callee instance)
    order: list[str] = list(roots)

    def chosen_phase(inst: _Instance, ph) -> tuple[Mapping, PhaseCost | None, ProcEntry | None]:
        proc = an.procedure(inst.procedure)
        if inst.entry is None or not inst.entry.static:
            return opt.solutions[inst.procedure].chosen(phase_name(ph))
        mapping = inst.entry.entry
        m = mapping.restrict(_gids(proc, ph, opt.table, mapping))
        if ph.kind == "call" and ph.callee in opt.solutions:
            callee = _static_entry(opt, ph.callee, mapping)
            return m, None, callee
        return m, opt.ev.phase(proc, ph, m, opt.machine).cost, None

    # (instance, phase, choice, entry used, count, the part of the calls each processor runs)
    inner_remaps: list[tuple[str, int, InnerChoice, ProcEntry, float, float]] = []

    singles: dict[str, bool] = {}

    def instance_for(callee: str, e: ProcEntry) -> tuple[_Instance, ProcEntry]:
        """The instance running ``callee`` with entry ``e``: a clone per
        distinct entry, except for FUNCTIONs (a clone would need a declared
        type in every caller) and units with ENTRY statements (a clone would
        define their names twice), which keep their first instance."""
        key = (callee, e.name, e.entry)
        if key not in by_key:
            existing = [k for k in by_key if k[0] == callee]
            if existing and callee not in singles:
                singles[callee] = _single_instance(an.program.unit(callee))
            if existing and singles[callee]:
                first = instances[by_key[existing[0]]]
                return first, first.entry  # type: ignore[return-value]
            iname = callee if not existing else f"{callee}_{len(existing)}"
            by_key[key] = iname
            instances[iname] = _Instance(iname, callee, e)
            order.append(iname)
        return instances[by_key[key]], e

    # top-down: callers before callees, so every instance's scale is complete when expanded
    for name in reversed(an.bottom_up):
        for inst in [i for i in list(instances.values()) if i.procedure == name]:
            proc = an.procedure(name)
            for ph in proc.phases:
                execs = proc.flow.execution(ph.id) * inst.scale
                if ph.inner_calls:
                    m, _c, _e = chosen_phase(inst, ph)
                    for choice in opt.inner_calls(proc, ph, m):
                        callee, used = instance_for(choice.call.callee, choice.entry)
                        site = opt.ev.call_share(proc, ph, choice.call.callee, choice.call.args, choice.call.line, m)
                        callee.scale += execs * choice.call.count
                        callee.shared += execs * choice.call.count * inst.share * site
                        sites.append((inst.name, choice.call.line, callee.name))
                        inner_remaps.append((inst.name, ph.id, choice, used, execs * choice.call.count * inst.share,
                                             site))
                if ph.kind != "call" or ph.callee not in opt.solutions:
                    continue
                _m, _c, e = chosen_phase(inst, ph)
                if e is None:
                    continue
                callee, _used = instance_for(ph.callee, e)
                callee.scale += execs
                callee.shared += execs * inst.share
                sites.append((inst.name, ph.span.first, callee.name))
    phases: list[PhaseDecision] = []
    remaps: list[RemapEvent] = []
    entry: list[tuple[str, Mapping]] = []
    methods: list[str] = []
    reports: list[dict] = []
    for iname in order:
        inst = instances[iname]
        proc = an.procedure(inst.procedure)
        first: dict[str, Layout] = {}
        for ph in proc.phases:
            m, cost, e = chosen_phase(inst, ph)
            for a, lay in m.layouts:
                first.setdefault(a, lay)
            execs = proc.flow.execution(ph.id) * inst.scale
            callee_inst = next((c for (ci, line, c) in sites if ci == iname and line == ph.span.first), ph.callee)
            phases.append(PhaseDecision(iname, ph.id, ph.kind, ph.span, execs, m,
                                        shared_cost(cost, inst.share) if cost is not None else None, callee_inst,
                                        e.name if e is not None else None))
            if e is not None and opt.semantics == "hpf":
                for a, lay in e.exit.layouts:  # the way back to the caller's mapping, paid in the call
                    back = e.entry.layout(a)
                    if back is not None and back != lay:
                        remaps.append(_event(opt, iname, a, ph.id, ph.id, execs * inst.share, lay, back,
                                             inst.procedure))
        if inst.entry is None or not inst.entry.static:
            sol = opt.solutions[inst.procedure]
            methods.append(f"{inst.procedure}: {sol.method}")
            reports.append(sol.solver_report())
            for a, lay in sol.entry_layouts().items():
                first.setdefault(a, lay)
            for r in sol.remaps:
                dst = _phase_id(r.target)
                if dst is None:
                    continue  # leaving the procedure: the caller accounts for it
                remaps.append(_event(opt, iname, r.array, _phase_id(r.source) or 0, dst, r.count * inst.shared,
                                     r.key_from, r.key_to, inst.procedure))
        else:
            first.update(dict(inst.entry.entry.layouts))
        entry.append((iname, Mapping.of(first)))
    for iname, pid, choice, used, count, site in inner_remaps:
        unit = instances[iname].procedure
        proc = an.procedure(unit)
        m = chosen_phase(instances[iname], proc.phase(pid))[0]
        for a, here, lay in opt.call_moves(proc, choice.call, m, used):  # into the call and back
            remaps.append(_event(opt, iname, a, pid, pid, count, here, lay, unit))
            remaps.append(_event(opt, iname, a, pid, pid, count, lay, here, unit))
        if opt.semantics == "hpf":
            for a, lay in used.exit.layouts:  # the callee's way back to its entry mapping
                back = used.entry.layout(a)
                if back is not None and back != lay:
                    remaps.append(_event(opt, iname, a, pid, pid, count * site, lay, back, unit))
    clones = tuple(sorted({(i.procedure, i.name) for i in instances.values() if i.name != i.procedure}))
    notes = tuple(f"{p} is called with different mappings: clone {c}" for p, c in clones)
    return Solution("dynamic", tuple(phases), tuple(remaps), tuple(entry),
                    method="; ".join(dict.fromkeys(methods)), notes=notes,
                    clones=clones, call_sites=tuple(sites),
                    solver=tuple({r["procedure"]: r for r in reports}.values()))


def _single_instance(unit: Unit) -> bool:
    """Can the annotated program hold only one version of ``unit``?"""
    return unit.kind == "function" or any(
        isinstance(s, Opaque) and s.reason == ENTRY_REASON for s in unit.statements())


def _static_entry(opt: DynamicOptimizer, callee: str, mapping: Mapping) -> ProcEntry | None:
    """The callee's database entry for a static mapping of the caller."""
    for e in opt.solutions[callee].entries:
        if e.static and all(mapping.layout(a) in (None, lay) for a, lay in e.entry.layouts):
            return e
    return None


def _phase_id(name: str) -> int | None:
    if name.startswith("in:"):
        return 0
    if name.startswith("out:"):
        return None
    return int(name.rsplit(":", 1)[1])


def _event(opt: DynamicOptimizer, proc: str, gid: str, src: int, dst: int, count: float,
           a: Layout, b: Layout, unit: str | None = None) -> RemapEvent:
    return remap_event(opt.table, opt.nranks, opt.machine, proc, gid, src, dst, count, a, b, unit)


def remap_event(table: ArrayTable, nranks: int, machine: MachineProfile, proc: str, gid: str, src: int, dst: int,
                count: float, a: Layout, b: Layout, unit: str | None = None) -> RemapEvent:
    """Array ``gid`` of procedure instance ``proc`` remapped from ``a`` to
    ``b`` on the way from phase ``src`` into phase ``dst``, ``count`` times."""
    elem = table.array(gid).elem_size
    v = remap_volume(a, b, nranks, elem)
    once = remap_cost(a, b, nranks, elem, machine)
    name = table.local_name(gid, unit or proc) or gid
    return RemapEvent(proc, gid, name, src, dst, count, a, b, v.bytes, v.messages, once * count)


# --------------------------------------------------------------------------- the plan


def make_plan(an: ProgramAnalysis, machine: MachineProfile, procs: int, *,
              semantics: str = "hpf", fixed: dict[str, Layout] | None = None,
              measured: dict[str, float] | None = None, table: ArrayTable | None = None,
              alignment: Alignment | None = None, evaluator: Evaluator | None = None,
              db=None, progress: Progress | None = None) -> Plan:
    """Static and dynamic solutions of ``an`` on ``procs`` processors.

    ``fixed``: layouts the user's directives impose (global ids), kept in every
    candidate; ``measured``: sequential phase times from a profile run
    (``"UNIT:id" -> seconds``); ``table``/``alignment``/``evaluator``: reuse
    across calls (a sweep over processor counts aligns once; a sweep over
    machine parameters at one processor count keeps the evaluator, whose
    cached work is independent of the machine's speeds); ``db``: a
    :class:`.database.ProcedureDatabase` to reuse and fill; ``progress``:
    told how far the static search and the selection are.
    """
    table = table or build_array_table(an.program)
    alignment = alignment or align_program(an, table, machine.solver_time_limit)
    if evaluator is None or evaluator.nranks != procs:
        evaluator = Evaluator(an, table, procs, measured)
    statics = static_candidates(evaluator, alignment, machine, fixed, progress)
    if machine.memory_per_processor:
        statics = fitting(statics, table, procs, machine)
    static = static_solution(statics[0], an, table, procs, machine)
    opt = DynamicOptimizer(an, evaluator, statics, machine, semantics, alignment)
    opt.solve_all(machine.solver_time_limit, db, progress)
    dynamic = dynamic_solution(opt, an)
    # the dynamic selection searches a space holding every static mapping: one
    # without remapping or clones that is cheaper is a static mapping the
    # search by template distributions missed, and a dynamic one dearer than
    # the static optimum (a solver stopped by its time limit) is replaced by it
    uniform = _uniform_mapping(dynamic)
    if uniform is not None and dynamic.total < static.total * (1 - 1e-9):
        found = StaticCandidate((), evaluator.evaluate(uniform, machine), DYNAMIC_WITHOUT_REMAPS)
        fits = not machine.memory_per_processor or (
            mapping_footprint(uniform, table, procs) <= machine.memory_per_processor)
        if fits and found.total < statics[0].total:
            statics.insert(0, found)
            static = static_solution(found, an, table, procs, machine)
    if machine.memory_per_processor and dynamic is not static:
        need = solution_footprint(dynamic, table, procs)
        if need > machine.memory_per_processor:
            dynamic = dataclasses.replace(
                static, kind="dynamic", notes=static.notes + (
                    f"the dynamic mapping may need {need:,} bytes per processor, more than the profile's "
                    f"memory_per_processor ({machine.memory_per_processor:,.0f}); the static mapping is used",))
    if dynamic.total > static.total * (1 + 1e-9):
        dynamic = dataclasses.replace(
            static, kind="dynamic", notes=static.notes + (
                f"the dynamic selection found nothing cheaper than the static mapping "
                f"({dynamic.total:.6g} s against {static.total:.6g} s); the static mapping is used",))
    return Plan(procs, machine, table, alignment, tuple(statics), static, dynamic, an)


def fitting(statics: list[StaticCandidate], table: ArrayTable, procs: int,
            machine: MachineProfile) -> list[StaticCandidate]:
    """The static candidates whose arrays fit in the profile's memory per
    processor (cheapest first); none fitting is an error naming the key."""
    cap = machine.memory_per_processor
    needs = [mapping_footprint(c.evaluation.mapping, table, procs) for c in statics]
    kept = [c for c, n in zip(statics, needs) if n <= cap]
    if not kept:
        raise ProfileError(
            f"key 'memory_per_processor': the program's arrays need at least {min(needs):,} bytes per "
            f"processor on {procs} processors (the least of {len(statics)} candidate mappings), "
            f"more than {cap:,.0f}", machine.source or None)
    return kept


def solution_footprint(sol: Solution, table: ArrayTable, procs: int) -> int:
    """Bytes per processor with every array at its largest layout of ``sol``."""
    layouts: dict[str, set[Layout]] = {}
    for _, m in sol.entry:
        for a, lay in m.layouts:
            layouts.setdefault(a, set()).add(lay)
    for p in sol.phases:
        for a, lay in p.mapping.layouts:
            layouts.setdefault(a, set()).add(lay)
    for r in sol.remaps:
        layouts.setdefault(r.array, set()).update((r.src, r.dst))
    return footprint(layouts, table, procs)


def _uniform_mapping(sol: Solution) -> Mapping | None:
    """The one layout per array of a solution without remapping or clones,
    else None."""
    if sol.remaps or sol.clones:
        return None
    layouts: dict[str, Layout] = {}
    for m in [m for _, m in sol.entry] + [p.mapping for p in sol.phases]:
        for a, lay in m.layouts:
            if layouts.setdefault(a, lay) != lay:
                return None
    return Mapping.of(layouts)


__all__ = ["Plan", "Solution", "PhaseDecision", "RemapEvent", "make_plan", "ProcEntry"]
