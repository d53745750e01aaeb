"""Classes of ranks whose costs in a phase are equal, so that the cost model
(:func:`autodist.mapping.cost.phase_work`) prices one rank of each.

Under BLOCK distributions with unit-stride alignments, loops whose bounds are
constants or values not known here, and subscripts ``V + c``, a rank's work
and needs depend on where its block lies only near array and loop bounds.
"""

from __future__ import annotations

import numpy as np

from .. import ir
from ..analysis.model import Phase
from ..ir import eval_affine
from ..layout.model import Axis, Layout
from ..layout.ownership import ownership
from ..owner.iterations import Loop


def rank_classes(phase: Phase, layouts: dict[str, Layout], loops: dict[int, Loop], nranks: int,
                 memo: dict | None = None) -> list[int]:
    """``rep[r]``: a rank whose costs equal rank ``r``'s (``r`` itself when unsure).

    Under BLOCK distributions with unit-stride alignments, constant loop bounds
    and subscripts ``V + c``, a rank's work and needs depend on where its block
    lies only near array and loop bounds: two ranks whose blocks have the same
    sizes and the same clipped distances to every such bound do the same.
    Anything else (CYCLIC, strides, reflections, triangular loops, scaled
    subscripts) falls back to one class per rank.  ``memo``: a dict kept for
    this phase across layouts (see :func:`phase_work`).
    """
    identity = list(range(nranks))
    # an array no layout distributes is whole on every rank: no rank misses any
    # of it, and what a statement homed there executes is the same everywhere
    layouts = {a: lay for a, lay in layouts.items() if lay.nprocs > 1}
    if not layouts:
        return [0] * nranks
    memo = {} if memo is None else memo
    if ("nest",) not in memo:
        memo[("nest",)] = _nest_points(phase, loops)
    nest = memo[("nest",)]
    if nest is None:
        return identity
    points, reach = set(nest[0]), nest[1]
    for lay in layouts.values():
        if not all(f.scheme.contiguous for f in lay.formats):
            return identity
        for a in lay.align:
            if isinstance(a, Axis):
                if a.stride != 1:
                    return identity
                reach = max(reach, abs(a.offset))
        for lo, hi in lay.bounds:
            points |= {lo, hi}
    window = reach + 3
    pts = tuple(sorted(points))
    per_array = []
    for a, lay in sorted(layouts.items()):
        key = ("where", lay, pts, window)
        if key not in memo:
            memo[key] = _block_places(lay, nranks, pts, window)
        if memo[key] is None:
            return identity
        per_array.append(memo[key])
    seen: dict[tuple, int] = {}
    return [seen.setdefault(sig, r) for r, sig in enumerate(zip(*per_array))]


def _nest_points(phase: Phase, loops: dict[int, Loop]) -> tuple[frozenset[int], int] | None:
    """The constant loop bounds and constant subscripts of a phase, and the
    largest offset of its subscripts ``V + c``; None when some loop or
    subscript does not allow classes of ranks."""
    points: set[int] = set()
    reach = 0
    loop_vars = {lp.var for lp in loops.values()}
    for lp in loops.values():
        if lp.step not in (1, -1):
            return None
        for bound in (lp.lower, lp.upper):
            value = eval_affine(bound, {})
            if value is not None:
                points.add(value)
            elif ir.names(bound) & loop_vars:
                return None  # a triangular nest
            # else a value not known here (a scalar, an element, a function of
            # them): the loop's hull is open on that side, for every rank
    for pat in phase.patterns:
        for acc in ([pat.lhs] if pat.lhs is not None else []) + list(pat.rhs):
            for sub in acc.subscripts:
                if sub is None:
                    continue
                if len(sub.terms) > 1 or any(k != 1 or v not in loop_vars for v, k in sub.terms):
                    return None
                if not sub.terms:
                    # a constant element: its holder differs from every other rank
                    points.add(sub.const)
                else:
                    reach = max(reach, abs(sub.const))
    return frozenset(points), reach


def _block_places(lay: Layout, nranks: int, pts: tuple[int, ...], window: int) -> list | None:
    """Per rank, where its part of an array lies: whether it holds a part and
    is its primary copy, and per dimension the part's size and its distances
    to ``pts`` clipped to ``window``; None when a part is not an interval."""
    own = ownership(lay, nranks)
    marks = np.asarray(pts, dtype=np.int64)
    holders = [r for r in range(nranks) if own.holds(r)]
    parts = [own.owned(r).sets for r in holders]
    if any(st and not st.is_interval for sets in parts for st in sets):
        return None
    dims = []  # per dimension, per holder: (size, clipped distances of its ends to the marks)
    for d in range(len(parts[0]) if parts else 0):
        sets = [sets[d] for sets in parts]
        ends = np.asarray([(st.lo, st.hi) if st else (0, 0) for st in sets], dtype=np.int64).reshape(-1, 2)
        lo = np.clip(ends[:, :1] - marks, -window, window)
        hi = np.clip(ends[:, 1:] - marks, -window, window)
        dims.append([(st.count(), lo[k].tobytes(), hi[k].tobytes()) if st else ("empty",)
                     for k, st in enumerate(sets)])
    out: list = [None] * nranks
    for k, r in enumerate(holders):
        out[r] = (own.is_primary(r), tuple(dim[k] for dim in dims))
    return out
