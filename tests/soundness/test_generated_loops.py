"""End to end soundness: on random loop programs, the runtime's vectorized
execution of the loops analysis calls parallel gives gfortran's results."""

from __future__ import annotations

import pytest

from autodist.analysis import analyze
from autodist.frontend import read_text

from ..conftest import requires_gfortran
from .generate import program


@pytest.mark.parametrize("seed", range(4))
def test_generated_programs_analyze(seed):
    an = analyze(read_text(program(seed), "fz.f"))
    assert an.procedures[0].phases


@requires_gfortran
@pytest.mark.gfortran
def test_vectorized_runs_match_gfortran():
    from mpi4py import MPI

    from tests.runtime.programs import check_against_gfortran

    failures = []
    for seed in range(24):
        text = program(seed)
        try:
            check_against_gfortran(MPI.COMM_SELF, text)
        except AssertionError as exc:
            failures.append(f"seed {seed}: {exc}")
    assert not failures, "\n".join(failures)
