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
from itertools import product

from ..errors import SolverError
from ..ilpmodel import IlpModel, solve_model
from ..solvers import SolveResult
from .select_dp import dp_work, select_dp
from .selection import (
    Candidate,
    DpNotApplicable,
    Key,
    Phase,
    Problem,
    Remap,
    Selection,
    Transition,
    _Compiled,
    _evaluate,
    _is_static,
    _selection,
    evaluate,
    evaluator,
    no_remap_cost,
)





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


def build_selection_ilp(problem: Problem, static: bool = False) -> tuple[IlpModel, list[list[int]], float]:
    """The 0-1 model of :func:`select_ilp`: ``(model, x, scale)`` where ``x[i][c]``
    is the column of candidate ``c`` of the ``i``-th phase; the objective is
    scaled by ``scale`` (see :data:`OBJECTIVE_SCALE`)."""
    return _build_ilp(_Compiled(problem), static)


#: The largest objective coefficient of a selection ILP after scaling.
OBJECTIVE_SCALE = 1e3

#: HiGHS's presolve on the selection ILPs.  Off: on the selection models of
#: the NAS benchmarks (39 models of 1,600 to 105,000 columns, all solved at
#: the root) it took 80 % of HiGHS's time and removed almost nothing (36 s
#: in all with it, 7.8 s without, the same optima); benchmarks/bench_select.py
#: solves every instance both ways.
SELECTION_PRESOLVE = False


def _unscaled(result: SolveResult, scale: float) -> SolveResult:
    """A solver report in seconds again."""
    from dataclasses import replace

    def back(v):
        return None if v is None else v / scale

    return replace(result, objective=back(result.objective), bound=back(result.bound))


def _build_ilp(comp: _Compiled, static: bool) -> tuple[IlpModel, list[list[int]], float]:
    model = IlpModel()
    x = [model.add_columns(len(p.candidates), binary=True) for p in comp.phases]
    coef = [list(row) for row in comp.base]  # objective coefficients of x
    objective: list[tuple[int, float]] = []
    for xs in x:
        model.add_row([(v, 1.0) for v in xs], 1.0, 1.0)  # one candidate per phase

    if static:
        _static_constraints(comp, model, x)
    else:
        for e in comp.edges:
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
            # y[ki, li]: the array leaves the source in layout k and enters the target in l
            first = model.columns
            model.add_columns(len(exits) * len(entries))

            def y(ki: int, li: int) -> int:
                return first + ki * len(entries) + li

            for ki, (k, cs) in enumerate(exits.items()):
                model.add_row([(y(ki, li), 1.0) for li in range(len(entries))]
                              + [(x[e.source][c], -1.0) for c in cs], 0.0, 0.0)
                for li, l in enumerate(entries):
                    cost = e.frequency * comp.remap(e.array, k, l)
                    if cost:
                        objective.append((y(ki, li), cost))
            for li, (l, ds) in enumerate(entries.items()):
                model.add_row([(y(ki, li), 1.0) for ki in range(len(exits))]
                              + [(x[e.target][d], -1.0) for d in ds], 0.0, 0.0)

    for i, xs in enumerate(x):
        objective.extend((v, coef[i][c]) for c, v in enumerate(xs))
    # Costs are seconds, often 1e-9..1e-3: far below the solver's optimality
    # tolerances (1e-7 on reduced costs), where ties and small differences are
    # lost.  Scale the largest coefficient to 1e3; the caller unscales.
    largest = max((abs(c) for _, c in objective), default=0.0)
    scale = OBJECTIVE_SCALE / largest if largest > 0 else 1.0
    for v, c in objective:
        model.cost[v] += c * scale
    return model, x, scale


def _static_constraints(comp: _Compiled, model: IlpModel, x: list[list[int]]) -> None:
    """z[a,k]: one layout per array; a candidate may be chosen only if every
    layout it gives an array (entry and exit) is that array's layout."""
    uses: dict[str, dict[Key, list[tuple[int, int]]]] = defaultdict(lambda: defaultdict(list))
    for i, p in enumerate(comp.phases):
        for c, cand in enumerate(p.candidates):
            for a in cand.arrays:
                for k in {cand.entry(a), cand.exit(a)}:
                    uses[a][k].append((i, c))
    for a in sorted(uses):
        keys = list(uses[a])
        z = model.add_columns(len(keys), binary=True)
        model.add_row([(v, 1.0) for v in z], 1.0, 1.0)
        for ki, k in enumerate(keys):
            by_phase: dict[int, list[int]] = defaultdict(list)
            for i, c in uses[a][k]:
                by_phase[i].append(c)
            for i, cs in by_phase.items():
                model.add_row([(x[i][c], 1.0) for c in cs] + [(z[ki], -1.0)], -math.inf, 0.0)


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
    model, x, scale = _build_ilp(comp, static)
    result, values = solve_model(model, time_limit, solver, presolve=SELECTION_PRESOLVE)
    result = _unscaled(result, scale)
    kind = "static " if static else ""
    if result.status == "infeasible":
        raise SolverError(f"no {kind}solution: no single layout per array suits every phase"
                          if static else "the selection model is infeasible")
    if not result.has_solution or values is None:
        raise SolverError(
            f"the {kind}selection ILP ended without a solution ({result.solver}: "
            f"{result.status}, {result.message}) within {time_limit:g} s; raise the time limit"
        )
    choice = [max(range(len(xs)), key=lambda c: values[xs[c]]) for xs in x]
    return _selection(
        comp, choice, "static-ilp" if static else "ilp", result.optimal,
        f"0-1 ILP, {model.columns} variables, {model.rows} constraints: "
        + result.describe(),
        result, static,
    )


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
    "evaluator",
    "no_remap_cost",
    "select",
    "select_dp",
    "select_exhaustive",
    "select_ilp",
    "select_static",
]
