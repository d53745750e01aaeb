"""The Dimension Alignment Graph: edges, competing weights, offsets, parallel edges."""

from __future__ import annotations

import networkx as nx
import pytest

from autodist.ir import Affine
from autodist.mapping.dag import Dag, DagBuilder, node_name


def v(var: str, const: int = 0, coef: int = 1) -> Affine:
    """The affine subscript ``coef*var + const``."""
    return Affine(const, ((var, coef),))


def c(const: int) -> Affine:
    return Affine(const)


def adi_phase4() -> DagBuilder:
    """ADI phase 4 (DDT Figure 2): X(I,J) = X(I,J) - X(I,J-1)*A(I,J)/B(I,J-1);
    B(I,J) = B(I,J) - A(I,J)*A(I,J)/B(I,J-1); the I loop may run in parallel."""
    b = DagBuilder()
    ij, ijm1 = (v("I"), v("J")), (v("I"), v("J", -1))
    b.add_pattern("X", ij, "X", ijm1)
    b.add_pattern("X", ij, "A", ij)
    b.add_pattern("X", ij, "B", ijm1)
    b.add_pattern("B", ij, "A", ij)
    b.add_pattern("B", ij, "A", ij)
    b.add_pattern("B", ij, "B", ijm1)
    b.add_parallel("I", [("X", 0), ("B", 0)])
    return b


def test_adi_phase4_matches_figure_2():
    dag = adi_phase4().build()
    assert dag.columns == (("X", 2), ("A", 2), ("B", 2))
    assert dag.width == 2
    pairs = {(node_name(a.lhs), node_name(a.rhs)) for a in dag.affinities}
    # Figure 2's thin edges; self-reference patterns (X <- X, B <- B) add none.
    assert pairs == {("X1", "A1"), ("X2", "A2"), ("X1", "B1"), ("X2", "B2"), ("B1", "A1"), ("B2", "A2")}
    assert all(not a.competing and a.weight == 1.0 for a in dag.affinities)
    # B <- A occurs twice: two edges per dimension pair, summed in the inter weights.
    assert dag.weights[(("A", 0), ("B", 0))] == 2.0
    # The parallelization edge (X1, B1) outweighs every affinity edge together.
    total = sum(a.weight for a in dag.affinities)
    assert dag.parallel_weight == total + 1
    assert dag.weights[(("B", 0), ("X", 0))] == 1.0 + dag.parallel_weight


def test_offsets_are_kept_per_edge():
    dag = adi_phase4().build()
    offsets = {(node_name(a.lhs), node_name(a.rhs)): a.offset for a in dag.affinities}
    assert offsets[("X2", "B2")] == -1  # B(I,J-1) read where X(I,J) is written
    assert offsets[("X1", "B1")] == 0
    g = dag.offset_graph()
    assert g.number_of_edges(("A", 0), ("B", 0)) == 2  # never merged
    assert {d["offset"] for _, _, d in g.edges(data=True)} == {0, -1}


def test_parallel_offsets_are_not_merged():
    b = DagBuilder()
    b.add_pattern("A", [v("I")], "B", [v("I")])
    b.add_pattern("A", [v("I")], "B", [v("I", 1)])
    b.add_pattern("A", [v("I")], "B", [v("I", 1)])
    dag = b.build()
    edges = dag.offset_graph().get_edge_data(("B", 0), ("A", 0))
    assert sorted(d["offset"] for d in edges.values()) == [0, 1, 1]
    assert dag.weights[(("A", 0), ("B", 0))] == 3.0


def test_competing_edges_weigh_more():
    b = DagBuilder()
    edges = b.add_pattern("A", [v("I"), v("I")], "B", [v("I")])  # A(I,I) = B(I)
    assert len(edges) == 2 and all(e.competing for e in edges)
    other = b.add_pattern("C", [v("I"), v("J")], "B", [v("J")])  # C(I,J) = B(J)
    assert len(other) == 1 and not other[0].competing
    assert edges[0].weight > other[0].weight
    assert edges[0].weight == b.competing and other[0].weight == b.noncompeting


def test_competing_weights_are_configurable():
    b = DagBuilder(competing=0.25, noncompeting=1.0)
    edges = b.add_pattern("A", [v("I"), v("I")], "B", [v("I")], weight=4)
    assert [e.weight for e in edges] == [1.0, 1.0]
    assert [e.count for e in edges] == [4, 4]


def test_transposition_links_crossed_dimensions():
    b = DagBuilder()
    b.add_pattern("A", [v("I"), v("J")], "B", [v("J"), v("I")])
    pairs = {(node_name(a.lhs), node_name(a.rhs)) for a in b.build().affinities}
    assert pairs == {("A1", "B2"), ("A2", "B1")}


def test_only_single_loop_variable_subscripts_make_edges():
    b = DagBuilder()
    # A(I+J, N) = B(I, K): I+J has two loop variables; N and K are not loop variables.
    edges = b.add_pattern("A", [v("I") + v("J"), v("N")], "B", [v("I"), v("K")], loop_vars={"I", "J"})
    assert edges == ()
    # Constant and opaque (None) subscripts make no edge either.
    assert b.add_pattern("A", [c(1), None], "B", [c(1), v("I")]) == ()


def test_symbolic_constants_with_loop_vars():
    b = DagBuilder()
    # A(I+N) = B(I) inside DO I: same variable, symbolic difference -> no offset.
    (edge,) = b.add_pattern("A", [v("I") + v("N")], "B", [v("I")], loop_vars={"I"})
    assert edge.offset is None
    # A(I+N) = B(I+N+2): the symbolic parts cancel, offset 2.
    (edge,) = b.add_pattern("A", [v("I") + v("N")], "B", [v("I", 2) + v("N")], loop_vars={"I"})
    assert edge.offset == 2


@pytest.mark.parametrize(
    "lhs, rhs, offset",
    [
        (v("I"), v("I", -1), -1),
        (v("I", 3), v("I", 1), -2),
        (v("I", 0, 2), v("I", 4, 2), 4),
        (v("I", 0, 2), v("I"), None),  # stride: no shift aligns it
        (v("I"), v("I", 257, -1), None),  # reflection
    ],
)
def test_offset_of_one_pattern(lhs, rhs, offset):
    (edge,) = DagBuilder().add_pattern("A", [lhs], "B", [rhs])
    assert edge.offset == offset


def test_self_reference_is_ignored_but_declares_the_array():
    b = DagBuilder()
    assert b.add_pattern("A", [v("I"), v("J")], "A", [v("I", -1), v("J")]) == ()
    assert b.build().columns == (("A", 2),)


def test_parallel_edges_link_distinct_arrays_only():
    b = DagBuilder()
    b.add_array("A", 2)
    b.add_array("B", 2)
    edges = b.add_parallel("I", [("A", 0), ("A", 1), ("B", 0)])
    assert {(node_name(e.a), node_name(e.b)) for e in edges} == {("A1", "B1"), ("A2", "B1")}
    assert b.build().parallel_weight == 1.0  # no affinity edge: 0 + 1


def test_fixed_parallel_weight():
    b = DagBuilder(parallel_weight=50)
    b.add_pattern("A", [v("I")], "B", [v("I")])
    b.add_parallel("I", [("A", 0), ("B", 0)])
    assert b.build().weights[(("A", 0), ("B", 0))] == 51


def test_cut_weight():
    dag = adi_phase4().build()
    same = {n: n[1] for n in dag.nodes}
    assert dag.cut_weight(same) == 0
    swapped = dict(same)
    swapped[("A", 0)], swapped[("A", 1)] = 1, 0
    # A's four edges (X-A twice, B-A with weight 2 twice) are cut.
    assert dag.cut_weight(swapped) == 1 + 1 + 2 + 2


def test_graph_is_frozen_and_complete():
    dag = adi_phase4().build()
    g = dag.graph
    assert set(g.nodes) == set(dag.nodes)
    assert g.nodes[("B", 1)] == {"array": "B", "dim": 1}
    with pytest.raises(nx.NetworkXError):
        g.add_edge(("X", 0), ("A", 1))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda b: b.add_pattern("A", [v("I")], "A", [v("I"), v("J")]), "rank"),
        (lambda b: b.add_parallel("I", [("Z", 0)]), "undeclared"),
        (lambda b: b.add_parallel("I", [("A", 5)]), "out of range"),
        (lambda b: b.add_edge(("A", 0), ("A", 0)), "one column"),
        (lambda b: b.add_pattern("A", [v("I")], "B", [v("I")], weight=-1), "negative"),
    ],
)
def test_builder_rejects_inconsistent_input(call, message):
    b = DagBuilder()
    b.add_array("A", 1)
    with pytest.raises(ValueError, match=message):
        call(b)


def test_dag_validates_its_edges():
    with pytest.raises(ValueError, match="no column"):
        b = DagBuilder()
        b.add_pattern("A", [v("I")], "B", [v("I")])
        built = b.build()
        Dag(columns=(("A", 1),), affinities=built.affinities)
