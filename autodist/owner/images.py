"""Images and preimages of index sets under affine subscripts.

An array reference ``A(a*V + c)`` maps the values a loop variable ``V`` takes
(an :class:`~autodist.layout.sections.IndexSet`) to the indices it touches
(:func:`affine_image`, :func:`reference_image` for a whole reference), and the
indices a rank holds back to the values of ``V`` that touch them
(:func:`preimage`): the two directions of owner computes.
"""

from __future__ import annotations

from math import gcd

import numpy as np

from .. import ir
from ..analysis.model import Access
from ..layout.sections import IndexSet, Section


def _residue_set(lo: int, hi: int, period: int, residues: np.ndarray) -> IndexSet:
    residues = np.unique(residues % period)
    if len(residues) == 0:
        return IndexSet.empty()
    breaks = np.nonzero(np.diff(residues) != 1)[0]
    starts = np.concatenate(([residues[0]], residues[breaks + 1]))
    stops = np.concatenate((residues[breaks] + 1, [residues[-1] + 1]))
    return IndexSet.periodic(lo, hi, period, tuple(zip(starts.tolist(), stops.tolist())))


def affine_image(s: IndexSet, a: int, c: int) -> IndexSet:
    """``{a * x + c : x in s}``."""
    if not s:
        return IndexSet.empty()
    if a == 0:
        return IndexSet.interval(c, c)
    lo, hi = sorted((a * s.lo + c, a * s.hi + c))
    if s.is_interval:
        if abs(a) == 1:
            return IndexSet.interval(lo, hi)
        return IndexSet.strided(lo, hi, abs(a))
    p = s.period
    xs = np.array([x for r0, r1 in s.runs for x in range(r0, r1)], dtype=np.int64)
    # x = q*p + r  ->  a*x + c = a*q*p + a*r + c : period |a|*p
    period = abs(a) * p
    return _residue_set(lo, hi, period, a * xs + c)


def preimage(s: IndexSet, a: int, c: int, lo: int, hi: int) -> IndexSet:
    """``{x in [lo, hi] : a * x + c in s}``."""
    if not s or hi < lo:
        return IndexSet.empty()
    if a == 0:
        return IndexSet.interval(lo, hi) if c in s else IndexSet.empty()
    # range of x mapping into [s.lo, s.hi]
    if a > 0:
        xlo, xhi = -((c - s.lo) // a), (s.hi - c) // a
    else:
        xlo, xhi = -((s.hi - c) // (-a)), (c - s.lo) // (-a)
    xlo, xhi = max(xlo, lo), min(xhi, hi)
    if xhi < xlo:
        return IndexSet.empty()
    if s.is_interval:
        return IndexSet.interval(xlo, xhi)
    p = s.period
    q = p // gcd(abs(a), p)
    xs = np.arange(q, dtype=np.int64)
    ys = (a * xs + c) % p
    member = np.zeros(p, dtype=bool)
    for r0, r1 in s.runs:
        member[r0:r1] = True
    return _residue_set(xlo, xhi, q, xs[member[ys]])


def reference_image(access: Access, values: dict[str, IndexSet], bounds: tuple[tuple[int, int], ...]) -> Section:
    """The section of the array a reference touches when the loop variables
    take ``values`` (clipped to the array bounds); the variables of the implied
    DO loops around it (:attr:`Access.implied`) take the values their bounds
    give."""
    if access.implied:
        values = implied_values(access, values)
    sets = []
    for sub, (lo, hi) in zip(access.subscripts, bounds):
        full = IndexSet.interval(lo, hi)
        if sub is None:
            sets.append(full)
            continue
        lv = [(v, k) for v, k in sub.terms if v in values]
        if any(v not in values for v, _ in sub.terms):
            sets.append(full)  # depends on a scalar whose value is unknown here
            continue
        if not lv:
            sets.append(IndexSet.interval(sub.const, sub.const).clip(lo, hi))
        elif len(lv) == 1:
            v, k = lv[0]
            sets.append(affine_image(values[v], k, sub.const).clip(lo, hi))
        else:
            sets.append(IndexSet.interval(*_affine_hull(sub, values)).clip(lo, hi))
    return Section(tuple(sets))


def _affine_hull(a: ir.Affine, values: dict[str, IndexSet]) -> tuple[int, int]:
    """Least and greatest value of ``a`` when each variable lies in its set."""
    lo = hi = a.const
    for v, k in a.terms:
        s = values[v]
        lo += min(k * s.lo, k * s.hi)
        hi += max(k * s.lo, k * s.hi)
    return lo, hi


def implied_values(access: Access, values: dict[str, IndexSet]) -> dict[str, IndexSet]:
    """``values`` and the values of the implied DO variables around ``access``
    (their hull over the outer values; exact when the bounds are constant).  A
    variable whose bounds are unknown is left out: the subscripts that use it
    span their dimension."""
    values = dict(values)
    for var, first, last, step in access.implied:
        if first is None or last is None or any(not values.get(v) for v in first.vars + last.vars):
            continue
        (a0, a1), (b0, b1) = _affine_hull(first, values), _affine_hull(last, values)
        if first.is_const and last.is_const and step is not None:
            values[var] = IndexSet.strided(first.const, last.const, step)
        elif step is not None and step > 0:
            values[var] = IndexSet.interval(a0, b1) if a0 <= b1 else IndexSet.empty()
        elif step is not None:
            values[var] = IndexSet.interval(b0, a1) if b0 <= a1 else IndexSet.empty()
        else:
            values[var] = IndexSet.interval(min(a0, b0), max(a1, b1))
    return values
