"""Remapping selection: one candidate mapping per phase, remapping priced over control flow.

The abstract problem (:class:`Problem`, after Bixby, Kennedy and Kremer and DDT
§4–6):

* phases ``p`` with an execution frequency ``f(p)`` and candidates ``c``, each
  with a cost per execution ``cost(p, c)`` and, per array the phase uses, the
  layout key the array must have on entry and the one it has on exit (equal
  except for call phases whose procedure leaves a different mapping);
* per array, transitions ``e = (p -> q, f(e))`` between consecutive phases that
  use it (the caller derives them from control flow; a back edge of a loop is a
  transition like any other, ``p -> p`` included);
* ``remap(array, key_from, key_to)``: seconds for one remapping (0 for equal keys;
  never called with equal keys).

The objective of a choice (one candidate per phase) is
``sum_p f(p) cost(p, c_p) + sum_e f(e) remap(a_e, exit(p, c_p), entry(q, c_q))``.

Solvers, all exact:

:func:`select_ilp`
    0-1 ILP: ``x[p,c]`` binary, one per phase; per transition, pair variables
    ``y[e,k,l]`` over the *layout keys* ``k`` (exit keys at ``p``) and ``l``
    (entry keys at ``q``) with the marginal constraints ``sum_l y[e,k,l] =
    sum_{c: exit(c)=k} x[p,c]`` and ``sum_k y[e,k,l] = sum_{d: entry(d)=l}
    x[q,d]`` (``y`` may be continuous: integral ``x`` fixes it).  When one side
    has a single key, the remap cost goes straight onto the other side's ``x``.
    ``static=True`` gives the static variant: ``z[a,k]`` one layout per array
    for the whole problem, ``sum_{c uses k for a} x[p,c] <= z[a,k]``.
:func:`select_dp`
    Dynamic programming along the phases in the given (program) order; the
    state is the layout of every array in flight across the current point
    (and, for back edges, the layout guessed at the loop's end, checked when the
    loop's last phase is chosen).  Exact for any structure; small on chains and
    single loops, where it is the method of choice (no solver, no time limit,
    a proof by construction).  Raises :class:`DpNotApplicable` when it would
    visit more than ``max_work`` (state, candidate) pairs (a few microseconds
    each in Python).
:func:`select_exhaustive`
    Enumeration, for tiny instances (tests).

:func:`select` is the default: DP where its state space is small, else the ILP;
the returned :class:`Selection` says which and why.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import product
from typing import Callable, Hashable, Iterable, Mapping, Sequence

import pulp

from ..errors import SolverError
from ..solvers import SolveResult, solve, variable

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

    @property
    def arrays(self) -> tuple[str, ...]:
        return tuple(a for a, _ in self.layouts)

    def entry(self, array: str) -> Key:
        for a, k in self.layouts:
            if a == array:
                return k
        raise KeyError(f"candidate {self.name} has no layout for {array}")

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
    comp = _Compiled(problem)
    return _evaluate(comp, choice)


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


# --------------------------------------------------------------------------- exhaustive


def select_exhaustive(problem: Problem, static: bool = False, limit: int = 2_000_000) -> Selection:
    """The optimum by enumerating every choice (at most ``limit`` of them).
    With ``static``, only choices that keep one layout per array count."""
    comp = _Compiled(problem)
    count = math.prod(len(p.candidates) for p in comp.phases)
    if count > limit:
        raise ValueError(f"{count} choices to enumerate (limit {limit})")
    best, best_cost = None, math.inf
    for choice in product(*(range(len(p.candidates)) for p in comp.phases)):
        if static and not _is_static(comp, choice):
            continue
        phase_cost, remap_cost, _ = _evaluate(comp, choice)
        if best is None or phase_cost + remap_cost < best_cost - 1e-12 * max(1.0, abs(best_cost)):
            best, best_cost = choice, phase_cost + remap_cost
    if best is None:
        raise SolverError("no static solution: no single layout per array suits every phase")
    return _selection(comp, best, "static-exhaustive" if static else "exhaustive", True,
                      f"enumerated {count} choices", static=static)


# --------------------------------------------------------------------------- ILP


def build_selection_ilp(problem: Problem, static: bool = False):
    """The 0-1 model of :func:`select_ilp`.  Returns ``(lp, x)`` where ``x[i][c]``
    is the variable of candidate ``c`` of the ``i``-th phase; the objective is
    scaled by ``lp.autodist_scale`` (see :data:`OBJECTIVE_SCALE`)."""
    comp = _Compiled(problem)
    return _build_ilp(comp, static)


#: The largest objective coefficient of a selection ILP after scaling.
OBJECTIVE_SCALE = 1e3


def _unscaled(result: SolveResult, scale: float) -> SolveResult:
    """A solver report in seconds again."""
    from dataclasses import replace

    def back(v):
        return None if v is None else v / scale

    return replace(result, objective=back(result.objective), bound=back(result.bound))


def _build_ilp(comp: _Compiled, static: bool):
    prob = pulp.LpProblem("static_selection" if static else "selection", pulp.LpMinimize)
    x = [
        [variable(prob, f"x_{i}_{c}", binary=True) for c in range(len(p.candidates))]
        for i, p in enumerate(comp.phases)
    ]
    coef = [list(row) for row in comp.base]  # objective coefficients of x
    objective: list[tuple[pulp.LpVariable, float]] = []
    for i, xs in enumerate(x):
        prob.addConstraint(
            pulp.LpConstraint(pulp.LpAffineExpression([(v, 1) for v in xs]), 0, rhs=1), f"one_{i}"
        )

    if static:
        _static_constraints(comp, prob, x)
    else:
        for n, e in enumerate(comp.edges):
            exits = comp.keys(e.source, e.array, exit=True)
            entries = comp.keys(e.target, e.array, exit=False)
            if len(exits) == 1 or len(entries) == 1:
                # One side is fixed: the remap cost lands on the other side's x.
                for k, cs in exits.items():
                    for l, ds in entries.items():
                        cost = e.frequency * comp.remap(e.array, k, l)
                        if cost == 0:
                            continue
                        if len(exits) == 1:
                            for d in ds:
                                coef[e.target][d] += cost
                        else:
                            for c in cs:
                                coef[e.source][c] += cost
                continue
            y = {
                (ki, li): variable(prob, f"y_{n}_{ki}_{li}", 0, 1)
                for ki in range(len(exits))
                for li in range(len(entries))
            }
            for ki, (k, cs) in enumerate(exits.items()):
                terms = [(y[ki, li], 1) for li in range(len(entries))]
                terms += [(x[e.source][c], -1) for c in cs]
                prob.addConstraint(pulp.LpConstraint(pulp.LpAffineExpression(terms), 0, rhs=0), f"out_{n}_{ki}")
                for li, l in enumerate(entries):
                    cost = e.frequency * comp.remap(e.array, k, l)
                    if cost:
                        objective.append((y[ki, li], cost))
            for li, (l, ds) in enumerate(entries.items()):
                terms = [(y[ki, li], 1) for ki in range(len(exits))]
                terms += [(x[e.target][d], -1) for d in ds]
                prob.addConstraint(pulp.LpConstraint(pulp.LpAffineExpression(terms), 0, rhs=0), f"in_{n}_{li}")

    for i, xs in enumerate(x):
        objective.extend((v, coef[i][c]) for c, v in enumerate(xs))
    # Costs are seconds, often 1e-9..1e-3: far below the solver's optimality
    # tolerances (1e-7 on reduced costs), where ties and small differences are
    # lost.  Scale the largest coefficient to 1e3; the caller unscales.
    largest = max((abs(c) for _, c in objective), default=0.0)
    scale = OBJECTIVE_SCALE / largest if largest > 0 else 1.0
    prob.setObjective(pulp.LpAffineExpression([(v, c * scale) for v, c in objective]))
    prob.autodist_scale = scale  # type: ignore[attr-defined]
    return prob, x


def _static_constraints(comp: _Compiled, prob: pulp.LpProblem, x) -> None:
    """z[a,k]: one layout per array; a candidate may be chosen only if every
    layout it gives an array (entry and exit) is that array's layout."""
    uses: dict[str, dict[Key, list[tuple[int, int]]]] = defaultdict(lambda: defaultdict(list))
    for i, p in enumerate(comp.phases):
        for c, cand in enumerate(p.candidates):
            for a in cand.arrays:
                for k in {cand.entry(a), cand.exit(a)}:
                    uses[a][k].append((i, c))
    for ai, a in enumerate(sorted(uses)):
        keys = list(uses[a])
        z = [variable(prob, f"z_{ai}_{ki}", binary=True) for ki in range(len(keys))]
        prob.addConstraint(pulp.LpConstraint(pulp.LpAffineExpression([(v, 1) for v in z]), 0, rhs=1), f"layout_{ai}")
        for ki, k in enumerate(keys):
            by_phase: dict[int, list[int]] = defaultdict(list)
            for i, c in uses[a][k]:
                by_phase[i].append(c)
            for i, cs in by_phase.items():
                terms = [(x[i][c], 1) for c in cs] + [(z[ki], -1)]
                prob.addConstraint(
                    pulp.LpConstraint(pulp.LpAffineExpression(terms), -1, rhs=0), f"use_{ai}_{ki}_{i}"
                )


def select_ilp(
    problem: Problem, time_limit: float = 10.0, static: bool = False, solver: str | None = None
) -> Selection:
    """Solve the selection (or, with ``static``, the one-layout-per-array
    variant) as a 0-1 ILP within ``time_limit`` seconds.

    The returned :class:`Selection` holds the solver's report (status, bound,
    gap); ``optimal`` is True only when the solver proved it.  Raises
    :class:`SolverError` when the solver ends without any solution (time limit
    too short, or no static solution exists).
    """
    comp = _Compiled(problem)
    prob, x = _build_ilp(comp, static)
    result = _unscaled(solve(prob, time_limit, solver), prob.autodist_scale)
    kind = "static " if static else ""
    if result.status == "infeasible":
        raise SolverError(f"no {kind}solution: no single layout per array suits every phase"
                          if static else "the selection model is infeasible")
    if not result.has_solution:
        raise SolverError(
            f"the {kind}selection ILP ended without a solution ({result.solver}: "
            f"{result.status}, {result.message}) within {time_limit:g} s; raise the time limit"
        )
    choice = [max(range(len(xs)), key=lambda c: xs[c].varValue or 0.0) for xs in x]
    return _selection(
        comp, choice, "static-ilp" if static else "ilp", result.optimal,
        f"0-1 ILP, {prob.numVariables()} variables, {prob.numConstraints()} constraints: "
        + result.describe(),
        result, static,
    )


# --------------------------------------------------------------------------- DP


@dataclass(frozen=True)
class _Slot:
    """A layout in flight in the DP state.

    Forward slot: the exit key of ``array`` at phase ``source``, open from just
    after ``source`` to its last target.  Back slot: the exit key guessed for
    ``array`` at ``source`` (the end of a loop), open from its first target to
    ``source`` where the guess is checked.
    """

    array: str
    source: int
    back: bool
    opens: int   # first phase processed with the slot present (before: absent)
    closes: int  # last phase processed with the slot present


class _Plan:
    """Slots and per-phase bookkeeping of the DP."""

    def __init__(self, comp: _Compiled):
        self.comp = comp
        last_target: dict[tuple[str, int], int] = {}
        first_target: dict[tuple[str, int], int] = {}
        for e in comp.edges:
            key = (e.array, e.source)
            if e.source < e.target:
                last_target[key] = max(last_target.get(key, e.target), e.target)
            else:
                first_target[key] = min(first_target.get(key, e.target), e.target)
        slots = []
        for (a, s), t in last_target.items():
            slots.append(_Slot(a, s, False, s + 1, t))
        for (a, s), t in first_target.items():
            slots.append(_Slot(a, s, True, t, s))
        self.slots = slots
        self.id = {(sl.array, sl.source, sl.back): n for n, sl in enumerate(slots)}
        n = len(comp.phases)
        # open_at[i]: slots present while phase i is processed, in slot order.
        self.open_at = [[k for k, sl in enumerate(slots) if sl.opens <= i <= sl.closes] for i in range(n)]
        # boundary[i]: slots in the state after phase i: those of phase i that
        # stay open, then the forward slots phase i opens.
        self.boundary = []
        for i in range(n):
            nxt = set(self.open_at[i + 1]) if i + 1 < n else set()
            carried = [k for k in self.open_at[i] if k in nxt]
            opened = [k for k in sorted(nxt) if not slots[k].back and slots[k].source == i]
            self.boundary.append(carried + opened)
        self.incoming = [[] for _ in range(n)]  # (edge, slot id) consumed at phase i
        for e in comp.edges:
            self.incoming[e.target].append((e, self.id[e.array, e.source, e.source > e.target]))

    def joint(self, ids: Sequence[int], known: Mapping[int, Key] | None = None) -> list[tuple]:
        """The distinct tuples of exit keys that slots ``ids`` (all of one source
        phase) can hold together, over that phase's candidates agreeing with the
        ``known`` keys of other slots of the same source."""
        source = self.slots[ids[0]].source
        out = {}
        for cand in self.comp.phases[source].candidates:
            if known and any(cand.exit(self.slots[k].array) != v for k, v in known.items()):
                continue
            out[tuple(cand.exit(self.slots[k].array) for k in ids)] = None
        return list(out)

    def work(self) -> tuple[int, int]:
        """Upper bounds on the (state, candidate) pairs the DP visits: at its
        widest phase, and over all phases.  Per source phase of the slots in
        flight, the distinct key tuples its candidates give them, multiplied."""
        widest = total = 0
        for i, ids in enumerate(self.open_at):
            groups: dict[tuple[int, bool], list[int]] = defaultdict(list)
            for k in ids:
                groups[self.slots[k].source, self.slots[k].back].append(k)
            pairs = math.prod(len(self.joint(g)) for g in groups.values()) * len(self.comp.phases[i].candidates)
            widest, total = max(widest, pairs), total + pairs
        return widest, total

    @property
    def cyclic(self) -> bool:
        return any(sl.back for sl in self.slots)


def dp_work(problem: Problem) -> tuple[int, int]:
    """Upper bounds on the (state, candidate) pairs :func:`select_dp` visits: at
    its widest phase and in all (about a microsecond each)."""
    return _Plan(_Compiled(problem)).work()


def select_dp(problem: Problem, max_work: int = 5_000_000) -> Selection:
    """Exact dynamic programming along the phases in program order (see the
    module docstring).  Raises :class:`DpNotApplicable` when it would visit
    more than ``max_work`` (state, candidate) pairs in all."""
    comp = _Compiled(problem)
    plan = _Plan(comp)
    width, work = plan.work()
    if work > max_work:
        raise DpNotApplicable(
            f"dynamic programming would visit up to {work} states (limit {max_work}; "
            f"{width} at the widest phase): too many layouts in flight at once"
        )
    slots = plan.slots
    n = len(comp.phases)
    # The state after phase i holds one key per slot of plan.boundary[i], in order.
    layer: dict[tuple, float] = {(): 0.0}
    back: list[dict[tuple, tuple[tuple, int]]] = []
    for i, phase in enumerate(comp.phases):
        ids = plan.open_at[i]
        prev_ids = plan.boundary[i - 1] if i else []
        opening = [k for k in ids if slots[k].back and slots[k].opens == i]  # guessed here
        by_source: dict[int, list[int]] = defaultdict(list)
        for k in opening:
            by_source[slots[k].source].append(k)
        earlier = {  # back slots of the same sources guessed before phase i
            s: [k for k in prev_ids if slots[k].back and slots[k].source == s] for s in by_source
        }
        checked = [k for k in ids if slots[k].back and slots[k].source == i]
        pos = {k: m for m, k in enumerate(ids)}
        nxt_ids = plan.boundary[i]
        carried = [pos[k] for k in nxt_ids if k in pos]  # the rest are opened by phase i
        cands = phase.candidates
        # Per candidate: the keys it must match (back slots closing here) and the
        # keys it opens; per incoming edge: the cost for each key in flight.
        must = [tuple(c.exit(slots[k].array) for k in checked) for c in cands]
        opens = [tuple(c.exit(slots[k].array) for k in nxt_ids if k not in pos) for c in cands]
        incoming = [(pos[k], e, {}) for e, k in plan.incoming[i]]
        base = comp.base[i]
        joint_memo: dict[tuple, list[tuple]] = {}
        table: dict[tuple, tuple[float, tuple, int]] = {}
        for state, cost in layer.items():
            known = dict(zip(prev_ids, state))
            options = []
            for s, group in by_source.items():
                agreed = tuple(known[k] for k in earlier[s])
                if (s, agreed) not in joint_memo:
                    joint_memo[s, agreed] = plan.joint(group, dict(zip(earlier[s], agreed)))
                options.append(joint_memo[s, agreed])
            for guess in product(*options):
                for group, keys in zip(by_source.values(), guess):
                    known.update(zip(group, keys))
                full = tuple(known[k] for k in ids)
                totals = [cost + b for b in base]
                for at, e, memo in incoming:
                    key = full[at]
                    row = memo.get(key)
                    if row is None:
                        row = memo[key] = [
                            e.frequency * comp.remap(e.array, key, c.entry(e.array)) for c in cands
                        ]
                    totals = [t + r for t, r in zip(totals, row)]
                closing = tuple(full[pos[k]] for k in checked)
                kept = tuple(full[m] for m in carried)
                for c, total in enumerate(totals):
                    if must[c] != closing:
                        continue
                    nxt = kept + opens[c]
                    best = table.get(nxt)
                    if best is None or total < best[0]:
                        table[nxt] = (total, state, c)
        layer = {st: v[0] for st, v in table.items()}
        back.append({st: (v[1], v[2]) for st, v in table.items()})
    # Walk back from the single final state ().
    choice = [0] * n
    state: tuple = ()
    for i in range(n - 1, -1, -1):
        state, choice[i] = back[i][state]
    shape = "with back edges (loops)" if plan.cyclic else "acyclic"
    return _selection(comp, choice, "dp", True,
                      f"dynamic programming over {len(comp.phases)} phases, transitions {shape}, "
                      f"at most {width} states at a phase, {work} in all")


# --------------------------------------------------------------------------- default


def select(
    problem: Problem,
    time_limit: float = 10.0,
    solver: str | None = None,
    dp_budget: int = 200_000,
) -> Selection:
    """The default: dynamic programming when it visits at most ``dp_budget``
    (state, candidate) pairs (about a second at worst: chains and loops with
    few layouts in flight), else the 0-1 ILP; the result's ``method`` and
    ``note`` say which and why."""
    try:
        return select_dp(problem, dp_budget)
    except DpNotApplicable as why:
        chosen = select_ilp(problem, time_limit, solver=solver)
        return Selection(**{**chosen.__dict__, "note": f"{why}; {chosen.note}"})


def select_static(problem: Problem, time_limit: float = 10.0, solver: str | None = None) -> Selection:
    """The best static solution (one layout per array for the whole problem)."""
    return select_ilp(problem, time_limit, static=True, solver=solver)


__all__ = [
    "Candidate",
    "DpNotApplicable",
    "Phase",
    "Problem",
    "Remap",
    "Selection",
    "Transition",
    "build_selection_ilp",
    "dp_work",
    "evaluate",
    "no_remap_cost",
    "select",
    "select_dp",
    "select_exhaustive",
    "select_ilp",
    "select_static",
]
