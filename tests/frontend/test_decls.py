"""Declarations: types, IMPLICIT, DIMENSION, PARAMETER folding, COMMON, EQUIVALENCE,
DATA, SAVE, EXTERNAL/INTRINSIC, dummy arrays, statement functions."""

from __future__ import annotations

import struct

import pytest

from autodist import ir
from autodist.errors import FortranError

from .helpers import c, error_of, read, sym, unit

CHAR = lambda n: ir.Type("character", n)  # noqa: E731


def f32(x: float) -> float:
    """x rounded to single precision."""
    return struct.unpack("f", struct.pack("f", x))[0]


def test_types():
    u = unit(
        """
              SUBROUTINE S
              INTEGER I1
              INTEGER*2 I2
              REAL R4
              REAL*8 R8
              REAL(8) R8B
              DOUBLE PRECISION DP
              COMPLEX C8
              COMPLEX*16 C16
              DOUBLE COMPLEX DC
              LOGICAL L4
              LOGICAL*1 L1
              CHARACTER CH1
              CHARACTER*12 CH12, CH3*3, CHS*(*)
              CHARACTER*(*) CHSTAR
              CHARACTER(LEN=8) CH8
              END
        """
    )
    expected = {
        "I1": ir.INTEGER, "I2": ir.Type("integer", 2), "R4": ir.REAL, "R8": ir.DOUBLE, "R8B": ir.DOUBLE,
        "DP": ir.DOUBLE, "C8": ir.COMPLEX, "C16": ir.Type("complex", 16), "DC": ir.Type("complex", 16),
        "L4": ir.LOGICAL, "L1": ir.Type("logical", 1), "CH1": CHAR(1), "CH12": CHAR(12), "CH3": CHAR(3),
        "CHS": CHAR(0), "CHSTAR": CHAR(0), "CH8": CHAR(8),
    }
    assert {s.name: s.type for s in u.symbols} == expected
    assert all(not s.implicit and s.kind == "variable" for s in u.symbols)
    assert str(sym(u, "C16").type) == "COMPLEX*16"


def test_implicit_typing_rules():
    u = unit(
        """
              SUBROUTINE S
              IMPLICIT DOUBLE PRECISION (A-H, O-Z), INTEGER (X)
              IMPLICIT CHARACTER*8 (C)
              REAL Z1
              A = 1
              X1 = 2
              K = 3
              C1 = 'ABC'
              Z1 = 4
              Z2 = 5
              END
        """
    )
    types = {s.name: (s.type, s.implicit) for s in u.symbols}
    assert types == {
        "Z1": (ir.REAL, False),
        "A": (ir.DOUBLE, True),
        "X1": (ir.INTEGER, True),
        "K": (ir.INTEGER, True),
        "C1": (CHAR(8), True),
        "Z2": (ir.DOUBLE, True),
    }


def test_default_implicit_rules():
    u = unit("      SUBROUTINE S\n      I = 1\n      N = 2\n      H = 3\n      O = 4\n      END\n")
    assert [(s.name, s.type) for s in u.symbols] == [("I", ir.INTEGER), ("N", ir.INTEGER), ("H", ir.REAL), ("O", ir.REAL)]


def test_implicit_none_requires_declarations():
    with pytest.raises(FortranError) as err:
        read(
            """
                  SUBROUTINE S(A)
                  IMPLICIT NONE
                  REAL A
                  A = SQRT(A) + B
                  END
            """
        )
    assert str(err.value) == "t.f:4: B has no type (IMPLICIT NONE is in effect)"


def test_implicit_none_allows_intrinsics_and_subroutines():
    u = unit(
        """
              SUBROUTINE S(A)
              IMPLICIT NONE
              REAL A
              A = SQRT(ABS(A))
              CALL OTHER(A)
              END
        """
    )
    assert [(s.name, s.kind, s.type) for s in u.symbols] == [
        ("A", "variable", ir.REAL),
        ("ABS", "intrinsic", ir.REAL),
        ("SQRT", "intrinsic", ir.REAL),
        ("OTHER", "subroutine", ir.NOTYPE),
    ]


def test_parameters_are_folded_with_fortran_semantics():
    u = unit(
        """
              SUBROUTINE S
              INTEGER N, M, NH, NNEG, MX, MD, K, P2, PN
              PARAMETER (N = 10, M = N * 2 + 1, NH = N / 4, NNEG = -7 / 2)
              PARAMETER (MX = MAX(N, M, 3), MD = MOD(-7, 3), K = 2.7)
              PARAMETER (P2 = 2 ** 10, PN = 2 ** (-1))
              REAL PI, X
              DOUBLE PRECISION D1, D2
              PARAMETER (PI = 4.0 * ATAN(1.0), X = 1.0 / 3)
              PARAMETER (D1 = 0.1, D2 = 0.1D0)
              LOGICAL DEBUG
              PARAMETER (DEBUG = .FALSE. .OR. N .GT. 5)
              CHARACTER*(*) NAME
              CHARACTER*4 SHORT
              PARAMETER (NAME = 'ADI' // 'X', SHORT = 'TOOLONG')
              COMPLEX Z
              PARAMETER (Z = (1.0, -2.0))
              END
        """
    )
    values = {s.name: (s.value.value, s.value.type) for s in u.symbols if s.kind == "parameter"}
    assert values == {
        "N": (10, ir.INTEGER),
        "M": (21, ir.INTEGER),
        "NH": (2, ir.INTEGER),
        "NNEG": (-3, ir.INTEGER),  # integer division truncates toward zero
        "MX": (21, ir.INTEGER),
        "MD": (-1, ir.INTEGER),  # MOD takes the sign of its first argument
        "K": (2, ir.INTEGER),  # converted like an assignment
        "P2": (1024, ir.INTEGER),
        "PN": (0, ir.INTEGER),
        "PI": (f32(3.141592653589793), ir.REAL),
        "X": (f32(1.0 / 3.0), ir.REAL),
        "D1": (f32(0.1), ir.DOUBLE),  # a REAL literal widened: not 0.1 exactly
        "D2": (0.1, ir.DOUBLE),
        "DEBUG": (True, ir.LOGICAL),
        "NAME": ("ADIX", CHAR(4)),
        "SHORT": ("TOOL", CHAR(4)),
        "Z": (complex(1.0, -2.0), ir.COMPLEX),
    }
    assert sym(u, "NAME").type == CHAR(4)


def test_parameters_fold_into_bounds_limits_subscripts_and_values():
    u = unit(
        """
              SUBROUTINE S
              INTEGER N, M
              PARAMETER (N = 8, M = N / 2 - 1)
              REAL X(0:N+1, M), Y(-M:M)
              DO 10 I = 1, N - 1, M - 1
                 X(I, M + 1) = X(N, 1) + N * 2 + I + (N - 3)
           10 CONTINUE
              END
        """
    )
    assert sym(u, "X").dims == (ir.Dim(c(0), c(9)), ir.Dim(c(1), c(3)))
    assert sym(u, "X").shape == (10, 3)
    assert sym(u, "Y").shape == (7,)
    loop = u.body[0]
    assert (loop.start, loop.end, loop.step) == (c(1), c(7), c(2))
    assign = loop.body[0]
    assert assign.target == ir.Index("X", (ir.Name("I"), c(4)))
    x_n_1 = ir.Index("X", (c(8), c(1)))
    assert assign.value == ir.BinOp("+", ir.BinOp("+", ir.BinOp("+", x_n_1, c(16)), ir.Name("I")), c(5))


def test_parameter_errors():
    assert error_of("      SUBROUTINE S\n      PARAMETER (N = M + 1)\n      END\n") == "t.f:2: the value of PARAMETER N is not a constant expression: M + 1"
    with pytest.raises(FortranError, match=r"t.f:3: PARAMETER N is defined twice"):
        read("      SUBROUTINE S\n      PARAMETER (N = 1)\n      PARAMETER (N = 2)\n      END\n")
    with pytest.raises(FortranError, match=r"t.f:3: PARAMETER L: a LOGICAL value cannot be given"):
        read("      SUBROUTINE S\n      INTEGER L\n      PARAMETER (L = .TRUE.)\n      END\n")


def test_dimension_statement_and_common_dimensions():
    u = unit(
        """
              SUBROUTINE S
              DIMENSION A(10), B(2, 3)
              COMMON /BLK/ C(4, 5), D
              DOUBLE PRECISION C
              END
        """
    )
    assert [(s.name, s.shape, s.type) for s in u.symbols] == [
        ("A", (10,), ir.REAL),
        ("B", (2, 3), ir.REAL),
        ("C", (4, 5), ir.DOUBLE),
        ("D", (), ir.REAL),
    ]
    assert sym(u, "C").bytes == 160


def test_dimensions_twice_is_an_error():
    assert error_of("      SUBROUTINE S\n      REAL A(10)\n      DIMENSION A(20)\n      END\n") == "t.f:3: A is given dimensions twice"
    with pytest.raises(FortranError, match=r"t.f:3: A is given a type twice"):
        read("      SUBROUTINE S\n      REAL A(10)\n      INTEGER A\n      END\n")


def test_common_blocks():
    u = unit(
        """
              SUBROUTINE S
              COMMON /FIELD/ U(64, 64), V(64, 64)
              COMMON // BX, BY, /CONS/ DT
              COMMON W
              COMMON /FIELD/ P(64)
              END
        """
    )
    assert u.commons == (
        ir.Common("FIELD", ("U", "V", "P"), ir.Span("t.f", 2, 5)),
        ir.Common("", ("BX", "BY", "W"), ir.Span("t.f", 3, 4)),
        ir.Common("CONS", ("DT",), ir.Span("t.f", 3, 3)),
    )
    membership = {s.name: (s.common, s.common_index) for s in u.symbols}
    assert membership == {
        "U": ("FIELD", 0), "V": ("FIELD", 1), "BX": ("", 0), "BY": ("", 1),
        "DT": ("CONS", 0), "W": ("", 2), "P": ("FIELD", 2),
    }


def test_common_errors():
    assert error_of("      SUBROUTINE S\n      COMMON /A/ X\n      COMMON /B/ X\n      END\n") == "t.f:3: X is already in COMMON /A/"
    with pytest.raises(FortranError, match=r"t.f:2: dummy argument X cannot be in COMMON"):
        read("      SUBROUTINE S(X)\n      COMMON /A/ X\n      END\n")


def test_equivalence():
    u = unit(
        """
              SUBROUTINE S
              REAL WORK(100), W2(10, 10), SCAL
              EQUIVALENCE (WORK(1), W2(1, 1)), (SCAL, WORK(100))
              END
        """
    )
    assert u.equivalences == (
        (ir.Index("WORK", (c(1),)), ir.Index("W2", (c(1), c(1)))),
        (ir.Name("SCAL"), ir.Index("WORK", (c(100),))),
    )
    assert all(s.equivalenced for s in u.symbols)


def test_data_statements():
    u = unit(
        """
              SUBROUTINE S
              PARAMETER (N = 4)
              REAL A(N), B, C
              INTEGER IH(2)
              CHARACTER*5 NAME
              COMPLEX Z
              DATA A /N*0.5/, B, C /-1.0, 2.5E1/
              DATA (IH(I), I = 1, 2) /2*7/, NAME /'HELLO'/, Z /(1.0, 0.0)/
              DATA IH(1) /4HABCD/
              END
        """
    )
    r = ir.REAL
    assert u.data[0] == ir.Data(
        (ir.Name("A"), ir.Name("B"), ir.Name("C"))[:1], ((4, c(0.5, r)),), ir.Span("t.f", 7, 7)
    )
    assert u.data[1].targets == (ir.Name("B"), ir.Name("C"))
    assert u.data[1].values == ((1, c(-1.0, r)), (1, c(25.0, r)))
    assert u.data[2].targets == (ir.ImpliedDo((ir.Index("IH", (ir.Name("I"),)),), "I", c(1), c(2), None),)
    assert u.data[2].values == ((2, c(7)),)
    assert u.data[3].values == ((1, c("HELLO", CHAR(5))),)
    assert u.data[4].values == ((1, c(complex(1.0, 0.0), ir.COMPLEX)),)
    assert u.data[5].values == ((1, ir.OpaqueExpr("4HABCD", "Hollerith constant")),)
    assert {s.name for s in u.symbols if s.in_data} == {"A", "B", "C", "IH", "NAME", "Z"}


def test_save():
    u = unit(
        """
              SUBROUTINE S(ARG)
              COMMON /KEEP/ K1, K2
              COMMON /LOSE/ L1
              SAVE X, /KEEP/
              X = ARG + Y
              END
        """
    )
    assert {s.name for s in u.symbols if s.save} == {"X", "K1", "K2"}
    u = unit(
        """
              SUBROUTINE S(ARG)
              COMMON // B1
              COMMON /NAMED/ N1
              SAVE
              X = ARG
              END
        """
    )
    assert {s.name for s in u.symbols if s.save} == {"X", "N1"}


def test_external_intrinsic_and_references():
    u = unit(
        """
              SUBROUTINE S(F, G, V)
              EXTERNAL F, SIN, EXTSUB
              INTRINSIC COS
              REAL INDEX(10), V(10)
              Y = F(1.0) + SIN(2.0) + COS(3.0) + INDEX(2) + G(V(1))
              Z = ABS(K) + IABS(K) + DMAX1(1.0D0, 2.0D0) + AMOD(5.0, 3.0)
              CALL EXTSUB(F)
              CALL USER(INDEX, COS)
              END
        """
    )
    y, z = u.body[0].value, u.body[1].value
    refs = [e for e in y.walk() if isinstance(e, (ir.FuncRef, ir.Index))]
    assert [(type(e).__name__, e.name, getattr(e, "kind", None)) for e in refs] == [
        ("FuncRef", "F", "external"),
        ("FuncRef", "SIN", "external"),  # declared EXTERNAL: the user's SIN
        ("FuncRef", "COS", "intrinsic"),
        ("Index", "INDEX", None),  # an array, whatever its name
        ("FuncRef", "G", "external"),  # a dummy procedure
        ("Index", "V", None),
    ]
    assert [e.name for e in z.walk() if isinstance(e, ir.FuncRef)] == ["ABS", "IABS", "DMAX1", "AMOD"]
    kinds = {s.name: (s.kind, s.type, s.dummy) for s in u.symbols}
    assert kinds["F"] == ("function", ir.REAL, True)
    assert kinds["G"] == ("function", ir.REAL, True)
    assert kinds["SIN"] == ("function", ir.REAL, False)
    assert kinds["COS"] == ("intrinsic", ir.REAL, False)
    assert kinds["EXTSUB"] == ("subroutine", ir.NOTYPE, False)
    assert kinds["USER"] == ("subroutine", ir.NOTYPE, False)
    assert kinds["DMAX1"] == ("intrinsic", ir.DOUBLE, False)
    assert kinds["ABS"] == ("intrinsic", ir.INTEGER, False)  # the generic, typed by its argument
    call = u.body[3]
    assert call.args == (ir.Name("INDEX"), ir.Name("COS"))


def test_intrinsic_statement_checks_the_name():
    assert error_of("      SUBROUTINE S\n      INTRINSIC FOO\n      END\n") == "t.f:2: FOO is not an intrinsic function"


def test_adjustable_and_assumed_size_dummy_arrays():
    u = unit(
        """
              SUBROUTINE S(A, LDA, N, M, B, W)
              INTEGER LDA, N, M
              REAL A(LDA, *), B(N, M), W(0:*)
              A(1, 1) = B(N, M) + W(0)
              END
        """
    )
    a, b, w = sym(u, "A"), sym(u, "B"), sym(u, "W")
    assert a.dims == (ir.Dim(c(1), ir.Name("LDA")), ir.Dim(c(1), None))
    assert b.dims == (ir.Dim(c(1), ir.Name("N")), ir.Dim(c(1), ir.Name("M")))
    assert w.dims == (ir.Dim(c(0), None),)
    assert (a.dummy, b.dummy, w.dummy) == (True, True, True)
    assert a.shape is None and a.rank == 2 and a.bytes is None


def test_statement_functions():
    u = unit(
        """
              SUBROUTINE S(A, N)
              REAL A(N)
              PARAMETER (HALF = 0.5)
              AREA(X, Y) = X * Y * HALF
              TWICE(X) = 2.0 * AREA(X, 1.0)
              DATA Q /1.0/
              A(1) = TWICE(A(2)) + Q
              END
        """
    )
    half = c(0.5, ir.REAL)
    assert u.stmt_functions == (
        ir.StmtFunction("AREA", ("X", "Y"), ir.BinOp("*", ir.BinOp("*", ir.Name("X"), ir.Name("Y")), half), ir.Span("t.f", 4, 4)),
        ir.StmtFunction(
            "TWICE",
            ("X",),
            ir.BinOp("*", c(2.0, ir.REAL), ir.FuncRef("AREA", (ir.Name("X"), c(1.0, ir.REAL)), "statement")),
            ir.Span("t.f", 5, 5),
        ),
    )
    assert u.body == (
        ir.Assign(
            ir.Span("t.f", 7, 7),
            None,
            ir.Index("A", (c(1),)),
            ir.BinOp("+", ir.FuncRef("TWICE", (ir.Index("A", (c(2),)),), "statement"), ir.Name("Q")),
        ),
    )
    assert sym(u, "AREA").kind == "statement_function"
    assert u.symbol("X") is None and u.symbol("Y") is None  # dummy names of the statement functions
    assert u.decl_end == 6


def test_assignment_to_an_array_element_is_not_a_statement_function():
    u = unit(
        """
              SUBROUTINE S
              REAL F(10)
              F(1) = 2.0
              G(X) = X + 1.0
              END
        """
    )
    assert u.stmt_functions == ()
    assert isinstance(u.body[0], ir.Assign) and u.body[0].target == ir.Index("F", (c(1),))
    # once an executable statement was seen, G(X) = ... is an assignment to an undeclared array:
    # fparser2 reads it as such and it references function G
    assert isinstance(u.body[1], ir.Assign)


def test_specification_after_executable_statement():
    assert error_of("      SUBROUTINE S\n      X = 1.0\n      REAL Y\n      END\n") == "t.f:3: specification statement after the first executable statement (line 2): REAL Y"


def test_decl_end_and_symbol_spans():
    u = unit(
        """
              SUBROUTINE S(A)
        C     comment
              REAL A(10)
              INTEGER I
        CHPF$ DISTRIBUTE A(BLOCK)

              DO 10 I = 1, 10
           10 A(I) = 0.0
              END
        """
    )
    assert u.decl_end == 4
    assert sym(u, "A").span == ir.Span("t.f", 3, 3)
    assert sym(u, "I").span == ir.Span("t.f", 4, 4)
    assert u.directives[0].span.first == 5
