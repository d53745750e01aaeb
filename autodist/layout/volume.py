"""Exact communication volumes: elements, bytes and messages per rank.

The cost model prices data movement with these, and the runtime's counters
(:mod:`autodist.runtime.comm.stats`) count the same quantities while it moves the
data, so predicted and measured element counts agree by construction.

* :func:`redistribution_volume` — a remap between two layouts.  Computed from
  per-dimension joint ownership counts (how many indices of a dimension
  coordinate ``a`` holds in the source and ``b`` in the target), combined over
  dimensions in closed form: O(P + pairs of communicating coordinates), no
  list of elements and no loop over rank pairs.  Cheap to call many times.
* :func:`exchange_volume` — any needs pattern (halo, shift, broadcast,
  gather; see :mod:`autodist.layout.schedule`), from each rank's receive view.
* :func:`reduction_volume` — a reduction of ``count`` values per rank.

Conventions: a local copy (a rank needs what it holds) is ``kept``, not sent;
a message is one (sender, receiver) pair with at least one element.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import prod

import numpy as np

from .model import Layout
from .ownership import Ownership, column_major_coords, ownership
from .periodic import joint_counts
from .schedule import Needs, exchange_schedule


def _max_of(field: str, doc: str) -> property:
    return property(lambda self: max(getattr(self, field), default=0), doc=doc)


@dataclass(frozen=True)
class RankVolume:
    """One rank's share of a communication."""

    rank: int
    elements_sent: int
    elements_received: int
    messages_sent: int
    messages_received: int
    kept: int


@dataclass(frozen=True)
class Volume:
    """Elements, bytes and messages per rank of one communication."""

    nranks: int
    elem_bytes: int
    sent: tuple[int, ...]
    received: tuple[int, ...]
    messages_sent: tuple[int, ...]
    messages_received: tuple[int, ...]
    kept: tuple[int, ...]

    def rank(self, r: int) -> RankVolume:
        return RankVolume(r, self.sent[r], self.received[r], self.messages_sent[r], self.messages_received[r], self.kept[r])

    @property
    def total_elements(self) -> int:
        return sum(self.sent)

    @property
    def total_bytes(self) -> int:
        return self.total_elements * self.elem_bytes

    @property
    def total_messages(self) -> int:
        return sum(self.messages_sent)

    max_sent = _max_of("sent", "Most elements one rank sends.")
    max_received = _max_of("received", "Most elements one rank receives.")
    max_messages_sent = _max_of("messages_sent", "Most messages one rank sends.")
    max_messages_received = _max_of("messages_received", "Most messages one rank receives.")

    @property
    def max_bytes_sent(self) -> int:
        return self.max_sent * self.elem_bytes

    @property
    def max_bytes_received(self) -> int:
        return self.max_received * self.elem_bytes

    def to_dict(self) -> dict:
        return {
            "nranks": self.nranks,
            "elem_bytes": self.elem_bytes,
            "elements_sent": list(self.sent),
            "elements_received": list(self.received),
            "messages_sent": list(self.messages_sent),
            "messages_received": list(self.messages_received),
            "kept": list(self.kept),
            "total_elements": self.total_elements,
            "total_bytes": self.total_bytes,
            "total_messages": self.total_messages,
        }


# --------------------------------------------------------------------------- remaps


@dataclass(frozen=True, eq=False)
class _Joint:
    """Joint counts of one array dimension: ``n[a, b]`` indices held by source
    coordinate ``a`` and target coordinate ``b`` (sparse, sorted by (a, b))."""

    a: np.ndarray
    b: np.ndarray
    n: np.ndarray
    na: int
    nb: int

    def rows(self) -> tuple[np.ndarray, np.ndarray]:
        return (np.bincount(self.a, weights=self.n, minlength=self.na).astype(np.int64),
                np.bincount(self.a, minlength=self.na).astype(np.int64))

    def cols(self) -> tuple[np.ndarray, np.ndarray]:
        return (np.bincount(self.b, weights=self.n, minlength=self.nb).astype(np.int64),
                np.bincount(self.b, minlength=self.nb).astype(np.int64))

    def at(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        keys = self.a * self.nb + self.b
        want = a * self.nb + b
        j = np.minimum(np.searchsorted(keys, want), max(len(keys) - 1, 0))
        if len(keys) == 0:
            return np.zeros(len(want), np.int64)
        return np.where(keys[j] == want, self.n[j], 0)


def _rank_table(own: Ownership) -> dict[str, np.ndarray]:
    """Per rank: coordinates along every axis (-1 past the grid), holds, primary."""
    R = own.nranks
    coords = np.full((R, len(own.axes)), -1, np.int64)
    for r in range(min(R, own.active)):
        coords[r] = column_major_coords(r, own.grid)
    active = np.arange(R) < own.active
    holds = active.copy()
    primary = active.copy()
    for x, axis in enumerate(own.axes):
        if axis.kind == "fixed":
            holds &= coords[:, x] == axis.coord
        elif axis.kind == "replicated":
            primary &= coords[:, x] == 0
    return {"coords": coords, "holds": holds, "primary": primary & holds}


def _dim_coords(own: Ownership, table: dict, d: int) -> np.ndarray:
    x = own.dim_axis[d]
    if x is None:
        return np.zeros(own.nranks, np.int64)
    return np.maximum(table["coords"][:, x], 0)


def _products(tables, coords, other_axis, nranks: int) -> tuple[np.ndarray, np.ndarray]:
    """Per rank, over the array dimensions: the product of its indices' counts
    (sums) and the product of how many coordinates of the other layout they
    meet (partners; where the other layout does not distribute a dimension,
    only whether the count is non-zero)."""
    total = np.ones(nranks, np.int64)
    partners = np.ones(nranks, np.int64)
    for (sums, nnz), c, axis in zip(tables, coords, other_axis):
        total *= sums[c]
        partners *= nnz[c] if axis is not None else (sums[c] > 0)
    return total, partners


@lru_cache(maxsize=4096)
def redistribution_volume(src: Layout, dst: Layout, nranks: int, elem_bytes: int = 8) -> Volume:
    """Exact elements, bytes and messages of a remap of one array from ``src``
    to ``dst`` on ``nranks`` ranks, per rank (sent, received, kept)."""
    if src.bounds != dst.bounds:
        raise ValueError(f"a remap keeps the array's bounds: {src.bounds} vs {dst.bounds}")
    A, B = ownership(src, nranks), ownership(dst, nranks)
    ta, tb = _rank_table(A), _rank_table(B)
    joints = []
    for d, (lo, hi) in enumerate(src.bounds):
        fa, fb = A.dims[d], B.dims[d]
        a, b, n = joint_counts(fa.labeling, fb.labeling, lo, hi)
        joints.append(_Joint(a, b, n, fa.eff, fb.eff))

    R = nranks
    ones = np.ones(R, np.int64)
    a_of = [_dim_coords(A, ta, d) for d in range(len(joints))]
    b_of = [_dim_coords(B, tb, d) for d in range(len(joints))]
    needs = tb["holds"]

    # Elements a rank needs and holds itself.
    own_pairs = ones.copy()
    for d, j in enumerate(joints):
        own_pairs *= j.at(a_of[d], b_of[d])
    kept = np.where(ta["holds"] & needs, own_pairs, 0)

    # Received: everything needed that is not kept.
    need_total, senders = _products([j.cols() for j in joints], b_of, A.dim_axis, R)
    received = np.where(needs, need_total - kept, 0)
    messages_received = np.where(needs, senders - (kept > 0), 0)
    messages_received = np.where(received > 0, messages_received, 0)

    # Sent: primaries send everything they hold to every rank needing it,
    # except to the ranks that hold the same part (those keep their copy).
    held_total, receivers = _products([j.rows() for j in joints], a_of, B.dim_axis, R)
    copies = prod(ax.extent for ax in B.axes if ax.kind == "replicated")
    primary_of = np.arange(R)
    for r in range(R):
        if ta["holds"][r]:
            primary_of[r] = A.primary_of(r)
    kept_by_part = np.bincount(primary_of[ta["holds"]], weights=kept[ta["holds"]], minlength=R).astype(np.int64)
    keepers = np.bincount(primary_of[ta["holds"]], weights=(kept[ta["holds"]] > 0), minlength=R).astype(np.int64)
    sent = np.where(ta["primary"], held_total * copies - kept_by_part, 0)
    messages_sent = np.where(ta["primary"], receivers * copies - keepers, 0)
    messages_sent = np.where(sent > 0, messages_sent, 0)

    def tup(x: np.ndarray) -> tuple[int, ...]:
        return tuple(int(v) for v in x)

    return Volume(nranks, elem_bytes, tup(sent), tup(received), tup(messages_sent), tup(messages_received), tup(kept))


# --------------------------------------------------------------------------- any needs


@lru_cache(maxsize=4096)
def exchange_volume(src: Layout, needs: Needs, nranks: int, elem_bytes: int = 8) -> Volume:
    """Exact volume of giving every rank what ``needs`` says (halo, shift,
    broadcast, gather...) from an array laid out as ``src``."""
    sched = exchange_schedule(src, needs, nranks)
    sent = [0] * nranks
    received = [0] * nranks
    msent = [0] * nranks
    mrecv = [0] * nranks
    kept = [0] * nranks
    for r in range(nranks):
        local = sched.local(r)
        kept[r] = local.count if local else 0
        for t in sched.receives(r):
            received[r] += t.count
            mrecv[r] += 1
            sent[t.sender] += t.count
            msent[t.sender] += 1
    return Volume(nranks, elem_bytes, tuple(sent), tuple(received), tuple(msent), tuple(mrecv), tuple(kept))


def reduction_volume(nranks: int, count: int, elem_bytes: int = 8, root: int | None = None) -> Volume:
    """Logical volume of reducing ``count`` values held by every rank: each
    rank but the root sends its values to the root (All_to_One); with
    ``root=None`` (an all-reduce) the root then sends the result back to every
    rank (One_to_All).  Rank 0 is the root of an all-reduce."""
    r0 = 0 if root is None else root
    others = nranks - 1
    sent = [count if r != r0 else 0 for r in range(nranks)]
    received = [count * others if r == r0 else 0 for r in range(nranks)]
    msent = [1 if r != r0 else 0 for r in range(nranks)]
    mrecv = [others if r == r0 else 0 for r in range(nranks)]
    if root is None:
        sent = [s + (count * others if r == r0 else 0) for r, s in enumerate(sent)]
        received = [v + (count if r != r0 else 0) for r, v in enumerate(received)]
        msent = [m + (others if r == r0 else 0) for r, m in enumerate(msent)]
        mrecv = [m + (1 if r != r0 else 0) for r, m in enumerate(mrecv)]
    if count == 0:
        sent, received, msent, mrecv = ([0] * nranks for _ in range(4))
    return Volume(nranks, elem_bytes, tuple(sent), tuple(received), tuple(msent), tuple(mrecv), (count,) * nranks)
