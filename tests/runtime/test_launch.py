"""Launching MPI jobs: finding mpiexec, detecting a running job, faults, timeouts."""

from __future__ import annotations

import io
import sys
import textwrap
from pathlib import Path

import pytest

from autodist.errors import RuntimeFault
from autodist.runtime.job.launch import find_mpiexec, in_mpi_job, launch, mpiexec_command, spmd

ROOT = Path(__file__).resolve().parent.parent.parent

FAULTY = '''
    import sys
    from mpi4py import MPI
    from autodist.errors import UnsupportedError
    from autodist.runtime.job.launch import guarded

    def work(kind):
        comm = MPI.COMM_WORLD
        if comm.Get_rank() == 1:
            if kind == "user":
                raise UnsupportedError("prog.f:12: statement outside the subset")
            return 1 // 0
        comm.Barrier()  # rank 0 would wait here forever without the abort
        print("rank 0 finished", flush=True)

    sys.exit(guarded(work, sys.argv[1]))
'''


def run(tmp_path, script: str, args, nranks: int, timeout: float = 120):
    path = tmp_path / "job.py"
    path.write_text(textwrap.dedent(script))
    out, err = tmp_path / "out.txt", io.StringIO()
    with open(out, "w") as so:
        code = launch([str(path), *args], nranks, timeout, stdout=so, stderr=err, cwd=str(ROOT))
    return code, out.read_text(), err.getvalue()


def test_mpiexec_is_the_one_beside_python():
    path = find_mpiexec()
    assert Path(path).exists()
    beside = Path(sys.executable).parent / "mpiexec"
    if beside.exists():
        assert path == str(beside)
    cmd = mpiexec_command(3, ["-m", "autodist", "info"], mpiexec="mpiexec")
    assert cmd == ["mpiexec", "-n", "3", sys.executable, "-m", "autodist", "info"]
    with pytest.raises(RuntimeFault, match="must be positive"):
        mpiexec_command(0, [])


def test_running_job_is_detected_from_the_environment():
    assert in_mpi_job({"PMI_RANK": "0", "PMI_SIZE": "4"})
    assert in_mpi_job({"OMPI_COMM_WORLD_SIZE": "2"})
    assert in_mpi_job({"PMIX_RANK": "1"})
    assert not in_mpi_job({"HOME": "/root"})


@pytest.mark.mpi
def test_user_error_on_one_rank_ends_the_job_with_its_message(tmp_path):
    code, out, err = run(tmp_path, FAULTY, ["user"], 2)
    assert code == 2
    assert err.strip() == "autodist: error: rank 1: prog.f:12: statement outside the subset"
    assert "rank 0 finished" not in out


@pytest.mark.mpi
def test_bug_on_one_rank_ends_the_job_too(tmp_path):
    code, _, err = run(tmp_path, FAULTY, ["bug"], 3)
    assert code == 3
    assert err.strip() == "autodist: internal error: rank 1: ZeroDivisionError: integer division or modulo by zero"


@pytest.mark.mpi
def test_timeout_kills_the_job_and_says_so(tmp_path):
    with pytest.raises(RuntimeFault, match=r"on 2 rank\(s\) did not finish within 2 s and was killed"):
        run(tmp_path, "import time\ntime.sleep(300)\n", [], 2, timeout=2)


def test_spmd_runs_in_place_on_one_rank():
    calls = []
    assert spmd(["info"], 1, lambda x: calls.append(x) or 5, "here") == 5
    assert calls == ["here"]


@pytest.mark.mpi
def test_spmd_relaunches_autodist_on_n_ranks(tmp_path, capfd):
    code = spmd(["info"], 2, lambda: pytest.fail("must not run in the launcher"), timeout=120)
    assert code == 0
    out = capfd.readouterr().out
    assert out.count("MPI library:") == 2  # `autodist info` ran on both ranks
