"""The start of a loop phase as the runtime makes it, measured on the ranks.

A barrier is what a parallel loop's start costs an HPF compiler's code; the
runtime's costs more: each execution of a planned phase looks its plan up,
prepares its storage and calls its kernel from Python, and a procedure
called around it binds its dummies.  The cost model prices that once per
execution of a phase (the profile's ``parallel_overhead``), so calibration
measures it the way programs meet it: a program of our own calls, ``calls``
times, a subroutine whose one phase touches a few elements of a BLOCK
distributed array, through the runtime on every rank of ``comm``.  What one
call costs, numba's compiling and the one-time planning left out (as the
runtime's report leaves them out), is the start overhead.
"""

from __future__ import annotations

import io
import tempfile
import time
from pathlib import Path

#: The declarations both units share (the array, its mapping).
_ARRAY = """\
      PARAMETER (N = {n})
      DOUBLE PRECISION A(N)
      COMMON /C/ A
CHPF$ PROCESSORS P({p})
CHPF$ DISTRIBUTE A(BLOCK) ONTO P
"""

_STARTS = ("      PROGRAM STARTS\n      INTEGER N, K, I\n" + _ARRAY
           + "      DO I = 1, N\n         A(I) = 0\n      END DO\n"
           "      DO K = 1, {calls}\n         CALL BUMP\n      END DO\n      END\n\n"
           "      SUBROUTINE BUMP\n      INTEGER N, I\n" + _ARRAY
           + "      DO I = 1, N\n         A(I) = A(I) + 1\n      END DO\n      END\n")

def run_through_runtime(comm, text: str):
    """Run ``text`` through the runtime on ``comm``, every kernel compiled (or
    loaded) before it first runs: the executor after the run, and this rank's
    seconds, numba's and the planning left out."""
    from ..runtime.job.runner import _shared, prepare
    from ..runtime.spmd.executor import Executor, RunOptions

    with tempfile.TemporaryDirectory(prefix="autodist-calibrate-") as tmp:
        path = Path(tmp) / "calibrate.f"
        if comm.Get_rank() == 0:
            path.write_text(text)
        program, analysis, translations = _shared(comm, lambda: prepare([str(path)]))
    ex = Executor(program, analysis, comm, RunOptions(jit_after=0.0), out=io.StringIO(), translations=translations)
    comm.Barrier()
    t0 = time.perf_counter()
    a0 = ex.aside_seconds()
    ex.run()
    return ex, time.perf_counter() - t0 - (ex.aside_seconds() - a0)


def phase_start(comm, calls: int = 200) -> float:
    """Seconds per call of a one-phase subroutine on the ranks of ``comm``
    (every rank calls this; the slowest rank's time)."""
    from mpi4py import MPI

    nranks = comm.Get_size()
    mine = run_through_runtime(comm, _STARTS.format(n=4 * nranks, p=nranks, calls=calls))[1]
    return comm.allreduce(mine, op=MPI.MAX) / calls

