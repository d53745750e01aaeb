"""`autodist analyze` as a user runs it."""

from __future__ import annotations

import json

import pytest

from autodist.cli import main

from ..conftest import SAMPLES


def test_text_report_lists_phases_loops_and_arrays(capsys):
    assert main(["analyze", str(SAMPLES / "adi.f")]) == 0
    out = capsys.readouterr().out
    assert "PROGRAM ADI" in out and "9 phases" in out
    assert "DO J = 2, 256" in out and "sequential" in out
    assert "X(I,J-1)" in out
    assert "DOUBLE PRECISION" in out and "524288 bytes" in out


def test_json_report_has_the_documented_fields(capsys):
    assert main(["analyze", str(SAMPLES / "shallow.f"), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) >= {"procedures", "arrays", "call_graph", "opaque"}
    proc = doc["procedures"][0]
    assert set(proc) >= {"name", "phases"}
    phase = next(p for q in doc["procedures"] for p in q["phases"] if p["kind"] == "loop")
    assert set(phase) >= {"id", "kind", "first_line", "last_line", "loops", "reads", "writes"}
    assert set(phase["loops"][0]) >= {"var", "line", "parallel", "reason", "trip_count"}
    arr = doc["arrays"][0]
    assert set(arr) >= {"name", "procedure", "shape", "type", "bytes", "common"}
    assert ["SHALOW", "CALC1"] in doc["call_graph"]
    u = next(a for a in doc["arrays"] if a["name"] == "U" and a["procedure"] == "SHALOW")
    assert u["shape"] == [65, 65] and u["common"] is not None


def test_include_path_option(tmp_path, capsys):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "size.h").write_text("      INTEGER N\n      PARAMETER (N = 10)\n")
    src = tmp_path / "p.f"
    src.write_text("      PROGRAM P\n      INCLUDE 'size.h'\n      REAL A(N)\n"
                   "      DO 1 I = 1, N\n    1 A(I) = I\n      END\n")
    assert main(["analyze", str(src), "-I", str(inc), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["arrays"][0]["shape"] == [10]


def test_errors_are_one_line_with_file_and_line(tmp_path, capsys):
    bad = tmp_path / "bad.f"
    bad.write_text("      PROGRAM P\n      X = 1 +\n      END\n")
    assert main(["analyze", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and f"{bad}:2:" in err

    rec = tmp_path / "rec.f"
    rec.write_text("      PROGRAM P\n      CALL A\n      END\n      SUBROUTINE A\n      CALL B\n"
                   "      END\n      SUBROUTINE B\n      CALL A\n      END\n")
    assert main(["analyze", str(rec)]) == 2
    err = capsys.readouterr().err
    assert "recursion" in err and "A -> B -> A" in err and "Traceback" not in err

    assert main(["analyze", str(tmp_path / "missing.f")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_wrong_option_is_a_one_line_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["analyze", "--format", "xml", str(SAMPLES / "adi.f")])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "invalid choice" in err and err.count("\n") == 0


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("      PROGRAM A\n      END\n      PROGRAM B\n      END\n", 3,
         "a second main program B (the main program A is at"),
        ("      PROGRAM P\n      REAL A(10)\n      DO 1 I = 1, 10, 0\n    1 A(I) = 1.0\n      END\n", 3,
         "DO I: the step is zero"),
        ("      PROGRAM P\n      PARAMETER (K = 0)\n      DO 1 I = 1, 10, K\n    1 CONTINUE\n      END\n", 3,
         "DO I: the step is zero"),
        ("      PROGRAM P\n      REAL A(10)\n      CALL S(A)\n      END\n"
         "      SUBROUTINE S(X, N)\n      REAL X(10)\n      END\n", 3,
         "CALL S with 1 argument, but S"),
        ("      PROGRAM P\n      Y = F(1.0, G(2.0))\n      END\n      FUNCTION F(X)\n      F = X\n      END\n"
         "      FUNCTION G(X)\n      G = X\n      END\n", 2,
         "reference to F with 2 arguments, but F"),
        ("      PROGRAM P\n      REAL A(0)\n      END\n", 2, "array A: dimension 1 has upper bound 0 below"),
        ("      PROGRAM P\n      PARAMETER (N = 4)\n      REAL B(3, N:1)\n      END\n", 3,
         "array B: dimension 2 has upper bound 1 below its lower bound 4"),
    ],
)
def test_invalid_programs_are_refused_at_their_line(tmp_path, capsys, text, line, message):
    src = tmp_path / "bad.f"
    src.write_text(text)
    assert main(["analyze", str(src)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and f"{src}:{line}: {message}" in err, err


def test_the_same_programs_done_right_are_accepted(tmp_path, capsys):
    src = tmp_path / "good.f"
    src.write_text("      PROGRAM P\n      REAL A(10), B(0:0)\n      DO 1 I = 10, 1, -1\n    1 A(I) = 1.0\n"
                   "      CALL S(A)\n      Y = F(1.0)\n      END\n      SUBROUTINE S(X)\n      REAL X(*)\n      END\n"
                   "      FUNCTION F(X)\n      F = X\n      END\n")
    assert main(["analyze", str(src)]) == 0


def test_extra_actual_arguments_are_ignored_with_a_note_as_gfortran_does(tmp_path, capsys):
    """gfortran only warns about more actual than formal arguments, and the
    procedure never sees them: read, analyzed and run the same way."""
    src = tmp_path / "extra.f"
    src.write_text("      PROGRAM P\n      REAL A(10)\n      CALL S(A, 3)\n      Y = F(1.0, A(2))\n"
                   "      PRINT *, A(10), Y\n      END\n"
                   "      SUBROUTINE S(X)\n      REAL X(10)\n      DO 1 I = 1, 10\n    1 X(I) = I\n      END\n"
                   "      FUNCTION F(X)\n      F = X + 1.0\n      END\n")
    assert main(["analyze", str(src)]) == 0
    err = capsys.readouterr().err
    assert f"autodist: note: {src}:3: CALL S with 2 arguments, but S ({src}:7) has 1: " \
           "the extra one is ignored, as gfortran does" in err
    assert f"autodist: note: {src}:4: reference to F with 2 arguments, but F" in err
    assert main(["run", str(src), "-np", "1", "--verify"]) == 0
    out = capsys.readouterr().out
    assert "10." in out and "2." in out
