"""The profile a calibration writes: values, comments, validation, no overwriting."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from autodist.calibrate import KERNELS, Settings, calibration, profile_text, write_profile
from autodist.errors import AutodistError, ProfileError, UsageError
from autodist.machine import load_profile

from ..conftest import PROFILES

F, A = 2e-9, 1e-9  # seconds per flop and per access the synthetic kernels follow


def record(settings=Settings(repeat=3, large_bytes=1 << 20, halo_bytes=1 << 12)):
    samples = {
        "latency": [1.0e-6, 1.5e-6, 2.0e-6],
        "large": [1.0e-3, 1.001e-3, 1.3e-3],  # 1 MiB: 1.0005e-3 - 1.5e-6 s of transfer
        "halo": [4.0e-6, 4.096e-6, 5e-6],  # 2 x 4096 bytes received
        "barrier": [3e-6, 3e-6, 9e-6],
    }
    for k in KERNELS:
        t = k.flops * F + k.accesses * A
        samples[f"kernel:{k.name}"] = [t * 0.99, t, t * 1.2]
    from dataclasses import asdict

    return {"nranks": 2, "settings": asdict(settings), "samples": samples,
            "mpi_library": "MPICH Version: 4.1.2", "mpi4py": "3.1.5", "numpy": "1.26.0"}


WHEN = datetime(2024, 5, 17, 9, 30, tzinfo=timezone.utc)


def test_values_are_the_medians_and_the_split():
    cal = calibration(record())
    v = cal.values()
    assert v["latency"] == 1.5e-6
    assert v["bandwidth"] == pytest.approx((1 << 20) / (1.001e-3 - 1.5e-6))
    assert v["remote_access_time"] == pytest.approx(4.096e-6 / 8192)
    assert v["parallel_overhead"] == 3e-6
    assert v["flop_time"] == pytest.approx(F) and v["memory_access_time"] == pytest.approx(A)


def test_the_runtimes_phase_start_when_measured_is_the_parallel_overhead(tmp_path):
    raw = record()
    raw["samples"]["phase_start"] = [6e-5, 5e-5, 9e-5]
    cal = calibration(raw)
    assert cal.values()["parallel_overhead"] == 6e-5
    text = profile_text(cal, "local", load_profile(PROFILES / "cluster_ib.yaml"), "autodist calibrate -np 2", WHEN)
    assert "the runtime's start of a phase" in text and "one MPI barrier" in text
    assert write_profile(tmp_path / "local.yaml", text).parallel_overhead == pytest.approx(6e-5, rel=1e-4)


def test_the_written_profile_loads_with_the_measured_values_and_comments(tmp_path):
    cal = calibration(record())
    like = load_profile(PROFILES / "cluster_ib.yaml")
    text = profile_text(cal, "local", like, "autodist calibrate -np 2", WHEN)
    prof = write_profile(tmp_path / "local.yaml", text)
    assert prof.name == "local" and prof.processors == 2
    assert prof.communication_model == "latency_bandwidth" and prof.compute_scale == 1.0
    for key, value in cal.values().items():
        assert getattr(prof, key) == pytest.approx(value, rel=1e-4), key
    # search limits come from the reference profile
    assert prof.distributions == like.distributions and prof.max_distributed_dims == like.max_distributed_dims
    assert prof.solver_time_limit == like.solver_time_limit
    comments = [l for l in text.splitlines() if l.startswith("#")]
    head = "\n".join(comments)
    assert "`autodist calibrate -np 2` on 2024-05-17 09:30 UTC" in comments[0]
    assert "# CPU: " in head and "# machine: " in head
    assert "# MPI: MPICH Version: 4.1.2 (mpi4py 3.1.5, numpy 1.26.0" in head
    assert "median 1.5e-06 s of 3 (min 1e-06, max 2e-06, IQR 33.3% of the median)" in head
    assert "flops 3, accesses 5" in head and "rms relative error" in head


def test_the_kernels_as_the_runtime_runs_them_give_the_split_when_measured(tmp_path):
    """The runtime's kernels (compiled) set flop and access times; the numpy
    statements' times stay in the comments, for comparison."""
    raw = record()
    f, a = 2e-11, 7e-11
    for k in KERNELS:
        raw["samples"][f"runtime:{k.name}"] = [(k.flops * f + k.accesses * a) * x for x in (0.9, 1.0, 1.5)]
    cal = calibration(raw)
    assert cal.values()["flop_time"] == pytest.approx(f) and cal.values()["memory_access_time"] == pytest.approx(a)
    text = profile_text(cal, "local", load_profile(PROFILES / "cluster_ib.yaml"), "autodist calibrate -np 2", WHEN)
    assert "the kernels as the runtime runs them" in text and "for comparison, numpy statements" in text
    assert write_profile(tmp_path / "local.yaml", text).flop_time == pytest.approx(f, rel=1e-4)
    assert calibration(record()).values()["flop_time"] == pytest.approx(F)  # without them: the numpy kernels


def test_runtime_kernels_bound_by_their_accesses_give_a_flop_a_small_share_of_an_access(tmp_path):
    raw = record()
    for k in KERNELS:  # compiled loops: the flops hidden under the accesses
        raw["samples"][f"runtime:{k.name}"] = [k.accesses * 7e-11] * 3
    cal = calibration(raw)
    assert cal.values()["memory_access_time"] == pytest.approx(7e-11)
    assert cal.values()["flop_time"] == pytest.approx(7e-14)
    text = profile_text(cal, "local", load_profile(PROFILES / "cluster_ib.yaml"))
    assert "showed no flop cost next to their accesses" in text
    assert write_profile(tmp_path / "local.yaml", text).flop_time > 0


def test_the_runtime_kernels_program_runs_every_kernel_compiled_on_its_ranks():
    """The measuring program (calibrate.kernels) through the runtime on one
    rank: one phase per kernel, run compiled on every call."""
    pytest.importorskip("numba")
    from mpi4py import MPI

    from autodist.calibrate.kernels import BODIES, program
    from autodist.calibrate.starts import run_through_runtime

    from autodist.calibrate.kernels import RECURRENCES

    ex, seconds = run_through_runtime(MPI.COMM_SELF, program(1 << 12, 1, 3))
    assert seconds > 0
    for k in range(len(BODIES) + len(RECURRENCES)):
        region = f"KERN{k + 1}:1"
        assert ex.executions[region] == 3 and ex.phase_paths[region][0] == {"jit": 3}, region


def test_the_recurrences_as_the_runtime_runs_them_give_the_recurrence_time(tmp_path):
    """What the recurrences take beyond their flops and accesses, per unit of
    their chains, is ``recurrence_time`` (exact on exact samples)."""
    from autodist.calibrate.kernels import RECURRENCES

    raw = record()
    f, a, r = 2e-11, 7e-11, 4e-10
    for k in KERNELS:
        raw["samples"][f"runtime:{k.name}"] = [(k.flops * f + k.accesses * a) * x for x in (0.9, 1.0, 1.5)]
    for rec in RECURRENCES:
        raw["samples"][f"recurrence:{rec.name}"] = [rec.flops * f + rec.accesses * a + rec.chain * r] * 3
    cal = calibration(raw)
    assert cal.values()["recurrence_time"] == pytest.approx(r)
    text = profile_text(cal, "local", load_profile(PROFILES / "cluster_ib.yaml"), "autodist calibrate -np 2", WHEN)
    assert "recurrence_time: what loops whose iterations wait for one another take" in text
    assert f"chain {RECURRENCES[0].chain}: median" in text
    assert write_profile(tmp_path / "local.yaml", text).recurrence_time == pytest.approx(r, rel=1e-4)
    # without the runtime's kernels, no recurrence is measured: the key is left out (0)
    assert "recurrence_time" not in calibration(record()).values()


def test_never_overwrites_without_force(tmp_path):
    path = tmp_path / "local.yaml"
    path.write_text("# mine\n")
    text = profile_text(calibration(record()), "local", load_profile(PROFILES / "ddt1997.yaml"))
    with pytest.raises(UsageError, match="the file exists \\(use --force to replace it\\)"):
        write_profile(path, text)
    assert path.read_text() == "# mine\n"
    assert write_profile(path, text, force=True).latency == 1.5e-6
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left


def test_an_invalid_profile_is_never_written(tmp_path):
    with pytest.raises(ProfileError, match="flop_time"):
        write_profile(tmp_path / "bad.yaml", "name: bad\nprocessors: 2\nremote_access_time: 1.0e-9\n"
                                            "flop_time: -1.0e-9\n")
    assert list(tmp_path.iterdir()) == []


def test_kernels_that_give_no_flop_time_are_an_error():
    raw = record()
    for k in KERNELS:  # every kernel as fast as its accesses alone: no flop cost at all
        raw["samples"][f"kernel:{k.name}"] = [k.accesses * A] * 3
    with pytest.raises(AutodistError, match="no time per flop"):
        calibration(raw)
