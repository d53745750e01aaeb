"""The MPI test harness reports passing, failing and hanging cases correctly."""

from __future__ import annotations

import os
import textwrap

import pytest

from .mpi_harness import discover, launch_cases

CASES = '''
    def mpi_case_passes(comm):
        assert comm.allreduce(1) == comm.Get_size()

    def mpi_case_fails_on_last_rank(comm):
        n = comm.allreduce(1)
        assert comm.Get_rank() != n - 1, "last rank says no"

    def helper_not_a_case(comm):
        raise AssertionError("never run")

    def mpi_case_leaves_the_others_waiting(comm):
        if comm.Get_rank() == 0:
            raise RuntimeError("rank 0 gives up before the barrier")
        comm.Barrier()

    def mpi_case_after_the_hang(comm):
        pass
'''


@pytest.mark.mpi
def test_harness_reports_each_case(tmp_path):
    path = tmp_path / "mpi_cases_demo.py"
    path.write_text(textwrap.dedent(CASES))
    assert [name for _, name in discover(tmp_path)] == [
        "mpi_case_passes", "mpi_case_fails_on_last_rank", "mpi_case_leaves_the_others_waiting",
        "mpi_case_after_the_hang"]
    env = dict(os.environ, AUTODIST_MPI_FAILED_SYNC_TIMEOUT="1")
    results, _ = launch_cases(2, [path], timeout=120, env=env)
    assert results["mpi_cases_demo.py::passes"].ok
    failed = results["mpi_cases_demo.py::fails_on_last_rank"]
    assert not failed.ok and failed.message.startswith("rank 1: AssertionError: last rank says no")
    hung = results["mpi_cases_demo.py::leaves_the_others_waiting"]
    assert not hung.ok
    assert "rank 0: RuntimeError: rank 0 gives up before the barrier" in hung.message
    assert "the other ranks did not finish the case" in hung.message
    after = results["mpi_cases_demo.py::after_the_hang"]
    assert not after.ok and "did not reach it" in after.message
