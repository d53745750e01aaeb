"""Fixed and free form: columns, continuations, comments, TABs, ';', HPF directive lines."""

from __future__ import annotations

import pytest

from autodist import ir

from .helpers import c, error_of, outline, unit


def test_columns_73_to_80_are_cut():
    u = unit(
        """
        C     sequence numbers in columns 73-80 would be code otherwise
              SUBROUTINE S(A, N)                                                SUB00010
              INTEGER N                                                         SUB00020
              REAL A(N)                                                         SUB00030
              A(1) = 1.0 + 2.0                                                  SUB00040
              DO 10 I = 1, N                                                    SUB00050
           10 A(I) = 0.0                                                        SUB00060
              END                                                               SUB00070
        """
    )
    assert u.args == ("A", "N")
    assert outline(u.body) == [("Assign", None, 5), ("Do", "I", 6, 7, 10, [("Assign", 10, 7)])]
    assert u.body[0].value == ir.BinOp("+", c(1.0, ir.REAL), c(2.0, ir.REAL))


def test_text_running_into_column_73_is_cut_like_gfortran():
    line = "      X = 1.0 + 2.0" + " " * 47 + "+ 3.0"  # '+' in column 67, '3.0' ends at 71
    assert len(line) == 71
    u = unit("      PROGRAM P\n" + line + "\n" + "      Y = 4.0" + " " * 59 + "+ 5.0\n      END\n")
    assert u.body[0].value == ir.BinOp("+", ir.BinOp("+", c(1.0, ir.REAL), c(2.0, ir.REAL)), c(3.0, ir.REAL))
    assert u.body[1].value == c(4.0, ir.REAL)  # '+ 5.0' starts in column 73


def test_comment_lines_of_every_kind():
    u = unit(
        """
        c     lower-case c
        C     upper-case C
        *     star
        !     bang in column 1
        D     debug line (a comment by default)
              PROGRAM P
                 ! indented bang
              X = 1.0 ! trailing comment with a ' quote
              Y = 'A!B'
              END
        """
    )
    assert outline(u.body) == [("Assign", None, 8), ("Assign", None, 9)]
    assert u.body[1].value == c("A!B", ir.Type("character", 3))


def test_continuation_lines_with_comments_between():
    u = unit(
        """
              PROGRAM P
              X = 1.0 +
        C     a comment inside the statement
             &    2.0 +
        CHPF$ INDEPENDENT
             1    3.0
              END
        """
    )
    (stmt,) = [s for s in u.body if isinstance(s, ir.Assign)]
    assert stmt.span == ir.Span("t.f", 2, 6)
    assert stmt.value == ir.BinOp("+", ir.BinOp("+", c(1.0, ir.REAL), c(2.0, ir.REAL)), c(3.0, ir.REAL))


def test_tab_formatted_lines():
    u = unit("\tPROGRAM P\n10\tX = 1.0 +\n\t1  2.0\n\tGOTO 10\n\tEND\n")
    assert outline(u.body) == [("Assign", 10, 2), ("Goto", None, 4)]
    assert u.body[0].span == ir.Span("t.f", 2, 3)
    assert u.body[0].value == ir.BinOp("+", c(1.0, ir.REAL), c(2.0, ir.REAL))


def test_semicolons_separate_statements():
    u = unit("      PROGRAM P\n      X = 1.0; Y = 2.0\n      END\n")
    assert [(type(s).__name__, s.span.first, s.target.name) for s in u.body] == [("Assign", 2, "X"), ("Assign", 2, "Y")]


def test_keywords_written_with_blanks():
    u = unit("      PROGRAM P\n      GO TO 10\n   10 CON TINUE\n      S T O P\n      E N D\n")
    assert outline(u.body) == [("Goto", None, 2), ("Continue", 10, 3), ("Stop", None, 4)]


def test_the_power_operator_written_with_blanks():
    """Fixed form ignores blanks: ``* *`` is ``**`` (Burkardt's TEST_MAT writes
    ``2.0D+00* * ( I - 1 )``), also across a continuation; a string keeps its own."""
    u = unit("      PROGRAM P\n      X = 2.0D+00* * ( I - 1 )\n      Y = X *\n     &  * 2\n"
             "      PRINT *, '* *'\n      END\n")
    x, y = u.body[0].value, u.body[1].value
    assert (x.op, y.op) == (ir.Op.POW, ir.Op.POW)
    assert u.body[2].items[0].value == "* *"


def test_label_field_must_hold_digits():
    assert error_of("      PROGRAM P\n   1X X = 1\n      END\n") == "t.f:2: invalid statement label '1X' in columns 1-5"


def test_continuation_without_statement():
    assert error_of("C     nothing before\n     &X = 1\n      END\n") == "t.f:2: continuation line without a statement to continue"


def test_label_without_statement():
    assert error_of("      PROGRAM P\n   10\n      END\n") == "t.f:2: statement label 10 without a statement"


# --------------------------------------------------------------------------- directives


@pytest.mark.parametrize("sentinel", ["CHPF$", "chpf$", "*HPF$", "!HPF$", "!hpf$", "cHpF$"])
def test_fixed_form_sentinels(sentinel):
    u = unit(
        f"""
              SUBROUTINE S(A)
              REAL A(100)
        {sentinel} DISTRIBUTE A(BLOCK)
              A(1) = 0.0
              END
        """
    )
    assert u.directives == (ir.Directive(ir.Span("t.f", 3, 3), None, "DISTRIBUTE A(BLOCK)", sentinel),)


def test_fixed_form_directive_continuation():
    u = unit(
        """
              SUBROUTINE S(A, B)
              REAL A(100,100), B(100,100)
        CHPF$ ALIGN B(I,J)
        CHPF$+   WITH A(I,J)
        C     an ordinary comment
        CHPF$ DISTRIBUTE A(BLOCK,
        CHPF$1 *)  ! trailing remark
        CHPF$ PROCESSORS P(4)
              A(1,1) = B(1,1)
              END
        """
    )
    assert [(d.text, d.span.first, d.span.last) for d in u.directives] == [
        ("ALIGN B(I,J) WITH A(I,J)", 3, 4),
        ("DISTRIBUTE A(BLOCK, *)", 6, 7),
        ("PROCESSORS P(4)", 8, 8),
    ]


def test_fixed_form_directive_cut_at_column_72():
    u = unit("      SUBROUTINE S\nCHPF$ INDEPENDENT" + " " * 55 + "SEQ00010\n      X = 1\n      END\n")
    assert u.directives[0].text == "INDEPENDENT"


def test_free_form_directives_and_continuations():
    u = unit(
        """
        subroutine s(a, b)
          real :: a(100, 100), b(100, 100)
          !HPF$ DISTRIBUTE a(BLOCK, &
          !HPF$& CYCLIC) ONTO p
        !hpf$ ALIGN b(i, j) &
           !HPF$   WITH a(i, j)   ! a remark
          a(1, 1) = b(1, 1)
        end subroutine s
        """,
        "t.f90",
    )
    assert [(d.text, d.sentinel, d.span.first, d.span.last) for d in u.directives] == [
        ("DISTRIBUTE a(BLOCK, CYCLIC) ONTO p", "!HPF$", 3, 4),
        ("ALIGN b(i, j) WITH a(i, j)", "!hpf$", 5, 6),
    ]


def test_free_form_statement_continuations():
    u = unit(
        """
        program p
          x = 1.0 + &
          ! a comment between
              2.0
          s = 'ab&
              &cd'
        end program p
        """,
        "t.f90",
    )
    assert u.body[0].value == ir.BinOp("+", c(1.0, ir.REAL), c(2.0, ir.REAL))
    assert u.body[0].span == ir.Span("t.f90", 2, 4)
    assert u.body[1].value == c("abcd", ir.Type("character", 4))


def test_free_form_labels():
    u = unit("program p\n10 continue\n   go to 10\nend program\n", "t.f90")
    assert outline(u.body) == [("Continue", 10, 2), ("Goto", None, 3)]


def test_other_directive_families_are_comments():
    u = unit("      PROGRAM P\nC$OMP PARALLEL DO\nCDIR$ IVDEP\n      X = 1\n      END\n")
    assert u.directives == ()
    assert outline(u.body) == [("Assign", None, 4)]
