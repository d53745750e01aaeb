"""Trip counts on the command line (issue 12, item 3): what the program fixes is
known, what stays unknown is said with the value assumed and the variables to
state, and ``--trip-count NAME=N`` states them."""

from __future__ import annotations

import json

import pytest

from autodist.cli import main

from ..conftest import PROGRAMS

TRIPS = PROGRAMS / "trips"
GRID = str(TRIPS / "grid_init.f")
READ = str(TRIPS / "read_default.f")


def _json(capsys, *argv: str) -> dict:
    assert main([*argv, "-q"]) == 0
    return json.loads(capsys.readouterr().out)


def _loops(doc: dict, unit: str) -> dict[int, dict]:
    proc = next(p for p in doc["procedures"] if p["name"] == unit)
    return {lp["line"]: lp for ph in proc["phases"] for lp in ph["loops"]}


def test_analyze_json_has_the_fixed_values_and_the_unknown_trip_counts(capsys):
    doc = _json(capsys, "analyze", GRID, "-I", str(TRIPS), "--format", "json")
    relax = _loops(doc, "RELAX")
    assert {lp["trip_count"] for lp in relax.values()} == {22}
    assert relax[57]["trip_count_source"] == "program" and relax[57]["trip_count_note"] == "GRID_POINTS(3)=24"
    values = {v["name"]: v for v in doc["values"]}
    assert values["GRID_POINTS(1)"]["value"] == 24 and values["GRID_POINTS(1)"]["how"] == "fixed"
    assert values["NITER"]["set_at"] == ["grid_init.f:31"]
    (u,) = doc["unknown_trip_counts"]
    assert (u["procedure"], u["line"], u["loop"], u["assumed"], u["source"], u["depends_on"]) == (
        "RELAX3", 18, "DO I = 1, NCALLS", 100, "assumed", ["NCALLS"])
    relax_proc = next(p for p in doc["procedures"] if p["name"] == "RELAX")
    assert relax_proc["invocations"] == 8  # DO STEP = 1, NITER with NITER = NITER_DEFAULT


def test_analyze_text_says_which_loops_are_unknown_and_what_to_state(capsys):
    assert main(["analyze", READ]) == 0
    out = capsys.readouterr().out
    assert "values the program fixes (2, substituted): IST = 2, JST = 2" in out
    assert "trip counts not known (5 loops; state a value with --trip-count NAME=N):" in out
    assert "  ITMAX: 1 loop (read_default.f:21), assumed 50 (from the program's defaults)" in out
    assert "the program's default ITMAX = 50 (set at read_default.f:47; read at read_default.f:43)" in out
    assert "DO ISTEP at line 21: trip count assumed 50 from the program's default ITMAX = 50" in out


def test_trip_count_name_states_values_and_loops_become_known(capsys):
    doc = _json(capsys, "analyze", READ, "--format", "json", "--trip-count", "nx0=64", "--trip-count", "NY0=64")
    main_loops = _loops(doc, "SSOR2")
    assert (main_loops[22]["trip_count"], main_loops[22]["trip_count_known"]) == (62, True)
    assert main_loops[22]["trip_count_source"] == "stated" and main_loops[16]["trip_count"] == 64
    # the time-step count is still the program's default
    assert [(u["line"], u["assumed"], u["source"]) for u in doc["unknown_trip_counts"]] == [(21, 50, "default")]
    assert {v["name"]: v["how"] for v in doc["values"]}["NX0"] == "stated"


def test_predicted_costs_follow_the_stated_values(capsys):
    def computation(*extra: str) -> float:
        doc = _json(capsys, "compare", READ, "--procs", "1", "--format", "json", *extra)
        return doc["runs"][0]["static"]["computation"]

    base = computation()  # 32 x 32 from the defaults, 50 steps
    assert 3.9 < computation("--trip-count", "NX0=64", "--trip-count", "NY0=64") / base < 4.4
    assert 1.9 < computation("--trip-count", "ITMAX=100") / base < 2.0
    # the default trip count does not touch loops the program's defaults count
    assert computation("--trip-count", "7") == pytest.approx(base)


def test_annotate_reports_the_unknown_trip_counts(tmp_path, capsys):
    report = tmp_path / "report.json"
    assert main(["annotate", READ, "-o", str(tmp_path / "out.f"), "--report", str(report), "--procs", "4"]) == 0
    err = capsys.readouterr().err
    assert "autodist: note: trip counts not known (5 loops; state a value with --trip-count NAME=N):" in err
    assert "autodist:   ITMAX: 1 loop (read_default.f:21), assumed 50" in err
    doc = json.loads(report.read_text())
    assert {u["line"]: u["depends_on"] for u in doc["unknown_trip_counts"]}[21] == ["ITMAX"]
    assert {v["name"] for v in doc["values"]} >= {"IST", "ITMAX", "NX"}
    main(["annotate", READ, "-o", str(tmp_path / "out.f"), "--report", str(report), "--procs", "4",
          "--trip-count", "ITMAX=10", "--trip-count", "NX0=32", "--trip-count", "NY0=32"])
    assert "trip counts not known" not in capsys.readouterr().err
    assert json.loads(report.read_text())["unknown_trip_counts"] == []


def test_explain_takes_trip_count_name(tmp_path, capsys):
    src = tmp_path / "trips.f"
    src.write_text("""\
      PROGRAM TRIPS
      INTEGER N, I, K
      DOUBLE PRECISION A(64)
      READ (*,*) N
      DO 10 K = 1, N
      DO 10 I = 2, 64
         A(I) = A(I) + A(I-1) * 0.5D0
   10 CONTINUE
      WRITE (*,*) A(64)
      END
""")
    doc = _json(capsys, "explain", str(src), "--procs", "4", "--assumptions", "none", "--json", "-")
    assert [u["line"] for u in doc["unknown_trip_counts"]] == [5]
    doc = _json(capsys, "explain", str(src), "--procs", "4", "--assumptions", "none", "--json", "-",
                "--trip-count", "N=20")
    assert doc["unknown_trip_counts"] == []


@pytest.mark.parametrize("command, option, message", [
    ("analyze", "FOO=3", "--trip-count FOO=3: the program has no integer variable FOO"),
    ("analyze", "GRID_POINTS=3", "--trip-count GRID_POINTS=3: GRID_POINTS is an array: name an element, "
                                 "as GRID_POINTS(1)"),
    ("analyze", "NITER(2)=3", "NITER is not an array"),
    ("analyze", "PROBLEM_SIZE=3", "PROBLEM_SIZE is a PARAMETER"),
    ("analyze", "N(=3", "--trip-count: expected NAME=N with NAME a variable or an array element ARRAY(k)"),
    ("analyze", "NITER=x", "--trip-count: expected NAME=N"),
    ("analyze", "0", "--trip-count must be an integer from 1"),
    ("analyze", "x", "--trip-count must be an integer from 1"),
    ("compare", "NOPE(1)=4", "the program has no integer variable NOPE"),
    ("annotate", "=4", "--trip-count: expected NAME=N"),
    ("sweep", "-1", "--trip-count must be an integer from 1"),
])
def test_bad_trip_count_is_a_one_line_error(tmp_path, capsys, command, option, message):
    argv = [command, GRID, "-I", str(TRIPS), f"--trip-count={option}", "-q"]
    if command == "annotate":
        argv += ["-o", str(tmp_path / "out.f")]
    if command == "sweep":
        argv += ["--procs", "1,2"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("autodist: error: ") and message in err[0], err
