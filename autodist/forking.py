"""Work on forked processes: when this process may fork, and a pool that does.

Two stages spend seconds on independent pieces of pure work: reading the
units of a large program (fparser2) and pricing phases under the layouts a
mapping search tries (the owner-computes analysis of each phase).  On a
machine with more than one processor both run on forked workers, which
inherit everything computed so far; each piece's result comes back pickled.

A fork is safe only from a process with one thread (locks other threads hold
would stay held in the child) that is not a rank of an MPI job (its library
does not survive a fork).  A piece whose worker raised, or died, is done
again in this process, so that errors and results are exactly those of
doing everything here.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import sys
import threading
from collections import deque
from multiprocessing.connection import wait
from typing import Any, Callable, Sequence

#: At most this many worker processes.
MAX_WORKERS = 8

#: Environment variables that MPI process managers set in every rank.
MPI_ENVIRONMENT = ("PMI_RANK", "PMI_SIZE", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE", "MV2_COMM_WORLD_SIZE",
                   "MPI_LOCALNRANKS", "HYDRA_CONTROL_FD")


def may_fork() -> bool:
    """This process can fork workers safely."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return False
    if threading.active_count() > 1:
        return False  # a fork copies one thread: locks other threads hold stay held
    if any(k in os.environ for k in MPI_ENVIRONMENT) or "mpi4py.MPI" in sys.modules:
        return False
    return True


def processors() -> int:
    """The processors this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


#: The job of the pool being started (inherited by its forked workers).
_JOB: Callable[[Any], Any] | None = None


def _serve(conn) -> None:
    """A worker: runs the job on each item it receives until told to stop
    (or interrupted: the parent reports that)."""
    try:
        while True:
            item = conn.recv()
            if item is None:  # stop
                break
            try:
                out = _JOB(item)  # type: ignore[misc]
            except Exception:  # done again in the parent, which raises it there
                out = None
            try:
                conn.send(out)
            except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
                conn.send(None)  # a result that cannot be sent is made again there
    except (EOFError, OSError, KeyboardInterrupt):
        pass
    finally:
        conn.close()


class ForkPool:
    """``job(item)`` on ``workers`` forked processes, forked when first used
    (they see what this process computed up to then; the caller has checked
    :func:`may_fork`).  Items are never ``None``.

    :meth:`map` gives each item's result in order, ``None`` where a worker
    raised or died (the caller then does that item itself); after a worker
    died the pool is not used again.  An item may be placed on a worker (its
    caches hold what the item needs): it runs there unless that worker is
    busy while another has nothing left, which then takes it.  Close the pool
    (or use it as a context manager) to stop the workers."""

    def __init__(self, job: Callable[[Any], Any], workers: int):
        self.job = job
        self.workers = workers
        self.broken = False
        self._conns: list = []
        self._procs: list = []

    @property
    def started(self) -> bool:
        return bool(self._conns)

    def _start(self) -> None:
        global _JOB
        _JOB = self.job
        ctx = multiprocessing.get_context("fork")
        try:
            for _ in range(self.workers):
                mine, theirs = ctx.Pipe()
                proc = ctx.Process(target=_serve, args=(theirs,), daemon=True)
                proc.start()
                theirs.close()
                self._conns.append(mine)
                self._procs.append(proc)
        finally:
            _JOB = None

    def map(self, items: Sequence[Any], place: Callable[[int], int | None] | None = None) -> list[Any]:
        """Each item's result; ``place(i)``: the worker item ``i`` should run
        on (None: any)."""
        out: list[Any] = [None] * len(items)
        if self.broken or not items:
            return out
        if not self._conns:
            self._start()
        own: list[deque[int]] = [deque() for _ in self._conns]
        shared: deque[int] = deque()
        for i in range(len(items)):
            w = place(i) if place is not None else None
            (own[w % len(own)] if w is not None else shared).append(i)
        running: dict[int, int] = {}  # worker -> item

        def give(w: int) -> None:
            queue = own[w] if own[w] else shared if shared else max(own, key=len)
            if queue:
                i = queue.popleft() if queue is own[w] or queue is shared else queue.pop()
                self._conns[w].send(items[i])
                running[w] = i

        try:
            for w in range(len(self._conns)):
                give(w)
            while running:
                for conn in wait([self._conns[w] for w in running]):
                    w = self._conns.index(conn)
                    out[running.pop(w)] = conn.recv()
                    give(w)
        except (EOFError, OSError):  # a worker died (a crash in C code)
            self.broken = True
            self.close()
            return [None] * len(items)
        return out

    def close(self) -> None:
        for conn in self._conns:
            try:
                conn.send(None)
            except OSError:
                pass
            conn.close()
        for proc in self._procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()
                proc.join()
        self._conns, self._procs = [], []

    def __enter__(self) -> "ForkPool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
