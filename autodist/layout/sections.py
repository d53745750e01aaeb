"""Sets of array indices: strided interval sets and rectangular sections.

An :class:`IndexSet` is a set of integers given by a *clip range* ``[lo, hi]``
and a *periodic pattern*: ``x`` is a member when ``lo <= x <= hi`` and
``x mod period`` falls in one of the half-open ``runs`` (sorted, disjoint,
within ``[0, period)``).  This one shape covers everything the layouts need:

* an interval (``period == 1``, one run ``(0, 1)``);
* the indices a processor owns under ``BLOCK`` (an interval), ``CYCLIC(k)``
  (``k``-wide runs with period ``k * p``), through alignment strides and
  reflections, and folded processor arrangements;
* a Fortran section ``lo:hi:step`` (period ``step``, one run of width 1);
* intersections of all these (period: the least common multiple, capped by the
  length of the clip range).

Queries (size, membership, rank of a member, the j-th member) cost
O(log runs) and never depend on the size of the range.  Listing the members or
the runs is proportional to what is listed.

A :class:`Section` is a rectangular section of an array: one
:class:`IndexSet` per dimension (their Cartesian product).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property, lru_cache
from math import gcd, prod
from typing import Iterator, Sequence

import numpy as np

from ..keys import cached_hash
from .periodic import Labeling

Run = tuple[int, int]


def _lcm(a: int, b: int) -> int:
    return a // gcd(a, b) * b


@lru_cache(maxsize=4096)
def _prime_factors(n: int) -> tuple[int, ...]:
    out = []
    f = 2
    while f * f <= n:
        if n % f == 0:
            out.append(f)
            while n % f == 0:
                n //= f
        f += 1
    if n > 1:
        out.append(n)
    return tuple(out)


def _merge_runs(runs: Sequence[Run]) -> tuple[Run, ...]:
    """Sort, drop empty runs and merge overlapping or touching ones."""
    if len(runs) > 32:
        a = np.array(runs, dtype=np.int64).reshape(-1, 2)
        return _merged(a[:, 0], a[:, 1])
    out: list[list[int]] = []
    for a, b in sorted(r for r in runs if r[1] > r[0]):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return tuple((a, b) for a, b in out)


def _merged(starts: np.ndarray, stops: np.ndarray) -> tuple[Run, ...]:
    """:func:`_merge_runs` of the runs ``(starts[i], stops[i])``, vectorized."""
    keep = stops > starts
    s, e = starts[keep], stops[keep]
    if len(s) == 0:
        return ()
    order = np.argsort(s, kind="stable")
    s, e = s[order], e[order]
    reach = np.maximum.accumulate(e)
    first = np.flatnonzero(np.concatenate(([True], s[1:] > reach[:-1])))
    return tuple(zip(s[first].tolist(), np.maximum.reduceat(e, first).tolist()))


def _residue_runs(starts: np.ndarray, stops: np.ndarray, period: int) -> tuple[Run, ...]:
    """Absolute half-open runs lying in one window of length <= ``period``, as
    runs of residues modulo ``period`` (a run that wraps is split)."""
    keep = stops > starts
    a, b = starts[keep], stops[keep]
    ra = a % period
    rb = ra + (b - a)
    wraps = rb > period
    return _merged(np.concatenate((ra, np.zeros(int(wraps.sum()), np.int64))),
                   np.concatenate((np.minimum(rb, period), rb[wraps] - period)))


def _periodic_in(runs: tuple[Run, ...], period: int, d: int) -> bool:
    """Whether the pattern (period ``period``) repeats every ``d`` (d divides period)."""
    base = [(a, min(b, d)) for a, b in runs if a < d]
    copies = [(a + j * d, b + j * d) for j in range(period // d) for a, b in base]
    return _merge_runs(copies) == runs


def _reduce_period(period: int, runs: tuple[Run, ...]) -> tuple[int, tuple[Run, ...]]:
    """The smallest period of the pattern (only tried for patterns of few runs)."""
    if len(runs) < 2 or len(runs) > 256:
        return period, runs
    changed = True
    while changed:
        changed = False
        for f in _prime_factors(period):
            if len(runs) % f and not (runs[0][0] == 0 and runs[-1][1] == period):
                continue
            d = period // f
            if _periodic_in(runs, period, d):
                runs = _merge_runs([(a, min(b, d)) for a, b in runs if a < d])
                period = d
                changed = True
                break
    return period, runs


@cached_hash
@dataclass(frozen=True)
class IndexSet:
    """A strided interval set: ``{x : lo <= x <= hi and x mod period in runs}``.

    Build one with :meth:`interval`, :meth:`strided`, :meth:`periodic` or
    :meth:`empty`; those return the normalized form (clip range tightened to
    the first and last member; a set without holes is a plain interval; the
    period reduced when the pattern repeats), so equal sets built the same way
    compare equal and hash alike.
    """

    lo: int
    hi: int
    period: int = 1
    runs: tuple[Run, ...] = ((0, 1),)

    # ---------------------------------------------------------------- builders

    @staticmethod
    def empty() -> "IndexSet":
        return _EMPTY

    @staticmethod
    def interval(lo: int, hi: int) -> "IndexSet":
        """``lo..hi`` inclusive (empty when ``hi < lo``)."""
        return IndexSet(lo, hi) if hi >= lo else _EMPTY

    @staticmethod
    def strided(lo: int, hi: int, step: int = 1) -> "IndexSet":
        """The Fortran triplet ``lo:hi:step`` (a negative step lists the same set
        backwards; the set is the same)."""
        if step == 0:
            raise ValueError("section stride must not be zero")
        if step < 0:
            if lo < hi:
                return _EMPTY
            lo, hi, step = lo - (lo - hi) // (-step) * (-step), lo, -step
        if hi < lo:
            return _EMPTY
        hi = lo + (hi - lo) // step * step
        return IndexSet.periodic(lo, hi, step, ((lo % step, lo % step + 1),))

    @staticmethod
    def periodic(lo: int, hi: int, period: int, runs: Sequence[Run]) -> "IndexSet":
        """The normalized set ``{x in [lo, hi] : x mod period in runs}``; runs
        must lie within ``[0, period)``."""
        if period < 1:
            raise ValueError("period must be positive")
        merged = _merge_runs(runs)
        if any(a < 0 or b > period for a, b in merged):
            raise ValueError(f"runs {merged} do not lie within [0, {period})")
        return IndexSet(lo, hi, period, merged)._normalized()

    @staticmethod
    def from_members(members: Sequence[int]) -> "IndexSet":
        """The set of the given integers (for tests and small sets)."""
        xs = np.unique(np.asarray(members if isinstance(members, np.ndarray) else list(members), dtype=np.int64))
        if len(xs) == 0:
            return _EMPTY
        cut = np.flatnonzero(np.diff(xs) != 1)
        starts = xs[np.concatenate(([0], cut + 1))]
        stops = xs[np.concatenate((cut, [len(xs) - 1]))] + 1
        return IndexSet.from_runs(starts, stops)

    @staticmethod
    def from_runs(starts: np.ndarray, stops: np.ndarray) -> "IndexSet":
        """The union of the absolute half-open runs ``[starts[i], stops[i])``
        (sorted and disjoint); costs their number, not their members'."""
        if len(starts) == 0:
            return _EMPTY
        lo, hi = int(starts[0]), int(stops[-1]) - 1
        runs = _residue_runs(starts, stops, hi - lo + 1)
        return IndexSet(lo, hi, hi - lo + 1, runs)._normalized() if runs else _EMPTY

    def _normalized(self) -> "IndexSet":
        if self.hi < self.lo or not self.runs:
            return _EMPTY
        period, runs = self.period, self.runs
        if runs == ((0, period),):
            return IndexSet(self.lo, self.hi)
        n = self.count()
        if n == 0:
            return _EMPTY
        first, last = self.select(0), self.select(n - 1)
        if last - first + 1 == n:
            return IndexSet(first, last)
        period, runs = _reduce_period(period, runs)
        span = last - first + 1
        if period > span:
            # The pattern does not repeat inside the range: re-anchor on a
            # period equal to the span so that sets compare equal by value.
            starts, stops = IndexSet(first, last, period, runs).runs_between(first, last)
            return IndexSet(first, last, span, _residue_runs(starts, stops, span))
        return IndexSet(first, last, period, runs)

    # ---------------------------------------------------------------- basic facts

    @cached_property
    def _starts(self) -> tuple[int, ...]:
        return tuple(a for a, _ in self.runs)

    @cached_property
    def _cum(self) -> tuple[int, ...]:
        """Members of one period before each run (and the total at the end)."""
        out = [0]
        for a, b in self.runs:
            out.append(out[-1] + b - a)
        return tuple(out)

    @property
    def per_period(self) -> int:
        """Members of the pattern in one period."""
        return self._cum[-1]

    def _below(self, x: int) -> int:
        """Members of the (unclipped) pattern in ``[0, x)``, negative below 0;
        differences of two values count members of a range."""
        q, r = divmod(x, self.period)
        j = bisect_right(self._starts, r) - 1
        part = 0 if j < 0 else self._cum[j] + min(r - self.runs[j][0], self.runs[j][1] - self.runs[j][0])
        return q * self.per_period + part

    def count(self) -> int:
        """Number of members."""
        return self._count

    @cached_property
    def _count(self) -> int:
        if self.hi < self.lo:
            return 0
        return self._below(self.hi + 1) - self._below(self.lo)

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        return self.hi >= self.lo and bool(self.runs)

    def counts_between(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Members in each ``[u[i], v[i]]`` (integer arrays), at once."""
        u, v = np.maximum(u, self.lo), np.minimum(v, self.hi)
        return np.where(v >= u, self._below_many(v + 1) - self._below_many(u), 0)

    def _below_many(self, x: np.ndarray) -> np.ndarray:
        """:meth:`_below` of every element of ``x``."""
        q, r = np.divmod(x, self.period)
        part = sum(np.clip(r - a, 0, b - a) for a, b in self.runs)
        return q * self.per_period + part

    def count_between(self, u: int, v: int) -> int:
        """Members in ``[u, v]``."""
        u, v = max(u, self.lo), min(v, self.hi)
        return self._below(v + 1) - self._below(u) if v >= u else 0

    def __contains__(self, x: object) -> bool:
        if not isinstance(x, (int, np.integer)):
            return False
        x = int(x)
        return self.lo <= x <= self.hi and self._below(x + 1) - self._below(x) == 1

    def rank(self, x: int) -> int:
        """Number of members smaller than ``x`` (the 0-based position of a member)."""
        x = min(max(x, self.lo), self.hi + 1)
        return self._below(x) - self._below(self.lo)

    def select(self, j: int) -> int:
        """The ``j``-th smallest member (0-based)."""
        if not 0 <= j < self.count():
            raise IndexError(f"member {j} of a set of {self.count()}")
        q, r = divmod(j + self._below(self.lo), self.per_period)
        t = bisect_right(self._cum, r) - 1
        return q * self.period + self.runs[t][0] + (r - self._cum[t])

    def first(self) -> int:
        return self.select(0)

    def last(self) -> int:
        return self.select(self.count() - 1)

    @property
    def is_interval(self) -> bool:
        """True for a non-empty set without holes."""
        return self.hi >= self.lo and self.period == 1 and self.runs == ((0, 1),)

    # ---------------------------------------------------------------- vectorized maps

    @cached_property
    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        starts = np.array([a for a, _ in self.runs], dtype=np.int64)
        lens = np.array([b - a for a, b in self.runs], dtype=np.int64)
        cum = np.array(self._cum[:-1], dtype=np.int64)
        return starts, lens, cum

    def _below_array(self, xs: np.ndarray) -> np.ndarray:
        starts, lens, cum = self._arrays
        q, r = np.divmod(xs, self.period)
        j = np.searchsorted(starts, r, side="right") - 1
        jj = np.maximum(j, 0)
        part = np.where(j >= 0, cum[jj] + np.minimum(r - starts[jj], lens[jj]), 0)
        return q * self.per_period + part

    def rank_array(self, xs: np.ndarray) -> np.ndarray:
        """:meth:`rank` of every element of an integer array."""
        xs = np.clip(np.asarray(xs, dtype=np.int64), self.lo, self.hi + 1)
        return self._below_array(xs) - self._below(self.lo)

    def select_array(self, js: np.ndarray) -> np.ndarray:
        """:meth:`select` of every element of an integer array."""
        starts, _, cum = self._arrays
        q, r = np.divmod(np.asarray(js, dtype=np.int64) + self._below(self.lo), self.per_period)
        t = np.searchsorted(cum, r, side="right") - 1
        return q * self.period + starts[t] + (r - cum[t])

    # ---------------------------------------------------------------- listing

    def runs_between(self, u: int, v: int) -> tuple[np.ndarray, np.ndarray]:
        """The maximal runs of members inside ``[u, v]`` as absolute half-open
        ``(starts, stops)`` arrays.  Costs what it lists."""
        u, v = max(u, self.lo), min(v, self.hi)
        if v < u or not self.runs:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        if self.is_interval:
            return np.array([u], np.int64), np.array([v + 1], np.int64)
        q0, q1 = u // self.period, v // self.period
        base = np.arange(q0, q1 + 1, dtype=np.int64)[:, None] * self.period
        rs = np.array(self.runs, dtype=np.int64)
        starts = np.maximum((base + rs[:, 0]).ravel(), u)
        stops = np.minimum((base + rs[:, 1]).ravel(), v + 1)
        keep = stops > starts
        starts, stops = starts[keep], stops[keep]
        if len(starts) > 1:  # runs touching across a period boundary form one
            joined = starts[1:] == stops[:-1]
            if joined.any():
                first = np.concatenate(([True], ~joined))
                last = np.concatenate((~joined, [True]))
                starts, stops = starts[first], stops[last]
        return starts, stops

    def intervals(self) -> list[tuple[int, int]]:
        """The maximal runs of members as inclusive ``(first, last)`` pairs."""
        starts, stops = self.runs_between(self.lo, self.hi)
        return [(a, b - 1) for a, b in zip(starts.tolist(), stops.tolist())]

    def to_array(self) -> np.ndarray:
        """All members, ascending (costs their number)."""
        if self.is_interval:
            return np.arange(self.lo, self.hi + 1, dtype=np.int64)
        starts, stops = self.runs_between(self.lo, self.hi)
        lens = stops - starts
        if len(lens) == 0:
            return np.zeros(0, np.int64)
        offsets = np.repeat(starts - np.concatenate(([0], np.cumsum(lens)[:-1])), lens)
        return np.arange(int(lens.sum()), dtype=np.int64) + offsets

    def __iter__(self) -> Iterator[int]:
        return iter(self.to_array().tolist())

    # ---------------------------------------------------------------- algebra

    def shift(self, delta: int) -> "IndexSet":
        """``{x + delta : x in self}``."""
        if not self:
            return _EMPTY
        if self.is_interval:
            return IndexSet(self.lo + delta, self.hi + delta)
        p = self.period
        rot = []
        for a, b in self.runs:
            a2 = (a + delta) % p
            b2 = a2 + (b - a)
            if b2 <= p:
                rot.append((a2, b2))
            else:
                rot.extend([(a2, p), (0, b2 - p)])
        return IndexSet(self.lo + delta, self.hi + delta, p, _merge_runs(rot))._normalized()

    def clip(self, lo: int, hi: int) -> "IndexSet":
        """The members within ``[lo, hi]``."""
        lo, hi = max(lo, self.lo), min(hi, self.hi)
        if hi < lo:
            return _EMPTY
        if (lo, hi) == (self.lo, self.hi):
            return self
        return IndexSet(lo, hi, self.period, self.runs)._normalized()

    def _window(self, other: "IndexSet") -> tuple[int, int, int]:
        """Clip range of the intersection and a common period for both patterns."""
        lo, hi = max(self.lo, other.lo), min(self.hi, other.hi)
        return lo, hi, min(_lcm(self.period, other.period), max(hi - lo + 1, 1))

    def intersect(self, other: "IndexSet") -> "IndexSet":
        """The members of both sets."""
        if self.is_interval:
            return other.clip(self.lo, self.hi)
        if other.is_interval:
            return self.clip(other.lo, other.hi)
        lo, hi, period = self._window(other)
        if hi < lo:
            return _EMPTY
        v = min(hi, lo + period - 1)
        a0, a1 = self.runs_between(lo, v)
        b0, b1 = other.runs_between(lo, v)
        s, e = _intersect_runs(a0, a1, b0, b1)
        return IndexSet(lo, hi, period, _residue_runs(s, e, period))._normalized()

    def __and__(self, other: "IndexSet") -> "IndexSet":
        return self.intersect(other)

    def count_intersection(self, other: "IndexSet") -> int:
        """``len(self & other)`` without building the intersection: O(runs in one
        common period of the sparser set), independent of the range length."""
        if self.is_interval:
            return other.count_between(self.lo, self.hi)
        if other.is_interval:
            return self.count_between(other.lo, other.hi)
        lo, hi, period = self._window(other)
        if hi < lo:
            return 0
        full, rest = divmod(hi - lo + 1, period)
        total = full * self._count_window(other, lo, lo + period - 1) if full else 0
        if rest:
            total += self._count_window(other, lo + full * period, hi)
        return total

    def _count_window(self, other: "IndexSet", u: int, v: int) -> int:
        mine = (v - u + 1) // self.period * len(self.runs)
        theirs = (v - u + 1) // other.period * len(other.runs)
        few, many = (self, other) if mine <= theirs else (other, self)
        s, e = few.runs_between(u, v)
        if len(s) == 0:
            return 0
        return int((many._below_array(e) - many._below_array(s)).sum())

    @cached_property
    def labeling(self) -> Labeling:
        """Membership of the (unclipped) pattern as a :class:`Labeling`: 1 in a run, 0 outside."""
        if self.is_interval or not self.runs:
            return Labeling.constant(1 if self.runs else 0, 2)
        starts, labels = [], []
        pos = 0
        for a, b in self.runs:
            if a > pos:
                starts.append(pos)
                labels.append(0)
            starts.append(a)
            labels.append(1)
            pos = b
        if pos < self.period:
            starts.append(pos)
            labels.append(0)
        return Labeling.from_runs(self.period, np.array(starts), np.array(labels), 2)

    def issubset(self, other: "IndexSet") -> bool:
        if not self or self == other:
            return True
        if self.is_interval and other.is_interval:
            return other.lo <= self.lo and self.hi <= other.hi
        return self.count_intersection(other) == self.count()

    def __str__(self) -> str:
        if not self:
            return "{}"
        if self.is_interval:
            return f"{self.lo}:{self.hi}"
        if len(self.runs) == 1 and self.runs[0][1] - self.runs[0][0] == 1:
            return f"{self.lo}:{self.hi}:{self.period}"
        pattern = ",".join(f"{a}" if b == a + 1 else f"{a}-{b - 1}" for a, b in self.runs)
        return f"{self.lo}:{self.hi} mod {self.period} in {{{pattern}}}"


_EMPTY = IndexSet(0, -1, 1, ())


def _intersect_runs(a0: np.ndarray, a1: np.ndarray, b0: np.ndarray, b1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Intersection of two sorted lists of disjoint half-open runs."""
    if len(a0) == 0 or len(b0) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    j0 = np.searchsorted(b1, a0, side="right")
    j1 = np.searchsorted(b0, a1, side="left")
    n = np.maximum(j1 - j0, 0)
    ia = np.repeat(np.arange(len(a0)), n)
    ib = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n) + np.repeat(j0, n)
    s = np.maximum(a0[ia], b0[ib])
    e = np.minimum(a1[ia], b1[ib])
    keep = e > s
    return s[keep], e[keep]


@cached_hash
@dataclass(frozen=True)
class Section:
    """A rectangular section of an array: one :class:`IndexSet` per dimension."""

    sets: tuple[IndexSet, ...]

    @staticmethod
    def from_bounds(bounds: Sequence[tuple[int, int]]) -> "Section":
        """The whole array with these (inclusive) bounds."""
        return Section(tuple(IndexSet.interval(lo, hi) for lo, hi in bounds))

    @staticmethod
    def of(*sets: IndexSet | tuple[int, int]) -> "Section":
        """``Section.of((1, 10), IndexSet.strided(1, 9, 2))``: tuples are intervals."""
        return Section(tuple(s if isinstance(s, IndexSet) else IndexSet.interval(*s) for s in sets))

    @property
    def rank(self) -> int:
        return len(self.sets)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(s.count() for s in self.sets)

    def count(self) -> int:
        return prod(self.shape)

    def __bool__(self) -> bool:
        return all(self.sets)

    def __contains__(self, index: object) -> bool:
        return isinstance(index, tuple) and len(index) == self.rank and all(i in s for i, s in zip(index, self.sets))

    def intersect(self, other: "Section") -> "Section":
        return Section(tuple(a.intersect(b) for a, b in zip(self.sets, other.sets)))

    def __and__(self, other: "Section") -> "Section":
        return self.intersect(other)

    def issubset(self, other: "Section") -> bool:
        """Every element of this section in ``other`` (dimension by dimension)."""
        if not self:
            return True
        return all(a.issubset(b) for a, b in zip(self.sets, other.sets))

    def count_intersection(self, other: "Section") -> int:
        n = 1
        for a, b in zip(self.sets, other.sets):
            n *= a.count_intersection(b)
            if n == 0:
                return 0
        return n

    def shift(self, offsets: Sequence[int]) -> "Section":
        return Section(tuple(s.shift(d) for s, d in zip(self.sets, offsets)))

    def clip(self, bounds: Sequence[tuple[int, int]]) -> "Section":
        return Section(tuple(s.clip(lo, hi) for s, (lo, hi) in zip(self.sets, bounds)))

    def __str__(self) -> str:
        return "(" + ", ".join(str(s) for s in self.sets) + ")"


# --------------------------------------------------------------------------- differences


def minus_parts(a: IndexSet, b: IndexSet) -> list[IndexSet]:
    """Disjoint sets covering ``a`` without the members of ``b``: the members of
    ``a`` below and above ``b``'s range, and those inside it that ``b`` lacks
    (a pattern with the period common to both, like :meth:`IndexSet.intersect`);
    costs the runs of one common period, never the number of members."""
    if not a or not b or b.hi < a.lo or a.hi < b.lo:
        return [a] if a else []
    lo, hi = max(a.lo, b.lo), min(a.hi, b.hi)
    parts = [a.clip(a.lo, lo - 1), a.clip(hi + 1, a.hi)]
    if not b.is_interval:
        period = min(_lcm(a.period, b.period), hi - lo + 1)
        v = min(hi, lo + period - 1)
        a0, a1 = a.runs_between(lo, v)
        b0, b1 = b.runs_between(lo, v)
        # the gaps of b in [lo, v + 1)
        g0, g1 = np.concatenate(([lo], b1)), np.concatenate((b0, [v + 1]))
        s, e = _intersect_runs(a0, a1, g0, g1)
        if len(s):
            parts.append(IndexSet(lo, hi, period, _residue_runs(s, e, period))._normalized())
    return [p for p in parts if p]


def set_minus(a: IndexSet, b: IndexSet) -> IndexSet:
    """``a`` without the members of ``b``, as one set (its runs over the whole
    range when the parts of :func:`minus_parts` do not form one pattern)."""
    parts = minus_parts(a, b)
    if len(parts) <= 1:
        return parts[0] if parts else IndexSet.empty()
    runs = [p.runs_between(p.lo, p.hi) for p in sorted(parts, key=lambda p: p.lo)]
    return IndexSet.from_runs(np.concatenate([r[0] for r in runs]), np.concatenate([r[1] for r in runs]))


def box_minus(a: Section, b: Section) -> list[Section]:
    """Disjoint boxes covering ``a`` without ``b``."""
    if a.count_intersection(b) == 0:
        return [a]
    out = []
    sets = list(a.sets)
    for d in range(len(sets)):
        for rest in minus_parts(sets[d], b.sets[d]):
            out.append(Section(tuple(sets[:d]) + (rest,) + tuple(a.sets[d + 1:])))
        sets[d] = sets[d].intersect(b.sets[d])
    return out


def disjoint_pieces(boxes: list[Section], held: Section | None) -> tuple[Section, ...]:
    """Disjoint boxes covering the union of ``boxes`` without ``held``."""
    out: list[Section] = []
    for box in boxes:
        parts = [box]
        for other in ([held] if held is not None else []) + out:
            parts = [q for p in parts for q in box_minus(p, other)]
            if not parts:
                break
        out.extend(p for p in parts if p)
    return tuple(out)
