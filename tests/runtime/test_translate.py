"""Sequential semantics of translated programs (one rank, in this process):
control flow, calls, COMMON, DATA, SAVE, Fortran arithmetic and output —
checked against hand-computed output, and against gfortran when installed.
Constructs outside the subset are errors naming file:line before anything runs."""

from __future__ import annotations

import io
import math
import shutil
import subprocess

import pytest

from autodist.errors import UnsupportedError
from autodist.runtime.spmd.executor import Executor, RunOptions
from autodist.runtime.job.runner import prepare
from tests.conftest import requires_gfortran


@pytest.fixture
def fortran(tmp_path):
    """Fixed-form source written as given (column positions matter)."""

    def make(text: str, name: str = "prog.f"):
        path = tmp_path / name
        path.write_text(text.lstrip("\n"))
        return path

    return make


def run(path, vectorize: bool = True) -> tuple[str, object]:
    from mpi4py import MPI

    program, analysis, translations = prepare([str(path)])
    out = io.StringIO()
    ex = Executor(program, analysis, MPI.COMM_SELF, RunOptions(vectorize=vectorize), out=out,
                  translations=translations)
    stop = ex.run()
    return out.getvalue(), stop


CONTROL = """
      PROGRAM CTRL
      INTEGER I, J, K, N, S
      S = 0
C     a backward GOTO loop
      I = 0
   10 I = I + 1
      S = S + I
      IF (I .LT. 5) GOTO 10
C     jumping out of two nested loops
      DO 30 J = 1, 10
         DO 20 K = 1, 10
            IF (J * K .EQ. 12) GOTO 40
   20    CONTINUE
   30 CONTINUE
   40 PRINT *, S, J, K
C     arithmetic IF and computed GOTO
      N = -3
   50 IF (N) 60, 70, 80
   60 N = N + 2
      GOTO 50
   70 PRINT *, 'ZERO'
   80 PRINT *, 'N =', N
      DO 100 I = 1, 3
         GOTO (91, 92, 93) I
   91    PRINT *, 'ONE'
         GOTO 100
   92    PRINT *, 'TWO'
         GOTO 100
   93    PRINT *, 'THREE'
  100 CONTINUE
C     DO loops: negative step, no trip, final values, a GOTO to the terminal
      S = 0
      DO 110 I = 10, 1, -3
         IF (I .EQ. 7) GOTO 110
         S = S + I
  110 CONTINUE
      DO 120 J = 5, 1
         S = S + 1000
  120 CONTINUE
      PRINT *, S, I, J
      K = 0
      DO WHILE (K .LT. 4)
         K = K + 2
      END DO
      PRINT *, K
      END
"""

CONTROL_OUTPUT = """\
          15           2           6
 N =           1
 ONE
 TWO
 THREE
          15          -2           5
           4
"""


def test_control_flow(fortran):
    out, stop = run(fortran(CONTROL))
    assert out == CONTROL_OUTPUT and stop is None


CALLS = """
      PROGRAM CALLS
      INTEGER I, N, A(5), K
      REAL X, Y, F, G, SQ
      COMMON /C1/ X, N
      SQ(Y) = Y * Y + 1.0
      DATA A /1, 2, 3, 4, 5/
      N = 3
      K = 3
      X = 2.0
      CALL TWICE(K, A(2), I)
      PRINT *, K, A(2), I
      Y = F(X) + SQ(3.0)
      PRINT *, Y, G(), G()
      CALL FILL(A, 5)
      PRINT *, (A(I), I = 1, 5)
      END

      SUBROUTINE TWICE(K, L, M)
      INTEGER K, L, M
      REAL X
      INTEGER N
      COMMON /C1/ X, N
      K = 2 * K
      L = 10 * L
      M = K + L + N
      X = X + 1.0
      RETURN
      END

      REAL FUNCTION F(Z)
      REAL Z, X
      INTEGER N
      COMMON /C1/ X, N
      F = Z * X
      END

      REAL FUNCTION G()
      INTEGER CALLS
      SAVE CALLS
      DATA CALLS /0/
      CALLS = CALLS + 1
      G = REAL(CALLS)
      END

      SUBROUTINE FILL(V, M)
      INTEGER M, V(*)
      INTEGER I
      DO 10 I = 1, M
         V(I) = V(I) + I * 100
   10 CONTINUE
      END
"""

CALLS_OUTPUT = """\
           6          20          29
   19.0000000       1.00000000       2.00000000    
         101         220         303         404         505
"""


def test_calls_common_data_save(fortran):
    out, _ = run(fortran(CALLS))
    assert out == CALLS_OUTPUT


ARITH = """
      PROGRAM ARITH
      REAL A, B
      DOUBLE PRECISION D
      INTEGER I, J
      CHARACTER*8 S
      A = 0.1
      B = A + 0.2
      D = A + 0.2D0
      PRINT *, B, D
      I = -7
      J = 2
      PRINT *, I / J, MOD(I, J), MOD(7, -2), -7 / (-2), 2 ** 10
      PRINT *, 3.0 ** 2, 2 ** (-1), NINT(-2.5), INT(-2.7), SIGN(3, -1)
      PRINT *, MAX(1.0, 2.5), MIN(4, 3), ABS(-2.25D0), SQRT(2.0)
      S = 'AB' // 'CD'
      PRINT *, S, '|', S(2:3), LEN(S)
      STOP 3
      END
"""


def test_arithmetic_and_stop(fortran):
    out, stop = run(fortran(ARITH))
    lines = out.splitlines()
    assert lines[0] == "  0.300000012      0.30000000149011613     "
    assert lines[1] == "          -3          -1           1           3        1024"
    assert lines[2] == "   9.00000000               0          -3          -2          -3"
    assert lines[3] == "   2.50000000               3   2.2500000000000000        1.41421354    "
    assert lines[4] == " ABCD    |BC           8"
    assert stop == 3


@requires_gfortran
@pytest.mark.parametrize("text", [CONTROL, CALLS, ARITH], ids=["control", "calls", "arithmetic"])
def test_same_output_as_gfortran(fortran, tmp_path, text):
    path = fortran(text)
    exe = tmp_path / "a.out"
    subprocess.run(["gfortran", "-O2", "-nostdinc", "-o", str(exe), str(path)], check=True, capture_output=True)
    ref = subprocess.run([str(exe)], capture_output=True, text=True)
    out, stop = run(path)
    assert out == ref.stdout
    assert (stop or 0) == ref.returncode


def test_vectorized_and_scalar_runs_agree(fortran):
    text = """
      PROGRAM VEC
      INTEGER N
      PARAMETER (N = 9)
      REAL A(N,N), B(N,N), S, T
      INTEGER I, J
      DO 10 J = 1, N
      DO 10 I = 1, N
         A(I,J) = REAL(I) / REAL(J) + 0.1
   10 CONTINUE
      DO 20 J = 2, N
      DO 20 I = 1, N
         T = A(I,J-1) * 0.5
         IF (T .GT. 1.0) THEN
            B(I,J) = T - A(I,J)
         ELSE IF (T .GT. 0.5) THEN
            B(I,J) = 2.0 * T
         ELSE
            B(I,J) = -T
         END IF
   20 CONTINUE
      S = 0.0
      DO 30 J = 2, N
      DO 30 I = 1, N
         S = S + B(I,J)
   30 CONTINUE
      PRINT *, S, B(3,4)
      END
"""
    path = fortran(text)
    assert run(path, vectorize=True)[0] == run(path, vectorize=False)[0]


@pytest.mark.parametrize("body, what", [
    ("      READ (7) I", "an unformatted READ"),
    ("      OPEN (7, FILE='u.dat', FORM='UNFORMATTED')", "FORM='UNFORMATTED'"),
    ("      ASSIGN 10 TO I\n   10 CONTINUE", "ASSIGN"),
    ("      CALL NOWHERE(I)", "outside the runtime's subset: NOWHERE (called at"),
    ("      I = IFOO(2)", "outside the runtime's subset: IFOO (called at"),
])
def test_outside_the_subset_before_running(fortran, body, what):
    path = fortran(f"      PROGRAM BAD\n      INTEGER I, IFOO\n      PRINT *, 'STARTED'\n{body}\n      END\n")
    with pytest.raises(UnsupportedError) as err:
        prepare([str(path)])
    assert what in str(err.value) and f"{path}:" in str(err.value)


@pytest.mark.parametrize("decls, what", [
    ("      REAL A(4), B(4)\n      COMMON /C/ A\n      EQUIVALENCE (A(1), B(2))",
     ":4: an EQUIVALENCE extending COMMON /C/ before its start (B) is not Fortran"),
    ("      REAL A(4), B(4)\n      COMMON /C/ A\n      COMMON /D/ B\n      EQUIVALENCE (A(1), B(2))",
     ":5: an EQUIVALENCE tying COMMON blocks /C/, /D/ together is outside the runtime's subset"),
    ("      REAL A(4), B(4)\n      EQUIVALENCE (A(1), B(2)), (A(2), B(1))", ":3: inconsistent EQUIVALENCE"),
])
def test_storage_association_the_runtime_refuses(fortran, decls, what):
    path = fortran(f"      PROGRAM BAD\n{decls}\n      PRINT *, B\n      END\n")
    with pytest.raises(UnsupportedError) as err:
        prepare([str(path)])
    assert f"{path}{what}" in str(err.value)


OVERFLOW = """
      PROGRAM OVFL
      INTEGER I, J, K, ISEED, M
      INTEGER*8 L
      I = 2147483647
      I = I + 1
      J = 65536
      J = J * J
      K = -I
      M = 3
      M = M ** 21
      ISEED = 123456789
      DO 10 J = 1, 5
         ISEED = ISEED * 1103515245 + 12345
   10 CONTINUE
      L = 2147483647
      L = L * 4
      PRINT *, I, K, M, ISEED, MOD(ISEED, 1000), J
      PRINT *, L, I + 0 * J
      END
"""


def test_integer_overflow_wraps_as_in_fixed_width_arithmetic(fortran, tmp_path):
    out, _ = run(fortran(OVERFLOW))
    i = -2147483648
    iseed = 123456789
    for _ in range(5):
        iseed = ((iseed * 1103515245 + 12345 + 2**31) % 2**32) - 2**31
    m = ((3**21 + 2**31) % 2**32) - 2**31
    words = out.split()
    assert [int(w) for w in words[:6]] == [i, i, m, iseed, int(math.fmod(iseed, 1000)), 6]
    assert [int(w) for w in words[6:]] == [2147483647 * 4, i]
    if shutil.which("gfortran"):
        from autodist.runtime.job.verify import GFORTRAN_FLAGS

        exe = tmp_path / "a.out"
        subprocess.run(["gfortran", *GFORTRAN_FLAGS, "-o", str(exe), str(tmp_path / "prog.f")], check=True,
                       capture_output=True)
        assert out == subprocess.run([str(exe)], capture_output=True, text=True).stdout


def test_an_implied_do_variable_ends_as_after_a_do_loop(fortran):
    # the standard (and gfortran -O0): one step past the last value, the start when nothing ran
    out, _ = run(fortran("      PROGRAM IDO\n      INTEGER K, A(3)\n      DATA A /1, 2, 3/\n"
                         "      PRINT *, (A(K), K = 1, 3)\n      PRINT *, K\n"
                         "      PRINT *, (A(K), K = 3, 1)\n      PRINT *, K\n"
                         "      PRINT *, (A(K), K = 3, 1, -2)\n      PRINT *, K\n      END\n"))
    assert [line.split() for line in out.splitlines()] == [["1", "2", "3"], ["4"], [], ["3"], ["3", "1"], ["-1"]]
