"""The splicer: directives go into the original text, every other byte stays."""

from __future__ import annotations

import subprocess
import textwrap

import pytest

from autodist import ir
from autodist.hpf.emit import directive_lines, independent_directive, layout_directives
from autodist.hpf.lines import scan_directives
from autodist.hpf.parse import parse_directive
from autodist.hpf.splice import Insertion, is_directive_line, splice, strip_directives
from autodist.layout.model import BLOCK, COLLAPSED, simple

from ..conftest import requires_gfortran

FIXED = """\
      PROGRAM HEAT
      INTEGER N
      PARAMETER (N = 16)
      REAL U(N, N), V(N, N)
      INTEGER I, J
      DO 20 J = 1, N
         DO 10 I = 1, N
            U(I, J) = REAL(I + J)
   10    CONTINUE
   20 CONTINUE
      DO 40 J = 2, N - 1
         DO 30 I = 2, N - 1
            V(I, J) = 0.25 * (U(I-1, J) + U(I+1, J)
     &                      + U(I, J-1) + U(I, J+1))
   30    CONTINUE
   40 CONTINUE
      PRINT *, V(2, 2), V(N-1, N-1)
      END
"""

FREE = """\
program heat
  implicit none
  integer, parameter :: n = 16
  real :: u(n, n), v(n, n)
  integer :: i, j
  do j = 1, n
    do i = 1, n
      u(i, j) = real(i + j)
    end do
  end do
  ! the stencil
  do j = 2, n - 1
    do i = 2, n - 1
      v(i, j) = 0.25 * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
    end do
  end do
  print *, v(2, 2), v(n-1, n-1)
end program heat
"""


def _spec_lines(form: str) -> list[str]:
    lay = simple(((1, 16), (1, 16)), (COLLAPSED, BLOCK), (4,))
    names = [f"AVERYLONGARRAYNAME{i}" for i in range(6)]  # forces continuation lines
    layouts = {"U": lay, "V": lay, **{n: lay for n in names}}
    return directive_lines(layout_directives(layouts, dynamic=names), form)


def _insertions(form: str) -> list[Insertion]:
    indep = directive_lines([independent_directive(new=["I"])], form)
    loop = 6  # DO 20 J / do j = 1
    stencil = 11 if form == "fixed" else 12  # DO 40 / do j = 2
    return [
        Insertion(5, tuple(_spec_lines(form)), "after"),
        Insertion(loop, tuple(indep)),
        Insertion(stencil, tuple(indep)),
    ]


@pytest.mark.parametrize("form, text", [("fixed", FIXED), ("free", FREE)], ids=["fixed", "free"])
def test_splice_then_strip_gives_back_the_input_byte_for_byte(form, text):
    lines = text.splitlines(keepends=True)
    out = splice(lines, _insertions(form), form)
    assert len(out) > len(lines)
    assert [line for line in out if not is_directive_line(line)] == lines
    found = scan_directives(out, "heat", form)
    assert "".join(strip_directives(out, [d.span for d in found])) == text
    parsed = [p for d in found for p in parse_directive(d)]
    assert sum(1 for p in parsed if type(p).__name__ == "Independent") == 2


def test_fixed_form_directives_start_in_column_1_and_stay_within_72():
    assert all(len(line) <= 73 for line in FIXED.splitlines(keepends=True))
    out = splice(FIXED.splitlines(keepends=True), _insertions("fixed"), "fixed")
    directives = [line for line in out if is_directive_line(line)]
    assert all(line.startswith("CHPF$") for line in directives)
    assert all(len(line.rstrip("\n")) <= 72 for line in directives)
    assert any(line.startswith("CHPF$+") for line in directives)
    assert out[out.index("      DO 20 J = 1, N\n") - 1] == "CHPF$ INDEPENDENT, NEW(I)\n"


def test_free_form_directives_take_the_indentation_of_the_next_statement():
    out = splice(FREE.splitlines(keepends=True), _insertions("free"), "free")
    k = out.index("  do j = 2, n - 1\n")
    assert out[k - 1] == "  !HPF$ INDEPENDENT, NEW(I)\n"
    assert out[k - 2] == "  ! the stencil\n"
    spec = [line for line in out if line.lstrip().startswith("!HPF$")]
    assert all(line.startswith("  !HPF$") for line in spec)


def test_insertions_at_one_point_keep_their_order_and_line_endings():
    lines = ["a\r\n", "b\r\n", "c"]
    out = splice(
        lines,
        [Insertion(1, ("X1",), "after"), Insertion(2, ("X2", "X3")), Insertion(1, ("X4",), "after"), Insertion(3, ("X5",), "after")],
    )
    assert out == ["a\r\n", "X1\r\n", "X2\r\n", "X3\r\n", "X4\r\n", "b\r\n", "c", "\r\nX5"]
    assert "".join(strip_directives(out, [])) == "".join(out)
    no_endings = splice(["a", "b"], [Insertion(2, ("X",))])
    assert no_endings == ["a", "X", "b"]


def test_insertion_outside_the_text_is_refused():
    with pytest.raises(ValueError, match="outside the text"):
        splice(["a\n"], [Insertion(3, ("X",))])
    with pytest.raises(ValueError, match="where must be"):
        Insertion(1, ("X",), "inside")


def test_strip_directives_removes_only_directive_lines_of_the_spans():
    lines = textwrap.dedent(
        """\
        CHPF$ DISTRIBUTE A(BLOCK,
        C     a comment inside the continuation
        CHPF$+ *)
              X = 1
        CHPF$ INDEPENDENT
        """
    ).splitlines(keepends=True)
    out = strip_directives(lines, [ir.Span("f", 1, 3)])
    assert out == lines[1:2] + lines[3:]


def _compile(tmp_path, name: str, text: str) -> str:
    src = tmp_path / name
    src.write_text(text)
    exe = tmp_path / (name + ".out")
    subprocess.run(["gfortran", "-std=legacy", "-o", str(exe), str(src)], check=True, capture_output=True)
    return subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout


@requires_gfortran
@pytest.mark.gfortran
@pytest.mark.parametrize("form, text, name", [("fixed", FIXED, "heat.f"), ("free", FREE, "heat.f90")], ids=["fixed", "free"])
def test_gfortran_compiles_the_spliced_file_to_the_same_results(tmp_path, form, text, name):
    spliced = "".join(splice(text.splitlines(keepends=True), _insertions(form), form))
    assert spliced != text
    assert _compile(tmp_path, "spliced_" + name, spliced) == _compile(tmp_path, name, text)
