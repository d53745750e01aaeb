"""`autodist calibrate` end to end: a real (quick) measurement at 2 ranks."""

from __future__ import annotations

import pytest

from autodist.cli import main
from autodist.machine import load_profile


@pytest.mark.mpi
def test_quick_calibration_writes_a_valid_profile_and_never_overwrites_it(tmp_path, capsys):
    out = tmp_path / "local.yaml"
    assert main(["calibrate", "-np", "2", "--quick", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"autodist: wrote {out}" in err
    prof = load_profile(out)
    assert prof.name == "local" and prof.processors == 2
    assert prof.communication_model == "latency_bandwidth"
    for key in ("remote_access_time", "latency", "bandwidth", "parallel_overhead", "flop_time"):
        assert getattr(prof, key) > 0, key
    assert prof.memory_access_time >= 0
    text = out.read_text()
    assert text.startswith("# Measured by `autodist calibrate -np 2 --quick -o ")
    assert "# MPI: " in text and "# CPU: " in text and "each quantity measured 3 times" in text
    # the start of a phase measured through the runtime, which costs more than a barrier
    assert "# parallel_overhead: the runtime's start of a phase" in text
    assert prof.parallel_overhead > 1e-6
    # compute speed from the runtime's own (compiled) kernels
    assert "least-squares split of the kernels as the runtime runs them" in text

    # a second run refuses before measuring anything
    before = out.read_bytes()
    assert main(["calibrate", "-np", "2", "--quick", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines()[-1] == f"autodist: error: -o {out}: the file exists (use --force to replace it)"
    assert "measuring" not in err and out.read_bytes() == before


@pytest.mark.mpi
def test_force_replaces_and_stdout_without_output(tmp_path, capsys):
    out = tmp_path / "mine.yaml"
    out.write_text("# not a profile\n")
    assert main(["calibrate", "-np", "2", "--quick", "--repeat", "2", "-o", str(out), "--force",
                 "--name", "box", "-q"]) == 0
    prof = load_profile(out)
    assert prof.name == "box" and "measured 2 times" in out.read_text()
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("args, message", [
    (["-np", "1"], "-np 1: calibration needs at least 2 ranks to measure communication"),
    (["--repeat", "0"], "--repeat must be a positive integer, got 0"),
    (["--like", "nosuch"], "nosuch: no such machine profile"),
])
def test_usage_errors(args, message, capsys):
    assert main(["calibrate", "--quick", *args]) == 2
    err = capsys.readouterr().err
    (line,) = err.strip().splitlines()
    assert line.startswith("autodist: error: ") and message in line
    assert "measuring" not in err  # refused before any measurement


def test_output_in_a_missing_directory_is_refused_early(tmp_path, capsys):
    assert main(["calibrate", "--quick", "-o", str(tmp_path / "no" / "p.yaml")]) == 2
    assert "no such directory" in capsys.readouterr().err
