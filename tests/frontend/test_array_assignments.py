"""Fortran 90 array assignments are DO loops over their elements (one loop
over the elements in array element order for rank 2 and more), in the
direction that reads every element of the right side before it is written;
array constructors are read at the positions of the target; the others stay
opaque statements with the reason."""

from __future__ import annotations

import pytest

from autodist import ir
from autodist.errors import FortranError
from autodist.frontend import read_text
from autodist.ir.evaluate import int_value

HEAD = """      PROGRAM P
      INTEGER N, J
      PARAMETER (N = 10)
      REAL A(N, N), X(N), Y(0:N+1), S, B(3, 4, 0:4)
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


def _elements(do: ir.Do, ref: ir.Index, env: dict | None = None) -> list[tuple[int, ...]]:
    """The elements ``ref`` names at every iteration of ``do``, in order."""
    start, end = (int_value(e, env) for e in (do.start, do.end))
    step = 1 if do.step is None else ir.constant(do.step)
    out = []
    for k in range(start, end + (1 if step > 0 else -1), step):
        out.append(tuple(int_value(s, {**(env or {}), do.var: k}) for s in ref.subscripts))
    return out


def test_rank_two_is_one_loop_over_the_elements_in_array_element_order():
    do, asg = _loop("A = 0.0")
    assert _bounds(do) == (0, 99, None)
    assert _elements(do, asg.target) == [(i, j) for j in range(1, 11) for i in range(1, 11)]
    do, asg = _loop("A(2:N:3, 4:5) = A(1:N:3, 6:7) + X(1)")
    assert _elements(do, asg.target) == [(i, j) for j in (4, 5) for i in (2, 5, 8)]
    (read,) = [e for e in ir.array_refs(asg.value) if e.name == "A"]
    assert _elements(do, read) == [(i, j) for j in (6, 7) for i in (1, 4, 7)]


def test_rank_three_with_a_scalar_subscript_and_a_symbolic_bound():
    do, asg = _loop("B(:, J, 1:M) = 1.0")
    env = {"M": 3, "J": 2}
    assert _elements(do, asg.target, env) == [(i, 2, k) for k in (1, 2, 3) for i in (1, 2, 3)]
    assert int_value(do.end, {"M": 0}) == -1  # no element: no iteration
    do, _ = _loop("A(1:J, 1:M) = 1.0")  # two unknown counts: a negative one is none
    assert int_value(do.end, {"J": -1, "M": -1}) < 0 and int_value(do.end, {"J": 2, "M": 3}) == 5


@pytest.mark.parametrize("line, forwards", [
    ("A(2:N, 1:N) = A(1:N-1, 1:N)", False),  # reads the element before: backwards
    ("A(1:N, 1:N-1) = A(1:N, 2:N) * 2.0", True),  # the next column: forwards
    ("A(1:N-1, 2:N) = A(2:N, 1:N-1)", False),  # the column before decides
])
def test_rank_two_direction_reads_before_writing(line, forwards):
    do, asg = _loop(line)
    assert (do.step is None) == forwards
    (read,) = [e for e in ir.array_refs(asg.value) if e.name == "A"]
    written = set()
    for w, r in zip(_elements(do, asg.target), _elements(do, read)):
        assert r not in written or r == w
        written.add(w)


def test_character_arrays_are_lowered_like_numeric_ones():
    do, asg = _loop("C(2:N) = 'AB'")
    assert _bounds(do) == (2, 10, None) and asg.target == ir.Index("C", (ir.Name(do.var),))
    do, asg = _loop("C(1:N-1) = C(2:N) // 'X'")
    assert do.step is None and asg.value.left == ir.Index("C", (ir.BinOp("+", ir.Name(do.var), ir.Const(1, ir.INTEGER)),))


def test_a_list_of_values_is_one_assignment_per_value():
    stmt = _stmt("X(2:8:2) = (/ 1.0, 2.0, S, 4.0 /) * Y(1:4)")
    assert isinstance(stmt, ir.If) and ir.constant(stmt.branches[0].cond) is None
    body = stmt.branches[0].body
    assert [(ir.constant(a.target.subscripts[0]), ir.constant(a.value.right.subscripts[0])) for a in body] \
        == [(2, 1), (4, 2), (6, 3), (8, 4)]
    assert body[2].value.left == ir.Name("S")


def test_values_reading_the_target_run_in_the_order_that_reads_before_writing():
    body = _stmt("X(2:4) = (/ X(1), X(2), 7.0 /)").branches[0].body
    assert [ir.constant(a.target.subscripts[0]) for a in body] == [4, 3, 2]
    body = _stmt("X(1:3) = (/ X(2), X(3), X(4) /)").branches[0].body
    assert [ir.constant(a.target.subscripts[0]) for a in body] == [1, 2, 3]


def test_an_implied_do_constructor_is_a_loop_and_leaves_its_variable_alone():
    do, asg = _loop("X(2:N:2) = (/ (J * 2.0, J = 3, 7) /)")
    assert _bounds(do) == (0, 4, None)
    assert [int_value(asg.value.left, {do.var: k}) for k in range(5)] == [3, 4, 5, 6, 7]
    assert "J" not in ir.names(asg.value)


@pytest.mark.parametrize("line", [
    "X(1:3) = (/ 1.0, 2.0 /)",
    "X = (/ 1.0, 2.0, 3.0 /)",
    "X(1:4) = (/ (J, J = 1, 3) /)",
    "X(1:2) = (/ 1.0, 2.0 /) + (/ 1.0, 2.0, 3.0 /)",
])
def test_a_constructor_of_another_size_than_its_target_is_an_error_at_its_line(line):
    with pytest.raises(FortranError) as exc:
        _stmt(line)
    assert str(exc.value).startswith("p.f:6: array assignment: an array constructor of ")


@pytest.mark.parametrize("line, why", [
    ("Y(N:1:-1) = Y(1:N)", "in another order"),
    ("X(1:N) = A(1:N, 1:2)", "rank 2 in an assignment to rank 1"),
    ("A(1:N, 1:N) = A(N:1:-1, 1:N)", "in another order"),
    ("A(1:2, 1:2) = (/ 1.0, 2.0, 3.0, 4.0 /)", "an array constructor (rank 1) in an assignment to rank 2"),
    ("X(1:3) = (/ X(3), X(2), X(1) /)", "both before and after"),
    ("X(1:3) = (/ (J, J = 1, 2), 3.0 /)", "mixing values and implied DOs"),
    ("X(1:4) = (/ X(1:2), 1.0, 2.0 /)", "an array inside an array constructor"),
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
