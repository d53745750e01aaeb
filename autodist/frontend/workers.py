"""Reading the program units of a large program on several processes.

fparser2 takes most of the time of reading a program (about 1.3 ms per
line: 9 s of UA's 7,000 lines), and program units parse independently.  So
when a program is large, the machine has more than one processor and this
process may fork safely (one thread, not a rank of an MPI job, whose library
does not survive a fork), the units are parsed and read by forked workers,
each returning finished IR units.  A unit whose reading raises anything is
read again here, in order, so that errors (the first in reading order) and
internal errors are exactly those of reading on one process.
"""

from __future__ import annotations

from typing import Callable, Sequence

from .. import ir
from ..forking import MAX_WORKERS, ForkPool, may_fork, processors

#: Below this many lines a program is read on one process (forking and
#: sending the units back cost about 0.1 s).
PARALLEL_LINES = 2000

#: The jobs of the pool being run (inherited by its forked workers).
_JOBS: Sequence[Callable[[], ir.Unit]] = ()


def workers_for(lines: int, units: int) -> int:
    """How many processes to read ``units`` units of ``lines`` lines on (1: here)."""
    if lines < PARALLEL_LINES or units < 2 or not _may_fork():
        return 1
    return max(1, min(processors(), MAX_WORKERS, units))


def _may_fork() -> bool:
    return may_fork()


def _one(k: int) -> ir.Unit:
    return _JOBS[k]()


def read_units(jobs: Sequence[Callable[[], ir.Unit]], workers: int) -> list[ir.Unit]:
    """Every job's unit, in order: on ``workers`` forked processes when more
    than one, else here (a unit a worker could not read is read here, which
    raises its error in order)."""
    global _JOBS
    if workers <= 1:
        return [job() for job in jobs]
    _JOBS = jobs
    try:
        with ForkPool(lambda k: _one(k), workers) as pool:
            got = pool.map(range(len(jobs)))
    finally:
        _JOBS = ()
    return [unit if unit is not None else job() for unit, job in zip(got, jobs)]
