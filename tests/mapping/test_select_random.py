"""Remapping selection on random instances: ILP == enumeration, DP == ILP on
chains and loops, the static ILP == enumeration of one layout per array."""

from __future__ import annotations

import math
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodist.errors import SolverError
from autodist.mapping.select import (
    Candidate,
    Phase,
    Problem,
    Transition,
    select_dp,
    select_exhaustive,
    select_ilp,
    select_static,
)

KEYS = ("r", "c", "b")


def remap_table(draw, arrays):
    table = {
        (a, k, l): draw(st.integers(1, 9)) / 4 for a in arrays for k in KEYS for l in KEYS if k != l
    }

    def remap(array, k, l):
        assert k != l
        return table[array, k, l]

    return remap


def candidates(draw, arrays, max_candidates=3, exits=True):
    out = []
    for ci in range(draw(st.integers(1, max_candidates))):
        layouts = {a: draw(st.sampled_from(KEYS)) for a in arrays}
        leaves = {}
        if exits and draw(st.integers(0, 4)) == 0:
            a = draw(st.sampled_from(arrays))
            leaves[a] = draw(st.sampled_from(KEYS))
        out.append(Candidate(f"c{ci}", draw(st.integers(0, 20)) / 2, layouts, exits=leaves))
    return tuple(out)


@st.composite
def problems(draw, max_phases=5):
    """Arbitrary structure: every phase uses a random subset of arrays; random
    transitions between phases sharing an array (forward, back and self)."""
    arrays = ["A", "B", "C"][: draw(st.integers(1, 3))]
    n = draw(st.integers(1, max_phases))
    uses = [draw(st.lists(st.sampled_from(arrays), min_size=1, unique=True)) for _ in range(n)]
    phases = tuple(
        Phase(f"p{i}", draw(st.integers(1, 5)), candidates(draw, uses[i])) for i in range(n)
    )
    transitions = []
    for _ in range(draw(st.integers(0, 2 * n))):
        s, t = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        common = sorted(set(uses[s]) & set(uses[t]))
        if common:
            transitions.append(Transition(draw(st.sampled_from(common)), f"p{s}", f"p{t}", draw(st.integers(1, 6))))
    return Problem(phases, tuple(transitions), remap_table(draw, arrays))


@st.composite
def chains_and_loops(draw, max_phases=12):
    """Program-shaped: phases in sequence, each array handed from one phase that
    uses it to the next; optionally a loop over a stretch with its back edges."""
    arrays = ["A", "B", "C"][: draw(st.integers(1, 3))]
    n = draw(st.integers(2, max_phases))
    uses = [draw(st.lists(st.sampled_from(arrays), min_size=1, unique=True)) for _ in range(n)]
    loop = None
    if draw(st.booleans()):
        first = draw(st.integers(0, n - 1))
        loop = (first, draw(st.integers(first, n - 1)), draw(st.integers(2, 10)))
    freq = [loop[2] if loop and loop[0] <= i <= loop[1] else 1 for i in range(n)]
    phases = tuple(
        Phase(f"p{i}", freq[i], candidates(draw, uses[i], max_candidates=4)) for i in range(n)
    )
    transitions = []
    for a in arrays:
        seq = [i for i in range(n) if a in uses[i]]
        for s, t in zip(seq, seq[1:]):
            transitions.append(Transition(a, f"p{s}", f"p{t}", min(freq[s], freq[t])))
        if loop:
            inside = [i for i in seq if loop[0] <= i <= loop[1]]
            if inside:
                transitions.append(Transition(a, f"p{inside[-1]}", f"p{inside[0]}", loop[2] - 1))
    return Problem(phases, tuple(transitions), remap_table(draw, arrays))


@settings(max_examples=60, deadline=None)
@given(problems())
def test_ilp_and_dp_equal_enumeration(problem):
    exact = select_exhaustive(problem)
    ilp = select_ilp(problem, 20)
    dp = select_dp(problem)
    assert ilp.solve.status == "optimal"
    assert ilp.total == pytest.approx(exact.total, abs=1e-9)
    assert dp.total == pytest.approx(exact.total, abs=1e-9)
    assert ilp.solve.objective == pytest.approx(ilp.total, abs=1e-6)
    assert ilp.phase_cost + ilp.remap_cost == pytest.approx(ilp.total)


@settings(max_examples=40, deadline=None)
@given(chains_and_loops())
def test_dp_equals_ilp_on_chains_and_loops(problem):
    dp = select_dp(problem)
    ilp = select_ilp(problem, 20)
    assert ilp.solve.status == "optimal"
    assert dp.total == pytest.approx(ilp.total, abs=1e-9)


def static_by_enumeration(problem):
    """One layout per array, every combination; each phase then takes its cheapest
    candidate whose entry and exit layouts all match."""
    arrays = problem.arrays
    keys = {a: sorted({k for p in problem.phases for c in p.candidates for b, k in c.layouts + c.exits if b == a}) for a in arrays}
    best = math.inf
    for combo in product(*(keys[a] for a in arrays)):
        layout = dict(zip(arrays, combo))
        total = 0.0
        for p in problem.phases:
            fits = [c.cost for c in p.candidates
                    if all(c.entry(a) == layout[a] and c.exit(a) == layout[a] for a in c.arrays)]
            if not fits:
                break
            total += p.frequency * min(fits)
        else:
            best = min(best, total)
    return best


@settings(max_examples=60, deadline=None)
@given(problems())
def test_static_equals_enumeration_of_layouts(problem):
    expected = static_by_enumeration(problem)
    if expected == math.inf:
        with pytest.raises(SolverError, match="no static solution"):
            select_static(problem)
        return
    static = select_static(problem)
    assert static.total == pytest.approx(expected, abs=1e-9)
    assert static.remap_cost == 0
    layouts = dict(static.layouts)
    for (name, ci) in static.choice:
        cand = problem.phase(name).candidates[ci]
        assert all(cand.entry(a) == layouts[a] == cand.exit(a) for a in cand.arrays)
    # The dynamic optimum is never worse than the static one.
    assert select_dp(problem).total <= static.total + 1e-9
