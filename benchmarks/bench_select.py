"""Remapping selection: 0-1 ILP scaling, side by side with DP and enumeration.

    python benchmarks/bench_select.py [--phases 6,10,100,500,2000] [--candidates 4,16]
                                      [--shapes chain,loop,branch,random] [--time-limit 20]

Generated phase graphs (each phase uses two to four of six arrays taken from a
sliding window, so arrays are handed from phase to phase; candidate costs and
remap costs drawn at random; program-like candidates: one distribution for all
the arrays of a phase, eight distributions, see ``make_phase``):

* ``chain``: phases in sequence;
* ``loop``: the middle half of the chain repeated 10 times (back edges 9 times);
* ``branch``: a chain of if/else diamonds (both arms one phase, taken with
  probability 0.3 / 0.7), transitions weighted by branch probability;
* ``random``: a chain whose candidates draw each array's layout independently
  (no structure: the hard case for the ILP and for DP).

For each instance: ILP model size, build time (autodist's model), solve time
(the transfer to HiGHS plus HiGHS; HiGHS's own time beside it; "other s": the
solve with HiGHS's presolve the other way round from autodist's choice,
``SELECTION_PRESOLVE``, and "ratio" that time over autodist's), the
solver's status and gap, and the objective; then dynamic programming (time,
objective, the bound on its work; "-" when above ``--dp-limit``) and, for tiny
instances, exhaustive enumeration.  "agree" checks that every proven optimum
is the same; "ILP excess" is how much worse the ILP's answer is than the best
proven optimum (0 when the ILP proved its own).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from autodist.mapping.select import SELECTION_PRESOLVE  # noqa: E402
from autodist.mapping.select import (  # noqa: E402
    Candidate,
    DpNotApplicable,
    Phase,
    Problem,
    Transition,
    build_selection_ilp,
    dp_work,
    evaluate,
    select_dp,
    select_exhaustive,
)
from autodist.ilpmodel import solve_model  # noqa: E402

ARRAYS = [f"V{i}" for i in range(6)]
DISTRIBUTIONS = ["(BLOCK,*)", "(*,BLOCK)", "(CYCLIC,*)", "(*,CYCLIC)",
                 "(BLOCK,BLOCK)", "(CYCLIC,CYCLIC)", "(BLOCK,CYCLIC)", "(CYCLIC,BLOCK)"]


def make_phase(rng: random.Random, name: str, index: int, candidates: int, frequency: float,
               correlated: bool = True):
    """A phase using two to four arrays of a sliding window.  Correlated (program-
    like) candidates give every array the same distribution (the template's), the
    i-th candidate the i-th distribution, and beyond eight the same layouts with
    another loop parallelized (another cost).  Independent candidates draw a
    layout per array at random: no structure."""
    first = index % len(ARRAYS)
    uses = sorted({ARRAYS[(first + d) % len(ARRAYS)] for d in range(rng.randint(2, 4))})
    base = rng.uniform(0.5, 2.0)
    cands = []
    for c in range(candidates):
        if correlated:
            layouts = tuple((a, DISTRIBUTIONS[c % len(DISTRIBUTIONS)]) for a in uses)
        else:
            layouts = tuple((a, rng.choice(DISTRIBUTIONS)) for a in uses)
        cands.append(Candidate(f"c{c}", base * rng.uniform(0.3, 1.0), layouts))
    return Phase(name, frequency, tuple(cands)), uses


def remap_function(seed: int):
    rng = random.Random(seed)
    table = {(a, k, l): rng.uniform(0.2, 1.5) for a in ARRAYS for k in DISTRIBUTIONS for l in DISTRIBUTIONS}
    return lambda array, k, l: table[array, k, l]


def flow_transitions(order, uses, edges, frequency):
    """Per array, transitions from the phases that last used it to the next phase
    that uses it, along the control-flow DAG ``edges`` ({phase: [(next, prob)]}),
    weighted by how often each path is taken."""
    reach = {p: {} for p in order}  # phase -> {array: {last user: frequency}}
    transitions = []
    for p in order:
        incoming = reach[p]
        outgoing = {a: dict(d) for a, d in incoming.items()}
        for a in uses[p]:
            for src, f in incoming.get(a, {}).items():
                transitions.append(Transition(a, src, p, f))
            outgoing[a] = {p: frequency[p]}
        for nxt, prob in edges.get(p, ()):
            for a, d in outgoing.items():
                acc = reach[nxt].setdefault(a, {})
                for src, f in d.items():
                    acc[src] = acc.get(src, 0.0) + f * prob
    return transitions


def instance(shape: str, phases: int, candidates: int, seed: int) -> Problem:
    rng = random.Random(seed)
    order, uses, edges, frequency, built = [], {}, {}, {}, []
    if shape not in ("chain", "loop", "branch", "random"):
        raise SystemExit(f"unknown shape {shape!r}")
    loop = (phases // 4, phases // 4 + max(1, phases // 2)) if shape == "loop" else None
    for i in range(phases):
        name = f"p{i}"
        f = 10.0 if loop and loop[0] <= i < loop[1] else 1.0
        if shape == "branch" and i % 3 in (1, 2):
            f = 0.3 if i % 3 == 1 else 0.7
        phase, used = make_phase(rng, name, i, candidates, f, correlated=shape != "random")
        built.append(phase)
        order.append(name)
        uses[name] = used
        frequency[name] = f
    for i in range(phases - 1):
        if shape == "branch" and i % 3 == 0 and i + 2 < phases:
            # diamond: i -> i+1 (0.3) | i+2 (0.7) -> i+3
            edges[order[i]] = [(order[i + 1], 0.3), (order[i + 2], 0.7)]
            edges[order[i + 1]] = [(order[i + 3], 1.0)] if i + 3 < phases else []
            edges[order[i + 2]] = [(order[i + 3], 1.0)] if i + 3 < phases else []
        elif shape != "branch" or i % 3 == 0:
            edges[order[i]] = [(order[i + 1], 1.0)]
    transitions = flow_transitions(order, uses, edges, {p: 1.0 for p in order})
    if loop:  # inside the loop: 10 times per hand-over; back edges 9 times
        inside = set(order[loop[0]:loop[1]])
        transitions = [Transition(t.array, t.source, t.target,
                                  10.0 if t.source in inside and t.target in inside else 1.0)
                       for t in transitions]
        for a in ARRAYS:
            users = [p for p in order[loop[0]:loop[1]] if a in uses[p]]
            if users:
                transitions.append(Transition(a, users[-1], users[0], 9.0))
    else:
        transitions = [Transition(t.array, t.source, t.target, t.frequency) for t in transitions]
    return Problem(tuple(built), tuple(transitions), remap_function(seed))


def fmt(value, spec=".3f"):
    return "-" if value is None else format(value, spec)


def run_ilp(problem: Problem, time_limit: float, presolve: bool):
    t0 = time.perf_counter()
    model, x, _scale = build_selection_ilp(problem)
    build = time.perf_counter() - t0
    result, values = solve_model(model, time_limit, presolve=presolve)
    total = None
    if values is not None:
        choice = [max(range(len(xs)), key=lambda c: values[xs[c]]) for xs in x]
        phase_cost, remap_cost, _ = evaluate(problem, choice)
        total = phase_cost + remap_cost
    return model.columns, model.rows, build, result, total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phases", default="6,10,100,500,2000")
    parser.add_argument("--candidates", default="4,16")
    parser.add_argument("--shapes", default="chain,loop,branch,random")
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--dp-limit", type=int, default=3_000_000,
                        help="largest DP work (state, candidate pairs) to attempt")
    parser.add_argument("--exhaustive-limit", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    header = (f"{'shape':6} {'phases':>6} {'cands':>5} | {'vars':>7} {'cons':>7} {'build s':>7} "
              f"{'solve s':>7} {'HiGHS s':>7} {'other s':>7} {'ratio':>5} {'status':>9} {'gap':>7} {'ILP obj':>10} | {'DP s':>7} "
              f"{'DP obj':>10} {'DP work':>9} | {'exh s':>6} {'exh obj':>10} | {'agree':>5} {'ILP excess':>10}")
    print(f"remapping selection: ILP (time limit {args.time_limit:g} s) vs DP vs enumeration")
    print(header)
    print("-" * len(header))
    for shape in args.shapes.split(","):
        for n in map(int, args.phases.split(",")):
            for c in map(int, args.candidates.split(",")):
                problem = instance(shape, n, c, args.seed)
                nvars, ncons, build, result, ilp_total = run_ilp(problem, args.time_limit, SELECTION_PRESOLVE)
                *_, presolved, presolved_total = run_ilp(problem, args.time_limit, not SELECTION_PRESOLVE)
                dp_time = dp_total = None
                _, states = dp_work(problem)
                try:
                    t0 = time.perf_counter()
                    dp_total = select_dp(problem, args.dp_limit).total
                    dp_time = time.perf_counter() - t0
                except DpNotApplicable:
                    pass
                exh_time = exh_total = None
                if math.prod(len(p.candidates) for p in problem.phases) <= args.exhaustive_limit:
                    t0 = time.perf_counter()
                    exh_total = select_exhaustive(problem).total
                    exh_time = time.perf_counter() - t0
                exact = [v for v, ok in ((ilp_total, result.optimal), (presolved_total, presolved.optimal),
                                         (dp_total, True), (exh_total, True))
                         if v is not None and ok]
                agree = "yes" if all(abs(v - exact[0]) <= 1e-6 * max(1, abs(v)) for v in exact) else "NO"
                if len(exact) < 2:
                    agree = "-"
                excess = None  # how much worse the ILP's answer is than a proven optimum
                if exact and ilp_total is not None:
                    excess = ilp_total / min(exact) - 1
                print(f"{shape:6} {n:>6} {c:>5} | {nvars:>7} {ncons:>7} {build:>7.2f} {result.seconds:>7.2f} "
                      f"{fmt(result.solver_seconds, '.2f'):>7} {presolved.seconds:>7.2f} "
                      f"{presolved.seconds / max(result.seconds, 1e-6):>5.1f} {result.status:>9} {fmt(result.gap, '.1e'):>7} "
                      f"{fmt(ilp_total):>10} | {fmt(dp_time, '.2f'):>7} {fmt(dp_total):>10} {states:>9.1e} | "
                      f"{fmt(exh_time, '.2f'):>6} {fmt(exh_total):>10} | {agree:>5} {fmt(excess, '+.1%'):>10}",
                      flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
