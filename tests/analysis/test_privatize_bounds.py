"""Work arrays whose coverage rests on the program's sizes: a legal program
references its arrays inside their declared bounds, so a reference that
surely runs with a read bounds the sizes the read is compared in
(:mod:`autodist.analysis.legality`).

The construct is NPB SP's line solves: per plane K, a callee clears the
end rows 0 and NX+1 of a COMMON work array, a loop fills rows 1..NX, the
first two and the last two rows are updated one statement at a time (at
I = 1, 2 and at I = GP(1)-3, GP(1)-2, with NX = GP(1) - 2 set once by the
main program) and rows 0..GP(1)-1 are read.  The read of row 2 is of a
written row only when GP(1) >= 3; the update at GP(1)-3 of an array whose
rows start at 0 says so.
"""

from __future__ import annotations

import pytest

from autodist import ir
from autodist.analysis import analyze
from autodist.analysis.legality import proves, region_facts
from autodist.frontend import read_text

PROGRAM = """\
      PROGRAM DISSIP
      INTEGER NMAX
      PARAMETER (NMAX = 16)
      INTEGER GP(3), NX, NY, NZ, IER, I, J, K
      DOUBLE PRECISION U(0:NMAX, NMAX, NMAX)
      COMMON /SIZES/ GP, NX, NY, NZ
      COMMON /FIELD/ U
      OPEN (UNIT=2, FILE='dissip.in', STATUS='OLD', IOSTAT=IER)
      IF (IER .EQ. 0) THEN
         READ (2, *) GP(1), GP(2), GP(3)
      ELSE
         GP(1) = 12
         GP(2) = 12
         GP(3) = 12
      END IF
      NX = GP(1) - 2
      NY = GP(2) - 2
      NZ = GP(3) - 2
      DO K = 1, NMAX
         DO J = 1, NMAX
            DO I = 0, NMAX
               U(I, J, K) = DBLE(I + J) / DBLE(K)
            END DO
         END DO
      END DO
      CALL SOLVE
      PRINT *, U(3, 3, 3), U(GP(1) - 1, 2, 2)
      END

      SUBROUTINE ENDS(NI, NJ)
      INTEGER NMAX
      PARAMETER (NMAX = 16)
      INTEGER NI, NJ, J, M
      DOUBLE PRECISION W(3, 0:NMAX, NMAX)
      COMMON /WORK/ W
      DO J = 1, NJ
         DO M = 1, 3
            W(M, 0, J) = 0.0D0
            W(M, NI, J) = 0.0D0
         END DO
      END DO
      END

      SUBROUTINE CHECK(N)
      INTEGER N
      IF (N .LT. 3) STOP 'grid too small'
      END

      SUBROUTINE SOLVE
      INTEGER NMAX
      PARAMETER (NMAX = 16)
      INTEGER GP(3), NX, NY, NZ, I, J, K
      DOUBLE PRECISION U(0:NMAX, NMAX, NMAX), W(3, 0:NMAX, NMAX)
      COMMON /SIZES/ GP, NX, NY, NZ
      COMMON /FIELD/ U
      COMMON /WORK/ W
      DO K = 1, NZ
         CALL ENDS(NX + 1, NY)
         DO J = 1, NY
            DO I = 1, NX
               W(1, I, J) = U(I - 1, J, K)
               W(2, I, J) = 4.0D0 + U(I, J, K)
               W(3, I, J) = U(I + 1, J, K)
            END DO
         END DO
         DO J = 1, NY
            I = 1
            W(2, I, J) = W(2, I, J) + 0.5D0
            W(3, I + 1, J) = W(3, I + 1, J) - 0.25D0
         END DO
{last}
         DO J = 1, NY
            DO I = 0, {top}
               U(I, J, K) = W(1, I, J) + W(2, I, J) + W(3, I, J)
            END DO
         END DO
      END DO
      END
"""

LAST = """\
         DO J = 1, NY
            I = GP(1) - 3
            W(1, I, J) = W(1, I, J) - 0.25D0
            W(2, I + 1, J) = W(2, I + 1, J) + 0.5D0
         END DO"""


def _solve_loop(last: str = LAST, top: str = "GP(1) - 1"):
    text = PROGRAM.replace("{last}", last).replace("{top}", top)
    an = analyze(read_text(text, "dissip.f"))
    return next(lp for ph in an.procedure("SOLVE").phases for lp in ph.loops if lp.depth == 0)


def test_rows_updated_at_scalar_positions_are_covered_when_a_later_update_bounds_the_size():
    lp = _solve_loop()
    assert lp.parallel, lp.reason
    assert lp.private_arrays == ("W",)
    assert "CALL ENDS" in dict(lp.private_reasons)["W"]


@pytest.mark.parametrize("last,top", [
    # nothing bounds GP(1) from below: with GP(1) = 2 row 2 is read and
    # written by every plane and written by none before
    ("", "GP(1) - 1"),
    # the update that bounds it may not run
    (LAST.replace("         DO J = 1, NY\n", "         IF (NY .GT. 3) THEN\n         DO J = 1, NY\n")
     + "\n         END IF", "GP(1) - 1"),
    # its loop may not run when the read's does (NY = 1)
    (LAST.replace("DO J = 1, NY", "DO J = 1, NY - 1"), "GP(1) - 1"),
    # a procedure called between the read and the update may stop the run
    (LAST.replace("         DO J = 1, NY\n", "         CALL CHECK(GP(1))\n         DO J = 1, NY\n", 1),
     "GP(1) - 1"),
    # a row no write covers (GP(1)) is read: legality bounds do not make it written
    (LAST, "GP(1)"),
], ids=["no bound", "under an IF", "shorter loop", "call between", "row not written"])
def test_not_private_when_nothing_sure_bounds_the_size(last, top):
    lp = _solve_loop(last, top)
    assert "W" not in lp.private_arrays
    assert not lp.parallel


def _a(const: int, **terms: int) -> ir.Affine:
    return ir.Affine(const, tuple(sorted(terms.items())))


def test_proves_follows_from_one_fact_or_a_chain_of_them():
    gp3 = _a(-3, G=1)  # G - 3 >= 0
    assert proves(_a(-2, G=1), (gp3,))  # G >= 2
    assert not proves(_a(-4, G=1), (gp3,))  # not G >= 4
    assert not proves(_a(-2, G=1), ())
    # N >= M and M >= 3 give N >= 2; not N >= 4
    chain = (_a(0, N=1, M=-1), _a(-3, M=1))
    assert proves(_a(-2, N=1), chain)
    assert not proves(_a(-4, N=1), chain)


NESTS = """\
      SUBROUTINE T(N)
      INTEGER N, I, J
      DOUBLE PRECISION A(0:20)
      DO J = 1, N
         DO I = {inner}
            A(N - J) = 0.0D0
         END DO
      END DO
      END
"""


@pytest.mark.parametrize("inner,expected", [
    # at J = 1 and J = N the inner loop runs (whenever the outer one does):
    # A(N-1) and A(0) are referenced, so N - 1 >= 0 and 20 - (N - 1) >= 0
    ("1, 5", {_a(-1, N=1), _a(21, N=-1)}),
    # at J = 1 the inner loop (5 to 4) does not run: A(N-1) may not be referenced
    ("6 - J, 4", set()),
], ids=["rectangular", "inner loop empty at J = 1"])
def test_a_loop_variable_is_taken_at_its_ends_only_when_the_loops_inside_run_there(inner, expected):
    unit = read_text(NESTS.replace("{inner}", inner), "t.f").unit("T")
    facts = region_facts(unit, unit.body, {"I", "J"})
    assert {f.form for f in facts.facts} == expected
