"""`autodist compare`: static vs dynamic per processor count."""

from __future__ import annotations

import json

import pytest

from autodist.cli import main

from ..conftest import PROGRAMS, SAMPLES


def compare(capsys, *args):
    assert main(["compare", *args, "--format", "json", "-q"]) == 0
    return json.loads(capsys.readouterr().out)


def test_adi_dynamic_pays_on_enough_processors(capsys):
    doc = compare(capsys, str(SAMPLES / "adi.f"), "--machine", "ddt1997", "--procs", "2,16")
    runs = {r["procs"]: r for r in doc["runs"]}
    assert runs[2]["chosen"] == "static" and runs[16]["chosen"] == "dynamic"
    dyn = runs[16]["dynamic"]
    assert set(dyn) >= {"total_cost", "computation", "movement", "remapping", "mapping", "remaps"}
    assert set(runs[16]["static"]) >= {"total_cost", "computation", "movement", "mapping"}
    solver = dyn["solver"][0]
    assert solver["procedure"] == "ADI" and solver["method"] in ("dp", "ilp") and solver["optimal"]
    assert solver["objective"] == pytest.approx(dyn["total_cost"])
    remap = dyn["remaps"][0]
    assert set(remap) >= {"array", "from", "to", "before_phase", "count", "bytes", "cost"}
    assert sorted((r["array"], r["count"]) for r in dyn["remaps"]) == sorted(
        [(a, 9.0) for a in "ABX"] + [(a, 10.0) for a in "ABX"])


def test_table_output_and_default_profile_message(capsys):
    assert main(["compare", str(SAMPLES / "adi.f"), "--procs", "1,16"]) == 0
    out, err = capsys.readouterr()
    assert "static(s)" in out and "dynamic(s)" in out and "chosen" in out
    assert "before phase 7" in out
    assert "ddt1997" in err and "default" in err


def test_shallow_has_one_interprocedural_solution(capsys):
    doc = compare(capsys, str(SAMPLES / "shallow.f"), "--procs", "4")
    run = doc["runs"][0]
    for kind in ("static", "dynamic"):
        mapping = run[kind]["mapping"]
        # the COMMON arrays have one mapping, seen from the main program
        assert {"U", "V", "P"} <= set(mapping)
        assert len({m["distribute"] for m in mapping.values()}) == 1




def test_chosen_mapping_follows_the_branch_probability(tmp_path, capsys):
    src = PROGRAMS / "two_branches.f"
    chosen = []
    for taken in (0.0, 0.1, 0.9, 1.0):
        prof = tmp_path / f"p{taken}.json"
        prof.write_text(json.dumps({"version": 1, "loops": {},
                                    "branches": {f"{src}:9": {"taken": taken, "evaluations": 1}}}))
        doc = compare(capsys, str(src), "--procs", "4", "--profile", str(prof))
        chosen.append(doc["runs"][0]["static"]["mapping"]["A"]["distribute"])
    # the I-carried sweep (K > 0) wants columns, the J-carried one rows
    assert chosen[0] == chosen[1] == "(BLOCK,*)"
    assert chosen[2] == chosen[3] == "(*,BLOCK)"


def test_bad_procs_is_a_one_line_error(capsys):
    assert main(["compare", str(SAMPLES / "adi.f"), "--procs", "0,x"]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "--procs" in err
    for huge in ("1000000", "1-100000", "99999999999999999999"):
        assert main(["compare", "-q", str(SAMPLES / "adi.f"), "--procs", huge]) == 2
        assert capsys.readouterr().err.strip().splitlines() == [
            f"autodist: error: --procs: at most 16384 processors, got '{huge}'"]


def test_procedure_database_is_reused_when_nothing_changed(tmp_path, capsys):
    db = tmp_path / "db.json"
    args = [str(SAMPLES / "shallow.f"), "--procs", "4", "--db", str(db)]
    assert main(["compare", *args, "--format", "json"]) == 0
    first, err1 = capsys.readouterr()
    assert "0 reused, 6 computed" in err1
    assert main(["compare", *args, "--format", "json"]) == 0
    second, err2 = capsys.readouterr()
    assert "6 reused, 0 computed" in err2
    def without_solver(doc):
        for run in doc["runs"]:
            for kind in ("static", "dynamic"):
                run[kind].pop("solver", None)
        return doc

    assert without_solver(json.loads(first)) == without_solver(json.loads(second))
    assert "procedure database" in json.loads(second)["runs"][0]["dynamic"]["solver"][0]["note"]
    # another processor count is another context: computed again
    assert main(["compare", str(SAMPLES / "shallow.f"), "--procs", "2", "--db", str(db)]) == 0
    assert "0 reused" in capsys.readouterr().err


def test_a_loop_of_more_trips_than_machine_integers_is_counted(tmp_path, capsys):
    src = tmp_path / "long.f"
    src.write_text("      PROGRAM LONG\n      INTEGER K, I\n      REAL A(10)\n      DO 20 K = 1, 10**30\n"
                   "      DO 10 I = 2, 10\n         IF (I .GT. 5) A(I) = A(I-1)\n   10 CONTINUE\n"
                   "   20 CONTINUE\n      END\n")
    assert main(["analyze", "-q", str(src), "--format", "json"]) == 0
    phases = json.loads(capsys.readouterr().out)["procedures"][0]["phases"]
    assert max(p["executions"] * max(lp["trip_count"] for lp in p["loops"]) for p in phases) >= 1e30
    assert main(["compare", "-q", str(src), "--procs", "2"]) == 0
