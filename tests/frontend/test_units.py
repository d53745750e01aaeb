"""Program units: kinds, names, MAIN, prefixes, function types, spans, unit errors."""

from __future__ import annotations

from autodist import ir

from .helpers import error_of, read, unit


def test_every_kind_of_unit():
    program = read(
        """
              PROGRAM MAINP
              CALL SUB(1)
              END
              SUBROUTINE SUB(K)
              RETURN
              END
              SUBROUTINE NOARGS
              END
              FUNCTION F(X)
              F = X
              END
              INTEGER FUNCTION IF2(X)
              IF2 = 2
              END
              DOUBLE PRECISION FUNCTION DF(X)
              DF = X
              END
              CHARACTER*(*) FUNCTION CF(X)
              CF = 'A'
              END
              COMPLEX*16 FUNCTION ZF()
              ZF = (1.0D0, 0.0D0)
              END
              BLOCK DATA BD
              COMMON /C/ X
              DATA X /1.0/
              END
              BLOCK DATA
              COMMON /D/ Y
              DATA Y /2.0/
              END
        """
    )
    assert [(u.kind, u.name, u.args) for u in program.units] == [
        ("program", "MAINP", ()),
        ("subroutine", "SUB", ("K",)),
        ("subroutine", "NOARGS", ()),
        ("function", "F", ("X",)),
        ("function", "IF2", ("X",)),
        ("function", "DF", ("X",)),
        ("function", "CF", ("X",)),
        ("function", "ZF", ()),
        ("blockdata", "BD", ()),
        ("blockdata", "BLOCKDATA", ()),
    ]
    types = {u.name: (u.result, u.result_type) for u in program.units if u.kind == "function"}
    assert types == {
        "F": ("F", ir.REAL),
        "IF2": ("IF2", ir.INTEGER),
        "DF": ("DF", ir.DOUBLE),
        "CF": ("CF", ir.Type("character", 0)),
        "ZF": ("ZF", ir.Type("complex", 16)),
    }
    assert program.unit("f").symbol("F").kind == "function"
    assert [u.span for u in program.units[:3]] == [ir.Span("t.f", 1, 3), ir.Span("t.f", 4, 6), ir.Span("t.f", 7, 8)]


def test_function_type_declared_inside():
    u = unit(
        """
              FUNCTION G(N)
              INTEGER N
              DOUBLE PRECISION G
              G = N
              END
        """
    )
    assert u.result_type == ir.DOUBLE
    assert u.symbol("G").type == ir.DOUBLE
    assert u.symbol("G").kind == "function"


def test_main_program_without_program_statement_keeps_later_units():
    # fparser2 alone returns only the main program here and drops the rest
    program = read(
        """
        C     no PROGRAM statement
              X = 1.0
              CALL S(X)
              PRINT *, F(X)
              END
              SUBROUTINE S(A)
              A = 2.0
              END
              FUNCTION F(A)
              F = A
              END
              BLOCK DATA B
              END
        """
    )
    assert [(u.kind, u.name) for u in program.units] == [
        ("program", "MAIN"),
        ("subroutine", "S"),
        ("function", "F"),
        ("blockdata", "B"),
    ]
    main = program.main
    assert main.span == ir.Span("t.f", 2, 5)
    assert main.decl_end == 1  # nothing declared: directives would go before line 2
    assert [type(s).__name__ for s in main.body] == ["Assign", "Call", "Io"]


def test_hpf_prefixes_are_recorded():
    program = read(
        """
              EXTRINSIC(HPF_LOCAL) SUBROUTINE LOC(A)
              REAL A(10)
              A(1) = 0.0
              END
              EXTRINSIC (HPF) SUBROUTINE GLOB
              END
              PURE REAL FUNCTION SQ(X)
              REAL, INTENT(IN) :: X
              SQ = X * X
              END
              REAL PURE FUNCTION CUBE(X)
              CUBE = X ** 3
              END
              RECURSIVE SUBROUTINE R(N)
              END
        """
    )
    assert [(u.name, u.prefixes) for u in program.units] == [
        ("LOC", ("EXTRINSIC(HPF_LOCAL)",)),
        ("GLOB", ("EXTRINSIC(HPF)",)),
        ("SQ", ("PURE",)),
        ("CUBE", ("PURE",)),
        ("R", ("RECURSIVE",)),
    ]
    assert program.unit("SQ").result_type == ir.REAL


def test_free_form_units_with_end_names():
    program = read(
        """
        program p
          call s
        end program p
        subroutine s
        end subroutine s
        function f(x)
          f = x
        end function
        """,
        "t.f90",
    )
    assert [(u.kind, u.name, u.span.first, u.span.last) for u in program.units] == [
        ("program", "P", 1, 3),
        ("subroutine", "S", 4, 5),
        ("function", "F", 6, 8),
    ]


def test_unit_defined_twice_in_one_file():
    assert error_of("      SUBROUTINE S\n      END\n      SUBROUTINE S(X)\n      END\n") == "t.f:3: program unit S is defined twice (also at t.f:1)"


def test_two_main_programs_without_header_are_a_duplicate():
    assert error_of("      X = 1\n      END\n      Y = 2\n      END\n") == "t.f:3: program unit MAIN is defined twice (also at t.f:1)"


def test_missing_end():
    assert error_of("      SUBROUTINE S\n      X = 1\n") == "t.f:1: subroutine S has no END statement"


def test_end_without_unit():
    assert error_of("      SUBROUTINE S\n      END\n      END\n") == "t.f:3: END statement without a program unit before it"


def test_invalid_header():
    assert error_of("      PROGRAM P\n      END\n      SUBROUTINE S(A,)\n      A = 1\n      END\n") == "t.f:3: invalid program unit header: SUBROUTINE S(A,)"


def test_empty_file_has_no_units():
    assert read("C     only a comment\n").units == ()


def test_directive_outside_any_unit():
    assert error_of("CHPF$ PROCESSORS P(4)\n") == "t.f:1: directive or preprocessor line outside any program unit"


def test_labelled_end_is_a_branch_target():
    u = unit("      SUBROUTINE S(N)\n      IF (N .GT. 0) GOTO 99\n      N = 1\n   99 END\n")
    assert isinstance(u.body[-1], ir.Continue)
    assert (u.body[-1].label, u.body[-1].span) == (99, ir.Span("t.f", 4, 4))
