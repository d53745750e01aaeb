"""Source forms, INCLUDE search, spans of included lines, Program.files/sources."""

from __future__ import annotations

import pytest

from autodist import ir
from autodist.errors import FortranError, IncludeError
from autodist.frontend import read_program, read_text
from autodist.frontend.source import FIXED, FREE, form_of

MAIN = """\
      PROGRAM P
      INCLUDE 'sizes.h'
      REAL A(N)
      A(1) = 0.0
      END
"""


@pytest.mark.parametrize(
    "name, form",
    [("a.f", FIXED), ("a.for", FIXED), ("a.ftn", FIXED), ("a.f77", FIXED), ("a.F", FIXED), ("a.txt", FIXED),
     ("a", FIXED), ("a.f90", FREE), ("a.f95", FREE), ("a.F90", FREE)],
)
def test_form_from_suffix(name, form):
    assert form_of(name) == form


def test_explicit_form_wins():
    assert form_of("a.f", "free") == FREE
    with pytest.raises(FortranError, match="unknown source form 'fix'"):
        form_of("a.f", "fix")


def test_include_next_to_the_including_file(tmp_path):
    (tmp_path / "sizes.h").write_text("      INTEGER N\n      PARAMETER (N = 7)\n")
    (tmp_path / "p.f").write_text(MAIN)
    program = read_program([tmp_path / "p.f"])
    u = program.units[0]
    assert u.symbol("A").shape == (7,)
    # the parameter's declaration spans the included file's own line numbers
    assert u.symbol("N").span == ir.Span(str(tmp_path / "sizes.h"), 1, 1)
    assert program.files == (str(tmp_path / "p.f"), str(tmp_path / "sizes.h"))
    assert program.source_lines(str(tmp_path / "sizes.h")) == ("      INTEGER N", "      PARAMETER (N = 7)")
    assert program.source_lines(str(tmp_path / "p.f"))[1] == "      INCLUDE 'sizes.h'"
    # included declarations count at their INCLUDE line; the part ends with A (line 3)
    assert u.decl_end == 3


def test_include_from_search_path_and_nested(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "sizes.h").write_text("      INCLUDE 'more.h'\n      PARAMETER (N = M * 2)\n")
    (inc / "more.h").write_text("      INTEGER M, N\n      PARAMETER (M = 5)\n")
    src = tmp_path / "src"
    src.mkdir()
    (src / "p.f").write_text(MAIN)
    program = read_program([src / "p.f"], include_dirs=[inc])
    assert program.units[0].symbol("A").shape == (10,)
    assert program.files == (str(src / "p.f"), str(inc / "sizes.h"), str(inc / "more.h"))


def test_include_next_to_the_file_is_preferred(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "sizes.h").write_text("      PARAMETER (N = 99)\n")
    (tmp_path / "sizes.h").write_text("      PARAMETER (N = 3)\n")
    (tmp_path / "p.f").write_text(MAIN)
    program = read_program([tmp_path / "p.f"], include_dirs=[inc])
    assert program.units[0].symbol("A").shape == (3,)


def test_missing_include_names_the_include_line(tmp_path):
    (tmp_path / "p.f").write_text(MAIN)
    with pytest.raises(IncludeError) as err:
        read_program([tmp_path / "p.f"], include_dirs=[tmp_path / "nowhere"])
    assert err.value.file == str(tmp_path / "p.f")
    assert err.value.line == 2
    assert str(err.value).startswith(f"{tmp_path / 'p.f'}:2: include file 'sizes.h' not found (searched: ")


def test_missing_nested_include_names_the_inner_include(tmp_path):
    (tmp_path / "sizes.h").write_text("C     sizes\n      INCLUDE 'gone.h'\n")
    (tmp_path / "p.f").write_text(MAIN)
    with pytest.raises(IncludeError) as err:
        read_program([tmp_path / "p.f"])
    assert (err.value.file, err.value.line) == (str(tmp_path / "sizes.h"), 2)


def test_include_cycle_is_an_error(tmp_path):
    (tmp_path / "a.h").write_text("      INCLUDE 'b.h'\n")
    (tmp_path / "b.h").write_text("      INCLUDE 'a.h'\n")
    (tmp_path / "p.f").write_text(MAIN.replace("sizes.h", "a.h"))
    with pytest.raises(IncludeError, match="includes itself"):
        read_program([tmp_path / "p.f"])


def test_included_statements_have_spans_in_the_included_file(tmp_path):
    (tmp_path / "body.h").write_text("         X = X + 1.0\n         Y = X\n")
    (tmp_path / "p.f").write_text(
        "      PROGRAM P\n      X = 0.0\n      DO 10 I = 1, 3\n      INCLUDE 'body.h'\n   10 CONTINUE\n      END\n"
    )
    u = read_program([tmp_path / "p.f"]).units[0]
    loop = u.body[1]
    assert isinstance(loop, ir.Do)
    assert [s.span for s in loop.body] == [
        ir.Span(str(tmp_path / "body.h"), 1, 1),
        ir.Span(str(tmp_path / "body.h"), 2, 2),
        ir.Span(str(tmp_path / "p.f"), 5, 5),
    ]
    assert loop.span == ir.Span(str(tmp_path / "p.f"), 3, 5)


def test_unit_defined_twice_across_files(tmp_path):
    (tmp_path / "a.f").write_text("      SUBROUTINE S\n      END\n")
    (tmp_path / "b.f").write_text("C     another S\n      SUBROUTINE S\n      RETURN\n      END\n")
    with pytest.raises(FortranError) as err:
        read_program([tmp_path / "a.f", tmp_path / "b.f"])
    assert str(err.value) == f"{tmp_path / 'b.f'}:2: program unit S is defined twice (also at {tmp_path / 'a.f'}:1)"


def test_several_files_make_one_program(tmp_path):
    (tmp_path / "main.f").write_text("      PROGRAM M\n      CALL S\n      END\n")
    (tmp_path / "sub.f90").write_text("subroutine s\n  print *, 'hi'\nend subroutine s\n")
    program = read_program([tmp_path / "main.f", tmp_path / "sub.f90"])
    assert [(u.name, u.kind) for u in program.units] == [("M", "program"), ("S", "subroutine")]
    assert program.main.name == "M"
    assert program.unit("s").span == ir.Span(str(tmp_path / "sub.f90"), 1, 3)


def test_unreadable_file_is_an_error(tmp_path):
    with pytest.raises(FortranError, match="cannot read source file"):
        read_program([tmp_path / "none.f"])


def test_latin1_bytes_are_kept(tmp_path):
    path = tmp_path / "p.f"
    path.write_bytes(b"C     caf\xe9\n      PROGRAM P\n      END\n")
    program = read_program([path])
    assert program.source_lines(str(path))[0] == "C     caf\xe9"


def test_read_text_names_the_file_and_guesses_the_form():
    program = read_text("program p\n  x = 1 ! free form\nend program\n", "x.f90")
    assert program.units[0].span == ir.Span("x.f90", 1, 3)
    program = read_text("program p\n  x = 1\nend program\n", "x.f", form="free")
    assert program.units[0].name == "P"
