"""MPI cases of generated mapped programs (run by tests/runtime/mpi_harness.py at
1, 2, 3 and 4 ranks): random loop programs under random HPF mappings — BLOCK,
CYCLIC(k), stride, offset and reflection alignments, transposed alignment —
with dependence distances held in variables, must give gfortran's arrays and
printed values at every rank count."""

from __future__ import annotations

from tests.runtime.programs import check_against_gfortran
from tests.soundness.generate import program

#: Seeds of the generated programs (each case runs every seed at every rank count).
SEEDS = range(24)


def mpi_case_generated_mapped_programs(comm):
    failures = []
    for seed in SEEDS:
        text = program(seed, mapped=True) if comm.Get_rank() == 0 else ""
        try:
            check_against_gfortran(comm, text)
        except AssertionError as exc:  # rank 0 only, after the collective work: go on with the next seed
            failures.append(f"seed {seed}: {exc}")
    assert not failures, "\n".join(failures)


DISTANCE_BEYOND_GHOSTS = """      PROGRAM FAR
      INTEGER N, K, I
      PARAMETER (N = 64)
      DOUBLE PRECISION A(N)
CHPF$ DISTRIBUTE A(BLOCK)
      K = 15
      DO 10 I = 1, N
        A(I) = 0.0D0
   10 CONTINUE
      DO 20 I = K + 1, N
        A(I) = (A(I - K) + 2.0D0) * 0.5D0 + A(I - K) * 0.5D0
   20 CONTINUE
      DO 30 I = N - K, 1, -1
        A(I) = (A(I + K) + 2.0D0) * 0.5D0
   30 CONTINUE
      PRINT *, A(1), A(N)
      END
"""


def mpi_case_pipeline_through_a_window(comm):
    # a sequential loop whose distance is about a block: what a rank needs from its
    # predecessors goes into a window of the global index space, and what it hands on
    # must be taken from there (not from its own storage, which is stale until the end)
    check_against_gfortran(comm, DISTANCE_BEYOND_GHOSTS if comm.Get_rank() == 0 else "")
