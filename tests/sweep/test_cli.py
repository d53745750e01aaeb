"""`autodist sweep` end to end: ADI on the DDT profile (DDT §7, Figures 9 and 10)."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import struct

import numpy as np
import pytest

from autodist.cli import main

from ..conftest import PROGRAMS, PROFILES, SAMPLES

ADI = str(SAMPLES / "adi.f")
DDT = str(PROFILES / "ddt1997.yaml")

# ADI at 16 processors, from the cost model's exact volumes (issue 4): the
# static (*,BLOCK) solution computes for 5.65787904 s and shifts 81,920 bytes;
# the dynamic one computes for 0.69794304 s and remaps the three arrays 19
# times, 30,720 bytes each time (N^2/P (P-1)/P elements of 8 bytes).
STATIC_COMP, STATIC_BYTES = 5.65787904, 81920
DYNAMIC_COMP, DYNAMIC_BYTES = 0.69794304, 19 * 3 * 30720
CROSSOVER = (STATIC_COMP - DYNAMIC_COMP) / (DYNAMIC_BYTES - STATIC_BYTES)  # 2.9716 us/byte
SEQ = 11.16708864  # the sequential time, also the cost of replicating every array
REPLICATE = (SEQ - STATIC_COMP) / STATIC_BYTES  # 67.3 us/byte


def test_the_static_mapping_replicates_where_the_network_is_slower_than_computing_alone(latency_sweep):
    out, doc, _ = latency_sweep
    (c,) = [c for c in doc["crossovers"] if c["kind"] == "mapping"]
    assert c["at"] == pytest.approx(REPLICATE, rel=1e-3)
    slow = doc["points"][-1]
    assert slow["static"]["total_cost"] == pytest.approx(SEQ, rel=1e-9) and slow["static"]["speedup"] == pytest.approx(1.0)


def cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["sweep", *args])
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def procs_sweep(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("procs")
    status, out, err = cli(ADI, "--machine", DDT, "--procs", "1,2,4,8,16,32", "--csv", str(tmp / "adi.csv"),
                           "--plot", str(tmp / "adi.png"), "--json", str(tmp / "adi.json"))
    assert status == 0, err
    return out, err, tmp


@pytest.fixture(scope="module")
def latency_sweep(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("latency")
    status, out, err = cli(ADI, "--machine", DDT, "--procs", "16", "--vary", "remote_access_time=1e-9:1e-3:log:25",
                           "--plot", str(tmp / "lat.png"), "--json", str(tmp / "lat.json"), "-q")
    assert status == 0, err
    return out, json.loads((tmp / "lat.json").read_text()), tmp


def test_procs_table_has_a_row_per_count_and_the_crossover(procs_sweep):
    out, err, _ = procs_sweep
    lines = out.splitlines()
    assert lines[0].split() == ["procs", "seq(s)", "static(s)", "dynamic(s)", "S_static", "S_dynamic",
                                "chosen", "remaps", "mapping"]
    rows = {int(l.split()[0]): l.split() for l in lines[1:7]}
    assert sorted(rows) == [1, 2, 4, 8, 16, 32]
    assert [rows[p][6] for p in sorted(rows)] == ["static"] * 3 + ["dynamic"] * 3
    assert rows[16][-1] == "A,B,X(BLOCK,*)/(*,BLOCK)" and rows[4][-1] == "A,B,X(*,BLOCK)"
    # the swept counts put the crossover at 8 (as DDT reports); bisecting the
    # counts between 4 and 8 on the cost model finds dynamic paying from 6
    assert "Crossovers:" in lines
    assert "  dynamic pays from 6 processors (static at 5; swept: 4 and 8)" in lines
    assert "autodist: wrote" in err


def test_procs_csv_columns_and_values(procs_sweep):
    _, _, tmp = procs_sweep
    rows = list(csv.DictReader((tmp / "adi.csv").open()))
    assert list(rows[0]) == [
        "procs", "sequential_s", "static_s", "dynamic_s", "static_speedup", "dynamic_speedup",
        "chosen", "chosen_s", "chosen_speedup", "chosen_mapping", "static_mapping", "dynamic_mapping",
        "static_computation_s", "static_movement_s",
        "dynamic_computation_s", "dynamic_movement_s", "dynamic_remapping_s", "dynamic_remaps",
    ]
    by_p = {int(r["procs"]): r for r in rows}
    seq = float(by_p[1]["sequential_s"])
    assert float(by_p[1]["static_s"]) == seq and float(by_p[1]["static_speedup"]) == 1.0
    r16 = by_p[16]
    assert float(r16["static_s"]) == pytest.approx(STATIC_COMP + STATIC_BYTES * 1e-6, rel=1e-12)
    assert float(r16["dynamic_s"]) == pytest.approx(DYNAMIC_COMP + DYNAMIC_BYTES * 1e-6, rel=1e-12)
    assert float(r16["dynamic_speedup"]) == pytest.approx(seq / float(r16["dynamic_s"]))
    assert float(r16["dynamic_remaps"]) == 57  # 3 arrays, 10 + 9 times
    assert float(r16["dynamic_remapping_s"]) == pytest.approx(DYNAMIC_BYTES * 1e-6)


def test_procs_json_crossover(procs_sweep):
    doc = json.loads((procs_sweep[2] / "adi.json").read_text())
    (c,) = doc["crossovers"]
    assert (c["axis"], c["kind"], c["at"], c["grid"], c["bracket"]) == ("procs", "solution", 6, [4, 8], [5, 6])
    assert (c["from"]["chosen"], c["to"]["chosen"]) == ("static", "dynamic")
    assert doc["axes"][0]["key"] == "procs" and doc["procs"] is None


def png_facts(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    from matplotlib.image import imread

    return width, height, imread(str(path))


@pytest.mark.parametrize("fixture, name", [("procs_sweep", "adi.png"), ("latency_sweep", "lat.png")])
def test_plots_are_real_pictures(fixture, name, request):
    tmp = request.getfixturevalue(fixture)[-1]
    width, height, pixels = png_facts(tmp / name)
    assert 400 <= width <= 2000 and 300 <= height <= 1500
    assert pixels.shape[:2] == (height, width)
    assert float(np.var(pixels[..., :3])) > 1e-3  # not blank
    # both solutions' colours are on it (matplotlib's tab:blue and tab:orange)
    rgb = (pixels[..., :3] * 255).round().astype(int).reshape(-1, 3)
    for colour in ((31, 119, 180), (255, 127, 14)):
        assert (np.abs(rgb - colour).sum(axis=1) < 12).sum() > 50


def test_latency_crossover_is_where_the_cost_lines_meet(latency_sweep):
    out, doc, _ = latency_sweep
    (c,) = [c for c in doc["crossovers"] if c["kind"] == "solution"]
    assert (c["from"]["chosen"], c["to"]["chosen"]) == ("dynamic", "static")
    assert c["fixed"] == {"procs": 16}
    assert c["grid"][0] < CROSSOVER < c["grid"][1]
    lo, hi = c["bracket"]
    assert lo < CROSSOVER <= hi and hi / lo < 1.001
    assert c["at"] == pytest.approx(CROSSOVER, rel=1e-3)
    assert "static wins above 2.97 us/byte (dynamic below) on 16 processors" in out


def test_latency_points_follow_the_linear_model(latency_sweep):
    _, doc, _ = latency_sweep
    assert doc["axes"][0] == {"key": "remote_access_time", "label": "remote access time", "unit": "us/byte",
                              "scale": "log", "values": doc["axes"][0]["values"]}
    assert len(doc["points"]) == 25
    for p in doc["points"]:
        r = p["remote_access_time"]
        # above REPLICATE the network is so slow that every processor computing
        # everything (the sequential time) beats distributing
        assert p["static"]["total_cost"] == pytest.approx(min(STATIC_COMP + STATIC_BYTES * r, SEQ), rel=1e-9)
        if r < CROSSOVER:
            assert p["chosen"] == "dynamic"
            assert p["dynamic"]["total_cost"] == pytest.approx(DYNAMIC_COMP + DYNAMIC_BYTES * r, rel=1e-9)
        else:
            assert p["chosen"] == "static" and p["dynamic"]["remaps"] == 0
    # DDT §7.1: at low latencies the dynamic speedup tends to 16, the static one to 2
    low = doc["points"][0]
    assert 15.9 < low["dynamic"]["speedup"] <= 16 and 1.9 < low["static"]["speedup"] < 2.0


def test_two_quantities_make_a_grid_with_a_crossover_per_line(tmp_path):
    status, out, err = cli(ADI, "--machine", DDT, "--procs", "4,16", "--vary", "remote_access_time=1e-7,1e-5",
                           "--csv", str(tmp_path / "g.csv"), "--plot", str(tmp_path / "g.png"), "-q")
    assert status == 0, err
    rows = list(csv.DictReader((tmp_path / "g.csv").open()))
    assert [(int(r["procs"]), float(r["remote_access_time"]), r["chosen"]) for r in rows] == [
        (4, 1e-7, "dynamic"), (4, 1e-5, "static"), (16, 1e-7, "dynamic"), (16, 1e-5, "static")]
    cross = [l.strip() for l in out.splitlines() if "wins above" in l]
    assert len(cross) == 2 and cross[0].endswith("on 4 processors") and cross[1].endswith("on 16 processors")
    assert png_facts(tmp_path / "g.png")[0] > 800  # one panel per processor count


# Two branches that carry their dependence along different dimensions of A:
# each prefers the other distribution, equally strongly (tests/programs/two_branches.f).
BRANCHY = (PROGRAMS / "two_branches.f").read_text()


def branchy(tmp_path):
    src = tmp_path / "br.f"
    src.write_text(BRANCHY)
    return str(src)


def test_branch_probability_sweep_reanalyses_and_finds_the_mapping_change(tmp_path):
    # the static mapping flips at probability 1/2
    status, out, err = cli(branchy(tmp_path), "--procs", "4", "--vary", "branch_probability=0:1:lin:5",
                           "--json", "-", "-q")
    assert status == 0, err
    doc = json.loads(out)
    mappings = [p["static"]["mapping"] for p in doc["points"]]
    assert mappings[:2] == ["A(BLOCK,*)"] * 2 and mappings[-2:] == ["A(*,BLOCK)"] * 2
    # near 1/2, where neither distribution suits both branches, the dynamic
    # solution pays, symmetrically
    lo, hi = sorted(c["at"] for c in doc["crossovers"] if c["kind"] == "solution")
    assert lo == pytest.approx(1 - hi, abs=1e-3) and lo < 0.5 < hi
    assert {(c["from"]["chosen"], c["to"]["chosen"]) for c in doc["crossovers"]} == {
        ("static", "dynamic"), ("dynamic", "static")}


@pytest.mark.parametrize("args, message", [
    (["--vary", "remote_access_time"], "--vary 'remote_access_time': expected KEY=VALUES"),
    (["--vary", "remote_acces_time=1e-6,2e-6"], "'remote_acces_time' is not a profile key"),
    (["--vary", "remote_access_time=1e-9:1e-3:loq:25"], "--vary remote_access_time: bad range"),
    (["--vary", "latency=1e-6,2e-6", "--vary", "latency=1e-5,2e-5"], "the same quantity is varied twice"),
    (["--procs", "4,8", "--vary", "latency=1,2", "--vary", "flop_time=1e-9,2e-9"], "at most two quantities"),
    ([], "nothing to sweep"),
    (["--vary", "latency=1,2", "--tolerance", "2"], "--tolerance must be between 0 and 1"),
    (["--vary", "latency=1,2", "--csv", "-", "--json", "-"], "only one of --csv and --json"),
    (["--vary", "latency=1,2", "--csv", "x.csv", "--json", "x.csv"], "the same file as --csv"),
    (["--vary", "latency=1,2", "--measure"], "--measure: no processor count of the sweep fits this machine"),
])
def test_usage_errors_are_one_line(args, message):
    status, out, err = cli(ADI, "--procs", "16", *args) if "--procs" not in args else cli(ADI, *args)
    assert status == 2
    lines = err.strip().splitlines()
    assert lines[-1].startswith("autodist: error: ") and message in lines[-1], err
    assert "Traceback" not in err and out == ""


def test_never_overwrites_an_input(tmp_path):
    src = tmp_path / "adi.f"
    src.write_text((SAMPLES / "adi.f").read_text())
    before = src.read_bytes()
    status, _, err = cli(str(src), "--procs", "4,8", "--csv", str(src))
    assert status == 2 and "refusing to overwrite the input file" in err
    status, _, err = cli(str(src), "--procs", "4,8", "--plot", DDT, "--machine", DDT)
    assert status == 2 and "refusing to overwrite the input file" in err
    assert src.read_bytes() == before


def test_the_sequential_reference_is_one_processor_on_the_same_machine(procs_sweep, latency_sweep):
    rows = list(csv.DictReader((procs_sweep[2] / "adi.csv").open()))
    one = float(rows[0]["static_s"])
    assert rows[0]["procs"] == "1" and all(float(r["sequential_s"]) == one for r in rows)
    # on one processor nothing moves: the remote access time does not change it
    assert {p["sequential"] for p in latency_sweep[1]["points"]} == {one}
