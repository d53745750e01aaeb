"""Compute speed as the runtime delivers it, measured through the runtime on the ranks.

The cost model prices a loop's iteration as ``flops * flop_time + accesses *
memory_access_time``.  What a program's loops cost when autodist runs them is
the runtime's code — compiled kernels (numba) when numba is there, numpy
otherwise — not numpy statements on short vectors, which pay Python's
overhead on every statement.  So calibration runs the kernels of
:data:`~.bench.KERNELS` the way programs meet them: a program of our own with
one subroutine per kernel, its loop over arrays distributed BLOCK on every
rank of ``comm``, each called ``calls`` times, through the runtime (kernels
compiled before the measured run, as :mod:`.starts` does).  Each kernel's
time per element is the difference of its phase's compute time (the slowest
rank's) at two array sizes over the difference of the elements each rank
runs, so that the start of a phase (measured on its own, :mod:`.starts`) and
the call around it cancel.
"""

from __future__ import annotations

from dataclasses import dataclass

from .bench import KERNELS
from .starts import run_through_runtime

#: The kernels' loop bodies in Fortran, in the order of :data:`~.bench.KERNELS`.
BODIES = (
    "Y(I) = X(I) - X(I-1) * A(I) / B(I-1)",
    "Y(I) = X(I) / B(I)",
    "Y(I) = A(I)",
    "Y(I) = (X(I) - A(I-1) * X(I-1)) / B(I) + A(I) * B(I-1)",
    "Y(I) = ((X(I) * A(I) + B(I)) * X(I) + A(I)) * X(I) + B(I)",
)


@dataclass(frozen=True)
class Recurrence:
    """A loop whose iterations wait for one another: ``body`` carries a chain
    of ``chain`` latency units (as :mod:`autodist.analysis.recurrence` counts
    them) besides its ``flops`` and ``accesses``; ``before``/``after`` set up
    and keep its scalar."""

    body: str
    flops: int
    accesses: int
    chain: int
    before: str = ""
    after: str = ""

    @property
    def name(self) -> str:
        return self.body.lower().replace(" ", "")


#: The recurrences whose times give ``recurrence_time`` (values stay bounded:
#: the multipliers are below 1).
RECURRENCES = (
    Recurrence("Y(I) = X(I) - Y(I-1) * A(I) / B(I)", 3, 5, 6),
    Recurrence("Y(I) = Y(I-1) * A(I) + B(I)", 2, 4, 2),
    Recurrence("S = S + X(I) * A(I)", 2, 2, 1, "S = 0.0D0", "Y(1) = S"),
    Recurrence("S = MAX(S, ABS(X(I) - A(I)))", 3, 2, 1, "S = 0.0D0", "Y(1) = S"),
)

_ARRAYS = """\
      PARAMETER (N = {n})
      DOUBLE PRECISION Y(N), X(N), A(N), B(N)
      COMMON /V/ Y, X, A, B
CHPF$ PROCESSORS P({p})
CHPF$ DISTRIBUTE (BLOCK) ONTO P :: Y, X, A, B
"""


#: The recurrences' arrays: as many elements as a rank holds of the kernels', on
#: every rank (a recurrence along a distributed dimension would make the ranks
#: wait for one another, and a reduction would add a combine).
_LOCAL = """\
      PARAMETER (M = {m})
      DOUBLE PRECISION Y(M), X(M), A(M), B(M)
      COMMON /R/ Y, X, A, B
"""


def _loops() -> list[tuple[str, str, str]]:
    """(before, body, after) of each measured loop: the kernels, then the recurrences."""
    return [("", b, "") for b in BODIES] + [(r.before, r.body, r.after) for r in RECURRENCES]


def _init(n: str) -> list[str]:
    return [f"      DO I = 1, {n}",
            "         X(I) = 1.0D0 + MOD(I, 7) * 0.125D0",
            "         A(I) = 0.1D0 + MOD(I, 5) * 0.0625D0",
            "         B(I) = 3.0D0 + MOD(I, 3) * 0.5D0",
            "         Y(I) = 0.0D0",
            "      END DO"]


def program(n: int, nranks: int, calls: int) -> str:
    """The measuring program: arrays of ``n`` elements on ``nranks`` ranks,
    each loop's subroutine called ``calls`` times."""
    decl = _ARRAYS.format(n=n, p=nranks).rstrip("\n")
    local = _LOCAL.format(m=n // nranks).rstrip("\n")
    text = ["      PROGRAM SPEED", "      INTEGER N, I, K", decl] + _init("N") + ["      CALL RINIT"]
    loops = _loops()
    for k in range(len(loops)):
        text += [f"      DO K = 1, {calls}", f"         CALL KERN{k + 1}", "      END DO"]
    text.append("      END")
    text += ["", "      SUBROUTINE RINIT", "      INTEGER M, I", local] + _init("M") + ["      END"]
    for k, (before, body, after) in enumerate(loops):
        recurrence = k >= len(BODIES)
        text += ["", f"      SUBROUTINE KERN{k + 1}", f"      INTEGER {'M' if recurrence else 'N'}, I",
                 "      DOUBLE PRECISION S", local if recurrence else decl]
        text += [f"      {before}"] if before else []
        text += [f"      DO I = 2, {'M' if recurrence else 'N'}", f"         {body}", "      END DO"]
        text += [f"      {after}"] if after else []
        text.append("      END")
    return "\n".join(text) + "\n"


def _phase_seconds(comm, n: int, calls: int) -> list[float]:
    """Per kernel, the slowest rank's compute seconds in its phase over ``calls`` calls."""
    from mpi4py import MPI

    ex, _ = run_through_runtime(comm, program(n, comm.Get_size(), calls))
    mine = [ex.comms.stats.region(f"KERN{k + 1}:1").compute_time for k in range(len(_loops()))]
    return [comm.allreduce(t, op=MPI.MAX) for t in mine]


def element_times(comm, per_rank: int, calls: int) -> list[float]:
    """Seconds per element of each kernel of :data:`~.bench.KERNELS`, then of
    each loop of :data:`RECURRENCES`, run by the runtime on every rank of ``comm`` (every rank calls this; the same list on
    every rank): the phase's time at ``per_rank`` elements per rank less its
    time at a quarter of that, over the elements between."""
    p = comm.Get_size()
    large, small = per_rank * p, max(per_rank // 4, 8) * p
    t_large = _phase_seconds(comm, large, calls)
    t_small = _phase_seconds(comm, small, calls)
    elements = (large - small) / p * calls
    return [max(a - b, 0.0) / elements for a, b in zip(t_large, t_small)]


assert len(BODIES) == len(KERNELS)
