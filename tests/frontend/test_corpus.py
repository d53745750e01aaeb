"""Whole programs in the styles of real codes read without an exception and
with every unit present (the corpus is in tests/frontend/corpus)."""

from __future__ import annotations

from pathlib import Path

import pytest

from autodist import ir
from autodist.frontend import read_program

CORPUS = Path(__file__).parent / "corpus"

EXPECTED = {
    "nas/appbt.f": [
        ("program", "APPBT"), ("subroutine", "SET_CONSTANTS"), ("subroutine", "INITIALIZE"),
        ("subroutine", "EXACT_RHS"), ("subroutine", "COMPUTE_RHS"), ("subroutine", "ADD"),
        ("subroutine", "ERROR_NORM"), ("subroutine", "RHS_NORM"), ("function", "TIMER_READ"),
    ],
    "linpack.f": [
        ("subroutine", "LUFACT"), ("subroutine", "LUSOLV"), ("function", "IMAXAB"), ("subroutine", "VAXPY"),
        ("subroutine", "VSCAL"), ("function", "VDOT"), ("subroutine", "SYMMV"), ("program", "LSDRV"),
    ],
    "spec.f": [
        ("program", "MAIN"), ("subroutine", "SETUP"), ("subroutine", "RELAX"), ("subroutine", "REPORT"),
        ("blockdata", "INIT"),
    ],
    "comments.f": [("subroutine", "LOGGED"), ("subroutine", "AFTER")],
    "heat.f90": [("program", "HEAT"), ("subroutine", "COPY")],
    "cpp.F": [("subroutine", "SCALE")],
}


@pytest.fixture(scope="module")
def corpus():
    return {name: read_program([CORPUS / name]) for name in EXPECTED}


def test_the_corpus_lists_every_file():
    files = {str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*") if p.suffix in (".f", ".f90", ".F")}
    assert files == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_unit_is_present(corpus, name):
    assert [(u.kind, u.name) for u in corpus[name].units] == EXPECTED[name]


def test_nas_includes_and_common_blocks(corpus):
    program = corpus["nas/appbt.f"]
    assert [Path(f).name for f in program.files] == ["appbt.f", "header.h", "npbparams.h"]
    rhs = program.unit("COMPUTE_RHS")
    u = rhs.symbol("U")
    assert (u.shape, u.type, u.common, u.common_index) == ((5, 12, 12, 12), ir.DOUBLE, "FIELDS", 0)
    assert rhs.symbol("U").span.file.endswith("header.h")
    assert [c.name for c in rhs.commons] == ["GLOBAL", "CONSTANTS", "FIELDS", "WORK_1D"]
    # every routine includes the same blocks, with the same layout
    layouts = {tuple((c.name, c.members) for c in unit.commons) for unit in program.units if unit.commons}
    assert len(layouts) == 1
    assert program.unit("APPBT").symbol("TIMER_READ").kind == "function"
    assert program.unit("TIMER_READ").result_type == ir.DOUBLE


def test_linpack_style(corpus):
    program = corpus["linpack.f"]
    symmv = program.unit("SYMMV")
    nest = symmv.body[1]
    assert (nest.var, nest.term_label, nest.span.first, nest.span.last) == ("J", 30, 123, 135)
    inner = nest.body[1]
    assert (inner.var, inner.term_label) == ("II", 30)
    assert [type(s).__name__ for s in inner.body] == ["Assign", "ArithIf", "Assign", "Goto", "Assign", "Assign", "Continue"]
    lufact = program.unit("LUFACT")
    assert lufact.symbol("A").dims == (ir.Dim(ir.Const(1, ir.INTEGER), ir.Name("LDA")), ir.Dim(ir.Const(1, ir.INTEGER), ir.Const(1, ir.INTEGER)))
    vaxpy = program.unit("VAXPY")
    unrolled = vaxpy.body[-2]
    assert (unrolled.var, unrolled.step) == ("I", ir.Const(3, ir.INTEGER))


def test_spec_style(corpus):
    program = corpus["spec.f"]
    main = program.main
    assert [d.text for d in main.directives] == [
        "PROCESSORS PR(4)",
        "DISTRIBUTE PHI(*, BLOCK) ONTO PR",
        "ALIGN RHO(I,J) WITH PHI(I,J)",
    ]
    assert [s.name for s in main.stmt_functions] == ["AREA"]
    assert main.equivalences and main.symbol("W2").equivalenced
    assert main.data[0].values == ((1, ir.OpaqueExpr("4HSPEC", "Hollerith constant")), (1, ir.OpaqueExpr("4HSTYL", "Hollerith constant")))
    assert main.data[1].values == ((256, ir.Const(0.0, ir.DOUBLE)),)
    assert main.symbol("DONE").save
    reasons = [s.reason for s in main.statements() if isinstance(s, ir.Opaque)]
    assert reasons == ["ASSIGN statement (deleted feature)", "PAUSE statement (deleted feature)"]
    tab_nest = main.body[5]
    assert (tab_nest.var, tab_nest.body[0].var, tab_nest.body[0].body[0].span) == ("J", "I", ir.Span(str(CORPUS / "spec.f"), 34, 35))
    relax = program.unit("RELAX")
    assert [type(s).__name__ for s in relax.body[-4:]] == ["Return", "Opaque", "Assign", "Return"]
    nest = relax.body[2]
    assert [type(s).__name__ for s in nest.body] == ["Directive", "Do"]
    assert nest.body[0].text == "INDEPENDENT, NEW(OLD), REDUCTION(RESID)"
    assert program.unit("SETUP").args == ("N", "*")
    assert program.unit("INIT").data[1].values[0][1] == ir.Const("RELAXATION, SPEC STYLE", ir.Type("character", 22))


def test_long_comment_runs(corpus):
    program = corpus["comments.f"]
    logged = program.unit("LOGGED")
    assert logged.span == ir.Span(str(CORPUS / "comments.f"), 3, 1011)
    assert (logged.body[0].var, logged.body[0].span.first) == ("J", 1006)
    assert program.unit("AFTER").body[0].span.first == 1015


def test_free_form_with_directives(corpus):
    heat = corpus["heat.f90"].unit("HEAT")
    assert [d.text for d in heat.directives] == [
        "PROCESSORS procs(2, 2)",
        "DISTRIBUTE t(BLOCK, BLOCK) ONTO procs",
        "ALIGN tnew(i, j) WITH t(i, j)",
    ]
    steps = heat.body[-2]
    assert [type(s).__name__ for s in steps.body] == ["Directive", "Do", "Call"]
    assert [type(s).__name__ for s in steps.body[1].body] == ["Directive", "Do"]
    assert heat.symbol("T").shape == (66, 66)
    assert heat.symbol("T").type == ir.DOUBLE
