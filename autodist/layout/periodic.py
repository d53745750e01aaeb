"""Periodic piecewise-constant labelings of the integers, and their joint counts.

A :class:`Labeling` gives every integer ``x`` a label (a small non-negative
integer) that depends only on ``x mod period`` and is constant on runs.  The
processor coordinate that owns array index ``i`` along one dimension is such a
labeling (BLOCK, CYCLIC(k), through any alignment stride), and so is the
membership of an :class:`~autodist.layout.sections.IndexSet` (label 1 inside,
0 outside).

:func:`joint_counts` answers "how many ``x`` in ``[lo, hi]`` have label ``a``
under ``f`` and label ``b`` under ``g``" for all pairs at once.  It works on
one common period (the lcm, capped by the range) and, inside it, either merges
the runs of both labelings or splits the runs of the sparser one by the
per-label totals of the other, whichever lists fewer runs; so the cost is the
number of runs in one common period of the sparser labeling plus the number
of pairs reported, never the length of the range.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from math import gcd

import numpy as np

_I64 = np.int64


@dataclass(frozen=True, eq=False)
class Labeling:
    """``label(x) = labels[j]`` where ``starts[j] <= x mod period < starts[j+1]``.

    ``starts`` is sorted and begins with 0; ``nlabels`` bounds the labels.
    Compared by identity; build once and keep (callers cache them by value).
    """

    period: int
    starts: np.ndarray
    labels: np.ndarray
    nlabels: int

    @staticmethod
    def constant(label: int = 0, nlabels: int = 1) -> "Labeling":
        return Labeling(1, np.zeros(1, _I64), np.full(1, label, _I64), nlabels)

    @staticmethod
    def from_runs(period: int, starts: np.ndarray, labels: np.ndarray, nlabels: int) -> "Labeling":
        """Normalize: sort, drop runs of length zero, merge neighbours with equal labels."""
        starts = np.asarray(starts, _I64)
        labels = np.asarray(labels, _I64)
        order = np.argsort(starts, kind="stable")
        starts, labels = starts[order], labels[order]
        # Of several runs starting at the same offset the last one wins (the
        # earlier ones are empty).
        last = np.concatenate((starts[1:] != starts[:-1], [True]))
        starts, labels = starts[last], labels[last]
        keep = np.concatenate(([True], labels[1:] != labels[:-1]))
        starts, labels = starts[keep], labels[keep]
        if len(labels) == 1:
            return Labeling.constant(int(labels[0]), nlabels)
        if starts[0] != 0:
            raise ValueError("a labeling must define the label at offset 0")
        return Labeling(period, starts, labels, nlabels)

    @property
    def is_constant(self) -> bool:
        return len(self.labels) == 1

    @cached_property
    def _stops(self) -> np.ndarray:
        return np.append(self.starts[1:], self.period)

    @cached_property
    def period_totals(self) -> np.ndarray:
        """Members of each label in one period."""
        return np.bincount(self.labels, weights=self._stops - self.starts, minlength=self.nlabels).astype(_I64)

    def label(self, x: int) -> int:
        j = int(np.searchsorted(self.starts, x % self.period, side="right")) - 1
        return int(self.labels[j])

    def runs_count(self, u: int, v: int) -> int:
        """How many runs :meth:`runs_in` lists for ``[u, v]`` (an upper bound)."""
        if v < u:
            return 0
        if self.is_constant:
            return 1
        return (v // self.period - u // self.period + 1) * len(self.labels)

    @cached_property
    def _two_periods(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (np.concatenate((self.starts, self.starts + self.period)),
                np.concatenate((self._stops, self._stops + self.period)),
                np.tile(self.labels, 2))

    def _short(self, us: np.ndarray, ws: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Runs overlapping half-open windows no longer than a period:
        ``(window, starts, stops, labels)``, absolute and clipped."""
        keep = ws > us
        rows = np.flatnonzero(keep)
        us, ws = us[keep], ws[keep]
        base = us // self.period * self.period
        ru, rw = us - base, ws - base
        s2, e2, l2 = self._two_periods
        j0 = np.searchsorted(e2, ru, side="right")
        n = np.searchsorted(s2, rw, side="left") - j0
        idx = np.arange(int(n.sum()), dtype=_I64) - np.repeat(np.cumsum(n) - n, n) + np.repeat(j0, n)
        b = np.repeat(base, n)
        return (np.repeat(rows, n), np.maximum(s2[idx], np.repeat(ru, n)) + b,
                np.minimum(e2[idx], np.repeat(rw, n)) + b, l2[idx])

    def runs_in(self, u: int, v: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Absolute runs ``(starts, stops, labels)`` covering ``[u, v]``, clipped."""
        if v < u:
            z = np.zeros(0, _I64)
            return z, z, z
        if self.is_constant:
            return np.array([u], _I64), np.array([v + 1], _I64), self.labels.copy()
        if v - u < self.period:
            _, s, e, lab = self._short(np.array([u], _I64), np.array([v + 1], _I64))
            return s, e, lab
        q0, q1 = u // self.period, v // self.period
        base = np.arange(q0, q1 + 1, dtype=_I64)[:, None] * self.period
        starts = np.maximum((base + self.starts).ravel(), u)
        stops = np.minimum((base + self._stops).ravel(), v + 1)
        labels = np.tile(self.labels, q1 - q0 + 1)
        keep = stops > starts
        return starts[keep], stops[keep], labels[keep]

    def split(self, starts: np.ndarray, stops: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Members of each half-open window ``[starts[i], stops[i])`` per label:
        ``(i, label, count)`` with count > 0.  Whole periods inside a window
        count at once, so the cost is the partial runs at the window ends plus
        the labels reported."""
        starts, stops = np.asarray(starts, _I64), np.asarray(stops, _I64)
        if self.is_constant:
            keep = np.flatnonzero(stops > starts)
            return keep, np.full(len(keep), self.labels[0], _I64), (stops - starts)[keep]
        T = self.period
        a = -(-starts // T) * T  # first period boundary at or after the start
        b = stops // T * T  # last period boundary at or before the stop
        inside = b < a  # the window lies within one period
        full = np.where(inside, 0, (b - a) // T)
        hw, hs, he, hl = self._short(starts, np.where(inside, stops, a))
        tails = np.flatnonzero(~inside)
        tw, ts, te, tl = self._short(b[tails], stops[tails])
        nz = np.flatnonzero(self.period_totals)
        fr = np.flatnonzero(full)
        rows = np.concatenate((hw, tails[tw], np.repeat(fr, len(nz))))
        labels = np.concatenate((hl, tl, np.tile(nz, len(fr))))
        counts = np.concatenate((he - hs, te - ts, (full[fr][:, None] * self.period_totals[nz][None, :]).ravel()))
        return rows, labels, counts

    def totals_in(self, u: int, v: int) -> tuple[np.ndarray, np.ndarray]:
        """``(labels, counts)`` of the members of ``[u, v]`` per label (counts > 0)."""
        _, labels, counts = self.split(np.array([u], _I64), np.array([v + 1], _I64))
        return _group_sum(labels, counts)


def _group_sum(keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct keys (sorted) and the sum of the counts of each."""
    if len(keys) == 0:
        return keys, counts
    top = int(keys.max()) + 1
    if top <= 4 * len(keys) + 1024:
        total = np.bincount(keys, weights=counts, minlength=top).astype(_I64)
        uniq = np.flatnonzero(total)
        return uniq, total[uniq]
    order = np.argsort(keys, kind="stable")
    keys, counts = keys[order], counts[order]
    first = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return keys[first], np.add.reduceat(counts, first)


def _aggregate2(a: np.ndarray, b: np.ndarray, counts: np.ndarray, nb: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    keep = counts > 0
    uniq, total = _group_sum(a[keep] * nb + b[keep], counts[keep])
    return uniq // nb, uniq % nb, total


def _window(f: Labeling, g: Labeling, u: int, v: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    nf, ng = f.runs_count(u, v), g.runs_count(u, v)
    cost_split_f = nf * (len(g.labels) + g.nlabels)
    cost_split_g = ng * (len(f.labels) + f.nlabels)
    if nf + ng <= min(cost_split_f, cost_split_g) or f.is_constant or g.is_constant:
        fs, fe, fl = f.runs_in(u, v)
        gs, ge, gl = g.runs_in(u, v)
        cuts = np.concatenate((fs, gs))
        cuts.sort(kind="stable")
        cuts = cuts[np.concatenate(([True], cuts[1:] != cuts[:-1]))]
        lens = np.append(cuts[1:], v + 1) - cuts
        la = fl[np.searchsorted(fs, cuts, side="right") - 1]
        lb = gl[np.searchsorted(gs, cuts, side="right") - 1]
        return _aggregate2(la, lb, lens, g.nlabels)
    swap = cost_split_g < cost_split_f
    few, many = (g, f) if swap else (f, g)
    s, e, lab = few.runs_in(u, v)
    rows, b, n = many.split(s, e)
    a = lab[rows]
    if swap:
        a, b = b, a
    return _aggregate2(a, b, n, g.nlabels)


def joint_counts(f: Labeling, g: Labeling, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(a, b, n)``: for every pair of labels with ``n > 0`` members of ``[lo, hi]``
    labelled ``a`` by ``f`` and ``b`` by ``g``; sorted by ``(a, b)``."""
    if hi < lo:
        z = np.zeros(0, _I64)
        return z, z, z
    length = hi - lo + 1
    period = f.period // gcd(f.period, g.period) * g.period
    if period >= length:
        return _window(f, g, lo, hi)
    full, rest = divmod(length, period)
    a, b, n = _window(f, g, lo, lo + period - 1)
    n = n * full
    if rest:
        a2, b2, n2 = _window(f, g, lo + full * period, hi)
        return _aggregate2(np.concatenate((a, a2)), np.concatenate((b, b2)), np.concatenate((n, n2)), g.nlabels)
    return a, b, n
