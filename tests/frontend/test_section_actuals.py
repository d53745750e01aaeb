"""A contiguous array section passed to one of the program's own routines is
its first element (sequence association passes the same storage); a strided
or later-dimension section is a ``SectionActual`` (opaque to the analysis,
copied in and out by the runtime) with its bounds filled in from the
declaration; sections given to intrinsics or to routines outside the program
stay opaque array sections."""

from __future__ import annotations

from autodist import ir
from autodist.frontend import read_text

TEXT = """      PROGRAM P
      INTEGER J
      REAL A(0:9, 4), X(10), S, F
      EXTERNAL OUTSIDE
      J = 2
      CALL OWN(A(:, J))
      CALL OWN(A(3:7, 4))
      CALL OWN(X(2:9:3))
      CALL OWN(A(1, 2:3))
      CALL OUTSIDE(X(1:5))
      S = F(X(4:))
      END
      SUBROUTINE OWN(V)
      REAL V(5)
      V(1) = 0.0
      END
      REAL FUNCTION F(V)
      REAL V(3)
      F = V(1)
      END
"""


def _args() -> list[ir.Expr]:
    main = read_text(TEXT, "p.f").units[0]
    out = []
    for s in main.statements():
        if isinstance(s, ir.Call):
            out.append(s.args[0])
        elif isinstance(s, ir.Assign) and isinstance(s.value, ir.FuncRef):
            out.append(s.value.args[0])
    return out


def test_contiguous_sections_to_own_routines_are_their_first_element():
    column, part, strided, row, outside, tail = _args()
    three, four = ir.Const(3, ir.INTEGER), ir.Const(4, ir.INTEGER)
    assert column == ir.Index("A", (ir.Const(0, ir.INTEGER), ir.Name("J")))
    assert part == ir.Index("A", (three, four))
    assert tail == ir.Index("X", (four,))
    for e in (strided, row, outside):
        assert isinstance(e, ir.OpaqueExpr) and e.reason == "array section", e
    one = ir.Const(1, ir.INTEGER)
    assert strided.name == "X" and strided.subscripts == (
        ir.Triplet(ir.Const(2, ir.INTEGER), ir.Const(9, ir.INTEGER), three),)
    assert row.name == "A" and row.subscripts == (one, ir.Triplet(ir.Const(2, ir.INTEGER), three, None))
    assert not isinstance(outside, ir.SectionActual)


def test_a_strided_section_shows_its_array_and_subscripts_to_the_analysis():
    _, _, strided, row, _, _ = _args()
    assert [x for x in row.walk() if isinstance(x, ir.Name)] == [ir.Name("A")]
    assert ir.Name("X") in list(strided.walk())
