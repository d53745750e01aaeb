"""Communication schedules: who sends which section of an array to whom.

Pure functions, no MPI.  A schedule is planned from a source layout (who holds
what, see :mod:`autodist.layout.ownership`) and a *needs* pattern (which
sections of the array each rank must have):

* :class:`OwnedBy` — what each rank owns under another layout (a
  ``REDISTRIBUTE``/``REALIGN``);
* :class:`Halo` — ghost cells of given widths around what each rank owns
  (faces, and corners when asked);
* :class:`Shift` — what each rank owns, shifted by a constant offset per
  dimension (a shift on a CYCLIC dimension, where ghost cells make no sense);
* :class:`SameSection` — one section on every rank (a broadcast, One_to_All);
* :class:`OnRank` — one section on one rank (a gather, All_to_One);
* :class:`Explicit` — any list of sections per rank.

Rule for who sends an element to a rank that needs it: the rank itself when
it holds a copy (a local copy, never a message); otherwise the element's
primary holder (coordinate 0 along replicated axes).  Every transfer between
two ranks is a list of rectangular pieces (one per needed piece); elements
travel in Fortran order of each piece, pieces in the order the needs list them.

Each rank's view (:meth:`Schedule.sends`, :meth:`Schedule.receives`) costs
O(P) intersections of strided interval sets per dimension, each independent of
the array size; results are cached by value (layouts and needs are frozen).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from ..errors import UnsupportedError
from .model import Layout
from .ownership import Ownership, ownership
from .periodic import joint_counts
from .sections import IndexSet, Section

# --------------------------------------------------------------------------- needs


@dataclass(frozen=True)
class OwnedBy:
    """Each rank needs what it owns under ``layout`` (a redistribution target)."""

    layout: Layout

    def pieces(self, src: Ownership, rank: int) -> tuple[Section, ...]:
        owned = ownership(self.layout, src.nranks).owned(rank)
        return (owned,) if owned is not None and owned else ()


@dataclass(frozen=True)
class Halo:
    """Ghost cells around what each rank owns: ``widths[d] = (below, above)``.

    Faces only, or also edges and corners (``corners=True``).  Ghosts outside
    the array bounds are not filled.  A dimension with a non-zero width must be
    held as one interval per rank (BLOCK-like).
    """

    widths: tuple[tuple[int, int], ...]
    corners: bool = False

    def pieces(self, src: Ownership, rank: int) -> tuple[Section, ...]:
        owned = src.owned(rank)
        if owned is None or not owned:
            return ()
        if len(self.widths) != len(owned.sets):
            raise ValueError("one (below, above) ghost width per array dimension")
        choices = []
        for d, (s, (below, above)) in enumerate(zip(owned.sets, self.widths)):
            lo, hi = src.layout.bounds[d]
            if (below or above) and not s.is_interval:
                raise UnsupportedError(
                    f"ghost cells along dimension {d + 1} need one interval of indices per rank, "
                    f"but this layout deals them out {src.layout.distribute_str()}"
                )
            opts = [("mid", s)]
            if below:
                opts.append(("low", IndexSet.interval(max(lo, s.lo - below), s.lo - 1)))
            if above:
                opts.append(("high", IndexSet.interval(s.hi + 1, min(hi, s.hi + above))))
            choices.append(opts)
        out = []
        for combo in itertools.product(*choices):
            outside = sum(tag != "mid" for tag, _ in combo)
            if outside == 0 or (outside > 1 and not self.corners):
                continue
            sec = Section(tuple(s for _, s in combo))
            if sec:
                out.append(sec)
        return tuple(out)


@dataclass(frozen=True)
class Shift:
    """Each rank needs the elements ``offsets`` away from those it owns:
    ``A(i + offsets)`` for every owned ``i`` (clipped to the bounds)."""

    offsets: tuple[int, ...]

    def pieces(self, src: Ownership, rank: int) -> tuple[Section, ...]:
        owned = src.owned(rank)
        if owned is None or not owned:
            return ()
        sec = owned.shift(self.offsets).clip(src.layout.bounds)
        return (sec,) if sec else ()


@dataclass(frozen=True)
class SameSection:
    """Every rank needs ``section`` (One_to_All: a broadcast when one rank holds it)."""

    section: Section

    def pieces(self, src: Ownership, rank: int) -> tuple[Section, ...]:
        return (self.section,) if self.section else ()


@dataclass(frozen=True)
class OnRank:
    """Rank ``rank`` needs ``section``; the others nothing (All_to_One: a gather)."""

    rank: int
    section: Section

    def pieces(self, src: Ownership, rank: int) -> tuple[Section, ...]:
        return (self.section,) if rank == self.rank and self.section else ()


@dataclass(frozen=True)
class Explicit:
    """``per_rank[r]`` lists the (disjoint) sections rank ``r`` needs."""

    per_rank: tuple[tuple[Section, ...], ...]

    def pieces(self, src: Ownership, rank: int) -> tuple[Section, ...]:
        return tuple(s for s in self.per_rank[rank] if s) if rank < len(self.per_rank) else ()


Needs = OwnedBy | Halo | Shift | SameSection | OnRank | Explicit

# --------------------------------------------------------------------------- transfers


@dataclass(frozen=True)
class Transfer:
    """Elements ``sender`` gives ``receiver``: the union of disjoint rectangular
    ``pieces`` of global indices (``sender == receiver``: a local copy)."""

    sender: int
    receiver: int
    pieces: tuple[Section, ...]
    count: int


@lru_cache(maxsize=1 << 16)
def _meet(need: IndexSet, owned: IndexSet) -> IndexSet:
    return need.intersect(owned)


@lru_cache(maxsize=1 << 16)
def _meet_count(need: IndexSet, owned: IndexSet) -> int:
    return need.count_intersection(owned)


@lru_cache(maxsize=1 << 14)
def _coord_counts(src: Ownership, dim: int, need: IndexSet) -> tuple[tuple[int, int], ...]:
    """``(coordinate, members of need it owns)`` along array dimension ``dim``."""
    dm = src.dims[dim]
    if not need:
        return ()
    if not dm.distributed:
        return ((0, need.count()),)
    a, b, n = joint_counts(dm.labeling, need.labeling, need.lo, need.hi)
    keep = b == 1
    return tuple(zip(a[keep].tolist(), n[keep].tolist()))


def _senders_for(src: Ownership, receiver: int, piece: Section) -> list[tuple[int, int, tuple[int, ...]]]:
    """``(sender, count, coords)`` for every rank that gives part of ``piece`` to
    ``receiver`` under the sending rule (itself when it holds a copy)."""
    per_dim = [_coord_counts(src, d, s) for d, s in enumerate(piece.sets)]
    if any(not cc for cc in per_dim):
        return []
    base = 1
    for d, cc in enumerate(per_dim):
        if src.dim_axis[d] is None:
            base *= cc[0][1]
    choices = []
    for axis in src.axes:
        if axis.kind == "dim":
            choices.append(per_dim[axis.dim])
        elif axis.kind == "fixed":
            choices.append(((axis.coord, 1),))
        else:
            choices.append(((0, 1),))
    own_key = None
    if src.holds(receiver):
        c = src.coords(receiver)
        own_key = tuple(None if a.kind == "replicated" else c[x] for x, a in enumerate(src.axes))
    out = []
    for combo in itertools.product(*choices):
        coords = tuple(c for c, _ in combo)
        count = base
        for _, n in combo:
            count *= n
        key = tuple(None if a.kind == "replicated" else c for c, a in zip(coords, src.axes))
        sender = receiver if key == own_key else src.rank_of(coords)
        out.append((sender, count, coords))
    return out


def _piece_from(src: Ownership, piece: Section, coords: Sequence[int]) -> Section:
    return Section(
        tuple(
            s if src.dim_axis[d] is None else _meet(s, src.dims[d].owned(coords[src.dim_axis[d]]))
            for d, s in enumerate(piece.sets)
        )
    )


@dataclass(frozen=True)
class Schedule:
    """Who sends what to whom so that every rank gets what ``needs`` says,
    from an array laid out as ``src`` on ``nranks`` ranks."""

    src: Layout
    needs: Needs
    nranks: int

    @property
    def ownership(self) -> Ownership:
        return ownership(self.src, self.nranks)

    def needed(self, rank: int) -> tuple[Section, ...]:
        """The pieces ``rank`` needs (disjoint sections of global indices,
        clipped to the array's bounds)."""
        out = []
        for piece in self.needs.pieces(self.ownership, rank):
            piece = piece.clip(self.src.bounds)
            if piece:
                out.append(piece)
        return tuple(out)

    def receives(self, rank: int) -> tuple[Transfer, ...]:
        """Transfers into ``rank`` from other ranks, by sender."""
        return tuple(t for t in _incoming(self, rank) if t.sender != rank)

    def local(self, rank: int) -> Transfer | None:
        """What ``rank`` needs and holds itself (copied without a message)."""
        for t in _incoming(self, rank):
            if t.sender == rank:
                return t
        return None

    def sends(self, rank: int) -> tuple[Transfer, ...]:
        """Transfers out of ``rank`` to other ranks, by receiver."""
        return _outgoing(self, rank)

    def transfers(self) -> list[Transfer]:
        """Every transfer between two different ranks (lists P views)."""
        return [t for r in range(self.nranks) for t in self.receives(r)]

@lru_cache(maxsize=1 << 14)
def _incoming(sched: Schedule, rank: int) -> tuple[Transfer, ...]:
    src = sched.ownership
    pieces: dict[int, list[Section]] = {}
    counts: dict[int, int] = {}
    for piece in sched.needed(rank):
        for sender, count, coords in _senders_for(src, rank, piece):
            if count == 0:
                continue
            pieces.setdefault(sender, []).append(_piece_from(src, piece, coords))
            counts[sender] = counts.get(sender, 0) + count
    return tuple(Transfer(s, rank, tuple(pieces[s]), counts[s]) for s in sorted(pieces))


@lru_cache(maxsize=1 << 14)
def _outgoing(sched: Schedule, rank: int) -> tuple[Transfer, ...]:
    src = sched.ownership
    if not src.is_primary(rank):
        return ()
    owned = src.owned(rank)
    assert owned is not None
    out = []
    for receiver in range(sched.nranks):
        if receiver == rank or (src.holds(receiver) and src.primary_of(receiver) == rank):
            continue
        parts, total = [], 0
        for piece in sched.needed(receiver):
            n = 1
            for d, (need, have) in enumerate(zip(piece.sets, owned.sets)):
                n *= need.count() if src.dim_axis[d] is None else _meet_count(need, have)
                if n == 0:
                    break
            if n:
                parts.append(
                    Section(
                        tuple(
                            need if src.dim_axis[d] is None else _meet(need, have)
                            for d, (need, have) in enumerate(zip(piece.sets, owned.sets))
                        )
                    )
                )
                total += n
        if total:
            out.append(Transfer(rank, receiver, tuple(parts), total))
    return tuple(out)


def exchange_schedule(src: Layout, needs: Needs, nranks: int) -> Schedule:
    """The schedule that gives every rank what ``needs`` says from ``src``."""
    ownership(src, nranks)  # validate now, with a clear error
    return Schedule(src, needs, nranks)


def redistribution_schedule(src: Layout, dst: Layout, nranks: int) -> Schedule:
    """The schedule of a remap of one array from layout ``src`` to ``dst``."""
    if src.bounds != dst.bounds:
        raise ValueError(f"a remap keeps the array's bounds: {src.bounds} vs {dst.bounds}")
    ownership(dst, nranks)
    return exchange_schedule(src, OwnedBy(dst), nranks)


@dataclass(frozen=True)
class ReceiveVolume:
    """What one rank must receive to have a section: ``per_sender`` lists
    ``(sender, elements)``; ``local`` counts the elements it holds itself."""

    rank: int
    per_sender: tuple[tuple[int, int], ...]
    local: int

    @property
    def elements(self) -> int:
        return sum(n for _, n in self.per_sender)

    @property
    def messages(self) -> int:
        return len(self.per_sender)

    def bytes(self, elem_bytes: int) -> int:
        return self.elements * elem_bytes


def receive_volume(layout: Layout, rank: int, needed: Section, nranks: int) -> ReceiveVolume:
    """Elements ``rank`` must receive from each holder to have ``needed`` (a
    section of array indices, e.g. the rows it computes shifted by -1)."""
    sched = exchange_schedule(layout, OnRank(rank, needed.clip(layout.bounds)), nranks)
    local = sched.local(rank)
    return ReceiveVolume(rank, tuple((t.sender, t.count) for t in sched.receives(rank)), local.count if local else 0)
