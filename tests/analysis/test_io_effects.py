"""What I/O statements assign: READ lists through implied DO loops, implied-DO
variables, IOSTAT= and INQUIRE properties reach phases, effects and scalars."""

from __future__ import annotations

from autodist.analysis import analyze
from autodist.frontend import read_text


def _analysis(text: str):
    return analyze(read_text(text, "io.f"))


def test_a_read_through_an_implied_do_writes_the_array():
    an = _analysis(
        "      PROGRAM P\n      REAL A(8, 8), B(8, 8)\n"
        "      DO 5 J = 1, 8\n        READ (*, *) (A(I, J), I = 1, 8)\n    5 CONTINUE\n"
        "      DO 10 J = 1, 8\n      DO 10 I = 1, 8\n   10 B(I, J) = A(I, J)\n"
        "      PRINT *, B(1, 1)\n      END\n"
    )
    first = an.procedure("P").phases[0]
    assert "A" in first.writes
    assert not first.loops[0].parallel


def test_a_procedure_reading_into_its_dummies_modifies_them():
    an = _analysis(
        "      PROGRAM P\n      REAL A(4)\n      CALL GET(A, N, IOS)\n      PRINT *, A(1), N, IOS\n      END\n"
        "      SUBROUTINE GET(X, N, IOS)\n      REAL X(4)\n"
        "      READ (*, *, IOSTAT=IOS) ((X(I), I = 1, 4), K = 1, 1)\n"
        "      N = 4\n      END\n"
    )
    assert an.procedure("GET").effects.writes_args == frozenset({0, 1, 2})


def test_write_statements_assign_only_their_implied_do_variables():
    an = _analysis(
        "      PROGRAM P\n      CALL PUT(A, K)\n      END\n"
        "      SUBROUTINE PUT(X, K)\n      REAL X(4)\n      WRITE (*, *) (X(K), K = 1, 4)\n      END\n"
    )
    assert an.procedure("PUT").effects.writes_args == frozenset({1})
