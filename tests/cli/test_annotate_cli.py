"""`autodist annotate` end to end: directives written, source otherwise intact."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from autodist.cli import main

from ..conftest import PROGRAMS, SAMPLES, requires_gfortran

SAMPLE_NAMES = ["adi", "jacobi", "transpose", "shallow", "tred2", "rhs"]


def annotate(tmp_path, name, *extra):
    out = tmp_path / f"{name}_hpf.f"
    report = tmp_path / f"{name}.json"
    args = ["annotate", str(SAMPLES / f"{name}.f"), "--machine", "ddt1997", "-o", str(out),
            "--report", str(report), "-q", *extra]
    assert main(args) == 0
    return out, json.loads(report.read_text())


def test_adi_report_has_the_documented_shape(tmp_path):
    out, doc = annotate(tmp_path, "adi", "--procs", "16")
    assert doc["procs"] == 16 and doc["machine"]["name"] == "ddt1997"
    chosen = doc["chosen"]
    assert set(chosen) >= {"procedure", "mapping", "phases", "total_cost"}
    assert chosen["mapping"]["X"]["align"] == "X(I,J) WITH T(I,J)" or "X(I" in chosen["mapping"]["X"]["align"]
    phase = chosen["phases"][0]
    assert set(phase) >= {"id", "first_line", "last_line", "executions", "parallel_loops",
                          "computation", "movement", "movement_bytes", "routines"}
    # every whole-program static mapping evaluated, rows and columns among them
    dists = {c["mapping"]["X"]["distribute"] for c in doc["candidates"] if c["procedure"] == "ADI"}
    assert {"(BLOCK,*)", "(*,BLOCK)"} <= dists
    cols = next(c for c in doc["candidates"] if c["mapping"]["X"]["distribute"] == "(BLOCK,*)")
    p7 = next(p for p in cols["phases"] if p["id"] == 7)
    assert p7["movement_bytes"] == 4096 and p7["executions"] == 10
    assert {r["routine"] for r in p7["routines"]} == {"Shift"}
    assert {"routine", "array", "dim", "bytes", "cost"} <= set(p7["routines"][0])


def test_only_directive_lines_are_added(tmp_path):
    out, _ = annotate(tmp_path, "adi", "--procs", "16", "--mode", "dynamic")
    original = (SAMPLES / "adi.f").read_text().splitlines()
    annotated = out.read_text().splitlines()
    kept = [l for l in annotated if not l.upper().startswith("CHPF$")]
    assert kept == original
    added = [l for l in annotated if l.upper().startswith("CHPF$")]
    assert all(len(l) <= 72 for l in added)
    text = "\n".join(added)
    assert "DYNAMIC" in text and "REDISTRIBUTE" in text and "INDEPENDENT" in text
    # the remap to columns sits right before phase 7 (inside the ITER loop)
    i = annotated.index("         DO 7 J = 1, N")
    assert "REDISTRIBUTE" in "\n".join(annotated[i - 5:i])


def test_static_mode_writes_no_remap(tmp_path):
    out, doc = annotate(tmp_path, "adi", "--procs", "2", "--mode", "static")
    text = out.read_text()
    assert "REDISTRIBUTE" not in text and "DISTRIBUTE" in text
    assert doc["chosen"]["kind"] == "static"


def test_refuses_to_overwrite_the_input(tmp_path, capsys):
    src = tmp_path / "adi.f"
    shutil.copy(SAMPLES / "adi.f", src)
    before = src.read_text()
    assert main(["annotate", str(src), "-o", str(src), "-q"]) == 2
    assert "refusing to overwrite" in capsys.readouterr().err
    assert src.read_text() == before


@requires_gfortran
@pytest.mark.gfortran
@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_annotated_samples_compile_and_print_the_same(tmp_path, name):
    def run(src, exe):
        subprocess.run(["gfortran", "-std=legacy", "-O0", str(src), "-o", str(exe)], check=True,
                       capture_output=True)
        return subprocess.run([str(exe)], check=True, capture_output=True, text=True, timeout=60).stdout

    reference = run(SAMPLES / f"{name}.f", tmp_path / "orig")
    for mode in ("static", "dynamic"):
        out, _ = annotate(tmp_path, name, "--procs", "4", "--mode", mode)
        assert "CHPF$" in out.read_text()
        assert run(out, tmp_path / f"ann_{mode}") == reference


CLONE = PROGRAMS / "clone.f"


def _gfortran_output(src, exe) -> str:
    """What ``src``, built by gfortran into ``exe``, prints."""
    subprocess.run(["gfortran", "-std=legacy", str(src), "-o", str(exe)], check=True, capture_output=True)
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout


def test_a_procedure_called_with_two_mappings_is_cloned(tmp_path, capsys):
    out = tmp_path / "clone_hpf.f"
    assert main(["annotate", str(CLONE), "--procs", "4", "--mode", "dynamic", "-o", str(out), "-q"]) == 0
    text = out.read_text()
    assert "CALL SCALE(X, N)" in text and "CALL SCALE_1(Y, N)" in text
    assert "SUBROUTINE SCALE_1(A, N)" in text
    scale, clone = text.split("SUBROUTINE SCALE(A, N)")[1].split("SUBROUTINE SCALE_1(A, N)")
    assert "(BLOCK, *)" in scale and "(*, BLOCK)" in clone
    if shutil.which("gfortran"):
        assert _gfortran_output(CLONE, tmp_path / "a") == _gfortran_output(out, tmp_path / "b")


@pytest.mark.gfortran
def test_a_clone_name_pushed_past_column_72_continues_on_the_next_line(tmp_path):
    """Fixed form ends at column 72: a call or header that the clone's longer
    name pushes past it is continued (Burkardt's TEST_MAT did not build:
    ``call I4_FACTOR_1 ( qq, ..., nleft )`` lost its ``)``); a sequence field
    in columns 73-80 stays there, an inline comment stays a comment."""
    text = CLONE.read_text()
    call = "         CALL SCALE(Y, N)"
    long_call = call.replace(" N)", " " * (72 - len(call) + 1) + "N)") + " ! second"
    header = "      SUBROUTINE SCALE(A, N)"
    long_header = header.replace(" N)", " " * (72 - len(header) + 1) + "N)") + "CLN00100"
    assert len(long_call) == 72 + len(" ! second") and len(long_header) == 80
    src = tmp_path / "clone72.f"
    src.write_text(text.replace(call, long_call).replace(header, long_header))
    out = tmp_path / "clone72_hpf.f"
    assert main(["annotate", str(src), "--procs", "4", "--mode", "dynamic", "-o", str(out), "-q"]) == 0
    written = out.read_text()
    assert "SCALE_1" in written
    for line in written.splitlines():
        if line[:1] not in "cC*!" and "!" not in line and not line.endswith("CLN00100"):
            assert len(line.rstrip()) <= 72, line
    assert _gfortran_output(src, tmp_path / "a") == _gfortran_output(out, tmp_path / "b")


def test_a_procedure_with_an_entry_is_not_cloned(tmp_path):
    """A clone of a unit with an ENTRY would define the ENTRY's name twice
    (gfortran: "Global name 'halve' ... already being used"): both calls use the
    one version, which the HPF directives remap to."""
    src = PROGRAMS / "clone_entry.f"
    out = tmp_path / "clone_entry_hpf.f"
    assert main(["annotate", str(src), "--procs", "4", "--mode", "dynamic", "-o", str(out), "-q"]) == 0
    text = out.read_text()
    assert "CALL SCALE(X, N)" in text and "CALL SCALE(Y, N)" in text and "SCALE_1" not in text
    assert text.count("ENTRY HALVE(A, N)") == 1
    if shutil.which("gfortran"):
        assert _gfortran_output(src, tmp_path / "a") == _gfortran_output(out, tmp_path / "b")


def test_arrangement_names_never_clash_with_the_program(tmp_path):
    # shallow has an array P: the arrangement must be called something else
    out, _ = annotate(tmp_path, "shallow", "--procs", "4")
    text = out.read_text()
    assert "PROCESSORS P(" not in text and "PROCESSORS PROCS(4)" in text


def test_arrangement_names_never_clash_with_the_programs_own_directives(tmp_path):
    # the program's PROCESSORS P stays (its DISTRIBUTE without formats is not modelled)
    src = tmp_path / "own.f"
    src.write_text("      PROGRAM OWN\n      REAL A(10, 10)\n      INTEGER I, J\n"
                   "!HPF$ PROCESSORS P(2,2)\n!HPF$ DISTRIBUTE A ONTO P\n"
                   "      DO 10 J = 1, 10\n      DO 10 I = 1, 10\n      A(I, J) = I + J\n   10 CONTINUE\n"
                   "      PRINT *, A(3, 4)\n      END\n")
    out = tmp_path / "out.f"
    assert main(["annotate", str(src), "--procs", "4", "-o", str(out), "-q"]) == 0
    text = out.read_text()
    assert text.count("PROCESSORS P(") == 1 and "PROCESSORS PROCS(" in text


def test_dynamic_arrays_with_other_alignments_are_realigned(tmp_path):
    # 64 points on manycore_smp: Z, aligned with E, moves between whole and
    # columns (at 20 points keeping every array whole is cheapest: a parallel
    # loop's start costs more than its share of the work)
    src = SAMPLES / "tred2.f"
    out = tmp_path / "t.f"
    assert main(["annotate", str(src), "--procs", "4", "--mode", "dynamic", "--machine", "manycore_smp",
                 "-o", str(out), "-q"]) == 0
    text = out.read_text()
    assert "REALIGN" in text
    # in every unit, every remapped array (or template) is declared DYNAMIC
    for unit in text.split("      SUBROUTINE "):
        dynamic = set()
        for line in unit.splitlines():
            if line.startswith("CHPF$ DYNAMIC"):
                dynamic |= {x.strip() for x in line[len("CHPF$ DYNAMIC"):].split(",")}
        for line in unit.splitlines():
            if line.startswith(("CHPF$ REALIGN", "CHPF$ REDISTRIBUTE")):
                assert line.split()[2].split("(")[0] in dynamic, line



def test_templates_of_remapped_arrays_never_take_a_name_of_the_program(tmp_path):
    # the program uses the names autodist gives the templates of E's versions
    # (T_E, T1_E; NPB BT's timer index T_RHS met its template T_RHS)
    text = (SAMPLES / "tred2.f").read_text()
    text = text.replace("      INTEGER I, J, K\n", "      INTEGER I, J, K, T_E, T1_E\n", 1)
    text = text.replace("      SUBROUTINE TRED2(NM, N, A, D, E, Z)\n",
                        "      SUBROUTINE TRED2(NM, N, A, D, E, Z)\n      INTEGER T_E, T1_E\n", 1)
    src = tmp_path / "tred.f"
    src.write_text(text)
    out = tmp_path / "t.f"
    assert main(["annotate", str(src), "--procs", "4", "--mode", "dynamic", "--machine", "manycore_smp",
                 "-o", str(out), "-q"]) == 0
    written = out.read_text()
    templates = [ln for ln in written.splitlines() if ln.startswith("CHPF$ TEMPLATE")]
    assert "REALIGN E(I) WITH T1_E_(I, *)" in written
    assert any("T_E_(64, 64)" in ln and "T1_E_(64, 64)" in ln for ln in templates), templates
    # autodist reads its own output back, as the runtime does before running it
    assert main(["analyze", str(out), "-q"]) == 0

INIT_INCLUDE = """\
      DO 7 J = 1, N
      DO 7 I = 1, N
         B(I,J) = 0.0D0
    7 CONTINUE
"""

INCLUDING = """\
      PROGRAM P
      INTEGER N
      PARAMETER (N = 64)
      DOUBLE PRECISION A(N,N), B(N,N)
      INTEGER I, J, K
      INCLUDE 'init.h'
      DO 5 J = 1, N
      DO 5 I = 1, N
         A(I,J) = DBLE(I + J)
    5 CONTINUE
      DO 20 K = 1, 10
      DO 10 J = 2, N - 1
      DO 10 I = 2, N - 1
         B(I,J) = 0.25D0 * (A(I-1,J) + A(I+1,J) + A(I,J-1) + A(I,J+1))
   10 CONTINUE
   20 CONTINUE
      PRINT *, A(3,3), B(4,4)
      END
"""


def test_directives_for_lines_of_an_include_file_are_not_written_and_the_user_is_told(tmp_path, capsys):
    (tmp_path / "init.h").write_text(INIT_INCLUDE)
    src = tmp_path / "main.f"
    src.write_text(INCLUDING)
    out = tmp_path / "out"
    assert main(["annotate", str(src), "-o", str(out) + "/"]) == 0
    err = capsys.readouterr().err
    assert f"{tmp_path / 'init.h'}:1 (P): INDEPENDENT not written: the line is in an INCLUDE file" in err
    assert (out / "init.h").read_text() == INIT_INCLUDE
    written = (out / "main.f").read_text().splitlines()
    # the include's loops are not marked in the including file; the program's own loops are
    assert written[:2] == ["      PROGRAM P", "      INTEGER N"]
    include_at = written.index("      INCLUDE 'init.h'")
    assert not written[include_at - 1].upper().startswith("CHPF$ INDEPENDENT")
    assert written[include_at + 1] == "CHPF$ INDEPENDENT" and written[include_at + 2] == "      DO 5 J = 1, N"
    # autodist reads its own output again, and the result compiles
    assert main(["annotate", "-q", str(out / "main.f"), "-o", str(tmp_path / "again.f")]) == 0
