"""The reader: every directive form of HPF 1.x, with the exact model expected."""

from __future__ import annotations

import textwrap

import pytest

from autodist import ir
from autodist.errors import HpfError
from autodist.hpf import model as m
from autodist.hpf.lines import scan_directives
from autodist.hpf.parse import parse_directive, parse_prefix, parse_text

from .helpers import const as C
from .helpers import span

N = ir.Name


def B(op, a, b):
    return ir.BinOp(op, a, b)


def one(text: str) -> m.Directive:
    (d,) = parse_text(text)
    return d


def lines_of(text: str) -> list[str]:
    return textwrap.dedent(text).lstrip("\n").splitlines(keepends=True)


# --------------------------------------------------------------------------- PROCESSORS, TEMPLATE


def test_processors_several_arrangements_scalar_and_intrinsic_extent():
    d = one("PROCESSORS P(4), Q(2,2), R, S(NUMBER_OF_PROCESSORS())")
    assert d == m.Processors(
        (
            m.Shape("P", (m.Extent(C(4)),)),
            m.Shape("Q", (m.Extent(C(2)), m.Extent(C(2)))),
            m.Shape("R", ()),
            m.Shape("S", (m.Extent(ir.FuncRef("NUMBER_OF_PROCESSORS", (), "intrinsic")),)),
        )
    )


def test_template_bounds_expressions():
    d = one("template t(0:n+1, m), g(size(x,3))")
    assert d == m.Template(
        (
            m.Shape("T", (m.Extent(B("+", N("N"), C(1)), C(0)), m.Extent(N("M")))),
            m.Shape("G", (m.Extent(ir.FuncRef("SIZE", (N("X"), C(3)), "intrinsic")),)),
        )
    )


def test_combined_template_with_dimension_and_distribute():
    ds = parse_text("TEMPLATE, DISTRIBUTE(CYCLIC(2)), DIMENSION(100) :: T1, T2(0:9)")
    assert ds == (
        m.Template((m.Shape("T1", (m.Extent(C(100)),)), m.Shape("T2", (m.Extent(C(9), C(0)),)))),
        m.Distribute(("T1", "T2"), (m.DistFormat("CYCLIC", C(2)),), attribute=True),
    )


def test_combined_processors_dimension():
    assert one("PROCESSORS, DIMENSION(2,2) :: P") == m.Processors((m.Shape("P", (m.Extent(C(2)), m.Extent(C(2)))),))


# --------------------------------------------------------------------------- ALIGN


def test_align_statement_form_permutation():
    assert one("ALIGN A(I,J) WITH T(J,I)") == m.Align(("A",), ("I", "J"), "T", (N("J"), N("I")))


def test_align_attribute_form_several_alignees():
    assert one("ALIGN (:,:) WITH T :: A, B") == m.Align(("A", "B"), (m.COLON, m.COLON), "T", None, attribute=True)


def test_align_collapsed_dimension():
    assert one("ALIGN (*,:,:) WITH G :: U") == m.Align(("U",), (m.STAR, m.COLON, m.COLON), "G", None, attribute=True)


def test_align_replication_stride_reflection_constant():
    assert one("ALIGN A(I) WITH T(I,*)") == m.Align(("A",), ("I",), "T", (N("I"), m.STAR))
    assert one("ALIGN A(I) WITH T(2*I-1)") == m.Align(("A",), ("I",), "T", (B("-", B("*", C(2), N("I")), C(1)),))
    assert one("ALIGN A(I) WITH T(N-I+1)") == m.Align(("A",), ("I",), "T", (B("+", B("-", N("N"), N("I")), C(1)),))
    assert one("ALIGN A(I) WITH T(I,3)") == m.Align(("A",), ("I",), "T", (N("I"), C(3)))


def test_align_to_array_triplets_scalar_and_descriptive():
    assert one("ALIGN A(:) WITH B(1:N:2)") == m.Align(("A",), (m.COLON,), "B", (m.Triplet(C(1), N("N"), C(2)),))
    assert one("ALIGN X WITH T(3)") == m.Align(("X",), None, "T", (C(3),))
    assert one("ALIGN A(:) WITH *T(:)") == m.Align(("A",), (m.COLON,), "T", (m.COLON,), descriptive=True)
    assert one("ALIGN WITH B :: A") == m.Align(("A",), None, "B", None, attribute=True)


def test_align_attribute_form_alignee_with_its_own_source_list():
    # in ALIGN WITH target :: alignee-list an alignee's parentheses are its align-source list
    assert one("align with field(i,*):: s(i)") == m.Align(("S",), ("I",), "FIELD", (N("I"), m.STAR), attribute=True)
    assert one("ALIGN WITH T(*) :: X(*)") == m.Align(("X",), (m.STAR,), "T", (m.STAR,), attribute=True)
    assert one("ALIGN WITH T(:) :: X(:)") == m.Align(("X",), (m.COLON,), "T", (m.COLON,), attribute=True)
    assert one("ALIGN WITH *T(I) :: A(I)") == m.Align(("A",), ("I",), "T", (N("I"),), attribute=True, descriptive=True)
    assert one("ALIGN (:) WITH T(:) :: A(:)") == m.Align(("A",), (m.COLON,), "T", (m.COLON,), attribute=True)
    # one ALIGN per distinct list, alignees without a list taking the attribute's
    ij = (N("I"), N("J"))
    assert parse_text("ALIGN WITH T(I,J) :: A(I,J), B(J,I), C(I,J)") == (
        m.Align(("A", "C"), ("I", "J"), "T", ij, attribute=True),
        m.Align(("B",), ("J", "I"), "T", ij, attribute=True),
    )
    assert one("ALIGN (I) WITH T(I) :: A, B(I)") == m.Align(("A", "B"), ("I",), "T", (N("I"),), attribute=True)
    assert parse_text("ALIGN WITH T(I), DYNAMIC :: A(I), B(I)") == (
        m.Align(("A", "B"), ("I",), "T", (N("I"),), attribute=True),
        m.Dynamic(("A", "B"), attribute=True),
    )
    assert one("REALIGN WITH T(I+1) :: A(I)") == m.Realign(("A",), ("I",), "T", (B("+", N("I"), C(1)),), attribute=True)
    # a TEMPLATE's parentheses stay its shape
    assert parse_text("TEMPLATE, DISTRIBUTE(BLOCK) :: T(100)")[0] == m.Template((m.Shape("T", (m.Extent(C(100)),)),))


# --------------------------------------------------------------------------- DISTRIBUTE


def test_distribute_statement_and_attribute_forms():
    bs = (m.DistFormat("BLOCK"), m.DistFormat("*"))
    assert one("DISTRIBUTE T(BLOCK,*) ONTO P") == m.Distribute(("T",), bs, "P")
    assert one("DISTRIBUTE (BLOCK,*) ONTO P :: T, U") == m.Distribute(("T", "U"), bs, "P", attribute=True)


def test_distribute_formats_with_block_sizes():
    d = one("distribute t(block(k), cyclic, cyclic(2*m))")
    assert d == m.Distribute(
        ("T",), (m.DistFormat("BLOCK", N("K")), m.DistFormat("CYCLIC"), m.DistFormat("CYCLIC", B("*", C(2), N("M"))))
    )


def test_distribute_descriptive_and_transcriptive_forms():
    assert one("DISTRIBUTE A *(BLOCK) ONTO *P") == m.Distribute(
        ("A",), (m.DistFormat("BLOCK"),), "P", descriptive=True, onto_descriptive=True
    )
    assert one("DISTRIBUTE A *") == m.Distribute(("A",), None)
    assert one("DISTRIBUTE A * ONTO *") == m.Distribute(("A",), None, "*")
    assert one("DISTRIBUTE * :: A, B") == m.Distribute(("A", "B"), None, attribute=True)
    assert one("DISTRIBUTE A *").transcriptive


def test_inherit_dynamic_and_combined_attributes():
    assert one("INHERIT A, B") == m.Inherit(("A", "B"))
    assert one("INHERIT :: A") == m.Inherit(("A",), attribute=True)
    assert one("DYNAMIC A, T") == m.Dynamic(("A", "T"))
    assert parse_text("DISTRIBUTE (BLOCK), DYNAMIC :: A, B") == (
        m.Distribute(("A", "B"), (m.DistFormat("BLOCK"),), attribute=True),
        m.Dynamic(("A", "B"), attribute=True),
    )


def test_redistribute_and_realign_including_templates():
    assert one("REDISTRIBUTE T(CYCLIC(3)) ONTO Q") == m.Redistribute(("T",), (m.DistFormat("CYCLIC", C(3)),), "Q")
    assert one("REDISTRIBUTE (BLOCK) :: A, B") == m.Redistribute(("A", "B"), (m.DistFormat("BLOCK"),), attribute=True)
    assert one("REALIGN A(I) WITH T(I+1)") == m.Realign(("A",), ("I",), "T", (B("+", N("I"), C(1)),))
    assert one("REALIGN T1(I) WITH T2(I)") == m.Realign(("T1",), ("I",), "T2", (N("I"),))
    assert one("REALIGN (:) WITH T(:) :: A, B") == m.Realign(("A", "B"), (m.COLON,), "T", (m.COLON,), attribute=True)


# --------------------------------------------------------------------------- INDEPENDENT


def test_independent_forms():
    assert one("INDEPENDENT") == m.Independent()
    assert one("INDEPENDENT(I,J)") == m.Independent(loops=("I", "J"))
    assert one("INDEPENDENT, NEW(K, TMP)") == m.Independent(new=("K", "TMP"))
    assert one("independent, reduction(s), on home(a(i,j)), new(k)") == m.Independent(
        new=("K",), reduction=("S",), home=ir.Index("A", (N("I"), N("J")))
    )


def test_independent_clauses_without_their_comma():
    # INDEPENDENT NEW(K) as the HPF versions of the NAS benchmarks write it
    assert one("independent new(tmp, k)") == m.Independent(new=("TMP", "K"))
    assert one("INDEPENDENT NEW(K) REDUCTION(S)") == m.Independent(new=("K",), reduction=("S",))
    assert one("INDEPENDENT(I) NEW(K), ON HOME(A(I))") == m.Independent(
        loops=("I",), new=("K",), home=ir.Index("A", (N("I"),))
    )


# --------------------------------------------------------------------------- case, blanks, separators


@pytest.mark.parametrize(
    "text",
    [
        "DISTRIBUTE T(BLOCK,*) ONTO P",
        "distribute t ( block , * ) onto p",
        "  Distribute   T(Block,   *)ONTO P  ",
        "DISTRIBUTET(BLOCK,*)ONTOP",
    ],
)
def test_any_case_and_blanks(text):
    assert one(text) == m.Distribute(("T",), (m.DistFormat("BLOCK"), m.DistFormat("*")), "P")


def test_several_directives_on_one_line():
    ds = parse_text("DYNAMIC A; REDISTRIBUTE A(CYCLIC);")
    assert ds == (m.Dynamic(("A",)), m.Redistribute(("A",), (m.DistFormat("CYCLIC"),)))


def test_spans_are_kept_but_not_compared():
    (d,) = parse_directive(ir.Directive(span(7), None, "DYNAMIC A", "CHPF$"))
    assert d.span == span(7)
    assert d == m.Dynamic(("A",))


# --------------------------------------------------------------------------- unsupported and errors


@pytest.mark.parametrize(
    "text, reason",
    [
        ("SHADOW A(1:1)", "SHADOW"),
        ("DISTRIBUTE A(GEN_BLOCK(G))", "GEN_BLOCK"),
        ("DISTRIBUTE (INDIRECT(MAP)) :: A", "INDIRECT"),
        ("SEQUENCE", "storage-sequence"),
        ("NO SEQUENCE :: A", "storage-sequence"),
        ("ON HOME(A(I)), BEGIN", "ON directive"),
        ("END ON", "END ON"),
        ("TASK_REGION", "TASK_REGION"),
        ("INDEPENDENT, ON PROCESSORS(P(1))", "ON clause"),
        ("DISTRIBUTE A(BLOCK) ONTO P(1:2)", "processor subset"),
        ("DISTRIBUTE (BLOCK) ONTO P(2:3) :: A", "processor subset"),
        ("DISTRIBUTE T ONTO P", "without formats"),  # HPF 2.0: the compiler chooses
        ("DISTRIBUTE A", "without formats"),  # as an HPF compiler's validation programs write it
    ],
)
def test_unmodelled_directives_are_recorded(text, reason):
    (d,) = parse_text(text, span(3))
    assert isinstance(d, m.Unsupported)
    assert d.text == text and reason in d.reason and d.span == span(3)


@pytest.mark.parametrize(
    "text, message",
    [
        ("DISTRIBUTE T(BLOCK", "expected ')' but found the end of the directive"),
        ("DISTRIBUTE T(BLOK)", "unknown distribution format BLOK"),
        ("ALIGN A(I) T(I)", "expected 'WITH' but found 'T'"),
        ("ALIGN A(I) WITH", "expected an align target but found the end of the directive"),
        ("PROCESSORS P(4) Q", "unexpected 'Q'"),
        ("DISTRIBUTE T(BLOCK) ONTO", "expected a processor arrangement"),
        ("TEMPLATE T(10) # ", "unexpected character '#'"),
        ("INDEPENDENT, PRIVATE(K)", "expected NEW, REDUCTION or ON HOME after ','"),
        ("INDEPENDENT, NEW(K), NEW(J)", "NEW given twice"),
        ("INDEPENDENT NEW(K) NEW(J)", "NEW given twice"),
        ("INDEPENDENT PRIVATE(K)", "unexpected 'PRIVATE'"),
        ("DYNAMIC :: ", "expected a list of names after '::'"),
        ("DYNAMIC :: A(10)", "a shape is given for A but it is not a TEMPLATE or PROCESSORS"),
        ("ALIGN (I,*) WITH T(I) :: A(*,I)", "two align-source lists are given for A"),
        ("ALIGN WITH T(I) :: A(I+1)", "expected ')' but found '+'"),
        ("REDISTRIBUTE (BLOCK), DYNAMIC :: A", "REDISTRIBUTE and REALIGN cannot be combined"),
        ("REDISTRIBUTE A *", "expected a distribution format list"),
        ("REALIGN A(I) WITH *T(I)", "'WITH *' is not allowed in REALIGN"),
        ("DIMENSION A(10)", "DIMENSION needs '::'"),
        ("TEMPLATE T(10", "expected ')' but found the end of the directive"),
        ("FROBNICATE A", "unknown HPF directive FROBNICATE (HPF directives: ALIGN,"),
        ("DISTRIBUT A(BLOCK)", "unknown HPF directive DISTRIBUT"),
    ],
)
def test_malformed_directives_name_file_and_line(text, message):
    with pytest.raises(HpfError) as err:
        parse_directive(ir.Directive(span(12), None, text, "!HPF$"))
    assert str(err.value).startswith("prog.f:12: ")
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_prefixes():
    assert parse_prefix("EXTRINSIC(HPF_LOCAL)") == m.Prefix("EXTRINSIC", "HPF_LOCAL")
    assert parse_prefix("extrinsic (hpf)") == m.Prefix("EXTRINSIC", "HPF")
    assert parse_prefix("PURE") == m.Prefix("PURE")
    assert str(m.Prefix("EXTRINSIC", "HPF")) == "EXTRINSIC(HPF)"


# --------------------------------------------------------------------------- source lines


def test_fixed_form_lines_with_continuations_and_sentinels():
    text = lines_of(
        """
              PROGRAM P
              REAL A(100), B(100)
        CHPF$ PROCESSORS PR(4)
        *hpf$ TEMPLATE T(100)
        !HPF$ ALIGN (:) WITH T(:) ::
        CHPF$+   A, B
        C     an ordinary comment
        chpf$ distribute t(block)
        chpf$1 onto pr
              END
        """
    )
    ds = scan_directives(text, "p.f", "fixed")
    assert [(d.span.first, d.span.last, d.text) for d in ds] == [
        (3, 3, "PROCESSORS PR(4)"),
        (4, 4, "TEMPLATE T(100)"),
        (5, 6, "ALIGN (:) WITH T(:) ::   A, B"),
        (8, 9, "distribute t(block) onto pr"),
    ]
    parsed = [d for raw in ds for d in parse_directive(raw)]
    assert parsed[2] == m.Align(("A", "B"), (m.COLON,), "T", (m.COLON,), attribute=True)
    assert parsed[3] == m.Distribute(("T",), (m.DistFormat("BLOCK"),), "PR")


def test_free_form_lines_with_continuations():
    text = lines_of(
        """
        program p
          real :: a(100, 100)
          !HPF$ TEMPLATE T(100, 100)
          !hpf$ align a(i,j) &
          !hpf$&  with t(j,i)
          !HPF$ DISTRIBUTE T(BLOCK, &
          !HPF$   CYCLIC)
        end program
        """
    )
    ds = scan_directives(text, "p.f90", "free")
    assert [(d.span.first, d.span.last) for d in ds] == [(3, 3), (4, 5), (6, 7)]
    assert parse_directive(ds[1]) == (m.Align(("A",), ("I", "J"), "T", (N("J"), N("I"))),)
    assert parse_directive(ds[2]) == (m.Distribute(("T",), (m.DistFormat("BLOCK"), m.DistFormat("CYCLIC"))),)


# --------------------------------------------------------------------------- through the front end


FIXED_PROGRAM = """\
      PROGRAM MAIN
      INTEGER N
      PARAMETER (N = 8)
      REAL A(N, N), B(N)
CHPF$ PROCESSORS P(2, 2)
CHPF$ TEMPLATE T(N, N)
CHPF$ ALIGN A(I, J) WITH T(J, I)
CHPF$ ALIGN B(I) WITH T(I, *)
CHPF$ DISTRIBUTE T(BLOCK, CYCLIC)
CHPF$+    ONTO P
      INTEGER I
CHPF$ INDEPENDENT, NEW(I)
      DO 10 J = 1, N
         DO 10 I = 1, N
            A(I, J) = B(I)
   10 CONTINUE
      END
"""


def test_end_to_end_through_the_front_end(frontend):
    prog = frontend.read_text(FIXED_PROGRAM, "main.f", "fixed")
    unit = prog.units[0]
    parsed = [d for raw in unit.directives for d in parse_directive(raw)]
    assert parsed[:5] == [
        m.Processors((m.Shape("P", (m.Extent(C(2)), m.Extent(C(2)))),)),
        m.Template((m.Shape("T", (m.Extent(N("N")), m.Extent(N("N")))),)),
        m.Align(("A",), ("I", "J"), "T", (N("J"), N("I"))),
        m.Align(("B",), ("I",), "T", (N("I"), m.STAR)),
        m.Distribute(("T",), (m.DistFormat("BLOCK"), m.DistFormat("CYCLIC")), "P"),
    ]
    assert [d.span.first for d in parsed[:5]] == [5, 6, 7, 8, 9]
    assert parsed[4].span.last == 10


FREE_PROGRAM = """\
subroutine smooth(x, n)
  integer, parameter :: m = 6
  integer :: n, i, j
  real :: x(n), y(m, m)
  !hpf$ inherit x
  !HPF$ distribute y(*, &
  !HPF$&   cyclic(2))
  !HPF$ dynamic y
  y = 0.0
  !HPF$ independent, new(j)
  do i = 1, m
    y(i, 1) = real(i)
  end do
  !HPF$ redistribute y(block, *)
end subroutine smooth
"""


def test_end_to_end_free_form_through_the_front_end(frontend):
    prog = frontend.read_text(FREE_PROGRAM, "smooth.f90", "free")
    unit = prog.units[0]
    parsed = [d for raw in unit.directives for d in parse_directive(raw)]
    assert parsed == [
        m.Inherit(("X",)),
        m.Distribute(("Y",), (m.DistFormat("*"), m.DistFormat("CYCLIC", C(2)))),
        m.Dynamic(("Y",)),
    ]
    body = [d for s in unit.body if isinstance(s, ir.Directive) for d in parse_directive(s)]
    assert body == [m.Independent(new=("J",)), m.Redistribute(("Y",), (m.DistFormat("BLOCK"), m.DistFormat("*")))]
