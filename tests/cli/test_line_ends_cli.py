"""Line ends as gfortran reads them: LF or CR LF end a line; a CR anywhere else
(a stray one in a comment, seen in real programs) is ignored, takes no column
and never ends a line; a file whose lines end with CR alone is refused clearly."""

from __future__ import annotations

import json

from autodist import ir
from autodist.cli import main
from autodist.frontend import read_program


def run(capsys, *args):
    code = main([*map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


# the comment on line 3 holds a CR that is not a line end; before it was read
# as one, its second half was a statement line labelled "ination"
STRAY = (b"      PROGRAM STRAY\n      REAL A(10)\n"
         b"c                     ier.gt.0 abnormal tep\rination of the routine\n"
         b"      DO 10 I = 1, 10\n   10 A(I) = I\n      PRINT *, A(5)\n      END\n")


def test_a_lone_cr_in_a_comment_is_part_of_the_comment(capsys, tmp_path):
    src = tmp_path / "stray.f"
    src.write_bytes(STRAY)
    code, out, err = run(capsys, "analyze", "-q", "--format", "json", src)
    assert code == 0, err
    (phase,) = json.loads(out)["procedures"][0]["phases"]
    assert phase["loops"][0]["line"] == 4  # lines are counted as gfortran counts them


def test_an_error_after_a_lone_cr_names_the_line_gfortran_names(capsys, tmp_path):
    src = tmp_path / "bad.f"
    src.write_bytes(STRAY.replace(b"      PRINT *, A(5)", b"      X = = 1"))
    code, _, err = run(capsys, "analyze", "-q", src)
    assert code == 2
    assert err.startswith(f"autodist: error: {src}:6:") and err.count("\n") == 1


def test_a_lone_cr_in_a_statement_takes_no_column(tmp_path):
    # gfortran reads "X = 1.0 + 2.0 + 3.<CR>5" as 3.5 with the 5 in column 72
    line = b"      X = 1.0 + 2.0 + 3.".ljust(71) + b"\r5"
    src = tmp_path / "col.f"
    src.write_bytes(b"      PROGRAM COL\n" + line + b"\n      PRINT *, X\n      END\n")
    (assign,) = [s for s in read_program([src]).unit("COL").statements() if isinstance(s, ir.Assign)]
    assert "3.5" in str(assign.value)


def test_cr_alone_line_ends_are_refused_in_one_line(capsys, tmp_path):
    src = tmp_path / "mac.f"
    src.write_bytes(b"      PROGRAM MAC\r      X = 2.0\r      PRINT *, X\r      END\r")
    code, _, err = run(capsys, "analyze", "-q", src)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"autodist: error: {src}: the lines end with CR alone")
