"""A profile run changes the choice when branch frequencies differ from 0.5."""

from __future__ import annotations

import json
from autodist.cli import main

from ..conftest import PROGRAMS

PROGRAM = PROGRAMS / "heavy_then_branch.f"


def static_mapping(capsys, *extra):
    assert main(["compare", str(PROGRAM), "--procs", "4", "--format", "json", "-q", *extra]) == 0
    return json.loads(capsys.readouterr().out)["runs"][0]["static"]["mapping"]["A"]["distribute"]


def test_profile_run_changes_the_chosen_mapping(tmp_path, capsys):
    # by default the heavier THEN branch (two sweeps carried along I) counts half the time
    assert static_mapping(capsys) == "(*,BLOCK)"
    prof = tmp_path / "prof.json"
    assert main(["profile", str(PROGRAM), "-o", str(prof), "-q"]) == 0
    data = json.loads(prof.read_text())
    assert data["branches"][f"{PROGRAM}:9"]["taken"] == 0.0  # A(1,1) is never negative
    # measured: only the ELSE branch (carried along J) runs
    assert static_mapping(capsys, "--profile", str(prof)) == "(BLOCK,*)"
