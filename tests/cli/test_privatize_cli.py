"""Work arrays privatized across calls, end to end: ``analyze`` names them
with the reason, ``annotate`` writes ``INDEPENDENT, NEW(...)``, and the
annotated program runs on two ranks with gfortran's results."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from autodist.cli import main

from ..conftest import PROGRAMS, requires_gfortran

PRIV = PROGRAMS / "privatize"


def test_analyze_reports_the_private_arrays_with_the_reason(capsys):
    assert main(["analyze", str(PRIV / "common_work.f"), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    main_ = next(p for p in data["procedures"] if p["name"] == "MAIN")
    loops = [lp for ph in main_["phases"] for lp in ph["loops"] if lp["private_arrays"]]
    assert [lp["line"] for lp in loops] == [16]
    (w,) = loops[0]["private_arrays"]
    assert w["name"] == "W" and "CALL FILL" in w["reason"]


@pytest.mark.parametrize("name,new", [("common_work", "NEW(W)"), ("dummy_work", "NEW(WK)"), ("line_work", "NEW(LHS)")])
def test_annotate_writes_new_for_them(tmp_path, name, new):
    out = tmp_path / f"{name}_hpf.f"
    assert main(["annotate", str(PRIV / f"{name}.f"), "--machine", "ddt1997", "-o", str(out), "-q"]) == 0
    lines = out.read_text().splitlines()
    k = next(i for i, ln in enumerate(lines) if new in ln and ln.upper().startswith("CHPF$"))
    assert lines[k].upper().startswith("CHPF$ INDEPENDENT, ")
    assert lines[k + 1].strip().startswith("DO J")


@requires_gfortran
@pytest.mark.gfortran
@pytest.mark.mpi
@pytest.mark.parametrize("name", ["common_work", "dummy_work", "line_work"])
def test_annotated_program_runs_with_gfortran_results(tmp_path, name):
    out = tmp_path / f"{name}_hpf.f"
    assert main(["annotate", str(PRIV / f"{name}.f"), "--machine", "ddt1997", "--procs", "2", "-o", str(out),
                 "-q"]) == 0
    run = subprocess.run([sys.executable, "-m", "autodist", "run", str(out), "-np", "2", "--verify"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "same results as the sequential run" in run.stderr
    assert "same results as gfortran" in run.stderr
