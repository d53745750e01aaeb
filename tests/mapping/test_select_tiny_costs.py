"""The selection ILP is exact on costs far below the solver's tolerances."""

from __future__ import annotations

import random

from autodist.mapping.select import Candidate, Phase, Problem, Transition, select_exhaustive, select_ilp


def tiny_chain(seed: int, n: int = 8, scale: float = 1e-9) -> Problem:
    rng = random.Random(seed)
    phases = []
    for i in range(n):
        cands = tuple(Candidate(f"p{i}c{k}", scale * rng.randint(1000, 1010), (("A", k),)) for k in range(3))
        phases.append(Phase(f"p{i}", 1.0, cands))
    transitions = tuple(Transition("A", f"p{i}", f"p{i + 1}", 1.0) for i in range(n - 1))
    return Problem(tuple(phases), transitions, remap=lambda a, k, l: 2 * scale)


def test_ilp_matches_enumeration_at_nanosecond_scale():
    for seed in range(5):
        problem = tiny_chain(seed)
        ilp = select_ilp(problem, time_limit=20)
        exact = select_exhaustive(problem)
        assert abs(ilp.total - exact.total) < 1e-15, (seed, ilp.total, exact.total)
        assert ilp.solve.objective == ilp.solve.bound or abs(ilp.solve.objective - exact.total) < 1e-15
