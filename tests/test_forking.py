"""The pool of forked workers: results in order, a piece that fails is left
to the caller, a worker that dies leaves everything to the caller and the
pool is not used again, and closing it stops every worker."""

from __future__ import annotations

import os

from autodist.forking import ForkPool

PARENT = os.getpid()


def _square(k: int) -> tuple[int, int]:
    if k == 7:
        raise ValueError("a bug in one piece")
    return k * k, os.getpid()


def _dies(k: int) -> int:
    if k == 3 and os.getpid() != PARENT:
        os._exit(9)  # a crash in C code
    return k


def test_results_come_back_in_order_and_a_failing_piece_is_left_to_the_caller():
    with ForkPool(_square, 2) as pool:
        got = pool.map(list(range(12)), lambda i: i % 2 if i < 6 else None)
        again = pool.map([2, 3])
        procs = list(pool._procs)
    assert got[7] is None
    assert [g[0] for k, g in enumerate(got) if k != 7] == [k * k for k in range(12) if k != 7]
    assert {g[1] for g in got if g is not None} <= {p.pid for p in procs}  # not here
    assert [g[0] for g in again] == [4, 9]  # the same workers serve later batches
    assert all(not p.is_alive() for p in procs)


def test_a_worker_that_dies_leaves_every_piece_to_the_caller():
    pool = ForkPool(_dies, 2)
    try:
        assert pool.map(list(range(6))) == [None] * 6
        assert pool.broken
        assert pool.map([1, 2]) == [None, None]  # not used again, and no wait
    finally:
        pool.close()
