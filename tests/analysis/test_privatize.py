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


ENDS = """
      PROGRAM E
      INTEGER N, I, K, II, M
      DOUBLE PRECISION U(12,12), LHS(5,0:11)
      COMMON /SZ/ N
      N = {n}
      DO 5 I = 1, 12
         DO 5 K = 1, 12
    5 U(K,I) = DBLE(I+K)
      DO 50 I = 1, 12
         DO 20 II = 0, N-1, {step}
            DO 20 M = 1, 5
               LHS(M,II) = 0.0D0
   20    CONTINUE
         DO 30 K = 1, N-2
            DO 30 M = 1, 5
               LHS(M,K) = U(K,I) * DBLE(M)
   30    CONTINUE
         DO 40 K = 1, N-1
            U(K,I) = LHS(3,K) + LHS(2,K-1)
   40    CONTINUE
   50 CONTINUE
      PRINT *, U(3,3)
      END
"""


def _ends_loop(n: str, step: str):
    an = analyze(read_text(ENDS.format(n=n, step=step), "e.f"))
    return next(lp for ph in an.procedures[0].phases if "LHS" in ph.arrays for lp in ph.loops if lp.depth == 0)


def test_the_two_ends_of_a_loop_stepping_from_one_end_to_the_other_are_written():
    """``DO II = 0, N-1, N-1`` writes the two boundary planes (NPB's idiom),
    with N read from COMMON or a constant: with the interior 1..N-2 they
    cover LHS(:, 0:N-1), private to the I loop."""
    n = "12\n      READ *, N"
    for lp in (_ends_loop(n, "N-1"), _ends_loop("12", "11")):
        assert lp.parallel and lp.private_arrays == ("LHS",), lp.reason


def test_a_loop_stepping_past_an_end_covers_only_what_it_takes():
    """``DO II = 0, N-1, N-2`` takes 0 and N-2 (not N-1): LHS(:, N-1) is read
    before it is written in the iteration, and LHS is not private."""
    lp = _ends_loop("12\n      READ *, N", "N-2")
    assert not lp.parallel and "LHS" not in lp.private_arrays
