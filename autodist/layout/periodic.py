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

    def label_array(self, xs: np.ndarray) -> np.ndarray:
        j = np.searchsorted(self.starts, np.asarray(xs, _I64) % self.period, side="right") - 1
        return self.labels[j]

    def runs_count(self, u: int, v: int) -> int:
        """How many runs :meth:`runs_in` lists for ``[u, v]`` (an upper bound)."""
        if v < u:
            return 0
        if self.is_constant:
            return 1
        return (v // self.period - u // self.period + 1) * len(self.labels)

    def runs_in(self, u: int, v: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Absolute runs ``(starts, stops, labels)`` covering ``[u, v]``, clipped."""
        if v < u:
            z = np.zeros(0, _I64)
            return z, z, z
        if self.is_constant:
            return np.array([u], _I64), np.array([v + 1], _I64), self.labels.copy()
        q0, q1 = u // self.period, v // self.period
        base = np.arange(q0, q1 + 1, dtype=_I64)[:, None] * self.period
        starts = np.maximum((base + self.starts).ravel(), u)
        stops = np.minimum((base + self._stops).ravel(), v + 1)
        labels = np.tile(self.labels, q1 - q0 + 1)
        keep = stops > starts
        return starts[keep], stops[keep], labels[keep]

    def totals_in(self, u: int, v: int) -> tuple[np.ndarray, np.ndarray]:
        """``(labels, counts)`` of the members of ``[u, v]`` per label (counts > 0)."""
        if v < u:
            z = np.zeros(0, _I64)
            return z, z
        if self.is_constant:
            return self.labels.copy(), np.array([v - u + 1], _I64)
        n = v - u + 1
        if n >= 2 * self.period:
            # Whole periods in the middle, partial ones at both ends.
            a = -(-u // self.period) * self.period
            b = (v + 1) // self.period * self.period
            totals = self.period_totals * ((b - a) // self.period)
            for lo, hi in ((u, a - 1), (b, v)):
                s, e, lab = self.runs_in(lo, hi)
                totals = totals + np.bincount(lab, weights=e - s, minlength=self.nlabels).astype(_I64)
            labels = np.flatnonzero(totals)
            return labels, totals[labels]
        s, e, lab = self.runs_in(u, v)
        return _aggregate1(lab, e - s)


def _aggregate1(labels: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if len(labels) == 0:
        return labels, counts
    uniq, inv = np.unique(labels, return_inverse=True)
    return uniq, np.bincount(inv, weights=counts).astype(_I64)


def _aggregate2(a: np.ndarray, b: np.ndarray, counts: np.ndarray, nb: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    keep = counts > 0
    a, b, counts = a[keep], b[keep], counts[keep]
    if len(a) == 0:
        return a, b, counts
    keys = a * nb + b
    uniq, inv = np.unique(keys, return_inverse=True)
    total = np.bincount(inv, weights=counts).astype(_I64)
    return uniq // nb, uniq % nb, total


def _window(f: Labeling, g: Labeling, u: int, v: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    nf, ng = f.runs_count(u, v), g.runs_count(u, v)
    cost_split_f = nf * (len(g.labels) + g.nlabels)
    cost_split_g = ng * (len(f.labels) + f.nlabels)
    if nf + ng <= min(cost_split_f, cost_split_g) or f.is_constant or g.is_constant:
        fs, fe, fl = f.runs_in(u, v)
        gs, ge, gl = g.runs_in(u, v)
        cuts = np.union1d(fs, gs)
        lens = np.append(cuts[1:], v + 1) - cuts
        la = fl[np.searchsorted(fs, cuts, side="right") - 1]
        lb = gl[np.searchsorted(gs, cuts, side="right") - 1]
        return _aggregate2(la, lb, lens, g.nlabels)
    swap = cost_split_g < cost_split_f
    few, many = (g, f) if swap else (f, g)
    s, e, lab = few.runs_in(u, v)
    parts_a, parts_b, parts_n = [], [], []
    for x0, x1, label in zip(s.tolist(), e.tolist(), lab.tolist()):
        labels, counts = many.totals_in(x0, x1 - 1)
        parts_a.append(np.full(len(labels), label, _I64))
        parts_b.append(labels)
        parts_n.append(counts)
    a = np.concatenate(parts_a) if parts_a else np.zeros(0, _I64)
    b = np.concatenate(parts_b) if parts_b else np.zeros(0, _I64)
    n = np.concatenate(parts_n) if parts_n else np.zeros(0, _I64)
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
