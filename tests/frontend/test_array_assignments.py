"""Rank-1 Fortran 90 array assignments are DO loops over their elements, in the
direction that reads every element of the right side before it is written;
the others stay opaque statements with the reason."""

from __future__ import annotations

import pytest

from autodist import ir
from autodist.frontend import read_text

HEAD = """      PROGRAM P
      INTEGER N, J
      PARAMETER (N = 10)
      REAL A(N, N), X(N), Y(0:N+1), S
      CHARACTER*4 C(N)
"""


def _stmt(line: str) -> ir.Stmt:
    unit = read_text(HEAD + "      " + line + "\n      END\n", "p.f").units[0]
    (stmt,) = [s for s in unit.body if not isinstance(s, ir.Directive)]
    return stmt


def _loop(line: str) -> tuple[ir.Do, ir.Assign]:
    do = _stmt(line)
    assert isinstance(do, ir.Do) and do.lowered and ir.is_lowered(do.var)
    (inner,) = do.body
    assert isinstance(inner, ir.Assign)
    return do, inner


def _bounds(do: ir.Do) -> tuple:
    return ir.constant(do.start), ir.constant(do.end), None if do.step is None else ir.constant(do.step)


def _text(e: ir.Expr, var: str) -> str:
    return str(ir.affine(e)).replace(var, "V")


def test_whole_vector_and_column():
    do, asg = _loop("X = 0.0")
    assert _bounds(do) == (1, 10, None)
    assert asg.target == ir.Index("X", (ir.Name(do.var),))
    do, asg = _loop("A(2:N-1, J) = X(1:N-2) * A(3:N, J)")
    assert _bounds(do) == (2, 9, None)
    reads = sorted((e.name, tuple(_text(s, do.var) for s in e.subscripts)) for e in ir.array_refs(asg.value))
    assert reads == [("A", ("V+1", "J")), ("X", ("V-1",))]


def test_strided_target_counts_positions():
    do, asg = _loop("X(2:N:3) = Y(1:3)")
    assert _bounds(do) == (0, 2, None)  # positions 0, 1, 2: X(2), X(5), X(8)
    assert _text(asg.target.subscripts[0], do.var) == "3*V+2"
    assert _text(asg.value.subscripts[0], do.var) == "V+1"


@pytest.mark.parametrize("line, forwards", [
    ("Y(2:N+1) = Y(1:N) + 1.0", False),  # reads the element before: backwards
    ("Y(0:N-1) = Y(1:N)", True),  # reads the element after: forwards
    ("Y(1:N) = Y(1:N) * 2.0", True),  # the same element
    ("X(1:N:2) = X(2:N:2)", True),  # other elements of X, never written here
])
def test_direction_reads_before_writing(line, forwards):
    do, _ = _loop(line)
    assert (do.step is None) == forwards


def test_elemental_intrinsics_apply_per_element_others_take_arrays():
    _, asg = _loop("X(1:N) = SQRT(Y(1:N)) + SUM(X) + SIZE(X)")
    calls = {e.name: e for e in asg.value.walk() if isinstance(e, ir.FuncRef)}
    assert isinstance(calls["SQRT"].args[0], ir.Index)
    assert calls["SUM"].args == (ir.Name("X"),) and calls["SIZE"].args == (ir.Name("X"),)


@pytest.mark.parametrize("line, why", [
    ("A = 0.0", "of rank 2"),
    ("A(1:N, 2:3) = 1.0", "of rank 2"),
    ("Y(N:1:-1) = Y(1:N)", "in another order"),
    ("X(1:N) = A(1:N, 1:2)", "rank 2 in an assignment to rank 1"),
    ("C = 'AB'", "CHARACTER"),
])
def test_others_stay_opaque_with_the_reason(line, why):
    stmt = _stmt(line)
    assert isinstance(stmt, ir.Opaque) and stmt.reason.startswith("array assignment (Fortran 90)")
    assert why in stmt.reason


def test_one_index_forall_is_a_loop_over_a_new_variable():
    do, asg = _loop("FORALL (J = 1:N:3) X(J) = J * 2.0")
    assert _bounds(do) == (1, 10, 3)
    assert asg.target == ir.Index("X", (ir.Name(do.var),)) and "J" not in {n.name for n in asg.value.walk()
                                                                            if isinstance(n, ir.Name)}


def test_forall_mask_and_direction():
    do = _stmt("FORALL (J = 2:N, X(J) .GT. 0.0) X(J) = X(J-1)")
    assert isinstance(do, ir.Do) and _bounds(do) == (10, 2, -1)  # reads the element before: backwards
    (guard,) = do.body
    assert isinstance(guard, ir.If) and isinstance(guard.branches[0].body[0], ir.Assign)
    do = _stmt("FORALL (J = 1:N-1:3) X(J) = X(J+3)")
    assert _bounds(do) == (1, 9, 3)  # forwards
    do = _stmt("FORALL (J = 4:N:3) X(J) = X(J-3)")
    assert ir.constant(do.step) == -3 and ir.constant(do.start) == 10 and ir.constant(do.end) == 4


@pytest.mark.parametrize("line, why", [
    ("FORALL (J = 1:N, K = 1:N) A(J, K) = 0.0", "with 2 indices"),
    ("FORALL (J = 1:N) X(J) = X(N+1-J)", "in another order"),
    ("FORALL (J = 1:N) A(J, 1:2) = 0.0", "not an element"),
])
def test_other_foralls_stay_opaque_with_the_reason(line, why):
    stmt = _stmt(line)
    assert isinstance(stmt, ir.Opaque) and stmt.reason.startswith("FORALL statement") and why in stmt.reason
