"""Work arrays written before they are read in every iteration are private."""

from __future__ import annotations

from autodist.analysis import analyze
from autodist.frontend import read_text

BODY = """
      PROGRAM W
      DOUBLE PRECISION U(10,20), R(10,20), W(0:11)
      DO 1 J = 1, 20
      DO 1 I = 1, 10
    1 U(I,J) = I * J
      DO 10 J = 1, 20
         DO 5 I = 0, 11
    5    W(I) = U(MAX(1, MIN(10, I)), J)
         DO 6 I = 1, 10
    6    R(I,J) = W(I+1) - W(I-1)
   10 CONTINUE
{after}
      PRINT *, R(5,5)
      END
"""


def outer_loop(after: str = ""):
    an = analyze(read_text(BODY.format(after=after), "w.f"))
    return an.procedures[0].phases[1].loops[0]


def test_work_array_is_private_and_the_loop_parallel():
    lp = outer_loop()
    assert lp.parallel, lp.reason
    assert lp.private_arrays == ("W",)
    assert "W(:)" in lp.reason


def test_not_private_when_read_after_the_loop():
    lp = outer_loop("      PRINT *, W(3)")
    assert not lp.parallel
    assert lp.private_arrays == ()


def test_not_private_when_a_read_is_not_covered():
    text = BODY.format(after="").replace("DO 5 I = 0, 11", "DO 5 I = 1, 11")
    an = analyze(read_text(text, "w.f"))
    lp = an.procedures[0].phases[1].loops[0]
    assert not lp.parallel and lp.private_arrays == ()


def test_a_scalar_set_before_a_loop_and_stepped_inside_is_not_substituted():
    # IX = 1 before the loop must not be forwarded into the loop, which steps IX
    text = """
      REAL FUNCTION VDOT(N, X, INCX, Y)
      INTEGER N, INCX, I, IX
      REAL X(1), Y(1)
      VDOT = 0.0
      IX = 1
      DO 10 I = 1, N
         VDOT = VDOT + X(IX) * Y(I)
         IX = IX + INCX
   10 CONTINUE
      END
"""
    an = analyze(read_text(text, "v.f"))
    lp = an.procedures[0].phases[0].loops[0]
    assert not lp.parallel and "scalar IX" in lp.reason
