"""What the vectorized phase functions call at run time: the local range of a
loop on this rank (:class:`VecRange`), array section selectors with bounds
checks, reductions in the sequential order (``np.<op>.accumulate`` never
reassociates), fancy indexing of strided or periodic sets, broadcasting.
:data:`FAST_HELPERS` is the namespace the generated code sees."""

from __future__ import annotations

import numpy as np

from ...errors import RuntimeFault
from ...layout.sections import IndexSet


class VecRange:
    """The values of a vectorized loop variable on this rank: an arithmetic
    progression (``first``, ``step``, ``n``) or explicit ``values``."""

    __slots__ = ("first", "step", "n", "values")

    def __init__(self, first: int, step: int, n: int, values: np.ndarray | None = None):
        self.first, self.step, self.n, self.values = first, step, n, values

    def array(self) -> np.ndarray:
        """The values as a numpy vector: int32 like Fortran's INTEGER (so that
        integer arithmetic on it runs at that width, as compiled code does)."""
        vals = self.values if self.values is not None else self.first + self.step * np.arange(self.n, dtype=np.int64)
        if len(vals) and max(abs(int(vals.min())), abs(int(vals.max()))) < 2 ** 31:
            return vals.astype(np.int32)
        return vals

    def bounds(self, c1: int, c0: int) -> tuple[int, int]:
        """Smallest and largest of ``c1 * v + c0`` over the values."""
        if self.n == 0:
            return (0, -1)
        if self.values is not None:
            x = c1 * self.values + c0
            return int(x.min()), int(x.max())
        a, b = c1 * self.first + c0, c1 * (self.first + self.step * (self.n - 1)) + c0
        return (a, b) if a <= b else (b, a)


def loop_values(a: int, b: int, st: int, s: IndexSet | None):
    """``range(a, b, st)`` (Fortran bounds: ``b`` inclusive) restricted to ``s``
    (None: everything), in the loop's order: a ``range`` or a list."""
    if st == 0:
        raise RuntimeFault("DO loop with a zero step")
    r = range(a, b + (1 if st > 0 else -1), st)
    if s is None or not r:
        return r
    lo, hi = (r[0], r[-1]) if st > 0 else (r[-1], r[0])
    if s.is_interval:
        lo2, hi2 = max(lo, s.lo), min(hi, s.hi)
        if lo2 > hi2:
            return range(0)
        if st > 0:
            first = a + -(-(lo2 - a) // st) * st
            return range(first, hi2 + 1, st)
        first = a - (-(-(a - hi2) // -st)) * -st
        return range(first, lo2 - 1, st)
    vals = s.clip(lo, hi).to_array()
    vals = vals[(vals - a) % st == 0]
    if st < 0:
        vals = vals[::-1]
    return vals.tolist()


def vec_range(a: int, b: int, st: int, s: IndexSet | None) -> VecRange:
    vals = loop_values(a, b, st, s)
    if isinstance(vals, range):
        return VecRange(vals.start, vals.step, len(vals))
    arr = np.asarray(vals, dtype=np.int64)
    if len(arr) >= 2 and np.all(np.diff(arr) == arr[1] - arr[0]):
        return VecRange(int(arr[0]), int(arr[1] - arr[0]), len(arr))
    if len(arr) == 1:
        return VecRange(int(arr[0]), 1, 1)
    return VecRange(0, 1, len(arr), arr)


def selector(vr: VecRange, c1: int, c0: int, lo: int, hi: int, slo: int, shi: int, what: str):
    """Storage positions of ``c1 * v + c0`` for the values of ``vr``, where
    storage position 0 holds global index ``slo``; checks the declared bounds
    ``lo..hi`` (a fault) and the storage ``slo..shi``."""
    if vr.n == 0:
        return slice(0, 0)
    mn, mx = vr.bounds(c1, c0)
    if mn < lo or mx > hi:
        bad = mn if mn < lo else mx
        raise RuntimeFault(f"index {bad} of {what} is outside {lo}:{hi}")
    if mn < slo or mx > shi:
        raise RuntimeFault(f"internal: index {mn}..{mx} of {what} is not stored on this rank ({slo}:{shi})")
    if vr.values is not None:
        return c1 * vr.values + (c0 - slo)
    start = c1 * vr.first + c0 - slo
    step = c1 * vr.step
    stop = start + step * vr.n
    return slice(start, stop if stop >= 0 else None, step)


def check(x: int, lo: int, hi: int, what: str) -> None:
    """A subscript inside the declared bounds ``lo..hi`` (else a fault)."""
    if not lo <= x <= hi:
        raise RuntimeFault(f"index {x} of {what} is outside {lo}:{hi}")


def check_span(v0: int, v1: int, c1: int, c0: int, lo: int, hi: int, what: str) -> None:
    """:func:`check` for ``c1 * v + c0`` at both ends of a loop's range."""
    check(c1 * v0 + c0, lo, hi, what)
    check(c1 * v1 + c0, lo, hi, what)


def _accumulate(ufunc, r, terms, mask):
    """``r op t1 op t2 ...`` over the terms (masked out ones skipped) in
    Fortran order: ``ufunc.accumulate`` adds strictly left to right (no
    pairwise summation), as the sequential loop does."""
    t = np.asarray(terms).reshape(-1, order="F") if np.ndim(terms) else np.asarray([terms])
    if mask is not None:
        t = t[np.broadcast_to(mask, np.shape(terms)).reshape(-1, order="F")] if np.ndim(terms) else \
            (t if bool(mask) else t[:0])
    if t.size == 0:
        return r
    acc = ufunc.accumulate(np.concatenate((np.asarray([r], dtype=t.dtype), t)))
    return type(r)(acc[-1]) if not isinstance(r, np.generic) else acc[-1]


def red_sum(r, terms, mask=None):
    return _accumulate(np.add, r, terms, mask)


def red_prod(r, terms, mask=None):
    return _accumulate(np.multiply, r, terms, mask)


def _extreme(pick, r, terms, mask):
    """``MAX(r, t1, t2, ...)`` (``pick`` is max) or the MIN: exact in any order."""
    t = np.asarray(terms)
    if mask is not None:
        shape = np.broadcast(t, mask).shape
        t = np.broadcast_to(t, shape)[np.broadcast_to(mask, shape)]
    if t.size == 0:
        return r
    m = t.max() if pick is max else t.min()
    return r if pick(r, m) == r else type(r)(m)


def red_max(r, terms, mask=None):
    return _extreme(max, r, terms, mask)


def red_min(r, terms, mask=None):
    return _extreme(min, r, terms, mask)


def _fancy(items: tuple) -> tuple[tuple, list[int]]:
    """A numpy index for storage positions given per dimension as an int (a
    scalar subscript), a slice or an integer array, that keeps the axes in
    order (numpy moves mixed advanced indices to the front); and the shape
    of the selection without the scalar dimensions."""
    keep: list[int] = []
    comps = []
    arrays = sum(isinstance(x, np.ndarray) for x in items)
    for x in items:
        if isinstance(x, np.ndarray):
            comps.append(x)
            keep.append(len(x))
        elif isinstance(x, slice):
            comps.append(x)
            keep.append(len(range(*x.indices(1 << 62))) if x.stop is not None else None)
        else:
            comps.append(slice(int(x), int(x) + 1))
    if arrays > 1:
        comps = list(np.ix_(*[np.arange(c.start, c.stop, c.step or 1) if isinstance(c, slice) else c
                              for c in comps]))
    return tuple(comps), keep


def fancy_get(store: np.ndarray, items: tuple) -> np.ndarray:
    """``store`` at the positions ``items`` (see :func:`_fancy`), scalar
    dimensions dropped."""
    idx, _ = _fancy(items)
    got = store[idx]
    shape = [n for n, x in zip(got.shape, items) if isinstance(x, (slice, np.ndarray))]
    return got.reshape(shape)


def fancy_set(store: np.ndarray, items: tuple, value) -> None:
    idx, _ = _fancy(items)
    target = store[idx].shape
    shape = [n for n, x in zip(target, items) if isinstance(x, (slice, np.ndarray))]
    store[idx] = np.broadcast_to(value, shape).reshape(target)


def expand(a, shape: tuple[int, ...]):
    """A (possibly lower-dimensional) value broadcast to the chain's shape."""
    return np.broadcast_to(a, shape)


FAST_HELPERS = {"_loop_values": loop_values, "_vec_range": vec_range, "_sel": selector, "_check": check,
                "_check_span": check_span, "_red_sum": red_sum, "_red_prod": red_prod, "_red_max": red_max,
                "_red_min": red_min, "_expand": expand, "_fancy_get": fancy_get, "_fancy_set": fancy_set}
