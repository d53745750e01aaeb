"""The MPI cases of the whole project (files ``tests/**/mpi_cases_*.py``), one
``mpiexec`` launch per rank count; see ``mpi_harness.py`` for adding cases."""

from __future__ import annotations

import pytest

from .mpi_harness import case_id, discover, launch_cases

CASES = discover()
FILES = sorted({path for path, _ in CASES})
RANKS = (1, 2, 3, 4)


@pytest.fixture(scope="session", params=RANKS, ids=lambda n: f"np{n}")
def mpi_results(request):
    results, _ = launch_cases(request.param, FILES)
    return request.param, results


@pytest.mark.mpi
@pytest.mark.parametrize("case", [case_id(p, n) for p, n in CASES])
def test_mpi_case(mpi_results, case):
    nranks, results = mpi_results
    result = results[case]
    if not result.ok:
        pytest.fail(f"{case} on {nranks} rank(s): {result.message}", pytrace=False)
