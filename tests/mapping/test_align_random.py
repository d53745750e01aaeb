"""Alignment on random DAGs: the ILP equals enumeration and is never worse than
the heuristic; every partition is valid and its cut is recomputed exactly."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from autodist.mapping.align import align, align_exhaustive, align_heuristic, align_ilp
from autodist.mapping.dag import DagBuilder


@st.composite
def dags(draw, max_arrays=4, max_rank=3, max_edges=10):
    ranks = draw(st.lists(st.integers(1, max_rank), min_size=2, max_size=max_arrays))
    b = DagBuilder()
    for i, r in enumerate(ranks):
        b.add_array(f"A{i}", r)
    for _ in range(draw(st.integers(0, max_edges))):
        i, j = draw(st.lists(st.integers(0, len(ranks) - 1), min_size=2, max_size=2, unique=True))
        u = (f"A{i}", draw(st.integers(0, ranks[i] - 1)))
        v = (f"A{j}", draw(st.integers(0, ranks[j] - 1)))
        b.add_edge(u, v, draw(st.integers(1, 5)))
    if draw(st.booleans()):  # sometimes a parallel loop over the first dimensions
        b.add_parallel("I", [(f"A{i}", 0) for i in range(len(ranks))])
    return b.build()


def check_valid(dag, part):
    classes = part.as_dict()
    assert set(classes) == set(dag.nodes)
    for array in dag.arrays:
        used = [classes[n] for n in dag.column(array)]
        assert len(set(used)) == len(used), "two dimensions of one array in one class"
        assert all(0 <= k < dag.width for k in used)
    assert part.cut == dag.cut_weight(classes)


@settings(max_examples=40, deadline=None)
@given(dags())
def test_ilp_equals_enumeration_and_beats_heuristic(dag):
    exact = align_exhaustive(dag)
    ilp = align_ilp(dag, time_limit=20)
    assert ilp.solve.status == "optimal"
    heuristic = align_heuristic(dag)
    for part in (exact, ilp.partition, heuristic):
        check_valid(dag, part)
    assert abs(ilp.cut - exact.cut) < 1e-9
    assert ilp.cut <= heuristic.cut + 1e-9


@settings(max_examples=15, deadline=None)
@given(dags(max_arrays=3, max_edges=7))
def test_path_sum_variant_is_valid(dag):
    part = align_heuristic(dag, "paths")
    check_valid(dag, part)
    assert part.cut >= align_exhaustive(dag).cut - 1e-9


@settings(max_examples=20, deadline=None)
@given(dags())
def test_default_is_optimal_and_reports_both(dag):
    result = align(dag, time_limit=20)
    exact = align_exhaustive(dag)
    assert abs(result.partition.cut - exact.cut) < 1e-9
    assert result.heuristic_cut == align_heuristic(dag).cut
    assert result.optimal


def test_time_limited_default_never_claims_optimality():
    """A large, noisy DAG with a limit too short for a proof: the answer is the
    better of the heuristic and the ILP incumbent, and says so."""
    import random

    rng = random.Random(7)
    b = DagBuilder()
    ranks = [3] + [rng.randint(1, 3) for _ in range(59)]
    for i, r in enumerate(ranks):
        b.add_array(f"A{i}", r)
    for i in range(len(ranks)):
        for _ in range(4):
            j = rng.randrange(len(ranks))
            if j != i:
                u = (f"A{i}", rng.randrange(ranks[i]))
                v = (f"A{j}", rng.randrange(ranks[j]))
                b.add_edge(u, v, rng.randint(1, 5))
    dag = b.build()
    result = align(dag, time_limit=0.05)
    assert result.method in ("heuristic", "ilp-incumbent")
    assert not result.optimal
    assert result.ilp.status in ("feasible", "no_solution")
    assert result.partition.cut == min(result.heuristic_cut, result.ilp_cut or result.heuristic_cut)
