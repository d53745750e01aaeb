"""The phase-mapping selection problem, its results, and the compiled form every
solver of :mod:`.select` and :mod:`.select_dp` shares (see :mod:`.select` for
the problem and the objective)."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Hashable, Iterable, Mapping, Sequence

from ..solvers import SolveResult


Key = Hashable
RemapCost = Callable[[str, Key, Key], float]


# --------------------------------------------------------------------------- problem


def _layout_tuple(layouts: Mapping[str, Key] | Iterable[tuple[str, Key]]) -> tuple[tuple[str, Key], ...]:
    items = layouts.items() if isinstance(layouts, Mapping) else layouts
    out = tuple(sorted(items, key=lambda kv: kv[0]))
    if len({a for a, _ in out}) != len(out):
        raise ValueError("an array is given two layouts in one candidate")
    return out


@dataclass(frozen=True)
class Candidate:
    """One candidate mapping of a phase.

    ``layouts`` maps each array the phase uses to its layout key on entry;
    ``exits`` gives the key on exit where it differs (call phases: initial and
    final mapping).  Mappings are accepted and stored as sorted tuples.
    """

    name: str
    cost: float
    layouts: tuple[tuple[str, Key], ...]
    exits: tuple[tuple[str, Key], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "layouts", _layout_tuple(self.layouts))
        object.__setattr__(self, "exits", _layout_tuple(self.exits))
        if not math.isfinite(self.cost) or self.cost < 0:
            raise ValueError(f"candidate {self.name}: cost must be finite and >= 0, got {self.cost}")
        unknown = {a for a, _ in self.exits} - set(self.arrays)
        if unknown:
            raise ValueError(f"candidate {self.name}: exit layout for unused array(s) {sorted(unknown)}")

    @cached_property
    def arrays(self) -> tuple[str, ...]:
        return tuple(a for a, _ in self.layouts)

    @cached_property
    def _entries(self) -> dict[str, Key]:
        return dict(self.layouts)

    def entry(self, array: str) -> Key:
        try:
            return self._entries[array]
        except KeyError:
            raise KeyError(f"candidate {self.name} has no layout for {array}") from None

    def exit(self, array: str) -> Key:
        for a, k in self.exits:
            if a == array:
                return k
        return self.entry(array)


@dataclass(frozen=True)
class Phase:
    name: str
    frequency: float
    candidates: tuple[Candidate, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "candidates", tuple(self.candidates))
        if not self.candidates:
            raise ValueError(f"phase {self.name} has no candidate")
        if not math.isfinite(self.frequency) or self.frequency < 0:
            raise ValueError(f"phase {self.name}: frequency must be finite and >= 0")


@dataclass(frozen=True)
class Transition:
    """Array ``array`` goes from phase ``source`` to phase ``target`` ``frequency`` times."""

    array: str
    source: str
    target: str
    frequency: float

    def __post_init__(self) -> None:
        if not math.isfinite(self.frequency) or self.frequency < 0:
            raise ValueError(f"transition {self.source}->{self.target}: bad frequency")


def no_remap_cost(array: str, key_from: Key, key_to: Key) -> float:
    """A remap function for problems without remapping costs (0 everywhere)."""
    return 0.0


@dataclass(frozen=True)
class Problem:
    """Phases (in program order), array transitions and the remap cost function."""

    phases: tuple[Phase, ...]
    transitions: tuple[Transition, ...] = ()
    remap: RemapCost = field(default=no_remap_cost, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "phases", tuple(self.phases))
        object.__setattr__(self, "transitions", tuple(self.transitions))
        names = [p.name for p in self.phases]
        if len(set(names)) != len(names):
            raise ValueError("two phases share a name")
        by_name = {p.name: p for p in self.phases}
        for t in self.transitions:
            for end in (t.source, t.target):
                if end not in by_name:
                    raise ValueError(f"transition of {t.array} names unknown phase {end}")
                for c in by_name[end].candidates:
                    if t.array not in c.arrays:
                        raise ValueError(
                            f"transition of {t.array} {t.source}->{t.target}: candidate "
                            f"{c.name} of phase {end} has no layout for {t.array}"
                        )

    def phase(self, name: str) -> Phase:
        for p in self.phases:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def arrays(self) -> tuple[str, ...]:
        return tuple(sorted({a for p in self.phases for c in p.candidates for a in c.arrays}))


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Remap:
    """One remapping in a solution: ``count`` times per run, ``cost`` seconds in all."""

    array: str
    source: str
    target: str
    key_from: Key
    key_to: Key
    count: float
    cost: float


@dataclass(frozen=True)
class Selection:
    """A chosen candidate per phase with its objective split.

    ``choice`` pairs each phase with the index of its chosen candidate;
    ``method`` says which solver found it and ``optimal`` whether optimality is
    proven; ``solve`` is the ILP's report (None for DP and enumeration);
    ``layouts`` is the layout per array of a static solution (None otherwise);
    ``note`` says why this method was used.
    """

    choice: tuple[tuple[str, int], ...]
    candidates: tuple[str, ...]
    phase_cost: float
    remap_cost: float
    remaps: tuple[Remap, ...]
    method: str
    optimal: bool
    solve: SolveResult | None = None
    layouts: tuple[tuple[str, Key], ...] | None = None
    note: str = ""

    @property
    def total(self) -> float:
        return self.phase_cost + self.remap_cost

    def chosen(self, phase: str) -> int:
        return dict(self.choice)[phase]


class DpNotApplicable(ValueError):
    """The DP state space is too large for this problem (use the ILP)."""


# --------------------------------------------------------------------------- shared


@dataclass(frozen=True)
class _Edge:
    array: str
    source: int
    target: int
    frequency: float


class _Compiled:
    """Index-based view of a problem: merged transitions, folded self-loops,
    cached remap costs.  Local to one solver call."""

    def __init__(self, problem: Problem):
        self.problem = problem
        self.phases = problem.phases
        self.index = {p.name: i for i, p in enumerate(problem.phases)}
        self._remap: dict[tuple[str, Key, Key], float] = {}
        merged: dict[tuple[str, int, int], float] = defaultdict(float)
        for t in problem.transitions:
            merged[t.array, self.index[t.source], self.index[t.target]] += t.frequency
        self.edges = [_Edge(a, s, t, f) for (a, s, t), f in merged.items() if s != t and f > 0]
        self.loops = [_Edge(a, s, t, f) for (a, s, t), f in merged.items() if s == t and f > 0]
        self.base = []
        for i, p in enumerate(self.phases):
            row = []
            for c in p.candidates:
                cost = p.frequency * c.cost
                for e in self.loops:
                    if e.source == i:
                        cost += e.frequency * self.remap(e.array, c.exit(e.array), c.entry(e.array))
                row.append(cost)
            self.base.append(row)

    def remap(self, array: str, k: Key, l: Key) -> float:
        if k == l:
            return 0.0
        key = (array, k, l)
        if key not in self._remap:
            value = float(self.problem.remap(array, k, l))
            if not math.isfinite(value) or value < 0:
                raise ValueError(f"remap cost of {array} {k!r} -> {l!r} is {value}")
            self._remap[key] = value
        return self._remap[key]

    def keys(self, phase: int, array: str, exit: bool) -> dict[Key, list[int]]:
        """The candidates of ``phase`` grouped by the key ``array`` has on exit
        (or on entry), in order of first appearance."""
        groups: dict[Key, list[int]] = {}
        for ci, c in enumerate(self.phases[phase].candidates):
            groups.setdefault(c.exit(array) if exit else c.entry(array), []).append(ci)
        return groups


def evaluate(problem: Problem, choice: Sequence[int]) -> tuple[float, float, tuple[Remap, ...]]:
    """Phase cost, remap cost and the remaps of a choice (candidate index per phase,
    in phase order)."""
    return evaluator(problem)(choice)


def evaluator(problem: Problem) -> Callable[[Sequence[int]], tuple[float, float, tuple[Remap, ...]]]:
    """:func:`evaluate` for many choices of one problem (compiled once)."""
    comp = _Compiled(problem)
    return lambda choice: _evaluate(comp, choice)


def _evaluate(comp: _Compiled, choice: Sequence[int]) -> tuple[float, float, tuple[Remap, ...]]:
    phases = comp.phases
    if len(choice) != len(phases):
        raise ValueError("a choice needs one candidate index per phase")
    phase_cost = sum(p.frequency * p.candidates[c].cost for p, c in zip(phases, choice))
    remaps = []
    for e in comp.loops + comp.edges:
        k = phases[e.source].candidates[choice[e.source]].exit(e.array)
        l = phases[e.target].candidates[choice[e.target]].entry(e.array)
        if k != l:
            once = comp.remap(e.array, k, l)
            remaps.append(
                Remap(e.array, phases[e.source].name, phases[e.target].name, k, l, e.frequency, e.frequency * once)
            )
    remaps.sort(key=lambda r: (comp.index[r.target], comp.index[r.source], r.array))
    return phase_cost, sum(r.cost for r in remaps), tuple(remaps)


def _selection(
    comp: _Compiled, choice: Sequence[int], method: str, optimal: bool, note: str,
    solve_result: SolveResult | None = None, static: bool = False,
) -> Selection:
    phase_cost, remap_cost, remaps = _evaluate(comp, choice)
    layouts = None
    if static:
        found: dict[str, Key] = {}
        for p, c in zip(comp.phases, choice):
            for a, k in p.candidates[c].layouts:
                found[a] = k
        layouts = tuple(sorted(found.items(), key=lambda kv: kv[0]))
    return Selection(
        choice=tuple((p.name, c) for p, c in zip(comp.phases, choice)),
        candidates=tuple(p.candidates[c].name for p, c in zip(comp.phases, choice)),
        phase_cost=phase_cost,
        remap_cost=remap_cost,
        remaps=remaps,
        method=method,
        optimal=optimal,
        solve=solve_result,
        layouts=layouts,
        note=note,
    )


def _is_static(comp: _Compiled, choice: Sequence[int]) -> bool:
    seen: dict[str, Key] = {}
    for p, c in zip(comp.phases, choice):
        cand = p.candidates[c]
        for a in cand.arrays:
            for k in (cand.entry(a), cand.exit(a)):
                if seen.setdefault(a, k) != k:
                    return False
    return True
