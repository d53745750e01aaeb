"""The user's own HPF directives: evaluated as written, kept as constraints, or ignored."""

from __future__ import annotations

import json

import pytest

from autodist.cli import main

from ..conftest import SAMPLES

ADI = (SAMPLES / "adi.f").read_text()
USER = ADI.replace(
    "      INTEGER I, J, ITER\n",
    "      INTEGER I, J, ITER\nCHPF$ PROCESSORS Q(4)\nCHPF$ DISTRIBUTE X(*,BLOCK) ONTO Q\n",
)


def run_json(capsys, *args):
    assert main([*args, "-q"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("mode", ["static", "dynamic"])
def test_as_written_equals_the_solution_that_was_written(tmp_path, capsys, mode):
    procs = "4" if mode == "static" else "16"
    out = tmp_path / "adi_hpf.f"
    assert main(["annotate", str(SAMPLES / "adi.f"), "--procs", procs, "--mode", mode, "-o", str(out), "-q"]) == 0
    ref = run_json(capsys, "compare", str(SAMPLES / "adi.f"), "--procs", procs, "--format", "json")["runs"][0]
    doc = run_json(capsys, "compare", str(out), "--procs", procs, "--as-written", "--format", "json")["runs"][0]
    assert doc["as_written"]["total_cost"] == pytest.approx(ref[mode]["total_cost"])
    assert len(doc["as_written"].get("remaps", [])) == len(ref[mode].get("remaps", []))


def test_user_directives_are_constraints(tmp_path, capsys):
    src = tmp_path / "adi_user.f"
    src.write_text(USER)
    out = tmp_path / "out.f"
    report = tmp_path / "r.json"
    assert main(["annotate", str(src), "--procs", "4", "--mode", "static", "-o", str(out),
                 "--report", str(report), "-q"]) == 0
    text = out.read_text()
    assert "CHPF$ DISTRIBUTE X(*,BLOCK) ONTO Q" in text  # kept as written
    assert text.count("DISTRIBUTE X") == 1  # and not distributed a second time
    mapping = json.loads(report.read_text())["chosen"]["mapping"]
    assert mapping["X"]["distribute"] == "(*,BLOCK)"


def test_ignore_directives_drops_them(tmp_path, capsys):
    src = tmp_path / "adi_user.f"
    src.write_text(USER)
    out = tmp_path / "out.f"
    assert main(["annotate", str(src), "--procs", "16", "--mode", "static", "--ignore-directives",
                 "-o", str(out), "-q"]) == 0
    text = out.read_text()
    assert "ONTO Q" not in text and "PROCESSORS Q" not in text
    assert "DISTRIBUTE" in text


def test_several_files_go_to_a_directory(tmp_path, capsys):
    main_f = tmp_path / "main.f"
    sub_f = tmp_path / "sub.f"
    main_f.write_text("""      PROGRAM M
      DOUBLE PRECISION A(64,64)
      COMMON /C/ A
      DO 1 J = 1, 64
      DO 1 I = 1, 64
    1 A(I,J) = I + J
      CALL SWEEP
      PRINT *, A(64,64)
      END
""")
    sub_f.write_text("""      SUBROUTINE SWEEP
      DOUBLE PRECISION A(64,64)
      COMMON /C/ A
      DO 10 J = 2, 64
      DO 10 I = 1, 64
   10 A(I,J) = A(I,J-1) * 0.5D0 + A(I,J)
      END
""")
    outdir = tmp_path / "out"
    assert main(["annotate", str(main_f), str(sub_f), "--procs", "4", "-o", str(outdir) + "/", "-q"]) == 0
    m, s = (outdir / "main.f").read_text(), (outdir / "sub.f").read_text()
    # the COMMON array has one mapping, declared in both units
    assert "DISTRIBUTE" in m and "DISTRIBUTE" in s
    assert "(BLOCK, *)" in m and "(BLOCK, *)" in s
    assert main_f.read_text().count("CHPF$") == 0  # inputs untouched


def test_forge_semantics_is_accepted(capsys):
    doc = run_json(capsys, "compare", str(SAMPLES / "shallow.f"), "--procs", "4", "--semantics", "forge",
                   "--format", "json")
    hpf = run_json(capsys, "compare", str(SAMPLES / "shallow.f"), "--procs", "4", "--format", "json")
    # FORGE may leave mappings behind, so it is never worse than HPF's restore-on-return
    assert doc["runs"][0]["dynamic"]["total_cost"] <= hpf["runs"][0]["dynamic"]["total_cost"] * (1 + 1e-12)
