"""Evaluate a program-wide mapping: the cost of every phase, weighted by how
often it runs, with the machine-independent work cached so that re-pricing on
another machine (a sweep) costs almost nothing."""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis.model import Phase, ProcedureAnalysis, ProgramAnalysis
from ..ir import Span
from ..layout.model import Axis, Layout
from ..machine import MachineProfile
from .arrays import ArrayTable
from .cost import ArrayFacts, PhaseWork, phase_work, price
from .model import Mapping, PhaseCost


@dataclass(frozen=True)
class PhaseEval:
    """One phase under one mapping: ``cost`` per execution, ``executions`` per run."""

    procedure: str
    phase: int
    kind: str
    span: Span
    executions: float
    cost: PhaseCost
    callee: str | None = None

    @property
    def total(self) -> float:
        return self.executions * self.cost.total


@dataclass(frozen=True)
class Evaluation:
    """A program-wide static mapping and what it costs per run."""

    mapping: Mapping
    phases: tuple[PhaseEval, ...]

    @property
    def computation(self) -> float:
        return sum(p.executions * p.cost.computation for p in self.phases)

    @property
    def movement(self) -> float:
        return sum(p.executions * p.cost.movement for p in self.phases)

    @property
    def total(self) -> float:
        return self.computation + self.movement


def localize(layout: Layout, local_bounds: tuple[tuple[int, int], ...]) -> Layout:
    """The same layout seen through another declaration of the array (a dummy
    declared ``A(0:N-1)`` for an actual ``A(1:N)``): shift the alignment."""
    if layout.bounds == local_bounds or len(local_bounds) != layout.rank:
        return layout
    delta = [g[0] - l[0] for g, l in zip(layout.bounds, local_bounds)]
    align = tuple(
        Axis(a.dim, a.stride, a.offset + a.stride * delta[a.dim]) if isinstance(a, Axis) else a
        for a in layout.align
    )
    return Layout(local_bounds, layout.template, align, layout.formats, layout.grid,
                  template_name=layout.template_name, procs_name=layout.procs_name)


class Evaluator:
    """Prices phases under mappings; the work of a phase under the layouts of
    the arrays it uses is computed once (cache keyed by value)."""

    def __init__(self, an: ProgramAnalysis, table: ArrayTable, nranks: int,
                 measured: dict[str, float] | None = None):
        self.an = an
        self.table = table
        self.nranks = nranks
        self.measured = measured or {}
        self._cache: dict[tuple, PhaseWork] = {}
        self._facts: dict[tuple[str, int], dict[str, ArrayFacts]] = {}
        self._names: dict[tuple[str, int], dict[str, str]] = {}

    def phase_arrays(self, proc: ProcedureAnalysis, ph: Phase) -> dict[str, str]:
        """Local name -> global id of the arrays of a phase."""
        key = (proc.name, ph.id)
        if key not in self._names:
            out = {}
            for name in {a.array for a in ph.accesses} | set(ph.arrays):
                g = self.table.global_id(proc.name, name)
                if g is not None:
                    out[name] = g
            self._names[key] = out
        return self._names[key]

    def _phase_facts(self, proc: ProcedureAnalysis, ph: Phase) -> dict[str, ArrayFacts]:
        key = (proc.name, ph.id)
        if key not in self._facts:
            unit = self.an.program.unit(proc.name)
            out = {}
            for name in self.phase_arrays(proc, ph):
                sym = unit.symbol(name) if unit is not None else None
                bounds = tuple(d.bounds for d in sym.dims) if sym is not None and sym.dims else None
                if bounds is None or any(b is None for b in bounds):
                    g = self.table.array(self.phase_arrays(proc, ph)[name])
                    bounds = g.bounds
                if bounds is None:
                    continue
                out[name] = ArrayFacts(bounds, sym.type.size if sym is not None and sym.type.size else 8)
            self._facts[key] = out
        return self._facts[key]

    def local_layouts(self, proc: ProcedureAnalysis, ph: Phase, mapping: Mapping) -> dict[str, Layout]:
        facts = self._phase_facts(proc, ph)
        out = {}
        for name, gid in self.phase_arrays(proc, ph).items():
            lay = mapping.layout(gid)
            if lay is not None and name in facts:
                out[name] = localize(lay, facts[name].bounds)
        return out

    def work(self, proc: ProcedureAnalysis, ph: Phase, mapping: Mapping) -> PhaseWork:
        layouts = self.local_layouts(proc, ph, mapping)
        key = (proc.name, ph.id, tuple(sorted(layouts.items())))
        got = self._cache.get(key)
        if got is None:
            got = phase_work(ph, layouts, self._phase_facts(proc, ph), self.nranks)
            self._cache[key] = got
        return got

    def phase(self, proc: ProcedureAnalysis, ph: Phase, mapping: Mapping, machine: MachineProfile) -> PhaseEval:
        if ph.kind != "loop":
            cost = PhaseCost(0.0, 0.0, 0, 0, (), ())
        else:
            cost = price(self.work(proc, ph, mapping), machine, self.measured.get(ph.key))
        return PhaseEval(proc.name, ph.id, ph.kind, ph.span, proc.executions(ph.id), cost, ph.callee)

    def evaluate(self, mapping: Mapping, machine: MachineProfile) -> Evaluation:
        phases = tuple(
            self.phase(proc, ph, mapping, machine)
            for proc in self.an.procedures
            for ph in proc.phases
        )
        return Evaluation(mapping, phases)
