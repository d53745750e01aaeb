"""Evaluate a program-wide mapping: the cost of every phase, weighted by how
often it runs, with the machine-independent work cached so that re-pricing on
another machine (a sweep) costs almost nothing."""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Iterable, Iterator

from .. import ir
from ..analysis.actuals import element_block
from ..analysis.model import Phase, ProcedureAnalysis, ProgramAnalysis
from ..forking import MAX_WORKERS, ForkPool, may_fork, processors
from ..ir import Span
from ..layout.model import Axis, Layout
from ..machine import MachineProfile
from .arrays import ArrayTable
from .cost import ArrayFacts, PhaseWork, phase_work, price
from .model import Mapping, PhaseCost
from .remap import remap_cost, remap_volume


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
class CallRemap:
    """An actual argument whose dummy is mapped otherwise: remapped into the
    call and back on return (HPF's prescriptive dummy mapping), per call."""

    procedure: str
    phase: int
    line: int
    array: str  # global id of the actual
    dummy: str  # global id of the dummy
    actual_layout: Layout
    dummy_layout: Layout  # the dummy's layout seen through the actual's declaration
    executions: float  # calls per run
    cost: float  # seconds per call, both ways

    @property
    def total(self) -> float:
        return self.executions * self.cost


@dataclass(frozen=True)
class Evaluation:
    """A program-wide static mapping and what it costs per run."""

    mapping: Mapping
    phases: tuple[PhaseEval, ...]
    calls: tuple[CallRemap, ...] = ()

    @cached_property
    def computation(self) -> float:
        return sum(p.executions * p.cost.computation for p in self.phases)

    @cached_property
    def movement(self) -> float:
        return sum(p.executions * p.cost.movement for p in self.phases)

    @cached_property
    def remapping(self) -> float:
        return sum(c.total for c in self.calls)

    @cached_property
    def total(self) -> float:
        return self.computation + self.movement + self.remapping


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


def seen_through(layout: Layout, bounds: tuple[tuple[int, int], ...] | None) -> Layout | None:
    """A dummy's layout as its actual argument (declared with ``bounds``)
    would have it: :func:`localize`, a template dimension nothing is
    distributed along widened to the actual's extent (a dummy declared
    ``X(1)`` for a 49-element actual); None when a distributed dimension does
    not fit or the dummy has another rank (no layout of the actual is that
    one: a remap is only between layouts of one shape)."""
    if not bounds:
        return layout
    if len(bounds) != layout.rank:
        return None
    seen = localize(layout, bounds)
    template = list(seen.template)
    for t, target in enumerate(seen.align):
        if not isinstance(target, Axis) or seen.bounds[target.dim][1] < seen.bounds[target.dim][0]:
            continue
        lo, hi = sorted((target(seen.bounds[target.dim][0]), target(seen.bounds[target.dim][1])))
        if template[t][0] <= lo and hi <= template[t][1]:
            continue
        if seen.formats[t].distributed:
            return None
        template[t] = (min(lo, template[t][0]), max(hi, template[t][1]))
    if tuple(template) == seen.template:
        return seen
    return Layout(seen.bounds, tuple(template), seen.align, seen.formats, seen.grid,
                  template_name=seen.template_name, procs_name=seen.procs_name)


def _procs_along(lay: Layout, t: int) -> int:
    """Processors along distributed template dimension ``t``."""
    k = sum(1 for f in lay.formats[:t] if f.distributed)
    return lay.grid[k] if k < len(lay.grid) else 1


def shared_cost(c: PhaseCost, share: float) -> PhaseCost:
    """A phase's cost per execution when each processor runs ``share`` of its executions."""
    if share == 1.0:
        return c
    return replace(c, computation=c.computation * share, movement=c.movement * share)


def _shared(pe: PhaseEval, share: float) -> PhaseEval:
    """A phase's cost when each processor runs ``share`` of its executions."""
    if share == 1.0:
        return pe
    return replace(pe, cost=shared_cost(pe.cost, share))


def _call_sites(ph: Phase) -> list[tuple[str | None, tuple, int, float]]:
    """(callee, actuals, line, calls per execution of the phase) of the
    calls of a phase: a call phase's call, or the calls inside a loop phase."""
    sites = [(c.callee, c.args, c.line, c.count) for c in ph.inner_calls]
    if ph.kind == "call" and ph.callee:
        sites.append((ph.callee, ph.call_args, ph.span.first, 1.0))
    return sites


#: A batch of phase work goes to forked workers when computing it here would
#: take longer than this many seconds (forking and sending the work back cost
#: a few hundredths).
PARALLEL_SECONDS = 0.5


class Evaluator:
    """Prices phases under mappings; the work of a phase under the layouts of
    the arrays it uses is computed once (cache keyed by value).

    Within :meth:`workers`, :meth:`prepare` computes the work of a batch of
    mappings (the trials of a search) on forked workers ahead of their
    evaluation."""

    def __init__(self, an: ProgramAnalysis, table: ArrayTable, nranks: int,
                 measured: dict[str, float] | None = None):
        self.an = an
        self.table = table
        self.nranks = nranks
        self.measured = measured or {}
        self._cache: dict[tuple, PhaseWork] = {}
        self._quick: dict[tuple, PhaseWork] = {}  # the same by the mapping's global layouts (see work)
        self._memo: dict[tuple[str, int], dict] = {}  # per phase, see phase_work
        self._facts: dict[tuple[str, int], dict[str, ArrayFacts]] = {}
        self._names: dict[tuple[str, int], dict[str, str]] = {}
        self._sites: dict[tuple, list] = {}  # see _owned_actuals
        # evaluate's look-ups: by machine, phase, share and the layouts of its arrays
        self._machines: dict[MachineProfile, int] = {}
        self._evals: dict[tuple, PhaseEval] = {}
        self._remaps: dict[tuple, tuple[CallRemap, ...]] = {}
        self._shares: dict[tuple, dict[str, float]] = {}
        self._phases: list | None = None
        self._calls: list | None = None
        self._share_gids: tuple[str, ...] | None = None
        self._pool: ForkPool | None = None
        self._seconds: dict[tuple[str, int], float] = {}  # per phase, its last work computed here
        self._placed: dict[tuple[str, int], int] = {}  # per phase, the worker computing its work

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
        # first by the mapping's own layouts of the phase's arrays: no localizing, no
        # sorting when a mapping differs from one seen before only in other arrays
        quick = (proc.name, ph.id, mapping.layouts_of(self.phase_arrays(proc, ph).values()))
        got = self._quick.get(quick)
        if got is None:
            got = self._quick[quick] = self._work(proc, ph, mapping)
        return got

    def _work(self, proc: ProcedureAnalysis, ph: Phase, mapping: Mapping) -> PhaseWork:
        layouts = self.local_layouts(proc, ph, mapping)
        key = (proc.name, ph.id, tuple(sorted(layouts.items())))
        got = self._cache.get(key)
        if got is None:
            start = time.perf_counter()
            got = self._cache[key] = self._compute(key)
            self._seconds[key[:2]] = time.perf_counter() - start
        return got

    def _compute(self, key: tuple) -> PhaseWork:
        """The work of phase ``key[:2]`` under the local layouts ``key[2]``."""
        proc = self.an.procedure(key[0])
        ph = proc.phase(key[1])
        memo = self._memo.setdefault(key[:2], {})
        return phase_work(ph, dict(key[2]), self._phase_facts(proc, ph), self.nranks, memo)

    @contextmanager
    def workers(self) -> Iterator[None]:
        """Within it, :meth:`prepare` may use forked workers (one per processor)."""
        workers = min(processors(), MAX_WORKERS)
        if self._pool is not None or workers < 2 or not may_fork():
            yield
            return
        self._pool = ForkPool(lambda keys: [self._compute(k) for k in keys], workers)
        try:
            yield
        finally:
            self._pool.close()
            self._pool = None
            self._placed = {}

    def prepare(self, mappings: Iterable[Mapping]) -> None:
        """Compute ahead the work of every loop phase under each of
        ``mappings`` that is not known yet: on the workers, when there are
        workers and the batch would take long here (estimated from each
        phase's last work computed here), the longest first; once the
        workers are started, every batch.  A piece a worker could not do is
        left for its evaluation here."""
        if self._pool is None or self._pool.broken:
            return
        todo: dict[tuple, list[tuple]] = {}
        for m in mappings:
            for proc, ph, gids in self._phase_list():
                if ph.kind != "loop":
                    continue
                quick = (proc.name, ph.id, m.layouts_of(gids))
                if quick in self._quick:
                    continue
                layouts = self.local_layouts(proc, ph, m)
                key = (proc.name, ph.id, tuple(sorted(layouts.items())))
                got = self._cache.get(key)
                if got is not None:
                    self._quick[quick] = got
                else:
                    todo.setdefault(key, []).append(quick)
        # a phase's pieces go together: they share its memo (see phase_work)
        groups: dict[tuple[str, int], list[tuple]] = {}
        for key in todo:
            groups.setdefault(key[:2], []).append(key)
        guess = {ph: self._seconds.get(ph, 0.0) * len(keys) for ph, keys in groups.items()}
        if not groups or (not self._pool.started and (len(groups) < 2 or sum(guess.values()) < PARALLEL_SECONDS)):
            return
        order = sorted(groups, key=lambda ph: -guess[ph])
        # each phase stays on the worker that first computed it (its memo is
        # there, which is also why, once started, the workers do every batch);
        # a new one goes to the least loaded
        load = [0.0] * self._pool.workers
        for ph in order:
            if ph in self._placed:
                load[self._placed[ph]] += guess[ph]
        for ph in order:
            if ph not in self._placed:
                self._placed[ph] = w = load.index(min(load))
                load[w] += guess[ph]
        jobs = [groups[ph] for ph in order]
        for keys, got in zip(jobs, self._pool.map(jobs, lambda i: self._placed[order[i]])):
            for key, work in zip(keys, got or ()):
                self._cache[key] = work
                for quick in todo[key]:
                    self._quick[quick] = work

    def phase(self, proc: ProcedureAnalysis, ph: Phase, mapping: Mapping, machine: MachineProfile) -> PhaseEval:
        if ph.kind != "loop":
            cost = PhaseCost(0.0, 0.0, 0, 0, (), ())
        else:
            cost = price(self.work(proc, ph, mapping), machine, self.measured.get(ph.key))
        return PhaseEval(proc.name, ph.id, ph.kind, ph.span, proc.executions(ph.id), cost, ph.callee)

    def evaluate(self, mapping: Mapping, machine: MachineProfile) -> Evaluation:
        """Every phase and every call's remaps under ``mapping``.  A phase's
        evaluation, a call site's remaps and the procedures' shares are
        looked up by the layouts of the arrays they depend on, so that
        mappings differing in a few arrays (a search over candidates) cost
        only the phases those arrays are in."""
        m = self._machine_index(machine)
        shares = self._shares_for(mapping)
        phases = self._looked_up(self._evals, self._phase_list(), mapping, shares, m,
                                 lambda proc, ph, share: _shared(self.phase(proc, ph, mapping, machine), share))
        calls = self._looked_up(self._remaps, self._call_list(), mapping, shares, m, lambda proc, ph, share: tuple(
            c if share == 1.0 else replace(c, executions=c.executions * share)
            for c in self.call_remaps(proc, ph, mapping, machine)))
        return Evaluation(mapping, tuple(phases), tuple(c for site in calls for c in site))

    @staticmethod
    def _looked_up(cache: dict, entries, mapping: Mapping, shares: dict[str, float], machine: int, compute) -> list:
        """``compute(proc, phase, share)`` for every (procedure, phase, array
        ids) of ``entries``, looked up in ``cache`` by the machine, the phase,
        its share and the layouts of those arrays."""
        out = []
        for proc, ph, gids in entries:
            share = shares.get(proc.name, 1.0)
            key = (machine, proc.name, ph.id, share, mapping.layouts_of(gids))
            got = cache.get(key)
            if got is None:
                got = cache[key] = compute(proc, ph, share)
            out.append(got)
        return out

    def _machine_index(self, machine: MachineProfile) -> int:
        return self._machines.setdefault(machine, len(self._machines))

    def _phase_list(self) -> list[tuple[ProcedureAnalysis, Phase, tuple[str, ...]]]:
        """Every phase, in order, with the global ids of its arrays."""
        if self._phases is None:
            self._phases = [(proc, ph, tuple(self.phase_arrays(proc, ph).values()))
                            for proc in self.an.procedures for ph in proc.phases]
        return self._phases

    def _call_list(self) -> list[tuple[ProcedureAnalysis, Phase, tuple[str, ...]]]:
        """The phases with calls passing arrays, with the global ids of
        those actuals and of their dummies."""
        if self._calls is None:
            self._calls = []
            for proc in self.an.procedures:
                for ph in proc.phases:
                    gids = sorted({g for callee, args, _, _ in _call_sites(ph)
                                   for pair in self.argument_pairs(proc, callee, args).items() for g in pair})
                    if gids:
                        self._calls.append((proc, ph, tuple(gids)))
        return self._calls

    def _shares_for(self, mapping: Mapping) -> dict[str, float]:
        """:meth:`procedure_shares`, looked up by the layouts of the arrays
        passed as element actuals (the only ones it depends on)."""
        if self._share_gids is None:
            self._share_gids = tuple(sorted({
                site[0] for proc in self.an.procedures for ph in proc.phases if ph.kind == "loop"
                for callee, args, line, _ in _call_sites(ph)
                for site in self._owned_actuals(proc, ph, callee, args, line)}))
        key = mapping.layouts_of(self._share_gids)
        got = self._shares.get(key)
        if got is None:
            got = self._shares[key] = self.procedure_shares(mapping)
        return got

    def call_share(self, proc: ProcedureAnalysis, ph: Phase, callee: str, args: tuple, line: int,
                   mapping: Mapping) -> float:
        """The part of a call's work (inside loop phase ``ph``) that one
        processor does under ``mapping``: owner-computes at the call.  An
        element actual whose dummy covers leading dimensions that ``mapping``
        does not distribute (``U(1,I,J)`` into ``X(5)``, ``U`` distributed
        along ``J``) is a block one processor holds; the call runs there, so
        the calls of a parallel loop over ``J`` are spread over the
        processors of that dimension: 1/P of them per processor.  The
        smallest such part over the call's actuals; 1 (every processor runs
        every call) when there is none."""
        if ph.kind != "loop":
            return 1.0
        best = 1.0
        for gid, covered, bounds, subs in self._owned_actuals(proc, ph, callee, args, line):
            lay = mapping.layout(gid)
            if lay is None or not lay.distributed_dims:
                continue
            lay = localize(lay, bounds)
            share = 1.0
            for t, axis in enumerate(lay.align):
                if not lay.formats[t].distributed or not isinstance(axis, Axis):
                    continue  # a replicated or collapsed template dimension
                if axis.dim < covered:
                    share = 1.0  # the block is spread over processors: no owner
                    break
                if subs[axis.dim]:
                    share /= _procs_along(lay, t)
            best = min(best, share)
        return best

    def _owned_actuals(self, proc: ProcedureAnalysis, ph: Phase, callee: str, args: tuple,
                       line: int) -> list[tuple[str, int, tuple[tuple[int, int], ...], tuple[bool, ...]]]:
        """The element actuals of a call whose dummies cover leading
        dimensions: (global id, dimensions covered, declared bounds, per
        dimension whether its subscript is a parallel loop's index around the
        call), computed once per call site."""
        key = (proc.name, ph.id, line, callee, id(args))
        got = self._sites.get(key)
        if got is not None:
            return got
        out = []
        unit = self.an.program.unit(proc.name)
        target = self.an.program.unit(callee)
        around = {lp.var for lp in ph.loops if lp.parallel and lp.line <= line <= lp.last_line}
        for k, a in enumerate(args if unit is not None and target is not None else ()):
            if not isinstance(a, ir.Index):
                continue
            covered = element_block(unit, a, target, k)  # type: ignore[arg-type]
            gid = self.table.global_id(proc.name, a.name)
            if covered is None or gid is None:
                continue
            sym = unit.symbol(a.name)  # type: ignore[union-attr]
            subs = []
            for sub in (ir.affine(x) for x in a.subscripts):
                subs.append(sub is not None and len(sub.terms) == 1 and abs(sub.terms[0][1]) == 1
                            and sub.vars[0] in around)
            out.append((gid, covered, tuple(d.bounds for d in sym.dims), tuple(subs)))  # type: ignore[union-attr,misc]
        self._sites[key] = out
        return out

    def procedure_shares(self, mapping: Mapping) -> dict[str, float]:
        """Per procedure, the part of its invocations each processor runs
        under ``mapping`` (:meth:`call_share` at its call sites inside loop
        phases, times its callers' own part; 1 for the main program)."""
        out: dict[str, float] = {}
        weight: dict[str, float] = {}
        part: dict[str, float] = {}
        for name in reversed(self.an.bottom_up):  # callers first
            proc = self.an.procedure(name)
            if weight.get(name):
                out[name] = part[name] / weight[name]
            mine = out.get(name, 1.0)
            for ph in proc.phases:
                for callee, args, line, count in _call_sites(ph):
                    w = proc.executions(ph.id) * count
                    if w <= 0:
                        continue
                    weight[callee] = weight.get(callee, 0.0) + w
                    part[callee] = part.get(callee, 0.0) + w * mine * self.call_share(proc, ph, callee, args, line, mapping)
        return {n: v for n, v in out.items() if v != 1.0}

    def argument_pairs(self, proc: ProcedureAnalysis, callee_name: str | None, args: tuple) -> dict[str, str]:
        """Dummy global id -> actual global id of the array arguments of a call
        of ``callee_name`` with ``args`` from ``proc`` whose dummy is not the
        same storage as its actual (a procedure called with different arrays).
        Only whole arrays: a dummy associated with an element or a section
        (``CALL DIST(POS(1,I))``) is not the actual array, whose layout it
        cannot be seen through."""
        callee = self.an.program.unit(callee_name) if callee_name else None
        out: dict[str, str] = {}
        if callee is None:
            return out
        for dummy, actual in zip(callee.args, args):
            if not isinstance(actual, ir.Name):
                continue
            d = self.table.global_id(callee.name, dummy)
            a = self.table.global_id(proc.name, actual.name)
            if d is not None and a is not None and d != a:
                out[d] = a
        return out

    def call_remaps(self, proc: ProcedureAnalysis, ph: Phase, mapping: Mapping,
                    machine: MachineProfile) -> list[CallRemap]:
        """The actuals of the calls in ``ph`` (a call phase, or the calls
        inside a loop phase) that ``mapping`` maps otherwise than their dummies."""
        out = []
        for callee, args, line, count in _call_sites(ph):
            for d, a in sorted(self.argument_pairs(proc, callee, args).items()):
                here, there = mapping.layout(a), mapping.layout(d)
                if here is None or there is None:
                    continue
                seen = seen_through(there, self.table.array(a).bounds)
                if seen is None or seen == here:
                    continue  # None: the dummy's distribution does not fit the actual (another shape)
                elem = self.table.array(a).elem_size
                if not (remap_volume(here, seen, self.nranks, elem).elements
                        or remap_volume(seen, here, self.nranks, elem).elements):
                    continue  # the same elements on every rank (another template's name, say)
                cost = (remap_cost(here, seen, self.nranks, elem, machine)
                        + remap_cost(seen, here, self.nranks, elem, machine))
                out.append(CallRemap(proc.name, ph.id, line, a, d, here, seen,
                                     proc.executions(ph.id) * count, cost))
        return out
