"""Dynamic solutions: remapping between phases, over control flow and across
procedures (DDT §4-6).

Procedures are solved bottom-up over the call graph.  For each one a
selection problem (:mod:`.select`) is built:

* a loop phase's candidates are mappings of the arrays it uses: the static
  candidates restricted to them, the best mappings of its own alignment, and
  the mappings its neighbours prefer, the ``candidates_per_phase`` cheapest
  kept (the static ones are always kept, so the dynamic solution is never
  worse than the static one);
* a call phase's candidates come from the callee's entries in the procedure
  database: with HPF semantics (the default) the caller's mapping is restored
  on return, so an entry's arrays enter and leave the call with its initial
  mapping and the callee's own remapping back is part of its cost; with
  FORGE semantics the procedure may leave its final mapping;
* transitions per array between consecutive phases that use it, with the
  frequencies of the phase flow; a procedure other than the main program also
  gets per-array entry and exit points, whose chosen layouts are its initial
  and final mappings.

The database entries of a procedure are its static mappings (one per static
candidate of the program) and its best dynamic solution.  The main program's
optimum is the dynamic solution of the program.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..analysis.model import InnerCall, Phase, ProcedureAnalysis, ProgramAnalysis
from ..layout.model import Layout
from ..machine import MachineProfile
from . import select as sel
from .evaluate import Evaluator, seen_through
from .model import Mapping, PhaseCost, Progress
from .remap import remap_cost
from .static import StaticCandidate


@dataclass(frozen=True)
class ProcEntry:
    """One candidate of a procedure: its initial and final mapping and its cost
    per invocation (its phases, its internal remaps, its callees)."""

    name: str
    entry: Mapping
    exit: Mapping
    cost: float
    static: bool


@dataclass(frozen=True)
class InnerChoice:
    """How a procedure called inside a loop phase runs under the phase's
    mapping: the callee's entry it uses and, when that entry's layouts differ
    from the phase's, the arrays remapped into the call and back (per call)."""

    call: InnerCall
    entry: ProcEntry
    remaps: tuple[tuple[str, Layout, Layout], ...]  # (array, phase layout, entry layout)
    cost: float  # per execution of the phase: count x (callee + remaps in and out)


@dataclass
class ProcSolution:
    """A procedure's selection problem, its best dynamic selection and its entries."""

    procedure: str
    problem: sel.Problem
    selection: sel.Selection
    pools: dict[str, list[tuple[Mapping, PhaseCost | None, ProcEntry | None]]]
    entries: list[ProcEntry] = field(default_factory=list)

    def chosen(self, phase_name: str) -> tuple[Mapping, PhaseCost | None, ProcEntry | None]:
        return self.pools[phase_name][self.selection.chosen(phase_name)]

    @property
    def method(self) -> str:
        return self.selection.method

    @property
    def remaps(self) -> tuple[sel.Remap, ...]:
        return self.selection.remaps

    @property
    def total(self) -> float:
        return self.selection.total

    def entry_layouts(self) -> dict[str, Layout]:
        """Layouts chosen for the procedure's entry points (its initial mapping)."""
        out: dict[str, Layout] = {}
        for p in self.problem.phases:
            if p.name.startswith("in:"):
                out.update(dict(self.pools[p.name][self.selection.chosen(p.name)][0].layouts))
        return out

    def phase_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.problem.phases)

    def solver_report(self) -> dict:
        """How the selection was solved: method, proof, and the ILP's own report."""
        s = self.selection
        out = {"procedure": self.procedure, "method": s.method, "optimal": s.optimal,
               "objective": s.total, "note": s.note}
        if s.solve is not None:
            out.update(solver=s.solve.solver, status=s.solve.status, bound=s.solve.bound, gap=s.solve.gap,
                       seconds=s.solve.seconds)
        return out


#: Cost of a remapping that moves no data: breaks ties in favour of staying.
TIE_BREAK = 1e-9


def phase_name(ph: Phase) -> str:
    return f"{ph.unit}:{ph.id}"


@dataclass(frozen=True)
class _CallTable:
    """A call's entries priced per array: ``shared`` the caller's arrays some
    entry maps, ``layouts[j]`` the distinct layouts of ``shared[j]`` among the
    entries (None: not mapped), ``index[k, j]`` entry k's among them, ``fixed``
    each entry's own cost and way back."""

    shared: tuple[str, ...]
    layouts: list
    index: np.ndarray
    fixed: np.ndarray


class DynamicOptimizer:
    """Bottom-up interprocedural selection of remappings."""

    def __init__(self, an: ProgramAnalysis, evaluator: Evaluator, statics: list[StaticCandidate],
                 machine: MachineProfile, semantics: str = "hpf", alignment=None):
        self.an = an
        self.ev = evaluator
        self.table = evaluator.table
        self.statics = statics
        self.machine = machine
        self.semantics = semantics
        self.nranks = evaluator.nranks
        self.alignment = alignment
        self.k = machine.candidates_per_phase
        self.solutions: dict[str, ProcSolution] = {}
        mapped = set()
        for s in statics:
            mapped |= set(s.evaluation.mapping.arrays)
        self.mapped = mapped  # arrays that have layouts (distributable)
        self._inner: dict[tuple, tuple[InnerChoice, ...]] = {}
        self._remaps: dict[tuple[str, Layout, Layout], float] = {}
        self._seen: dict[tuple, tuple[tuple[str, Layout], ...]] = {}  # keys hold ids: calls and entries live
        self._choices: dict[tuple, InnerChoice] = {}  # as long as the optimizer (the analysis, self.solutions)
        self._tables: dict[tuple, _CallTable] = {}
        self._restricted: dict[tuple[str, ...], list[Mapping]] = {}

    # ------------------------------------------------------------------ helpers

    def remap(self, array: str, a: Layout, b: Layout) -> float:
        """Seconds to remap; a change that moves nothing (BLOCK and CYCLIC on as
        many processors as elements) still costs a nanosecond, so that a tie
        never adds a remapping."""
        if a == b:
            return 0.0
        key = (array, a, b)
        cost = self._remaps.get(key)
        if cost is None:
            cost = self._remaps[key] = max(remap_cost(a, b, self.nranks, self.table.array(array).elem_size,
                                                      self.machine), TIE_BREAK)
        return cost

    def phase_gids(self, proc: ProcedureAnalysis, ph: Phase) -> tuple[str, ...]:
        out = []
        for name in ph.arrays:
            g = self.table.global_id(proc.name, name)
            if g is not None and g in self.mapped:
                out.append(g)
        return tuple(sorted(set(out)))

    def restricted(self, gids: tuple[str, ...]) -> list[Mapping]:
        """Each static candidate's mapping restricted to ``gids`` (sorted), in
        the order of :attr:`statics`; candidates alike on those arrays share
        one object."""
        got = self._restricted.get(gids)
        if got is None:
            alike: dict[tuple, Mapping] = {}
            got = []
            for s in self.statics:
                lays = s.evaluation.mapping.layouts_of(gids)
                m = alike.get(lays)
                if m is None:
                    m = alike[lays] = Mapping(tuple((g, lay) for g, lay in zip(gids, lays) if lay is not None))
                got.append(m)
            self._restricted[gids] = got
        return got

    def _loop_pool(self, proc: ProcedureAnalysis, ph: Phase, gids: tuple[str, ...]) -> list[tuple[Mapping, PhaseCost]]:
        seen: dict[Mapping, PhaseCost] = {}
        for m in self.restricted(gids):
            if m not in seen:
                seen[m] = self.ev.phase(proc, ph, m, self.machine).cost
        return sorted(seen.items(), key=lambda mc: mc[1].total + self.inner_cost(proc, ph, mc[0]))

    def inner_calls(self, proc: ProcedureAnalysis, ph: Phase, m: Mapping) -> tuple[InnerChoice, ...]:
        """The procedures called inside loop phase ``ph`` under its mapping
        ``m``: per call, the callee's cheapest entry with the layouts ``m``
        gives the arrays it shares (no remapping), else the cheapest with the
        remapping into the call and back."""
        key = (proc.name, ph.id, m)
        if key not in self._inner:
            out = []
            for call in ph.inner_calls:
                sol = self.solutions.get(call.callee)
                if sol is None or not sol.entries:
                    continue
                # owner-computes at the call: each processor runs its part of the calls
                share = self.ev.call_share(proc, ph, call.callee, call.args, call.line, m)
                out.append(self._inner_choice(proc, call, sol.entries, m, share))
            self._inner[key] = tuple(out)
        return self._inner[key]

    def _inner_choice(self, proc: ProcedureAnalysis, call: InnerCall, entries, m: Mapping,
                      share: float = 1.0) -> InnerChoice:
        """The cheapest entry for one call under the caller's mapping ``m``
        (the first of the cheapest, in the entries' order), the callee's own
        work scaled by ``share`` (the part of the calls a processor runs).  The
        answer depends on ``m`` only through the arrays the entries map (and
        the share), so mappings that agree on those share it; the entries are priced together per array
        over the few layouts each array has among them (a callee has hundreds
        of entries), then the near-cheapest priced one by one as they always
        were, so rounding picks the same entry."""
        table = self._call_table(proc, call, entries)
        here = tuple(m.layout(a) for a in table.shared)
        key = (proc.name, id(call), here, share)
        best = self._choices.get(key)
        if best is not None:
            return best
        total = share * table.fixed
        for j, (a, mine) in enumerate(zip(table.shared, here)):
            if mine is None:
                continue
            price = np.array([0.0 if lay is None or lay == mine else self.remap(a, mine, lay) + self.remap(a, lay, mine)
                              for lay in table.layouts[j]])
            total += price[table.index[:, j]]
        near = total <= total.min() * (1 + 1e-9) if call.count > 0 else np.arange(len(entries)) == 0
        for k in np.flatnonzero(near):
            e = entries[k]
            moves = tuple((a, m.layout(a), lay) for a, lay in self._seen_layouts(proc, call, e)
                          if m.layout(a) is not None and m.layout(a) != lay)
            one = share * (e.cost + self._way_back(e)) + sum(
                self.remap(a, x, y) + self.remap(a, y, x) for a, x, y in moves)
            if best is None or call.count * one < best.cost:
                best = InnerChoice(call, e, moves, call.count * one)
        assert best is not None
        self._choices[key] = best
        return best

    def _call_table(self, proc: ProcedureAnalysis, call: InnerCall, entries) -> "_CallTable":
        key = (proc.name, id(call))
        table = self._tables.get(key)
        if table is None:
            seen = [dict(self._seen_layouts(proc, call, e)) for e in entries]
            shared = tuple(sorted({a for lays in seen for a in lays}))
            layouts: list[list[Layout | None]] = []
            index = np.zeros((len(entries), len(shared)), dtype=np.intp)
            for j, a in enumerate(shared):
                distinct: dict[Layout | None, int] = {}
                for k, lays in enumerate(seen):
                    index[k, j] = distinct.setdefault(lays.get(a), len(distinct))
                layouts.append(list(distinct))
            fixed = np.array([e.cost + self._way_back(e) for e in entries], dtype=float)
            table = self._tables[key] = _CallTable(shared, layouts, index, fixed)
        return table

    def _seen_layouts(self, proc: ProcedureAnalysis, call: InnerCall, e: ProcEntry) -> tuple[tuple[str, Layout], ...]:
        """The layouts of the callee's entry ``e`` seen from the call site
        (dummies as their actuals), whatever the caller's mapping."""
        key = (proc.name, id(call), id(e))
        seen = self._seen.get(key)
        if seen is None:
            seen = self._seen[key] = self.to_caller(e.entry, self.rename(proc, call.callee, call.args)).layouts
        return seen

    def call_moves(self, proc: ProcedureAnalysis, call: InnerCall, m: Mapping,
                   e: ProcEntry) -> tuple[tuple[str, Layout, Layout], ...]:
        """The arrays a call remaps on the way into the callee's entry ``e``
        from the caller's mapping ``m``: (array, layout in ``m``, entry's layout)."""
        return tuple((a, m.layout(a), lay) for a, lay in self._seen_layouts(proc, call, e)
                     if m.layout(a) is not None and m.layout(a) != lay)

    def inner_cost(self, proc: ProcedureAnalysis, ph: Phase, m: Mapping) -> float:
        """Seconds per execution of loop phase ``ph`` spent in the procedures it calls."""
        return sum(c.cost for c in self.inner_calls(proc, ph, m))

    def _way_back(self, e: ProcEntry) -> float:
        """HPF semantics: remapping a callee's arrays back to their mapping on
        entry before it returns (part of the call's cost)."""
        back = 0.0
        for a, lay in e.exit.layouts:
            first = e.entry.layout(a)
            if first is not None and first != lay:
                back += self.remap(a, lay, first)
        return back

    # ------------------------------------------------------------------ problem

    def build(self, proc: ProcedureAnalysis) -> tuple[sel.Problem, dict]:
        pools: dict[str, list[tuple[Mapping, PhaseCost | None, ProcEntry | None]]] = {}
        phases: list[sel.Phase] = []
        for ph in proc.phases:
            gids = self.phase_gids(proc, ph)
            name = phase_name(ph)
            items: list[tuple[Mapping, PhaseCost | None, ProcEntry | None]] = []
            if ph.kind == "call" and ph.callee in self.solutions:
                rename = self.site_map(proc, ph)
                for e in self.solutions[ph.callee].entries:
                    entry = self.to_caller(e.entry, rename).restrict(gids)
                    items.append((entry, None, e))
            elif ph.kind == "call":
                items.append((Mapping(()), None, None))  # an external procedure: no mapping
            else:
                ranked = self._loop_pool(proc, ph, gids)
                keep = ranked[: self.k]
                must = set(self.restricted(gids))
                for m, c in ranked[self.k:]:
                    if m in must:
                        keep.append((m, c))
                items = [(m, c, None) for m, c in keep]
            pools[name] = items
        # neighbours' preferred mappings: add the best of adjacent phases
        self._share_neighbours(proc, pools)
        for ph in proc.phases:
            name = phase_name(ph)
            cands = []
            for k, (m, cost, entry) in enumerate(pools[name]):
                if entry is not None:
                    cands.append(self._call_candidate(name, k, m, entry, self.inner_cost(proc, ph, m)))
                else:
                    total = cost.total + self.inner_cost(proc, ph, m) if cost else 0.0
                    cands.append(sel.Candidate(f"{name}#{k}", total, m.layouts))
            phases.append(sel.Phase(name, proc.flow.execution(ph.id), tuple(cands)))
        transitions = []
        is_main = self.an.program.unit(proc.name).kind == "program"
        ends: dict[str, set[Layout]] = {}
        for local, ts in proc.flow.array_transitions:
            gid = self.table.global_id(proc.name, local)
            if gid is None or gid not in self.mapped:
                continue
            for t in ts:
                if t.source == 0 or t.target == 0:
                    if is_main:
                        continue
                    end = f"in:{gid}" if t.source == 0 else f"out:{gid}"
                    src = end if t.source == 0 else f"{proc.name}:{t.source}"
                    dst = end if t.target == 0 else f"{proc.name}:{t.target}"
                    ends.setdefault(end, set())
                    transitions.append(sel.Transition(gid, src, dst, t.count))
                    continue
                transitions.append(sel.Transition(gid, f"{proc.name}:{t.source}", f"{proc.name}:{t.target}", t.count))
        # entry/exit points: every layout the phases offer for the array
        by_name = {p.name: p for p in phases}
        for end in ends:
            gid = end.split(":", 1)[1]
            layouts = set()
            for t in transitions:
                other = t.target if t.source == end else t.source if t.target == end else None
                if other is None or t.array != gid:
                    continue
                for c in by_name[other].candidates:
                    if gid in c.arrays:  # a call candidate may not map it (see below)
                        layouts.add(c.entry(gid) if t.source == end else c.exit(gid))
            if not layouts:
                continue
            ordered = sorted(layouts, key=lambda l: (l.distribute_str(), repr(l)))
            phases.append(sel.Phase(end, 1.0, tuple(
                sel.Candidate(f"{end}#{k}", 0.0, ((gid, lay),)) for k, lay in enumerate(ordered))))
            pools[end] = [(Mapping(((gid, lay),)), None, None) for lay in ordered]
        # drop transitions whose array some candidate does not map (external calls)
        by_name = {p.name: p for p in phases}
        transitions = [t for t in transitions
                       if all(end in by_name and all(t.array in c.arrays for c in by_name[end].candidates)
                              for end in (t.source, t.target))]
        problem = sel.Problem(tuple(phases), tuple(transitions), remap=self._remap_key)
        return problem, pools

    def _remap_key(self, array: str, a: Layout, b: Layout) -> float:
        return self.remap(array, a, b)

    def site_map(self, proc: ProcedureAnalysis, ph: Phase) -> dict[str, str]:
        """Callee global id -> caller global id of the array arguments of a
        call phase whose dummies are not the same storage as their actuals (a
        procedure called with different arrays)."""
        return self.rename(proc, ph.callee, ph.call_args)

    def rename(self, proc: ProcedureAnalysis, callee_name: str | None, args: tuple) -> dict[str, str]:
        """Callee global id -> caller global id of the distributable array
        arguments of a call of ``callee_name`` with ``args`` from ``proc``."""
        return {d: a for d, a in self.ev.argument_pairs(proc, callee_name, args).items() if a in self.mapped}

    def to_caller(self, mapping: Mapping, rename: dict[str, str]) -> Mapping:
        """A callee's mapping seen from a call site (dummies as the actuals)."""
        if not rename:
            return mapping
        out = {}
        for g, lay in mapping.layouts:
            if g in rename:
                seen = seen_through(lay, self.table.array(rename[g]).bounds)
                if seen is not None:  # else the dummy's distribution does not fit the actual
                    out[rename[g]] = seen
            else:
                out[g] = lay
        return Mapping.of(out)

    def _call_candidate(self, name: str, k: int, m: Mapping, e: ProcEntry, inner: float = 0.0) -> sel.Candidate:
        """A call phase running the callee's entry ``e`` (``inner``: the
        functions its arguments reference)."""
        if self.semantics == "forge":
            proc_name, pid = name.rsplit(":", 1)
            ph = self.an.procedure(proc_name).phase(int(pid))
            exit_ = self.to_caller(e.exit, self.site_map(self.an.procedure(proc_name), ph))
            exits = tuple((a, lay) for a, lay in exit_.restrict(m.arrays).layouts)
            return sel.Candidate(f"{name}#{k}", e.cost + inner, m.layouts, exits)
        # HPF: the caller's mapping is restored on return; the way back is the callee's cost
        return sel.Candidate(f"{name}#{k}", e.cost + self._way_back(e) + inner, m.layouts)

    def _share_neighbours(self, proc: ProcedureAnalysis, pools: dict) -> None:
        best = {n: items[0][0] for n, items in pools.items() if items and items[0][2] is None}
        static_best = self.statics[0].evaluation.mapping if self.statics else Mapping(())
        for t in proc.flow.transitions:
            if t.source == 0 or t.target == 0:
                continue
            for a, b in ((t.source, t.target), (t.target, t.source)):
                src, dst = f"{proc.name}:{a}", f"{proc.name}:{b}"
                if src not in best or dst not in pools or not pools[dst] or pools[dst][0][2] is not None:
                    continue
                ph = proc.phase(b)
                gids = self.phase_gids(proc, ph)
                layouts = {}
                for g in gids:
                    lay = best[src].layout(g) or static_best.layout(g)
                    if lay is None:
                        break
                    layouts[g] = lay
                else:
                    m = Mapping.of(layouts)
                    if all(m != x[0] for x in pools[dst]):
                        cost = self.ev.phase(proc, ph, m, self.machine).cost
                        pools[dst].append((m, cost, None))

    # ------------------------------------------------------------------ solve

    def solve_all(self, time_limit: float, db=None, progress: Progress | None = None) -> dict:
        """Solve every procedure bottom-up; with a procedure database ``db``
        (:class:`.database.ProcedureDatabase`), reuse what it holds for an
        unchanged procedure in an unchanged context and store the rest;
        ``progress`` is told of each procedure solved."""
        keys: dict[str, str] = {}
        order = self.an.bottom_up
        for done, name in enumerate(order):
            if progress is not None:
                progress("selection", done, len(order))
            proc = self.an.procedure(name)
            if db is not None:
                keys[name] = db.key(self, proc, keys)
                stored = db.get(name, keys[name], self)
                if stored is not None:
                    self.solutions[name] = stored
                    continue
            problem, pools = self.build(proc)
            selection = sel.select(problem, time_limit=time_limit)
            sol = ProcSolution(name, problem, selection, pools)
            sol.entries = self._entries(proc, sol)
            self.solutions[name] = sol
            if db is not None:
                db.put(name, keys[name], sol, self)
        if progress is not None:
            progress("selection", len(order), len(order))
        return self.solutions

    def _entries(self, proc: ProcedureAnalysis, sol: ProcSolution) -> list[ProcEntry]:
        """The procedure database entries: one per static candidate and the
        dynamic optimum."""
        problem = sol.problem
        out: list[ProcEntry] = []
        seen = set()
        evaluate = sel.evaluator(problem)
        touched = self._touched(proc)
        # the arrays of each pool item, and an entry's layouts of them, once
        pools = {p.name: [(m, m.arrays, entry.entry.restrict(m.arrays) if entry is not None and entry.static
                           else None, entry is not None)
                          for m, _cost, entry in sol.pools[p.name]]
                 for p in problem.phases}
        # what of a static candidate decides its entry: its layouts of these arrays
        decisive = tuple(sorted(set(touched).union(*(arrays for items in pools.values()
                                                     for _, arrays, _, _ in items))))
        tried = set()
        on_decisive, on_touched = self.restricted(decisive), self.restricted(touched)
        for i, s in enumerate(self.statics):
            key = on_decisive[i]
            if key in tried:  # static candidates alike on those arrays give the same entry
                continue
            tried.add(key)
            choice = []
            ok = True
            for p in problem.phases:
                idx = None
                for k, (m, arrays, entry_layouts, from_entry) in enumerate(pools[p.name]):
                    target = self.restricted(arrays)[i]
                    if (entry_layouts if from_entry else m) == target:
                        idx = k
                        break
                if idx is None:
                    ok = False
                    break
                choice.append(idx)
            if not ok:
                continue
            pc, rc, _ = evaluate(choice)
            m = on_touched[i]
            if m in seen:
                continue
            seen.add(m)
            out.append(ProcEntry(f"static {s.describe()}", m, m, pc + rc, True))
        entry, exit_ = self._ends(proc, sol)
        if (entry, exit_) not in {(e.entry, e.exit) for e in out}:
            out.append(ProcEntry("dynamic", entry, exit_, sol.selection.total, False))
        return out

    def _touched(self, proc: ProcedureAnalysis) -> tuple[str, ...]:
        gids = set()
        for ph in proc.phases:
            gids |= set(self.phase_gids(proc, ph))
        return tuple(sorted(gids))

    def _ends(self, proc: ProcedureAnalysis, sol: ProcSolution) -> tuple[Mapping, Mapping]:
        entry: dict[str, Layout] = {}
        exit_: dict[str, Layout] = {}
        for p in sol.problem.phases:
            if p.name.startswith("in:") or p.name.startswith("out:"):
                m = sol.pools[p.name][sol.selection.chosen(p.name)][0]
                (entry if p.name.startswith("in:") else exit_).update(dict(m.layouts))
        # arrays without entry/exit transitions: the layout of their first/last use
        for p in sol.problem.phases:
            if ":" in p.name and not p.name.startswith(("in:", "out:")):
                m = sol.chosen(p.name)[0]
                for a, lay in m.layouts:
                    entry.setdefault(a, lay)
                    exit_[a] = exit_.get(a, lay)
        return Mapping.of(entry), Mapping.of(exit_)
