"""Communication plans on MPI: planned once, executed many times.

Every pattern is an :class:`ExchangePlan` built from a pure
:class:`~autodist.layout.schedule.Schedule` (which rank sends which
rectangular pieces of the array to which rank) and the storage maps of the
source and target arrays on this rank.  Building a plan turns the pieces into
numpy selectors once; executing it packs, moves and unpacks:

* ``alltoallv`` — one collective (remaps between any two layouts, gathers to
  every rank): ``MPI_Alltoallw`` with subarray datatypes when every piece is
  a rectangular block of the storage (MPI reads and writes the arrays
  directly), else ``MPI_Alltoallv`` with packing (a side whose every message
  is one contiguous block of its storage is passed as is).
* ``p2p`` — ``Isend``/``Irecv`` with the ranks that exchange something
  (halos, shifts, gathers to one rank).
* ``bcast`` — ``MPI_Bcast`` from the one rank that holds a whole section.

Local copies (a rank needs what it holds) never go through MPI.  Each
execution records the schedule's exact element, byte and message counts and
its wall time in a :class:`~autodist.runtime.comm.stats.CommStats` region.

Plan constructors, each carrying out a routine of
:mod:`autodist.layout.routines` (and planned from its needs pattern):
:func:`exchange_plan` (Exchange, Copy), :func:`redistribute_plan` and
:func:`scatter_plan` (Remap), :func:`halo_plan` and :func:`shift_plan` (Shift),
:func:`broadcast_plan` (One_to_All), :func:`gather_plan` (All_to_One, or
All_to_All to every rank); reductions: :func:`allreduce`, :func:`reduce`
(Reduction).  :mod:`.builders` finds them from a routine.
"""

from __future__ import annotations

import time
from typing import Sequence

import numpy as np
from mpi4py import MPI

from ...errors import UnsupportedError
from ...layout.model import Layout, on_rank
from ...layout.ownership import Ownership, ownership
from ...layout.routines import ALL_TO_ALL, ALL_TO_ONE, EXCHANGE, ONE_TO_ALL, REDUCTION, REMAP, SHIFT
from ...layout.schedule import Schedule
from ...layout.sections import IndexSet, Section
from .stats import CommStats
from .storage import StorageMap, contiguous_offset, flat, pack, selector, unpack

_TAG = 7261

Ghosts = Sequence[tuple[int, int]]


def normalize_ghosts(rank: int, ghosts: Ghosts | None) -> tuple[tuple[int, int], ...]:
    if ghosts is None:
        return ((0, 0),) * rank
    out = tuple((int(a), int(b)) for a, b in ghosts)
    if len(out) != rank or any(a < 0 or b < 0 for a, b in out):
        raise ValueError(f"ghosts need one non-negative (below, above) pair per dimension, got {ghosts!r}")
    return out


def storage_maps(own: Ownership, rank: int, ghosts: Ghosts | None = None) -> tuple[StorageMap, ...] | None:
    """How ``rank`` stores its part of an array (None when it holds nothing).

    Along a dimension with ghost cells the storage is the owned interval
    widened by the ghost widths (positions below and above are ghosts)."""
    ghosts = normalize_ghosts(len(own.dims), ghosts)
    for d, (below, above) in enumerate(ghosts):
        # Checked for every rank's part, so that every rank raises alike.
        dm = own.dims[d]
        if (below or above) and not all(dm.owned(e).is_interval or not dm.owned(e) for e in range(dm.eff)):
            raise UnsupportedError(
                f"ghost cells along dimension {d + 1} need one interval of indices per rank, "
                f"but layout {own.layout.distribute_str()} deals them out in several pieces"
            )
    owned = own.owned(rank)
    if owned is None:
        return None
    maps = []
    for s, (below, above) in zip(owned.sets, ghosts):
        if (below or above) and s:
            maps.append(StorageMap(IndexSet.interval(s.lo - below, s.hi + above)))
        else:
            maps.append(StorageMap(s))
    return tuple(maps)


def storage_shape(maps: Sequence[StorageMap] | None, rank: int) -> tuple[int, ...]:
    """Shape of the local storage the maps describe (zeros when there is none)."""
    return (0,) * rank if maps is None else tuple(m.size for m in maps)


class ExchangePlan:
    """This rank's part of a planned exchange (see the module docstring)."""

    def __init__(
        self,
        schedule: Schedule,
        comm,
        src_maps: Sequence[StorageMap] | None,
        dst_maps: Sequence[StorageMap] | None,
        dst_shape: tuple[int, ...],
        dtype=np.float64,
        method: str = "alltoallv",
        bcast_root: int | None = None,
        region: str = "exchange",
    ):
        size, rank = comm.Get_size(), comm.Get_rank()
        if schedule.nranks != size:
            raise ValueError(f"schedule planned for {schedule.nranks} ranks, communicator has {size}")
        if method not in ("alltoallv", "p2p", "bcast"):
            raise ValueError(f"unknown method {method!r}")
        self.comm = comm
        self.schedule = schedule
        self.method = method
        self.bcast_root = bcast_root
        self.region = region
        self.dtype = np.dtype(dtype)
        self.dst_shape = dst_shape
        src_shape = tuple(m.size for m in src_maps) if src_maps is not None else ()

        def sels(maps, pieces):
            return [(selector(maps, p), p.shape) for p in pieces]

        self._sends = [(t.receiver, t.count, sels(src_maps, t.pieces)) for t in schedule.sends(rank)]
        self._recvs = [(t.sender, t.count, sels(dst_maps, t.pieces)) for t in schedule.receives(rank)]
        local = schedule.local(rank)
        self._local = [(selector(src_maps, p), selector(dst_maps, p)) for p in local.pieces] if local else []
        self.kept = local.count if local else 0
        self.elements_sent = sum(c for _, c, _ in self._sends)
        self.elements_received = sum(c for _, c, _ in self._recvs)
        self.messages_sent = len(self._sends)
        self.messages_received = len(self._recvs)

        self._scounts = np.zeros(size, np.int64)
        self._rcounts = np.zeros(size, np.int64)
        for peer, count, _ in self._sends:
            self._scounts[peer] = count
        for peer, count, _ in self._recvs:
            self._rcounts[peer] = count
        # Zero-copy sides: every message is one contiguous block of the storage.
        self._sdispls = self._direct(self._sends, src_shape)
        self._rdispls = self._direct(self._recvs, dst_shape)
        self._sbuf = self._rbuf = None
        if self._sdispls is None:
            self._sdispls = np.concatenate(([0], np.cumsum(self._scounts)[:-1]))
            self._sbuf = np.empty(int(self._scounts.sum()), self.dtype)
        if self._rdispls is None:
            self._rdispls = np.concatenate(([0], np.cumsum(self._rcounts)[:-1]))
            self._rbuf = np.empty(int(self._rcounts.sum()), self.dtype)
        # Rectangular pieces everywhere: MPI reads and writes the storage
        # itself through subarray datatypes (one Alltoallw, no packing).
        # The choice is collective: every rank must call the same routine.
        self._wtypes = None
        if method == "alltoallv" and comm.allreduce(self._rectangular(), op=MPI.LAND):
            self._wtypes = self._subarray_types(src_shape, dst_shape)
            self._sbuf = self._rbuf = None

    def _rectangular(self) -> bool:
        """Whether every piece this rank moves is a rectangular block of storage."""
        from mpi4py.util.dtlib import from_numpy_dtype

        try:
            from_numpy_dtype(self.dtype)
        except (ValueError, KeyError, TypeError):
            return False
        return all(isinstance(x, slice) and x.step in (None, 1)
                   for _, _, parts in self._sends + self._recvs for sel, _ in parts for x in sel)

    def _subarray_types(self, src_shape, dst_shape):
        from mpi4py.util.dtlib import from_numpy_dtype

        base = from_numpy_dtype(self.dtype)
        size = self.comm.Get_size()
        made = []

        def side(transfers, shape):
            types, counts = [base] * size, [0] * size
            for peer, _, parts in transfers:
                subs = [base.Create_subarray(list(shape), list(sub), [x.start for x in sel], order=MPI.ORDER_FORTRAN)
                        for sel, sub in parts]
                if len(subs) == 1:
                    t = subs[0]
                else:
                    t = MPI.Datatype.Create_struct([1] * len(subs), [0] * len(subs), subs)
                    for x in subs:
                        x.Free()
                made.append(t.Commit())
                types[peer], counts[peer] = t, 1
            return types, counts

        stypes, scounts = side(self._sends, src_shape)
        rtypes, rcounts = side(self._recvs, dst_shape)
        zeros = [0] * size
        return (stypes, (scounts, zeros)), (rtypes, (rcounts, zeros)), made

    def free(self) -> None:
        """Release the MPI datatypes of the plan (also done when it is collected)."""
        if getattr(self, "_wtypes", None) is not None:
            if not MPI.Is_finalized():
                for t in self._wtypes[2]:
                    t.Free()
            self._wtypes = None

    def __del__(self) -> None:
        try:
            self.free()
        except Exception:  # pragma: no cover - interpreter shutdown
            pass

    def _direct(self, transfers, shape) -> np.ndarray | None:
        if self.method == "bcast" or not transfers:
            return None
        displs = np.zeros(self.comm.Get_size(), np.int64)
        for peer, _, parts in transfers:
            if len(parts) != 1:
                return None
            off = contiguous_offset(shape, parts[0][0])
            if off is None:
                return None
            displs[peer] = off
        return displs

    # ---------------------------------------------------------------- execution

    def new_buffer(self) -> np.ndarray:
        """A zeroed target array of the shape this plan writes into."""
        return np.zeros(self.dst_shape, self.dtype, order="F")

    def execute(self, src: np.ndarray | None, dst: np.ndarray | None, stats: CommStats | None = None,
                region: str | None = None) -> np.ndarray | None:
        """Move the data: read ``src`` (this rank's source storage), write
        ``dst`` (this rank's target storage); returns ``dst``."""
        t0 = time.perf_counter()
        if dst is None:
            dst = self.new_buffer()
        for ssel, dsel in self._local:
            dst[dsel] = src[ssel]
        if self.method == "bcast":
            self.comm.Bcast(flat(dst), root=self.bcast_root)
        elif self.method == "alltoallv":
            self._alltoallv(src, dst)
        else:
            self._p2p(src, dst)
        if stats is not None:
            stats.record(
                region or self.region,
                elements_sent=self.elements_sent,
                elements_received=self.elements_received,
                messages_sent=self.messages_sent,
                messages_received=self.messages_received,
                kept=self.kept,
                elem_bytes=self.dtype.itemsize,
                seconds=time.perf_counter() - t0,
            )
        return dst

    def _send_buffer(self, src: np.ndarray | None) -> np.ndarray:
        if self._sbuf is not None:
            off = 0
            for _, _, parts in self._sends:
                for sel, shape in parts:
                    off = pack(src, sel, shape, self._sbuf, off)
            return self._sbuf
        return flat(np.asfortranarray(src)) if src is not None else np.empty(0, self.dtype)

    def _unpack(self, dst: np.ndarray) -> None:
        if self._rbuf is not None:
            off = 0
            for _, _, parts in self._recvs:
                for sel, shape in parts:
                    off = unpack(self._rbuf, off, shape, dst, sel)

    def _recv_buffer(self, dst: np.ndarray) -> np.ndarray:
        return self._rbuf if self._rbuf is not None else flat(dst)

    def _alltoallv(self, src, dst) -> None:
        if self._wtypes is not None:
            (stypes, scd), (rtypes, rcd), _ = self._wtypes
            sbuf = flat(src) if src is not None else np.empty(0, self.dtype)
            self.comm.Alltoallw([sbuf, scd, stypes], [flat(dst), rcd, rtypes])
            return
        sbuf = self._send_buffer(src)
        rbuf = self._recv_buffer(dst)
        self.comm.Alltoallv([sbuf, (self._scounts, self._sdispls)], [rbuf, (self._rcounts, self._rdispls)])
        self._unpack(dst)

    def _p2p(self, src, dst) -> None:
        rbuf = self._recv_buffer(dst)
        reqs = [
            self.comm.Irecv(rbuf[self._rdispls[p]:self._rdispls[p] + c], source=p, tag=_TAG)
            for p, c, _ in self._recvs
        ]
        sbuf = self._send_buffer(src)
        reqs += [
            self.comm.Isend(sbuf[self._sdispls[p]:self._sdispls[p] + c], dest=p, tag=_TAG)
            for p, c, _ in self._sends
        ]
        MPI.Request.Waitall(reqs)
        self._unpack(dst)


# --------------------------------------------------------------------------- constructors


def _plan(sched: Schedule, comm, src_maps, dst_maps, dst_shape, dtype, method, region, bcast_root=None):
    return ExchangePlan(sched, comm, src_maps, dst_maps, dst_shape, dtype, method, bcast_root, region)


def exchange_plan(layout: Layout, per_rank: Sequence[Sequence[Section]], comm, src_maps, dst_maps,
                  dst_shape: tuple[int, ...], dtype=np.float64, region: str = "exchange") -> ExchangePlan:
    """Every rank ``r`` receives the (disjoint) sections ``per_rank[r]`` of the
    array from their holders, point to point, into storage ``dst_maps`` (of
    shape ``dst_shape``).  ``plan.execute(a.local, window)``."""
    sched = EXCHANGE.schedule(layout, EXCHANGE.needs(per_rank), comm.Get_size())
    return _plan(sched, comm, src_maps, dst_maps, dst_shape, dtype, "p2p", region)


def redistribute_plan(src: Layout, dst: Layout, comm, dtype=np.float64, src_ghosts: Ghosts | None = None,
                      dst_ghosts: Ghosts | None = None, region: str = "remap") -> ExchangePlan:
    """Remap from ``src`` to ``dst`` (any two layouts of the same array) with
    one Alltoallv.  ``execute(a.local, b.local)``."""
    n, r = comm.Get_size(), comm.Get_rank()
    sched = REMAP.schedule(src, dst, n)
    dmaps = storage_maps(ownership(dst, n), r, dst_ghosts)
    return _plan(sched, comm, storage_maps(ownership(src, n), r, src_ghosts), dmaps,
                 storage_shape(dmaps, dst.rank), dtype, "alltoallv", region)


def halo_plan(layout: Layout, ghosts: Ghosts, comm, dtype=np.float64, corners: bool = False,
              widths: Ghosts | None = None, region: str = "halo") -> ExchangePlan:
    """Fill the ghost cells of an array stored with ``ghosts`` (or only
    ``widths`` of them) from their owners.  ``execute(a.local, a.local)``."""
    n, r = comm.Get_size(), comm.Get_rank()
    ghosts = normalize_ghosts(layout.rank, ghosts)
    widths = normalize_ghosts(layout.rank, widths) if widths is not None else ghosts
    if any(w > g for wg, gg in zip(widths, ghosts) for w, g in zip(wg, gg)):
        raise ValueError(f"halo widths {widths} exceed the ghost cells {ghosts}")
    sched = SHIFT.schedule(layout, SHIFT.halo(widths, corners), n)
    maps = storage_maps(ownership(layout, n), r, ghosts)
    return _plan(sched, comm, maps, maps, storage_shape(maps, layout.rank), dtype, "p2p", region)


def shift_plan(layout: Layout, offsets: Sequence[int], comm, dtype=np.float64, ghosts: Ghosts | None = None,
               region: str = "shift") -> ExchangePlan:
    """A buffer shaped like this rank's part whose element at the position of
    ``i`` is ``A(i + offsets)`` (left untouched where that is outside the
    array).  For shifts along dimensions without ghost cells (e.g. CYCLIC).
    ``buf = plan.execute(a.local, None)``."""
    n, r = comm.Get_size(), comm.Get_rank()
    own = ownership(layout, n)
    offsets = tuple(int(o) for o in offsets)
    sched = SHIFT.schedule(layout, SHIFT.needs(offsets), n)
    owned = own.owned(r)
    dmaps = None if owned is None else tuple(StorageMap(s, d) for s, d in zip(owned.sets, offsets))
    return _plan(sched, comm, storage_maps(own, r, ghosts), dmaps, storage_shape(dmaps, layout.rank),
                 dtype, "p2p", region)


def broadcast_plan(layout: Layout, section: Section, comm, dtype=np.float64, ghosts: Ghosts | None = None,
                   region: str = "broadcast") -> ExchangePlan:
    """Every rank gets ``section`` of the array in a buffer of the section's
    shape (One_to_All).  ``buf = plan.execute(a.local, None)``."""
    n, r = comm.Get_size(), comm.Get_rank()
    own = ownership(layout, n)
    section = section.clip(layout.bounds)
    sched = ONE_TO_ALL.schedule(layout, ONE_TO_ALL.needs(section), n)
    dmaps = tuple(StorageMap(s) for s in section.sets)
    method, root = "p2p", None
    if section:
        first = tuple(s.first() for s in section.sets)
        root = own.owner(first)
        local = sched.local(root)
        if local is not None and local.count == section.count():
            method = "bcast"
    return _plan(sched, comm, storage_maps(own, r, ghosts), dmaps, section.shape, dtype, method, region, root)


def gather_plan(layout: Layout, comm, dtype=np.float64, root: int | None = None, ghosts: Ghosts | None = None,
                region: str = "gather") -> ExchangePlan:
    """The whole array on ``root`` (All_to_One) or, with ``root=None``, on
    every rank, in a buffer of the array's shape.  ``plan.execute(a.local, None)``."""
    n, r = comm.Get_size(), comm.Get_rank()
    whole = Section.from_bounds(layout.bounds)
    if root is None:
        sched = ALL_TO_ALL.schedule(layout, ALL_TO_ALL.needs(whole), n)
    else:
        sched = ALL_TO_ONE.schedule(layout, ALL_TO_ONE.needs(root, whole), n)
    here = root is None or r == root
    dmaps = tuple(StorageMap(s) for s in whole.sets) if here else None
    shape = whole.shape if here else (0,) * layout.rank
    return _plan(sched, comm, storage_maps(ownership(layout, n), r, ghosts), dmaps, shape, dtype,
                 "alltoallv" if root is None else "p2p", region)


def scatter_plan(layout: Layout, comm, dtype=np.float64, root: int = 0, ghosts: Ghosts | None = None,
                 region: str = "scatter") -> ExchangePlan:
    """From the whole array on ``root`` to ``layout``.  ``execute(whole_or_None, a.local)``."""
    source = on_rank(layout.bounds, root)
    return redistribute_plan(source, layout, comm, dtype, None, ghosts, region)


# --------------------------------------------------------------------------- reductions

_OPS = {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN, "prod": MPI.PROD}


def _reduce(comm, value, op: str, root: int | None, stats: CommStats | None, region: str):
    if op not in _OPS:
        raise ValueError(f"unknown reduction {op!r} (one of {', '.join(_OPS)})")
    t0 = time.perf_counter()
    scalar = np.ndim(value) == 0
    send = np.ascontiguousarray(np.asarray(value))
    recv = np.empty_like(send)
    if root is None:
        comm.Allreduce(send, recv, op=_OPS[op])
    else:
        comm.Reduce(send, recv, op=_OPS[op], root=root)
    if stats is not None:
        v = REDUCTION.volume(comm.Get_size(), send.size, send.itemsize, root)
        me = comm.Get_rank()
        stats.record(region, elements_sent=v.sent[me], elements_received=v.received[me],
                     messages_sent=v.messages_sent[me], messages_received=v.messages_received[me],
                     elem_bytes=send.itemsize, seconds=time.perf_counter() - t0)
    if root is not None and comm.Get_rank() != root:
        return None
    if scalar:
        # (ascontiguousarray made the 0-d value a 1-element array)
        return recv.item() if not isinstance(value, np.generic) else recv.reshape(())[()]
    return recv


def allreduce(comm, value, op: str = "sum", stats: CommStats | None = None, region: str = "reduction"):
    """Combine a scalar or an array over all ranks (``sum``, ``max``, ``min``,
    ``prod``); every rank gets the result.  The order in which MPI combines
    the values is its own: sums may differ from a sequential sum in the last
    bits."""
    return _reduce(comm, value, op, None, stats, region)


def reduce(comm, value, op: str = "sum", root: int = 0, stats: CommStats | None = None,
           region: str = "reduction"):
    """Like :func:`allreduce`, but only ``root`` gets the result (None elsewhere)."""
    return _reduce(comm, value, op, root, stats, region)
