"""Invalid Fortran is a FortranError naming the file and the line of the offending
statement, never a traceback, never a silently shortened program."""

from __future__ import annotations

import pytest

from autodist.errors import AutodistError, FortranError
from autodist.frontend import read_program, read_text
from autodist.frontend.parse import _run, make_parser

from .helpers import error_of, read


def test_syntax_error_deep_in_a_nest():
    assert error_of(
        """
              SUBROUTINE S(A, N)
              REAL A(N, N)
              DO 10 J = 1, N
        C        comment
              DO 10 I = 1, N
                 IF (A(I,J) .GT. 0.0) THEN
                    A(I,J) = (A(I,J) + 1.0
                 END IF
           10 CONTINUE
              END
        """
    ) == "t.f:7: invalid statement: A(I,J) = (A(I,J) + 1.0"


def test_syntax_error_in_a_continued_statement_names_its_first_line():
    assert error_of(
        """
              PROGRAM P
              X = 1.0
              CALL WORK(X,
             &          X +
             &          )
              END
        """
    ) == "t.f:3: invalid statement: CALL WORK(X,          X +          )"


def test_error_in_a_later_unit_is_not_blamed_on_the_first():
    assert error_of(
        """
              PROGRAM P
              CALL S
              END
              SUBROUTINE S
              X = 1
              Y = = 2
              END
        """
    ) == "t.f:6: invalid statement: Y = = 2"


def test_unclosed_loop_is_reported_at_the_do_not_at_end():
    # fparser2 itself reports this one at the END line
    tree, leftover, message = _run(make_parser(), "      SUBROUTINE S\n      DO 10 I = 1, 3\n      X = I\n      END\n", "fixed")
    assert message is not None and "at line 4" in message
    assert error_of("      SUBROUTINE S\n      DO 10 I = 1, 3\n      X = I\n      END\n") == (
        "t.f:2: DO loop has no terminating statement labelled 10"
    )


def test_error_inside_an_include_file_names_that_file(tmp_path):
    (tmp_path / "body.h").write_text("      X = 1.0\n      Y = X +* 2.0\n")
    (tmp_path / "p.f").write_text("      PROGRAM P\n      INCLUDE 'body.h'\n      END\n")
    with pytest.raises(FortranError) as err:
        read_program([tmp_path / "p.f"])
    assert (err.value.file, err.value.line) == (str(tmp_path / "body.h"), 2)
    assert err.value.message == "invalid statement: Y = X +* 2.0"


def test_free_form_errors():
    assert error_of("program p\n  x = 1\n  y = x +\nend program\n", "t.f90") == "t.f90:3: invalid statement: y = x +"


def test_fparser_alone_drops_units_after_a_headerless_main():
    # what the front end protects against: no error, a unit is just missing
    tree, leftover, message = _run(make_parser(), "      X = 1\n      END\n      SUBROUTINE S\n      END\n", "fixed")
    assert message is None and leftover is not None
    assert [type(u).__name__ for u in tree.content] == ["Main_Program0"]
    program = read("      X = 1\n      END\n      SUBROUTINE S\n      END\n")
    assert [u.name for u in program.units] == ["MAIN", "S"]


def test_modules_are_refused_clearly():
    assert error_of("module m\nend module m\n", "t.f90") == "t.f90:1: Fortran 90 modules are not supported: module m"


@pytest.mark.parametrize(
    "text",
    [
        "      PROGRAM P\n      X = 'unterminated\n      END\n",
        "      PROGRAM P\n      IF (X) THEN\n      ELSE IF\n      END IF\n      END\n",
        "      PROGRAM P\n      DO 10 I = 1\n   10 CONTINUE\n      END\n",
        "      PROGRAM P\n      REAL X(10\n      END\n",
        "      PROGRAM P\n      GOTO\n      END\n",
        "      PROGRAM P\n      CALL\n      END\n",
        "      FUNCTION\n      END\n",
        "      PROGRAM P\n      X = (1 + 2))\n      END\n",
        "\x00\x01\x02\n",
    ],
)
def test_garbage_gives_a_located_error_never_a_traceback(text):
    with pytest.raises(AutodistError) as err:
        read_text(text, "g.f")
    assert str(err.value).startswith("g.f:")


@pytest.mark.parametrize("body,how", [
    ("      DO 10 I = 1, N\n         A(I) = 0.0\n   10 CONTINUE\n", "by the DO loop at line 4"),
    ("      A(I) = 1.0\n      IF (A(I) .GT. 0.0) I = I + 1\n", "by the assignment at line 5"),
    ("      READ (*,*) (A(I), I = 1, N)\n", "by the READ at line 4"),
])
def test_a_do_variable_redefined_inside_its_loop_is_refused(body, how):
    text = ("      SUBROUTINE S(A, N)\n      REAL A(N)\n      DO 20 I = 1, N\n" + body
            + "   20 CONTINUE\n      END\n")
    assert error_of(text) == f"t.f:3: the DO variable I is redefined inside its loop ({how})"


def test_an_integer_constant_too_big_for_its_kind_is_refused_at_its_line():
    text = "      PROGRAM P\n      INTEGER K\n      K = 1\n      K = K - 999999999999999999999\n      END\n"
    assert error_of(text) == ("t.f:4: the integer constant 999999999999999999999 is too big for INTEGER*4 "
                              "(at most 2147483647)")
    assert error_of("      PROGRAM P\n      PARAMETER (M = 2147483648)\n      END\n").startswith("t.f:2: the integer")


@pytest.mark.parametrize("literal, kind", [("1E39", "REAL*4"), ("-1E308", "REAL*4"), ("1D309", "REAL*8")])
def test_a_real_constant_that_overflows_its_kind_is_refused_at_its_line(literal, kind):
    # gfortran: "Real constant overflows its kind"; a DO step of -1E308 once reached the
    # runtime as an infinite step
    text = f"      PROGRAM P\n      INTEGER J\n      X = {literal}\n      DO 6 J = 10, 1, -1\n    6 CONTINUE\n      END\n"
    assert error_of(text).startswith(f"t.f:3: the real constant {literal.lstrip('-')} overflows {kind}")
    assert error_of("      PROGRAM P\n      X = 3.4E38\n      Y = 3.5E38\n      END\n").startswith("t.f:3: the real")


def test_a_control_character_in_a_statement_is_shown_escaped_in_the_one_line_message():
    import os
    import subprocess
    import sys
    import tempfile

    text = "      PROGRAM P\n      CALL F\x1bOO(X)\n      END\n"
    with pytest.raises(FortranError) as info:
        read_text(text, "t.f")
    assert "\x1b" in str(info.value)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.f")
        with open(path, "w") as f:
            f.write(text)
        done = subprocess.run([sys.executable, "-m", "autodist.cli", "analyze", path],
                              capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "\x1b" not in done.stderr
    assert done.stderr.endswith("t.f:2: invalid statement: CALL F\\x1bOO(X)\n")
