"""Inter-dimensional alignment: DDT's TRED2 example, the critical-column rule,
the assignment step, and the default's choice between ILP and heuristic."""

from __future__ import annotations

from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodist.ir import Affine
from autodist.mapping.align import (
    align,
    align_exhaustive,
    align_heuristic,
    align_ilp,
    best_assignment,
    bipartite_weights,
    criticality,
    template_column,
)
from autodist.mapping.dag import DagBuilder


def tred2():
    """A DAG in the situation of DDT Figures 3 and 4 (EISPACK TRED2: arrays D, E, Z
    and the template T).  Weights count arcs: T1-Z1 and T2-Z2 three each; T2-D1 one;
    D1-Z1 two; D1-E1 one; E1-Z1 two.  Between T2 and Z1 run the paths T2,D1,Z1 and
    T2,D1,E1,Z1 (Figure 3b)."""
    b = DagBuilder()
    for array, rank in (("T", 2), ("Z", 2), ("D", 1), ("E", 1)):
        b.add_array(array, rank)
    T1, T2, Z1, Z2, D1, E1 = ("T", 0), ("T", 1), ("Z", 0), ("Z", 1), ("D", 0), ("E", 0)
    b.add_edge(T1, Z1, 3)
    b.add_edge(T2, Z2, 3)
    b.add_edge(T2, D1, 1)
    b.add_edge(D1, Z1, 2)
    b.add_edge(D1, E1, 1)
    b.add_edge(E1, Z1, 2)
    return b.build()


def test_tred2_min_cut_cuts_one_arc_where_path_sums_cut_six():
    dag = tred2()
    mincut = align_heuristic(dag, "mincut")
    paths = align_heuristic(dag, "paths")
    # Z is aligned first in both (the most critical column: 6 against 1 and 0).
    assert mincut.steps[0].column == paths.steps[0].column == "Z"
    # Figure 3c: path sums align (T1, Z2) and (T2, Z1) ...
    assert paths.steps[0].assignment == (1, 0)
    assert paths["Z", 0] == paths["T", 1]
    assert paths.cut == 6
    # ... Figure 3d: min-cut aligns (T1, Z1) and (T2, Z2), one arc left to communicate.
    assert mincut.steps[0].assignment == (0, 1)
    assert mincut.steps[0].weights == ((3.0, 1.0), (1.0, 3.0))  # min-cuts of Figure 3d
    assert mincut.cut == 1
    assert mincut.describe() == "T1 Z1 D1 E1 | T2 Z2"
    # One arc is the optimum.
    assert align_exhaustive(dag).cut == 1


def test_tred2_path_sums_of_figure_3c():
    dag = tred2()
    T, Z = dag.column("T"), dag.column("Z")
    weights = bipartite_weights(dag.graph, T, Z, "paths")
    # T2-Z1: paths T2,D1,Z1 (1+2) and T2,D1,E1,Z1 (1+1+2) sum to 7, more than
    # the direct T1-Z1 (3); everything through the graph reaches T1-Z2.
    assert weights[0][1] == 7
    assert weights[0][0] == 3
    assert weights[1][0] > weights[1][1] == 3


def figure4_intermediate():
    """Figure 4a: after T and Z are merged, D1 has arcs to T1 (two) and T2 (one),
    E1 two arcs to T1, and D1-E1 one."""
    b = DagBuilder()
    for array, rank in (("T", 2), ("D", 1), ("E", 1)):
        b.add_array(array, rank)
    b.add_edge(("D", 0), ("T", 0), 2)
    b.add_edge(("D", 0), ("T", 1), 1)
    b.add_edge(("E", 0), ("T", 0), 2)
    b.add_edge(("D", 0), ("E", 0), 1)
    return b.build()


def test_most_critical_column_on_figure_4():
    dag = figure4_intermediate()
    T = dag.column("T")
    assert criticality(dag.graph, T, dag.column("D")) == 1
    assert criticality(dag.graph, T, dag.column("E")) == 2
    part = align_heuristic(dag)
    assert part.steps[0].column == "E"
    assert dict(part.steps[0].criticality) == {"D": 1, "E": 2}


def test_tred2_second_step_is_figure_4():
    part = align_heuristic(tred2())
    assert [s.column for s in part.steps] == ["Z", "E", "D"]
    assert dict(part.steps[1].criticality) == {"D": 1, "E": 2}


def test_parallel_edges_force_alignment():
    # X(I,J) = B(J,I) with both arrays written in the parallel I loop: the
    # affinity says X1~B2, the parallelization edge X1~B1 wins.
    b = DagBuilder()
    I, J = Affine(0, (("I", 1),)), Affine(0, (("J", 1),))
    b.add_pattern("X", [I, J], "B", [J, I])
    b.add_parallel("I", [("X", 0), ("B", 0)])
    dag = b.build()
    for part in (align_heuristic(dag), align_exhaustive(dag), align_ilp(dag, 10).partition):
        assert part["X", 0] == part["B", 0]
        assert part.cut == 2  # both transposition edges are cut, not the parallel one


def test_template_column_is_the_first_largest():
    b = DagBuilder()
    b.add_array("V", 1)
    b.add_array("M", 2)
    b.add_array("N", 2)
    assert template_column(b.build()) == "M"


def test_classes_follow_the_template_column():
    dag = tred2()
    for part in (align_heuristic(dag), align_exhaustive(dag), align_ilp(dag, 10).partition):
        assert part.template == "T"
        assert part["T", 0] == 0 and part["T", 1] == 1


def test_default_uses_the_proven_ilp():
    result = align(tred2(), time_limit=10)
    assert result.method == "ilp" and result.optimal
    assert result.ilp.status == "optimal"
    assert result.heuristic_cut == 1 and result.ilp_cut == 1
    assert result.partition.cut == 1


def test_trivial_template():
    b = DagBuilder()
    b.add_pattern("A", [Affine(0, (("I", 1),))], "B", [Affine(0, (("I", 1),))])
    result = align(b.build())
    assert result.method == "trivial" and result.partition.cut == 0


def test_empty_dag():
    dag = DagBuilder().build()
    assert align_heuristic(dag).classes == ()
    assert align(dag).partition.cut == 0


def brute_assignment(weights, maximize):
    rows, cols = len(weights), len(weights[0])
    sums = [sum(weights[i][k] for i, k in enumerate(p)) for p in permutations(range(cols), rows)]
    return max(sums) if maximize else min(sums)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 4).flatmap(
        lambda cols: st.lists(
            st.lists(st.integers(0, 9), min_size=cols, max_size=cols), min_size=1, max_size=cols
        )
    ),
    st.booleans(),
)
def test_assignment_is_exact(weights, maximize):
    value, assignment = best_assignment(weights, maximize)
    assert value == brute_assignment(weights, maximize)
    assert len(set(assignment)) == len(assignment)
    assert sum(weights[i][k] for i, k in enumerate(assignment)) == value


def test_assignment_tiebreak():
    # Both assignments score 4 on the primary weights; the tiebreak picks the second.
    value, assignment = best_assignment([[2, 2], [2, 2]], tiebreak=[[0, 1], [1, 0]])
    assert value == 4 and assignment == (1, 0)


def test_unknown_bipartite_weighting():
    with pytest.raises(ValueError, match="mincut or paths"):
        align_heuristic(tred2(), "sum")


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 8).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(
                st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(1, 9)),
                max_size=20,
            ),
        )
    )
)
def test_min_cut_matches_networkx(case):
    import networkx as nx

    from autodist.mapping.align import min_cut

    n, edges = case
    g = nx.Graph()
    g.add_nodes_from(range(n))
    for u, v, w in edges:
        if u != v:
            g.add_edge(u, v, weight=g[u][v]["weight"] + w if g.has_edge(u, v) else w)
    weights = {u: {v: d["weight"] for v, d in g[u].items()} for u in g}
    expected = nx.minimum_cut_value(g, 0, n - 1, capacity="weight")
    assert min_cut(weights, 0, n - 1) == pytest.approx(expected)
