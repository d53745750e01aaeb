"""Brute-force ownership and communication counts, straight from the HPF definitions.

Slow on purpose (enumerates every element and every rank); the tests compare the
closed forms of :mod:`autodist.layout` against these on small cases.
"""

from __future__ import annotations

import itertools
from collections import Counter

from autodist.layout.model import Axis, Fixed, Layout, Replicated
from autodist.layout.ownership import effective_grid


def hpf_owner(fmt, n: int, p: int, cell: int) -> int:
    """Abstract processor owning template cell ``cell`` (0-based) of ``n`` over ``p``."""
    assert 0 <= cell < n
    if fmt.kind == "BLOCK":
        size = fmt.k if fmt.k is not None else -(-n // p)
        return cell // size
    k = fmt.k or 1
    return (cell // k) % p


def elements(bounds):
    return itertools.product(*(range(lo, hi + 1) for lo, hi in bounds))


def grid_coords(layout: Layout, index) -> list[set[int]]:
    """Per processor-arrangement axis, the abstract coordinates holding ``index``."""
    out = []
    for t, (target, fmt) in enumerate(zip(layout.align, layout.formats)):
        if not fmt.distributed:
            continue
        tlo, thi = layout.template[t]
        n = thi - tlo + 1
        p = layout.grid[len(out)]
        if isinstance(target, Axis):
            out.append({hpf_owner(fmt, n, p, target(index[target.dim]) - tlo)})
        elif isinstance(target, Fixed):
            out.append({hpf_owner(fmt, n, p, target.index - tlo)})
        else:
            out.append(set(range(p)))
    return out


def axis_kinds(layout: Layout) -> list[str]:
    return [f.kind for f in layout.formats if f.distributed]


def fold(a: int, g: int, e: int, kind: str) -> int:
    """Abstract coordinate a of g onto e ranks: contiguous groups for BLOCK,
    round robin for CYCLIC."""
    if kind == "BLOCK":
        return min(x for x in range(e) if a < (x + 1) * g / e)
    return a % e


def linear(coords, extents) -> int:
    q = 0
    for c, e in zip(reversed(coords), reversed(extents)):
        q = q * e + c
    return q


def holders(layout: Layout, nranks: int, index) -> set[int]:
    """Ranks holding a copy (abstract coordinates folded onto the effective grid)."""
    if not layout.grid:
        return set(range(nranks))  # nothing distributed: a copy everywhere
    eg = effective_grid(layout.grid, nranks)
    per_axis = [{fold(a, g, e, kind) for a in s}
                for s, g, e, kind in zip(grid_coords(layout, index), layout.grid, eg, axis_kinds(layout))]
    return {linear(c, eg) for c in itertools.product(*per_axis)}


def rank_coords(layout: Layout, nranks: int, rank: int):
    if not layout.grid:
        return [rank]
    eg = effective_grid(layout.grid, nranks)
    out = []
    q = rank
    for e in eg:
        q, c = divmod(q, e)
        out.append(c)
    return out if rank < _prod(eg) else None


def _prod(xs):
    out = 1
    for x in xs:
        out *= x
    return out


def replicated_axes(layout: Layout) -> list[int]:
    if not layout.grid:
        return [0]
    axes = []
    x = 0
    for target, fmt in zip(layout.align, layout.formats):
        if fmt.distributed:
            if isinstance(target, Replicated):
                axes.append(x)
            x += 1
    return axes


def sender(layout: Layout, nranks: int, index, receiver: int) -> int:
    """The rank that gives ``index`` to ``receiver``: itself if it holds a copy,
    else the holder with coordinate 0 along every replicated axis."""
    hs = holders(layout, nranks, index)
    if receiver in hs:
        return receiver
    rep = replicated_axes(layout)
    best = [h for h in hs if all(rank_coords(layout, nranks, h)[x] == 0 for x in rep)]
    assert len(best) == 1, (hs, best)
    return best[0]


def owned_elements(layout: Layout, nranks: int) -> dict[int, set]:
    out = {r: set() for r in range(nranks)}
    for idx in elements(layout.bounds):
        for r in holders(layout, nranks, idx):
            out[r].add(idx)
    return out


def pair_counts(needs: dict[int, set], src: Layout, nranks: int) -> Counter:
    """(sender, receiver) -> elements, for receivers needing the given elements."""
    c: Counter = Counter()
    for s, elems in needs.items():
        for idx in elems:
            c[(sender(src, nranks, idx, s), s)] += 1
    return c


def redistribution_counts(src: Layout, dst: Layout, nranks: int) -> Counter:
    return pair_counts(owned_elements(dst, nranks), src, nranks)
