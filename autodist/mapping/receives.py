"""What a rank receives to run a phase: the elements of an array it reads
and does not hold, the ranks that send them, and the routines of DDT's Table 3
they are attributed to (per template dimension).

The read sections come from :mod:`.cost` (the images of every reference, a
repeated reference counted once); a rank misses the part of their union it
does not hold as primary, counted over disjoint pieces, and receives it from
the ranks whose blocks meet it.
"""

from __future__ import annotations

import itertools

from ..analysis.model import Access, Phase
from ..layout import routines
from ..layout.model import Layout
from ..layout.ownership import ownership
from ..layout.routines import TableRoutine
from ..layout.sections import IndexSet, Section, disjoint_pieces


def classify(lhs: Access | None, rhs: Access, lhs_dim: int | None, rhs_dim: int) -> TableRoutine:
    """DDT Table 3: the data movement routine for one reference along one
    template dimension (``lhs_dim``/``rhs_dim``: the array dimensions aligned
    with it; ``lhs_dim`` None when the left-hand side does not span it)."""
    r = rhs.subscripts[rhs_dim]
    if lhs is None or lhs_dim is None:
        return routines.classify(routines.Reference(False, None, r))
    lhs_vars = frozenset(v for s in lhs.subscripts if s is not None for v in s.vars)
    return routines.classify(routines.Reference(True, lhs.subscripts[lhs_dim], r, lhs_vars))



def _missed(phase: Phase, lay: Layout, items: list[tuple[Section, int, int]], nranks: int, rank: int):
    """The ownership of ``lay``, what ``rank`` holds of the array (None: nothing
    as primary), and the read sections not wholly held (section, pattern,
    access), each distinct box once."""
    own = ownership(lay, nranks)
    held = own.owned(rank) if own.holds(rank) else None
    kept = [(sec, phase.patterns[i], phase.patterns[i].rhs[j]) for sec, i, j in {it[0]: it for it in items}.values()
            if held is None or not sec.issubset(held)]
    return own, held, kept


def receives(phase: Phase, lay: Layout, items: list[tuple[Section, int, int]], elem_size: int, nranks: int,
             rank: int) -> tuple[int, int]:
    """Bytes and messages ``rank`` receives of an array laid out ``lay`` (of
    ``elem_size`` bytes per element) to read the sections ``items`` (section,
    statement index, reference index)."""
    own, held, kept = _missed(phase, lay, items, nranks, rank)
    if not kept:
        return 0, 0
    pieces = disjoint_pieces(_dedupe([s for s, _, _ in kept]), held)  # what it misses, disjoint
    missing = sum(p.count() for p in pieces)
    if missing == 0:
        return 0, 0
    return missing * elem_size, _senders(pieces, own, rank)


def attributed(phase: Phase, lay: Layout, items: list[tuple[Section, int, int]], nranks: int,
               rank: int) -> tuple[tuple[tuple[TableRoutine, int | None], int], ...]:
    """The elements ``rank`` receives of the array per (routine, template dimension)."""
    own, held, kept = _missed(phase, lay, items, nranks, rank)
    if not kept:
        return ()
    return tuple(_attribute(kept, held, lay, own, phase).items())


def _dedupe(boxes: list[Section]) -> list[Section]:
    """The boxes not inside another one (equal ones once)."""
    out: list[Section] = []
    for b in dict.fromkeys(boxes):
        if not any(b.issubset(o) for o in out):
            out = [o for o in out if not o.issubset(b)] + [b]
    return out


def _union_count(boxes: list[Section], within: Section | None = None) -> int:
    """|union of boxes (intersected with ``within``)|, summed over disjoint pieces
    (inclusion-exclusion took 2^n intersections on n overlapping references, as
    an unrolled loop's ``M(I,J-1)`` ... ``M(I,J-15)``)."""
    boxes = [b if within is None else b.intersect(within) for b in boxes]
    boxes = _dedupe([b for b in boxes if b])
    return sum(p.count() for p in disjoint_pieces(boxes, None))


def _touching(dm, s: IndexSet) -> tuple[list[int], bool]:
    """Grid coordinates along one axis owning some index of ``s``, and whether
    exactly those (else: every coordinate, some perhaps owning none)."""
    if not dm.distributed:
        return [0], True
    if s.is_interval and dm.contiguous:
        return (list(range(dm.coord(s.lo), dm.coord(s.hi) + 1)) if s.lo <= s.hi else []), True
    if len(s) <= 4 * dm.eff:
        return sorted({int(c) for c in dm.coord_array(s.to_array())}), True
    return list(range(dm.eff)), False


def _candidate_senders(boxes: list[Section], own) -> tuple[set[int], set[int]]:
    """The ranks whose coordinates own part of a box: those that surely do
    (every axis exact: a box meets a box when it meets it along every
    dimension), and those that may."""
    sure: set[int] = set()
    maybe: set[int] = set()
    for b in boxes:
        if not b:
            continue
        per_axis = []
        exact = True
        for x, ax in enumerate(own.axes):
            if ax.kind == "dim":
                coords, known = _touching(own.dims[ax.dim], b.sets[ax.dim])
                per_axis.append(coords)
                exact = exact and known
            elif ax.kind == "fixed":
                per_axis.append([ax.coord])
            else:
                per_axis.append([0])  # the primary copy
        into = sure if exact else maybe
        for coords in itertools.product(*per_axis):
            into.add(own.rank_of(coords))
    return sure, maybe - sure


def _senders(pieces: tuple[Section, ...], own, rank: int) -> int:
    """Ranks other than ``rank`` that hold (as primary) part of what it misses
    (``pieces``: disjoint boxes of the elements it misses)."""
    senders = 0
    sure, maybe = _candidate_senders(list(pieces), own)
    for r in sorted(sure | maybe):
        if r == rank or r >= own.nranks or not own.holds(r) or not own.is_primary(r):
            continue
        if r in sure:
            senders += 1
            continue
        o = own.owned(r)
        if o is not None and any(p.count_intersection(o) for p in pieces):
            senders += 1
    return senders


def _attribute(items, held: Section | None, lay: Layout, own, phase: Phase) -> dict[tuple[TableRoutine, int | None], int]:
    """Split the elements a rank misses among (routine, template dim), by the
    first template dimension along which they are not held."""
    out: dict[tuple[TableRoutine, int | None], int] = {}
    if held is None:
        boxes = _dedupe([s for s, _, _ in items])
        out[(routines.COPY, None)] = _union_count(boxes)
        return out
    rank = len(held.sets)
    # template dimension of each array dimension
    tdim = [lay.tdim_of(d) for d in range(rank)]
    order = sorted(range(rank), key=lambda d: (tdim[d] is None, tdim[d] if tdim[d] is not None else d))
    full = [IndexSet.interval(lo, hi) for lo, hi in lay.bounds]
    boxes = _dedupe([s for s, _, _ in items])
    for k, d in enumerate(order):
        sets_prev = list(full)
        for d2 in order[:k]:
            sets_prev[d2] = held.sets[d2]
        sets_here = list(sets_prev)
        sets_here[d] = held.sets[d]
        sec_prev, sec_here = Section(tuple(sets_prev)), Section(tuple(sets_here))
        n = _union_count(boxes, sec_prev) - _union_count(boxes, sec_here)
        if n <= 0:
            continue
        # which reference pattern brings most of it
        best, best_n = None, -1
        for s, pat, acc in items:
            m = s.intersect(sec_prev).count() - s.intersect(sec_here).count()
            if m > best_n:
                best, best_n = (pat, acc), m
        pat, acc = best
        lhs_dim = _aligned_lhs_dim(pat.lhs, acc, d, lay) if pat.lhs is not None else None
        routine = classify(pat.lhs, acc, lhs_dim, d)
        t = tdim[d]
        key = (routine, (t + 1) if t is not None else None)
        out[key] = out.get(key, 0) + n
    return out


def _aligned_lhs_dim(lhs: Access, rhs: Access, rhs_dim: int, lay: Layout) -> int | None:
    """The lhs dimension that lies along the same template dimension as ``rhs_dim``
    (assumes lhs and rhs are aligned to one template; same dimension number
    when the lhs array is not known to the layout)."""
    if lhs.array == rhs.array:
        return rhs_dim
    return rhs_dim if rhs_dim < len(lhs.subscripts) else None


__all__ = ["attributed", "classify", "receives"]
