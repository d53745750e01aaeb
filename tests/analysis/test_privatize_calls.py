"""Work arrays privatized across calls: COMMON scratch arrays and local arrays
passed as dummies, written before they are read in every iteration of the
caller's loop (through the callees' kill summaries) and dead after it."""

from __future__ import annotations

from pathlib import Path

from autodist.analysis import analyze
from autodist.frontend import read_text

PROGRAMS = Path(__file__).parent.parent / "programs" / "privatize"

MAIN = """
      PROGRAM MAIN
      INTEGER N
      PARAMETER (N = 16)
      DOUBLE PRECISION A(N, N), B(N, N)
      DOUBLE PRECISION W(N)
      COMMON /WORK/ W
      INTEGER I, J
      DO J = 1, N
         DO I = 1, N
            A(I, J) = DBLE(I + 2 * J)
         END DO
      END DO
      DO J = 1, N
{body}
      END DO
{after}
      PRINT *, B(3, 4), B(N, N)
      END

      SUBROUTINE FILL(A)
      INTEGER N
      PARAMETER (N = 16)
      DOUBLE PRECISION A(N)
      INTEGER I
      DOUBLE PRECISION W(N)
      COMMON /WORK/ W
      DO I = 1, N
{fill}
      END DO
      END

      SUBROUTINE USE(B)
      INTEGER N
      PARAMETER (N = 16)
      DOUBLE PRECISION B(N)
      INTEGER I
      DOUBLE PRECISION W(N)
      COMMON /WORK/ W
      DO I = 2, N - 1
         B(I) = W(I - 1) + W(I + 1)
      END DO
      B(1) = W(1)
      B(N) = W(N)
      END

      SUBROUTINE PEEK(X)
      DOUBLE PRECISION X, W(16)
      COMMON /WORK/ W
      X = W(3)
      END
"""

FILL = "         W(I) = 2.0D0 * A(I)"
BODY = "         CALL FILL(A(1, J))\n         CALL USE(B(1, J))"


def loop_over_j(body: str = BODY, after: str = "", fill: str = FILL):
    an = analyze(read_text(MAIN.format(body=body, after=after, fill=fill), "m.f"))
    main = an.procedure("MAIN")
    return next(lp for ph in main.phases for lp in ph.loops if lp.line == 14)


def test_common_work_array_filled_by_a_callee_is_private():
    lp = loop_over_j()
    assert lp.parallel, lp.reason
    assert lp.private_arrays == ("W",)
    why = dict(lp.private_reasons)["W"]
    assert "CALL FILL at line 15" in why and "dead after the loop" in why


def test_not_private_when_a_callee_reads_it_before_it_is_written():
    lp = loop_over_j(body="         CALL USE(B(1, J))\n         CALL FILL(A(1, J))")
    assert "W" not in lp.private_arrays
    assert not lp.parallel


def test_not_private_when_read_after_the_loop():
    lp = loop_over_j(after="      PRINT *, W(5)")
    assert "W" not in lp.private_arrays
    assert not lp.parallel


def test_not_private_when_another_procedure_reads_it_after_the_loop():
    lp = loop_over_j(after="      CALL PEEK(B(1, 1))")
    assert "W" not in lp.private_arrays
    assert not lp.parallel


def test_not_private_when_written_only_on_some_paths():
    lp = loop_over_j(fill="         IF (A(I) .GT. 20.0D0) W(I) = 2.0D0 * A(I)")
    assert "W" not in lp.private_arrays
    assert not lp.parallel


def test_not_private_when_the_callee_writes_only_part_of_what_is_read():
    lp = loop_over_j(fill="         IF (I .GT. 1) THEN\n            W(I) = A(I)\n         END IF")
    assert not lp.parallel


def test_element_actuals_on_other_columns_carry_no_dependence():
    # B(1, J) into B(N): USE writes column J only
    lp = loop_over_j()
    assert not any(d.name == "B" for d in lp.dependences)


def test_local_work_array_passed_as_a_dummy_is_private():
    an = analyze(read_text((PROGRAMS / "dummy_work.f").read_text(), "dummy_work.f"))
    lp = an.procedure("DUMMYW").phases[1].loops[0]
    assert lp.parallel, lp.reason
    assert lp.private_arrays == ("WK",)
    assert "CALL SMOOTH" in dict(lp.private_reasons)["WK"]


def test_a_dummy_is_not_private_in_the_callee():
    an = analyze(read_text((PROGRAMS / "dummy_work.f").read_text(), "dummy_work.f"))
    for ph in an.procedure("SMOOTH").phases:
        for lp in ph.loops:
            assert "W" not in lp.private_arrays


def test_a_bound_changed_between_the_write_and_the_read_covers_nothing():
    text = """
      PROGRAM CHG
      DOUBLE PRECISION A(20, 10), W(20)
      INTEGER I, J, M
      DO J = 1, 10
         DO I = 1, 20
            A(I, J) = DBLE(I + J)
         END DO
      END DO
      DO J = 1, 10
         M = 10
         DO I = 1, M
            W(I) = A(I, J)
         END DO
         M = 20
         DO I = 1, M
            A(I, J) = W(I)
         END DO
      END DO
      PRINT *, A(15, 3)
      END
"""
    an = analyze(read_text(text, "chg.f"))
    lp = next(lp for ph in an.procedure("CHG").phases for lp in ph.loops if lp.line == 10)
    assert "W" not in lp.private_arrays
    assert not lp.parallel


LINE_WORK = (PROGRAMS / "line_work.f").read_text()


def _line_loop(text: str):
    an = analyze(read_text(text, "line_work.f"))
    return next(lp for ph in an.procedure("SOLVE").phases for lp in ph.loops if lp.var == "J")


def test_a_line_solvers_work_array_cleared_at_both_ends_and_filled_element_by_element_is_private():
    # the ends cleared by a callee through a copy of its bound (I = SIZE),
    # the interior written one element per statement, the last interior
    # block read at ISIZE-1 (inside the array's declared 0:N whatever ISIZE is)
    lp = _line_loop(LINE_WORK)
    assert lp.parallel, lp.reason
    assert lp.private_arrays == ("LHS",)
    assert "CALL LHSINI" in dict(lp.private_reasons)["LHS"]


def test_not_private_when_the_last_block_is_never_cleared():
    text = LINE_WORK.replace("          LHS(M, L, I) = 0.0D0\n", "").replace("        LHS(L, L, I) = 1.0D0\n", "")
    assert text != LINE_WORK
    lp = _line_loop(text)
    assert "LHS" not in lp.private_arrays
    assert not lp.parallel
