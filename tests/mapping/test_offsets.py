"""Intra-dimensional alignment by retiming: exact shifts on hand-made graphs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodist.ir import Affine
from autodist.mapping.align import align_exhaustive, align_heuristic
from autodist.mapping.dag import DagBuilder
from autodist.mapping.offsets import align_offsets, choose_shift

from .test_dag import adi_phase4


def v(var: str, const: int = 0) -> Affine:
    return Affine(const, ((var, 1),))


def one_dim(*patterns, arrays=("T", "A", "B", "C")):
    """A 1-D DAG from (lhs, lhs_const, rhs, rhs_const) patterns over loop I."""
    b = DagBuilder()
    for a in arrays:
        b.add_array(a, 1)
    for lhs, lc, rhs, rc in patterns:
        b.add_pattern(lhs, [v("I", lc)], rhs, [v("I", rc)])
    return b.build()


def test_tree_is_aligned_perfectly():
    # T(I) = A(I-1); A(I) = B(I+2); C(I) = T(I+1): a tree around the template T.
    dag = one_dim(("T", 0, "A", -1), ("A", 0, "B", 2), ("C", 0, "T", 1))
    off = align_offsets(dag, align_heuristic(dag))
    assert dict(off.shifts) == {("T", 0): 0, ("A", 0): 1, ("B", 0): -1, ("C", 0): 1}
    assert off.perfect
    assert off.order[0] == ("T", 0)
    # A(I-1) then lies where T(I) does: I - 1 + shift(A) == I.
    assert -1 + off["A", 0] == 0


def test_most_frequent_offset_wins_and_the_rest_needs_shift():
    # T(I) = A(I) twice, T(I) = A(I-1) once (three separate patterns).
    dag = one_dim(("T", 0, "A", 0), ("T", 0, "A", 0), ("T", 0, "A", -1), arrays=("T", "A"))
    off = align_offsets(dag, align_heuristic(dag))
    assert off["A", 0] == 0
    (m,) = off.misaligned
    assert m.residual == -1 and m.edge.offset == -1
    assert m.describe() == "T1 <- A1: off by -1"


def test_pattern_weight_counts_as_votes():
    b = DagBuilder()
    b.add_pattern("T", [v("I")], "A", [v("I", 1)], weight=3)
    b.add_pattern("T", [v("I")], "A", [v("I")], weight=2)
    dag = b.build()
    off = align_offsets(dag, align_heuristic(dag))
    assert off["A", 0] == -1  # A(I+1) lies where T(I) does: I + 1 + shift(A) == I
    assert [m.residual for m in off.misaligned] == [-1]


@pytest.mark.parametrize(
    "votes, shift",
    [
        ({}, 0),
        ({3: 2, 0: 1}, 3),  # the most frequent, even against zero
        ({0: 1, 2: 1}, 0),  # zero wins a tie
        ({-1: 1, 2: 1}, -1),  # else the smallest
        ({5: 1.0, -4: 1.0, 0: 0.5}, -4),  # zero is not among the tied
    ],
)
def test_choose_shift(votes, shift):
    assert choose_shift(votes) == shift


def test_directed_acyclic_with_undirected_cycle_is_not_always_perfect():
    # T->C, A->C, T->A with offset 1 each (rhs -> lhs): no shifts satisfy all three.
    dag = one_dim(("C", 0, "T", 1), ("C", 0, "A", 1), ("A", 0, "T", 1), arrays=("T", "C", "A"))
    off = align_offsets(dag, align_heuristic(dag))
    assert off["C", 0] == 1  # C(I) = T(I+1): shift(C) - shift(T) = 1
    assert off["A", 0] == 0  # votes 1 (from T) and 0 (from C) tie: zero wins
    assert [(m.describe(), m.residual) for m in off.misaligned] == [("A1 <- T1: off by 1", 1)]


def test_edges_without_offset_are_misaligned():
    b = DagBuilder()
    b.add_pattern("T", [v("I")], "A", [Affine(0, (("I", 2),))])  # T(I) = A(2*I)
    dag = b.build()
    off = align_offsets(dag, align_heuristic(dag))
    (m,) = off.misaligned
    assert m.residual is None and "no shift" in m.describe()


def test_adi_phase4_needs_one_shift_along_the_second_dimension():
    dag = adi_phase4().build()
    part = align_exhaustive(dag)
    off = align_offsets(dag, part)
    assert all(s == 0 for _, s in off.shifts)
    # B(I,J-1) read where X(I,J) is written: off by one along template dimension 1.
    assert [(m.describe(), m.tdim) for m in off.misaligned] == [("X2 <- B2: off by -1", 1)]


def test_unconnected_nodes_get_zero():
    b = DagBuilder()
    b.add_array("T", 2)
    b.add_array("A", 1)
    b.add_pattern("T", [v("I"), v("J")], "B", [v("I", 4), v("J")])
    dag = b.build()
    off = align_offsets(dag, align_heuristic(dag))
    # A has no edge: 0.  B(I+4) is read where T(I) is written: shift(B) = -4.
    assert off["A", 0] == 0 and off["B", 0] == -4 and off.perfect


@st.composite
def random_trees(draw):
    """A random tree of 1-D arrays (each new array linked to an earlier one)."""
    n = draw(st.integers(2, 8))
    b = DagBuilder()
    for i in range(n):
        b.add_array(f"A{i}", 1)
    for i in range(1, n):
        j = draw(st.integers(0, i - 1))
        lhs, rhs = (f"A{i}", f"A{j}") if draw(st.booleans()) else (f"A{j}", f"A{i}")
        b.add_pattern(lhs, [v("I", draw(st.integers(-3, 3)))], rhs, [v("I", draw(st.integers(-3, 3)))])
    return b.build()


@settings(max_examples=50, deadline=None)
@given(random_trees())
def test_forests_align_perfectly(dag):
    part = align_heuristic(dag)
    off = align_offsets(dag, part)
    assert off.perfect
    for a in dag.affinities:
        assert off[a.lhs] - off[a.rhs] == a.offset
    assert off["A0", 0] == 0
