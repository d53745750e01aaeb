"""Predicted vs measured: `compare --measure` and `sweep --measure` (runs MPI)."""

from __future__ import annotations

import json
import re

import pytest

from autodist.cli import main

from ..conftest import SAMPLES

FAST_NETWORK = """\
# ddt1997 with a network 1000 times faster: remapping pays on 2 processors
processors: 2
remote_access_time: 1.0e-9
flop_time: 6.0e-7
memory_access_time: 1.8e-7
max_distributed_dims: 1
distributions: [BLOCK]
"""


@pytest.mark.mpi
def test_compare_measure_elements_agree_for_shifts_and_remaps(tmp_path, capsys):
    prof = tmp_path / "fast.yaml"
    prof.write_text(FAST_NETWORK)
    assert main(["compare", str(SAMPLES / "adi.f"), "--machine", str(prof), "--procs", "2",
                 "--measure", "--runs", "1", "--format", "json", "-q"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["runs"][0]["chosen"] == "dynamic"
    runs = {m["kind"]: m for m in doc["measured"]}
    assert set(runs) == {"static", "dynamic"}
    for m in runs.values():
        assert m["status"] == 0 and m["elements_agree"], m
        assert m["measured_total"] > 0
        # the run splits into what the model prices (phases, remaps) and the rest
        assert 0 < m["measured_priced"] <= m["measured_total"]
        assert m["measured_outside"] == pytest.approx(m["measured_total"] - m["measured_priced"])
        assert m["priced_ratio"] == pytest.approx(m["measured_priced"] / m["predicted_total"])
        slowest = max(p["measured_computation"] + p["measured_communication"] for p in m["phases"])
        assert m["measured_priced"] >= slowest
    # the static solution shifts one column per sweep; the dynamic one remaps X, A, B 19 times each
    static_moves = [p for p in runs["static"]["phases"] if p["measured_elements"]]
    assert static_moves and all(p["measured_elements"] == p["predicted_elements"] for p in static_moves)
    remaps = runs["dynamic"]["remaps"]
    assert sorted(r["array"] for r in remaps) == ["A", "B", "X"]
    assert all(r["count_measured"] == 19 and r["measured_elements"] == r["predicted_elements"] == 19 * 16384
               for r in remaps)


@pytest.mark.mpi
def test_sweep_measure_runs_the_counts_that_fit(capsys):
    assert main(["sweep", str(SAMPLES / "jacobi.f"), "--procs", "1,2", "--measure", "-q"]) == 0
    out = capsys.readouterr().out
    assert "Measured on this machine" in out and "procs=2" in out
    assert "predicted = measured" in out


@pytest.mark.mpi
def test_compare_measure_table_says_what_is_priced_and_what_is_not(capsys):
    """And, with --runs, the run of median time, with the spread."""
    assert main(["compare", str(SAMPLES / "jacobi.f"), "--procs", "2", "--measure", "--runs", "3", "-q"]) == 0
    out = capsys.readouterr().out
    assert "in its phases and remaps" in out and "outside them" in out and "not priced" in out
    head = next(line for line in out.splitlines() if line.startswith("P = 2, static solution"))
    got = re.search(r"measured ([0-9.e-]+) s .*the median of 3 runs from ([0-9.e-]+) to ([0-9.e-]+) s", head)
    assert got, head
    low, median, high = float(got[2]), float(got[1]), float(got[3])  # the ends printed to 3 digits
    assert low <= median * 1.005 and median <= high * 1.005


@pytest.mark.parametrize("value", ["0", "101", "two"])
def test_compare_runs_out_of_range_is_a_usage_error(value, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["compare", str(SAMPLES / "jacobi.f"), "--measure", "--runs", value])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--runs" in err and "Traceback" not in err
