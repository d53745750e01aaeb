"""The same program in fixed and in free form reads to the same IR."""

from __future__ import annotations

import dataclasses

from autodist import ir

from .helpers import read

FIXED = """\
      SUBROUTINE SWEEP(X, A, B, N)
      INTEGER N, I, J
      PARAMETER (HALF = 0.5)
      DOUBLE PRECISION X(N, N), A(N, N), B(0:N+1)
      COMMON /COEF/ C(10), D
      DATA D /2.0/
      SQ(T) = T * T
CHPF$ DISTRIBUTE X(*, BLOCK)
      DO 10 J = 2, N
CHPF$ INDEPENDENT
      DO 10 I = 1, N
         X(I,J) = X(I,J) - X(I,J-1) * A(I,J) / B(J-1)
     &          + SQ(HALF) * C(MOD(I, 10) + 1)
   10 CONTINUE
      IF (D .GT. 1.0) THEN
         WRITE (*,*) 'D =', D, (B(I), I = 1, 3)
      ELSE IF (D .LT. 0.0) THEN
         GO TO 20
      ELSE
         CALL OTHER(X, N)
      END IF
   20 RETURN
      END
"""

FREE = """\
subroutine sweep(x, a, b, n)
  integer n, i, j
  parameter (half = 0.5)
  double precision x(n, n), a(n, n), b(0:n+1)
  common /coef/ c(10), d
  data d /2.0/
  sq(t) = t * t
  !HPF$ DISTRIBUTE X(*, BLOCK)
  do 10 j = 2, n
     !HPF$ INDEPENDENT
  do 10 i = 1, n
     x(i,j) = x(i,j) - x(i,j-1) * a(i,j) / b(j-1) &
              + sq(half) * c(mod(i, 10) + 1)
10 continue
  if (d .gt. 1.0) then
     write (*,*) 'D =', d, (b(i), i = 1, 3)
  else if (d .lt. 0.0) then
     go to 20
  else
     call other(x, n)
  end if
20 return
end subroutine sweep
"""


def _same_file(node, name: str):
    """``node`` with every Span's file and every Directive's sentinel replaced."""
    if isinstance(node, ir.Span):
        return dataclasses.replace(node, file=name)
    if isinstance(node, ir.Directive):
        return dataclasses.replace(node, span=_same_file(node.span, name), sentinel="")
    if isinstance(node, ir.Io):
        return dataclasses.replace(node, span=_same_file(node.span, name), text=node.text.upper())
    if isinstance(node, ir.Opaque):
        return dataclasses.replace(node, span=_same_file(node.span, name), text=node.text.upper())
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        changes = {f.name: _same_file(getattr(node, f.name), name) for f in dataclasses.fields(node)}
        return dataclasses.replace(node, **changes)
    if isinstance(node, tuple):
        return tuple(_same_file(x, name) for x in node)
    return node


def test_fixed_and_free_form_agree():
    fixed = read(FIXED, "p.f").units[0]
    free = read(FREE, "p.f90").units[0]
    assert _same_file(fixed, "x") == _same_file(free, "x")
    # and the IR is the expected one
    assert [d.text for d in fixed.directives] == ["DISTRIBUTE X(*, BLOCK)"]
    assert [type(s).__name__ for s in fixed.body] == ["Do", "If", "Return"]
    assert fixed.body[0].body[0].text == "INDEPENDENT"
    assert fixed.symbol("B").shape is None and fixed.symbol("C").shape == (10,)
    assert fixed.stmt_functions[0].expr == ir.BinOp("*", ir.Name("T"), ir.Name("T"))
