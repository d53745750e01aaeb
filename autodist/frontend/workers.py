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

import multiprocessing
import os
import sys
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Sequence

from .. import ir

#: Below this many lines a program is read on one process (forking and
#: sending the units back cost about 0.1 s).
PARALLEL_LINES = 2000

#: At most this many worker processes.
MAX_WORKERS = 8

#: Environment variables that MPI process managers set in every rank.
MPI_ENVIRONMENT = ("PMI_RANK", "PMI_SIZE", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE", "MV2_COMM_WORLD_SIZE",
                   "MPI_LOCALNRANKS", "HYDRA_CONTROL_FD")

#: The jobs of the pool being run (inherited by its forked workers).
_JOBS: Sequence[Callable[[], ir.Unit]] = ()


def workers_for(lines: int, units: int) -> int:
    """How many processes to read ``units`` units of ``lines`` lines on (1: here)."""
    if lines < PARALLEL_LINES or units < 2 or not _may_fork():
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_WORKERS, units))


def _may_fork() -> bool:
    if "fork" not in multiprocessing.get_all_start_methods():
        return False
    if threading.active_count() > 1:
        return False  # a fork copies one thread: locks other threads hold stay held
    if any(k in os.environ for k in MPI_ENVIRONMENT) or "mpi4py.MPI" in sys.modules:
        return False
    return True


def _one(k: int) -> ir.Unit | None:
    try:
        return _JOBS[k]()
    except BaseException:  # read again in the parent, which raises it in order
        return None


def read_units(jobs: Sequence[Callable[[], ir.Unit]], workers: int) -> list[ir.Unit]:
    """Every job's unit, in order: on ``workers`` forked processes when more
    than one, else here."""
    global _JOBS
    if workers <= 1:
        return [job() for job in jobs]
    _JOBS = jobs
    try:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            got = list(pool.map(_one, range(len(jobs))))
    except BrokenProcessPool:  # a worker died (a crash in C code): read everything here
        got = [None] * len(jobs)
    finally:
        _JOBS = ()
    return [unit if unit is not None else job() for unit, job in zip(got, jobs)]
