"""Executable statements: loops and their nesting, IF forms, branches, calls,
I/O, deleted features, directives among statements, subscripts."""

from __future__ import annotations

import pytest

from autodist import ir

from .helpers import c, error_of, outline, unit

R = ir.REAL


def test_shared_termination_nest_with_comments_and_directives_between():
    u = unit(
        """
              SUBROUTINE S(A, N)
              REAL A(N, N, N)
              DO 10 K = 1, N
        C        a comment between the DO statements (fparser2 rejects it)
        CHPF$ INDEPENDENT
              DO 10 J = 1, N
        *        another comment
              DO 10 I = 1, N
                 IF (A(I,J,K) .LT. 0.0) GO TO 10
                 A(I,J,K) = 1.0
           10 CONTINUE
              END
        """
    )
    assert outline(u.body) == [
        ("Do", "K", 3, 11, 10, [
            ("Directive", None, 5),
            ("Do", "J", 6, 11, 10, [
                ("Do", "I", 8, 11, 10, [
                    ("LogicalIf", 9, [[("Goto", None, 9)]]),
                    ("Assign", None, 10),
                    ("Continue", 10, 11),
                ]),
            ]),
        ]),
    ]
    assert u.body[0].body[0].text == "INDEPENDENT"


def test_loops_ending_on_action_statements():
    u = unit(
        """
              SUBROUTINE S(A, B, N)
              REAL A(N), B(N, N)
              DO 10 I = 1, N
           10 A(I) = 0.0
              DO 20 J = 1, N
              DO 20 I = 1, N
           20 IF (B(I,J) .GT. A(I)) A(I) = B(I,J)
              DO 30, I = N, 1, -1
           30 CALL F(A(I))
              END
        """
    )
    assert outline(u.body) == [
        ("Do", "I", 3, 4, 10, [("Assign", 10, 4)]),
        ("Do", "J", 5, 7, 20, [("Do", "I", 6, 7, 20, [("LogicalIf", 7, [[("Assign", None, 7)]])])]),
        ("Do", "I", 8, 9, 30, [("Call", 30, 9)]),
    ]
    assert u.body[1].body[0].body[0].label == 20
    assert (u.body[2].start, u.body[2].end, u.body[2].step) == (ir.Name("N"), c(1), c(-1))


def test_separately_closed_and_mixed_nests():
    u = unit(
        """
              PROGRAM P
              DO 20 J = 1, 3
                 DO 10 I = 1, 3
                    X = X + 1
           10    CONTINUE
                 DO K = 1, 2
                    Y = Y + 1
                 END DO
           20 CONTINUE
              DO 30 I = 1, 2
                 Z = Z + 1
           30 END DO
              END
        """
    )
    assert outline(u.body) == [
        ("Do", "J", 2, 9, 20, [
            ("Do", "I", 3, 5, 10, [("Assign", None, 4), ("Continue", 10, 5)]),
            ("Do", "K", 6, 8, None, [("Assign", None, 7)]),
            ("Continue", 20, 9),
        ]),
        ("Do", "I", 10, 12, 30, [("Assign", None, 11), ("Continue", 30, 12)]),
    ]


def test_do_while_forms():
    u = unit(
        """
              PROGRAM P
              I = 0
              DO WHILE (I .LT. 10)
                 I = I + 1
              END DO
              DO 10 WHILE (I .GT. 0)
           10 I = I - 1
              END
        """
    )
    assert outline(u.body) == [
        ("Assign", None, 2),
        ("DoWhile", 3, 5, None, [("Assign", None, 4)]),
        ("DoWhile", 6, 7, 10, [("Assign", 10, 7)]),
    ]
    assert u.body[1].cond == ir.BinOp("<", ir.Name("I"), c(10))


def test_block_if_forms_and_labels_on_end_if():
    u = unit(
        """
              SUBROUTINE S(X, N)
              IF (N .GT. 1) THEN
                 X = 1.0
              ELSE IF (N .EQ. 1) THEN
                 X = 2.0
                 IF (X .GT. 0.0) GOTO 50
              ELSE
                 X = 3.0
           50 END IF
              IF (N .LT. 0) THEN
                 X = 0.0
              ENDIF
              END
        """
    )
    assert outline(u.body) == [
        ("If", 2, [[("Assign", None, 3)], [("Assign", None, 5), ("LogicalIf", 6, [[("Goto", None, 6)]])], [("Assign", None, 8)]]),
        ("Continue", 50, 9),
        ("If", 10, [[("Assign", None, 11)]]),
    ]
    first = u.body[0]
    assert [b.cond for b in first.branches] == [
        ir.BinOp(">", ir.Name("N"), c(1)),
        ir.BinOp("==", ir.Name("N"), c(1)),
        None,
    ]
    assert [b.span for b in first.branches] == [ir.Span("t.f", 2, 4), ir.Span("t.f", 4, 7), ir.Span("t.f", 7, 9)]
    assert first.span == ir.Span("t.f", 2, 9) and not first.logical


def test_branches_calls_and_stops():
    u = unit(
        """
              SUBROUTINE S(X, K, *)
              IF (X) 10, 20, 30
           10 GO TO (20, 30, 20), K
           20 CALL WORK(X, 2, *30)
              CALL NOARGS
              RETURN
           30 STOP 'DONE'
              STOP
              END
        """
    )
    assert u.body == (
        ir.ArithIf(ir.Span("t.f", 2, 2), None, ir.Name("X"), 10, 20, 30),
        ir.ComputedGoto(ir.Span("t.f", 3, 3), 10, (20, 30, 20), ir.Name("K")),
        ir.Call(ir.Span("t.f", 4, 4), 20, "WORK", (ir.Name("X"), c(2), ir.OpaqueExpr("*30", "alternate return label"))),
        ir.Call(ir.Span("t.f", 5, 5), None, "NOARGS", ()),
        ir.Return(ir.Span("t.f", 6, 6), None),
        ir.Stop(ir.Span("t.f", 7, 7), 30, c("DONE", ir.Type("character", 4))),
        ir.Stop(ir.Span("t.f", 8, 8), None, None),
    )
    assert u.args == ("X", "K", "*")


def test_io_statements():
    u = unit(
        """
              PROGRAM P
              REAL A(10)
              CHARACTER*8 FMT
              WRITE (*,*) 'A =', A(1)
              WRITE (6, 100) (A(I), I = 1, 10, 2)
              WRITE (UNIT=6, FMT='(F8.3)') A(2)
              WRITE (10) A
              PRINT *, N
              PRINT 100, N
              READ (5, *, END=99, ERR=98, IOSTAT=IOS) X
              READ *, Y
              WRITE (6, FMT) X
              OPEN (UNIT=10, FILE='A.DAT', STATUS='OLD')
              CLOSE (10)
              REWIND 10
              BACKSPACE (UNIT=10)
              ENDFILE 10
              INQUIRE (FILE='A.DAT', EXIST=L)
          100 FORMAT (1X, 'X =', F10.3, 5H A B )
           98 CONTINUE
           99 CONTINUE
              END
        """
    )
    io = [s for s in u.body if isinstance(s, ir.Io)]
    ch = lambda s: c(s, ir.Type("character", len(s)))  # noqa: E731
    summary = [(s.kind, s.unit, s.fmt, s.items, s.specs) for s in io]
    assert summary == [
        ("write", None, "*", (ch("A ="), ir.Index("A", (c(1),))), ()),
        ("write", c(6), 100, (ir.ImpliedDo((ir.Index("A", (ir.Name("I"),)),), "I", c(1), c(10), c(2)),), ()),
        ("write", c(6), "(F8.3)", (ir.Index("A", (c(2),)),), ()),
        ("write", c(10), None, (ir.Name("A"),), ()),
        ("print", None, "*", (ir.Name("N"),), ()),
        ("print", None, 100, (ir.Name("N"),), ()),
        ("read", c(5), "*", (ir.Name("X"),), (("END", c(99)), ("ERR", c(98)), ("IOSTAT", ir.Name("IOS")))),
        ("read", None, "*", (ir.Name("Y"),), ()),
        ("write", c(6), ir.Name("FMT"), (ir.Name("X"),), ()),
        ("open", c(10), None, (), (("FILE", ch("A.DAT")), ("STATUS", ch("OLD")))),
        ("close", c(10), None, (), ()),
        ("rewind", c(10), None, (), ()),
        ("backspace", c(10), None, (), ()),
        ("endfile", c(10), None, (), ()),
        ("inquire", None, None, (), (("FILE", ch("A.DAT")), ("EXIST", ir.Name("L")))),
        ("format", None, None, (), ()),
    ]
    assert io[0].text == "WRITE (*,*) 'A =', A(1)"
    assert io[-1].text == "(1X, 'X =', F10.3, 5H A B )"
    assert io[-1].label == 100


def test_array_sections_in_io_lists_are_their_elements_in_array_element_order():
    u = unit(
        """
              SUBROUTINE S(T, Z, M, J)
              REAL T(0:5, 4), Z(M, *)
              WRITE (*, *) T(1:M, J), T(:, 2:4:2)
              READ (*, *) (T(I, 1:2), I = 1, 3)
              WRITE (*, *) Z(1, :)
              END
        """
    )
    w, r, z = [s for s in u.body if isinstance(s, ir.Io)]
    s1, s2, s3, s4, s5 = (ir.Name(f"_S{k}") for k in range(1, 6))
    assert w.items == (
        ir.ImpliedDo((ir.Index("T", (s1, ir.Name("J"))),), "_S1", c(1), ir.Name("M"), None),
        ir.ImpliedDo((ir.ImpliedDo((ir.Index("T", (s2, s3)),), "_S2", c(0), c(5), None),), "_S3", c(2), c(4), c(2)),
    )
    assert r.items == (ir.ImpliedDo((ir.ImpliedDo((ir.Index("T", (ir.Name("I"), s4)),), "_S4", c(1), c(2), None),),
                                    "I", c(1), c(3), None),)
    assert r.targets()[-1] == ir.Index("T", (ir.Name("I"), s4))
    assert isinstance(z.items[0], ir.OpaqueExpr)  # the whole of an assumed-size dimension: no upper bound
    assert u.symbol("_S1").type == ir.INTEGER and u.symbol("_S5") is None


def test_a_volatile_statement_declares_nothing_new_and_is_not_opaque():
    u = unit(
        """
              DOUBLE PRECISION FUNCTION EPS(X)
              DOUBLE PRECISION X, A, B
              VOLATILE A, B
              A = 4.0D0 / 3.0D0
              B = A - 1.0D0
              EPS = ABS(B + B + B - 1.0D0) * X
              END
        """
    )
    assert u.opaque_decls == () and not any(isinstance(s, ir.Opaque) for s in ir.walk(u.body))
    assert u.symbol("A").type == ir.DOUBLE and u.symbol("B").dims is None


def test_deleted_features_and_entry_become_opaque():
    u = unit(
        """
              SUBROUTINE S(X, K)
              ASSIGN 10 TO K
              GO TO K, (10, 20)
           10 PAUSE
           20 PAUSE 'WAIT'
              IF (X .GT. 0.0) PAUSE 1
              X = 4HABCD
              RETURN 1
              ENTRY E2(X)
              X = 2.0
              END
        """
    )
    assert [(type(s).__name__, s.label, s.span.first, getattr(s, "reason", None)) for s in u.body] == [
        ("Opaque", None, 2, "ASSIGN statement (deleted feature)"),
        ("Opaque", None, 3, "assigned GO TO (deleted feature)"),
        ("Opaque", 10, 4, "PAUSE statement (deleted feature)"),
        ("Opaque", 20, 5, "PAUSE statement (deleted feature)"),
        ("Opaque", None, 6, "PAUSE statement (deleted feature)"),
        ("Opaque", None, 7, "Hollerith constant outside FORMAT (deleted feature)"),
        ("Opaque", None, 8, "alternate RETURN"),
        ("Opaque", None, 9, "ENTRY statement"),
        ("Assign", None, 10, None),
    ]
    assert u.body[0].text == "ASSIGN 10 TO K"
    assert u.body[5].text == "X = 4HABCD"


def test_hollerith_actual_arguments_are_padded_character_constants():
    u = unit(
        """
              SUBROUTINE S(K)
              CALL MSG(12HHELLO, WORLD, 12)
              IF (K .NE. 0) CALL MSG(5Hit's , 5)
              X = F(K, 3Habc) + 1.0
              K = ICHAR(1HA)
              CALL MSG(3HABC // 'D')
              CALL MSG('ABC')
              END
        """
    )
    call, guarded, assign, intrinsic, concat, quoted = u.body
    (h,) = [a for a in call.args if isinstance(a, ir.Hollerith)]
    assert (h.value, h.type, h.source, h.chars) == ("HELLO, WORLD", ir.Type("character", 12), "12HHELLO, WORLD",
                                                    "HELLO, WORLD")
    assert guarded.branches[0].body[0].args[0] == ir.Hollerith("it's    ", ir.Type("character", 8), "5Hit's ")
    assert assign.value.left.args[1] == ir.Hollerith("abc ", ir.Type("character", 4), "3Habc")
    assert isinstance(intrinsic, ir.Opaque) and intrinsic.reason == "Hollerith constant outside FORMAT (deleted feature)"
    assert isinstance(concat, ir.Opaque) and concat.reason == intrinsic.reason
    assert type(quoted.args[0]) is ir.Const


def test_opaque_constructs_are_kept_whole():
    u = unit(
        """
        subroutine s(k, x)
          select case (k)
          case (1)
             x = 1.0
          case default
             x = 2.0
          end select
          x = x + 1.0
        end subroutine
        """,
        "t.f90",
    )
    assert [(type(s).__name__, s.span.first, s.span.last, getattr(s, "reason", "")) for s in u.body] == [
        ("Opaque", 2, 7, "not modelled: Case_Construct"),
        ("Assign", 8, 8, ""),
    ]


def test_preprocessor_lines_are_kept_as_opaque():
    u = unit(
        """
              SUBROUTINE S(X, N)
        #ifdef DOUBLE
              DOUBLE PRECISION X(N)
        #else
              REAL X(N)
        #endif
              DO 10 I = 1, N
        #if 1
                 X(I) = 0
        #endif
           10 CONTINUE
              END
        """
    )
    assert [(o.text, o.span.first) for o in u.opaque_decls] == [
        ("#ifdef DOUBLE", 2),
        ("#else", 4),
        ("X", 5),
        ("X", 5),
        ("#endif", 6),
    ]
    assert u.opaque_decls[2].reason.startswith("X is given a type twice: the first declaration is kept")
    assert u.opaque_decls[3].reason.startswith("X is given dimensions twice: the first declaration is kept")
    assert u.symbol("X").type == ir.DOUBLE
    assert outline(u.body) == [
        ("Do", "I", 7, 11, 10, [("Opaque", None, 8), ("Assign", None, 9), ("Opaque", None, 10), ("Continue", 10, 11)])
    ]
    assert u.body[0].body[0].reason == "preprocessor line (not expanded)"


def test_directives_in_body_and_specification_part():
    u = unit(
        """
              SUBROUTINE S(A, B, N)
              REAL A(N), B(N)
        CHPF$ DISTRIBUTE A(BLOCK)
        CHPF$ ALIGN B(I) WITH A(I)
              A(1) = 0.0
        CHPF$ REDISTRIBUTE A(CYCLIC)
        CHPF$ INDEPENDENT
              DO 10 I = 1, N
           10 B(I) = A(I)
        CHPF$ REDISTRIBUTE A(BLOCK)
              END
        """
    )
    assert [d.text for d in u.directives] == ["DISTRIBUTE A(BLOCK)", "ALIGN B(I) WITH A(I)"]
    assert outline(u.body) == [
        ("Assign", None, 5),
        ("Directive", None, 6),
        ("Directive", None, 7),
        ("Do", "I", 8, 9, 10, [("Assign", 10, 9)]),
        ("Directive", None, 10),
    ]


def test_function_references_array_references_and_substrings():
    u = unit(
        """
              SUBROUTINE S(A, IDX, N)
              REAL A(N)
              INTEGER IDX(N)
              CHARACTER*10 NAME, LIST(5)
              A(IDX(2)) = A(IDX(1)) * FUN(N) + SQRT(A(1))
              NAME(2:4) = LIST(3)(1:2) // NAME(:3)
              A(2) = A(2*N - 1) + A(N * N)
              END
        """
    )
    first, second, third = u.body
    assert first.target == ir.Index("A", (ir.Index("IDX", (c(2),)),))
    assert first.value == ir.BinOp(
        "+",
        ir.BinOp("*", ir.Index("A", (ir.Index("IDX", (c(1),)),)), ir.FuncRef("FUN", (ir.Name("N"),), "external")),
        ir.FuncRef("SQRT", (ir.Index("A", (c(1),)),), "intrinsic"),
    )
    assert second.target == ir.Substring(ir.Name("NAME"), c(2), c(4))
    assert second.value == ir.BinOp(
        "//",
        ir.Substring(ir.Index("LIST", (c(3),)), c(1), c(2)),
        ir.Substring(ir.Name("NAME"), None, c(3)),
    )
    (s1,) = third.value.left.subscripts
    (s2,) = third.value.right.subscripts
    assert ir.affine(s1) == ir.Affine(-1, (("N", 2),))
    assert ir.affine(s2) is None  # a product of variables
    assert ir.affine(first.target.subscripts[0]) is None  # indirection


def test_expressions_operators_and_literals():
    u = unit(
        """
              PROGRAM P
              LOGICAL L
              DOUBLE PRECISION D
              L = .NOT. (X .GE. 1.5E2) .AND. Y /= 2 .OR. .TRUE. .EQV. .FALSE.
              D = -X ** 2 + 1.D-3 - 2 ** 3 ** 2
              Z = (1.0, -2.5)
              END
        """
    )
    l_value, d_value, z_value = (s.value for s in u.body)
    x, y = ir.Name("X"), ir.Name("Y")
    assert l_value == ir.BinOp(
        "eqv",
        ir.BinOp(
            "or",
            ir.BinOp("and", ir.UnOp("not", ir.BinOp(">=", x, c(150.0, R))), ir.BinOp("/=", y, c(2))),
            c(True, ir.LOGICAL),
        ),
        c(False, ir.LOGICAL),
    )
    assert d_value == ir.BinOp(
        "-",
        ir.BinOp("+", ir.UnOp("-", ir.BinOp("**", x, c(2))), c(1e-3, ir.DOUBLE)),
        c(512),  # 2 ** (3 ** 2), folded
    )
    assert z_value == c(complex(1.0, -2.5), ir.COMPLEX)


def test_whole_array_assignment_is_a_loop_or_opaque():
    u = unit("subroutine s(a, b)\n  real :: a(10), b(2, 2)\n  a = 0.0\n  b = 1.0\n  a = a(10:1:-1)\nend subroutine\n",
             "t.f90")
    assert [type(s).__name__ for s in u.body] == ["Do", "Do", "Opaque"]
    assert u.body[0].lowered and u.body[1].lowered
    assert u.body[2].reason == "array assignment (Fortran 90): the right side reads A, the target, in another order"


@pytest.mark.parametrize(
    "body, line, message",
    [
        ("      DO 10 I = 1, 3\n      X = 1\n   20 CONTINUE\n", 2, "DO loop has no terminating statement labelled 10"),
        ("      DO I = 1, 3\n      X = 1\n", 2, "DO loop has no END DO"),
        ("      IF (X .GT. 1) THEN\n      X = 1\n", 2, "IF block has no END IF"),
        ("      X = 1\n      END DO\n", 3, "END DO without a matching DO"),
        ("      ELSE\n", 2, "ELSE without a matching IF ... THEN"),
        ("      END IF\n", 2, "END IF without a matching IF ... THEN"),
        (
            "      IF (X .GT. 1) THEN\n      ELSE\n      ELSE IF (X .GT. 2) THEN\n      END IF\n",
            4,
            "ELSE IF after the ELSE of the IF block at line 2",
        ),
        (
            "      DO 10 I = 1, 3\n      IF (X .GT. 1) THEN\n   10 CONTINUE\n      END IF\n",
            3,
            "IF block has no END IF before the end of the DO loop at line 2 (label 10 at line 4)",
        ),
        (
            "      DO 10 I = 1, 3\n      X = 1\n      END DO\n   10 CONTINUE\n",
            4,
            "END DO does not end the DO loop at line 2, which ends at label 10",
        ),
        ("   10 X = 1\n   10 Y = 2\n", 3, "label 10 is defined twice (also at line 2)"),
        ("      GO TO 77\n", 2, "label 77 is not defined in SUBROUTINE S"),
        ("      WRITE (6, 88) X\n", 2, "label 88 is not defined in SUBROUTINE S"),
    ],
)
def test_structure_errors_name_the_statement(body, line, message):
    assert error_of("      SUBROUTINE S\n" + body + "      END\n") == f"t.f:{line}: {message}"
