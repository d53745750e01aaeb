"""Processor grids: the ways of arranging ``P`` processors over ``k`` dimensions.

Both the HPF resolver (the default arrangement of a DISTRIBUTE without
``ONTO``) and the candidate search (every grid worth evaluating) enumerate
them here.
"""

from __future__ import annotations


def factorizations(n: int, k: int, least: int = 1) -> list[tuple[int, ...]]:
    """Ordered factorizations of ``n`` into ``k`` factors, each ``>= least``, in
    increasing order of the first factor (then of the next ...)."""
    if k == 0:
        return [()] if n == 1 else []
    if k == 1:
        return [(n,)] if n >= least else []
    out = []
    for f in range(least, n + 1):
        if n % f == 0:
            out.extend((f,) + rest for rest in factorizations(n // f, k - 1, least))
    return out


def default_grid(nprocs: int, ndims: int) -> tuple[int, ...]:
    """``nprocs`` factored over ``ndims`` dimensions as squarely as possible (the
    smallest largest factor), larger factors first: 16 on two is 4x4, 8 is 4x2."""
    if ndims == 0:
        return ()
    best: tuple[int, ...] | None = None
    for f in factorizations(nprocs, ndims):
        if best is None or (max(f), tuple(-x for x in f)) < (max(best), tuple(-x for x in best)):
            best = f
    assert best is not None
    return best
