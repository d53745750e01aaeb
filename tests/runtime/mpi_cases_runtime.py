"""MPI cases of the runtime's communication layer (run by mpi_harness.py at
1, 2, 3 and 4 ranks).  Every value is checked element by element against the
global array, every count against the pure volumes of autodist.layout."""

from __future__ import annotations

import itertools

import numpy as np

from autodist.layout.model import (
    BLOCK,
    COLLAPSED,
    CYCLIC,
    REPLICATED,
    Axis,
    Fixed,
    Format,
    Layout,
    on_rank,
    replicated,
    simple,
)
from autodist.layout.schedule import Halo, SameSection, Shift
from autodist.layout.sections import IndexSet, Section
from autodist.layout.volume import exchange_volume, reduction_volume, redistribution_volume
from autodist import ir
from autodist.runtime.comm.plans import (
    allreduce,
    broadcast_plan,
    halo_plan,
    redistribute_plan,
    reduce,
    scatter_plan,
    shift_plan,
)
from autodist.runtime.comm.stats import CommStats
from autodist.runtime.comm.storage import StorageMap, selector
from autodist.runtime.spmd.arrays import Comms, RtArray

B = ((1, 7), (0, 9))


def values(bounds=B, dtype=np.float64) -> np.ndarray:
    """A global array with distinct values: 100 * i + j (+ 0.5)."""
    i = np.arange(bounds[0][0], bounds[0][1] + 1)[:, None]
    j = np.arange(bounds[1][0], bounds[1][1] + 1)[None, :]
    g = 100.0 * i + j + 0.5
    return np.asfortranarray(g.astype(dtype) if np.dtype(dtype).kind != "i" else (100 * i + j).astype(dtype))


_FTYPES = {np.dtype(np.float64): ir.Type("real", 8), np.dtype(np.float32): ir.Type("real", 4),
           np.dtype(np.int32): ir.Type("integer", 4), np.dtype(np.complex128): ir.Type("complex", 16)}


def array(layout: Layout, comm, dtype=np.float64, ghosts=None, stats: CommStats | None = None) -> RtArray:
    """A zeroed array laid out as ``layout`` (counted in ``stats``)."""
    comms = Comms(comm, stats)
    return RtArray("A", _FTYPES[np.dtype(dtype)], layout.bounds, layout, comms, ghosts=ghosts)


def from_global(g: np.ndarray, layout: Layout, comm, dtype=None, ghosts=None,
                stats: CommStats | None = None) -> RtArray:
    """Every rank passes the same global array and keeps its part."""
    a = array(layout, comm, dtype or g.dtype, ghosts, stats)
    a.keep_part(g)
    return a


def part(g: np.ndarray, bounds, section: Section) -> np.ndarray:
    """The section of a global array (global indices)."""
    whole = tuple(StorageMap(s) for s in Section.from_bounds(bounds).sets)
    return g[selector(whole, section)]


def layouts() -> dict[str, Layout]:
    t7x10 = ((1, 7), (0, 9))
    return {
        "(BLOCK,*)/2": simple(B, (BLOCK, COLLAPSED), (2,)),
        "(*,BLOCK)/3": simple(B, (COLLAPSED, BLOCK), (3,)),
        "(CYCLIC,*)/3": simple(B, (CYCLIC, COLLAPSED), (3,)),
        "(*,CYCLIC(3))/2": simple(B, (COLLAPSED, Format("CYCLIC", 3)), (2,)),
        "(BLOCK(4),*)/2": simple(B, (Format("BLOCK", 4), COLLAPSED), (2,)),
        "(BLOCK,BLOCK)/2x2": simple(B, (BLOCK, BLOCK), (2, 2)),
        "(CYCLIC,BLOCK)/2x2": simple(B, (CYCLIC, BLOCK), (2, 2)),
        "(BLOCK,CYCLIC(2))/3x2 folded": simple(B, (BLOCK, Format("CYCLIC", 2)), (3, 2)),
        "(BLOCK,BLOCK)/5x4 folded": simple(B, (BLOCK, BLOCK), (5, 4)),
        "transposed (BLOCK,CYCLIC)/2x2": Layout(B, ((0, 9), (1, 7)), (Axis(1), Axis(0)), (BLOCK, CYCLIC), (2, 2)),
        "reflected+offset (CYCLIC(2),BLOCK)/2x2": Layout(
            B, ((1, 7), (1, 12)), (Axis(0, -1, 8), Axis(1, 1, 2)), (Format("CYCLIC", 2), BLOCK), (2, 2)),
        "stride 2 (BLOCK,*)/3": Layout(B, ((1, 14), (0, 9)), (Axis(0, 2, 0), Axis(1)), (BLOCK, COLLAPSED), (3,)),
        "replicated along axis 2": Layout(
            B, t7x10 + ((1, 2),), (Axis(0), Axis(1), REPLICATED), (BLOCK, COLLAPSED, BLOCK), (2, 2)),
        "fixed on axis 2": Layout(
            B, t7x10 + ((1, 3),), (Axis(0), Axis(1), Fixed(2)), (COLLAPSED, BLOCK, BLOCK), (2, 3)),
        "replicated everywhere": replicated(B),
    }


def _check_remap(comm, src: Layout, dst: Layout, g: np.ndarray, dtype) -> list[str]:
    stats = CommStats(comm.Get_rank())
    b = from_global(g, src, comm, dtype, stats=stats)
    if not b.remap(dst, region="remap"):  # the same layout: the plan keeps every element
        b.comms.remap_plan(src, dst, b.dtype, b.ghosts, b.ghosts).execute(b.local, b.local, stats, "remap")
    errors = []
    if b.holds and not np.array_equal(b.interior, part(g, B, b.owned)):
        errors.append("values differ")
    want = redistribution_volume(src, dst, comm.Get_size(), np.dtype(dtype).itemsize).rank(comm.Get_rank())
    got = stats.regions["remap"]
    measured = (got.elements_sent, got.elements_received, got.messages_sent, got.messages_received, got.kept)
    predicted = (want.elements_sent, want.elements_received, want.messages_sent, want.messages_received, want.kept)
    if measured != predicted:
        errors.append(f"counts {measured} != predicted {predicted}")
    if got.bytes_sent != want.elements_sent * np.dtype(dtype).itemsize:
        errors.append("bytes")
    return errors


def mpi_case_remap_all_pairs(comm):
    g = values()
    failures = []
    lays = layouts()
    for (na, la), (nb, lb) in itertools.product(lays.items(), lays.items()):
        errs = _check_remap(comm, la, lb, g, np.float64)
        failures += [f"{na} -> {nb}: {e}" for e in errs]
    assert not failures, "; ".join(failures[:6]) + (f" (+{len(failures) - 6} more)" if len(failures) > 6 else "")


def mpi_case_remap_other_types_and_bounds(comm):
    failures = []
    for dtype in (np.int32, np.float32, np.complex128):
        g = values(B, dtype)
        lays = layouts()
        src, dst = lays["(BLOCK,*)/2"], lays["(CYCLIC,BLOCK)/2x2"]
        failures += [f"{np.dtype(dtype)}: {e}" for e in _check_remap(comm, src, dst, g, dtype)]
        failures += [f"{np.dtype(dtype)} back: {e}" for e in _check_remap(comm, dst, src, g, dtype)]
    assert not failures, failures


def mpi_case_grid_reshape_4_to_2x2_planned_once(comm):
    b = ((1, 12), (1, 8))
    g = values(b)
    flat4 = simple(b, (BLOCK, COLLAPSED), (4,))
    grid22 = simple(b, (BLOCK, BLOCK), (2, 2))
    a = from_global(g, flat4, comm)
    out = array(grid22, comm)
    plan = redistribute_plan(flat4, grid22, comm)
    stats = CommStats()
    for _ in range(3):  # planned once, executed many times
        out.local[...] = 0
        plan.execute(a.local, out.local, stats, "reshape")
        if out.holds:
            assert np.array_equal(out.interior, part(g, b, out.owned))
    want = redistribution_volume(flat4, grid22, comm.Get_size()).rank(comm.Get_rank())
    assert stats.regions["reshape"].elements_received == 3 * want.elements_received
    assert stats.regions["reshape"].calls == 3


def mpi_case_scatter_gather(comm):
    rank, n = comm.Get_rank(), comm.Get_size()
    g = values()
    lay = layouts()["(CYCLIC,BLOCK)/2x2"]
    root = n - 1
    stats = CommStats(rank)
    a = array(lay, comm, stats=stats)
    scatter_plan(lay, comm, a.dtype, root, a.ghosts).execute(g if rank == root else None, a.local, stats)
    if a.holds:
        assert np.array_equal(a.interior, part(g, B, a.owned))
    whole = a.full()
    assert np.array_equal(whole, g)
    at_root = a.full(root=0, region="gather to 0")
    assert (at_root is None) == (rank != 0)
    if rank == 0:
        assert np.array_equal(at_root, g)
    scatter = redistribution_volume(on_rank(B, root), lay, n).rank(rank)
    assert stats.regions["scatter"].elements_received == scatter.elements_received
    gather = redistribution_volume(lay, on_rank(B, 0), n).rank(rank)
    assert stats.regions["gather to 0"].elements_sent == gather.elements_sent
    everyone = redistribution_volume(lay, replicated(B), n).rank(rank)
    assert stats.regions["gather"].elements_received == everyone.elements_received


def mpi_case_halo_exchange(comm):
    rank, n = comm.Get_rank(), comm.Get_size()
    b = ((1, 9), (1, 11))
    g = values(b)
    cases = [
        (simple(b, (BLOCK, COLLAPSED), (4,)), ((1, 1), (0, 0)), False),
        (simple(b, (BLOCK, COLLAPSED), (3,)), ((2, 1), (0, 0)), False),
        (simple(b, (BLOCK, BLOCK), (2, 2)), ((1, 1), (1, 1)), True),
        (simple(b, (BLOCK, BLOCK), (2, 2)), ((1, 2), (2, 1)), False),
        (simple(b, (COLLAPSED, BLOCK), (5,)), ((0, 0), (3, 3)), True),
    ]
    for lay, ghosts, corners in cases:
        stats = CommStats(rank)
        a = from_global(g, lay, comm, ghosts=ghosts)
        halo = halo_plan(lay, a.ghosts, comm, a.dtype, corners)
        halo.execute(a.local, a.local, stats)
        halo.execute(a.local, a.local, stats)  # the plan is reused
        owned = a.owned
        if a.holds and owned:
            # Every stored cell that is a face ghost (or a corner when asked)
            # and lies inside the array holds the global value.
            for pos in itertools.product(*(range(s) for s in a.local.shape)):
                idx = a.local_to_global(pos)
                inside = all(lo <= i <= hi for i, (lo, hi) in zip(idx, b))
                outside = sum(i not in s for i, s in zip(idx, owned.sets))
                if inside and (outside == 0 or outside == 1 or corners):
                    got = a.local[pos]
                    want = g[idx[0] - 1, idx[1] - 1]
                    assert got == want, (lay.distribute_str(), ghosts, idx, got, want)
        v = exchange_volume(lay, Halo(ghosts, corners), n).rank(rank)
        r = stats.regions["halo"]
        assert (r.elements_received, r.elements_sent, r.messages_sent) == (
            2 * v.elements_received, 2 * v.elements_sent, 2 * v.messages_sent)


def mpi_case_shift_on_cyclic(comm):
    rank, n = comm.Get_rank(), comm.Get_size()
    g = values()
    for lay in (simple(B, (CYCLIC, COLLAPSED), (3,)), simple(B, (Format("CYCLIC", 2), CYCLIC), (2, 2))):
        for offsets in ((-1, 0), (2, -3)):
            stats = CommStats(rank)
            a = from_global(g, lay, comm)
            plan = shift_plan(lay, offsets, comm)
            buf = plan.execute(a.local, None, stats)
            if a.holds:
                for pos in itertools.product(*(range(s) for s in buf.shape)):
                    i, j = a.local_to_global(pos)
                    si, sj = i + offsets[0], j + offsets[1]
                    if 1 <= si <= 7 and 0 <= sj <= 9:
                        assert buf[pos] == g[si - 1, sj], (lay.distribute_str(), offsets, (i, j))
            v = exchange_volume(lay, Shift(offsets), n).rank(rank)
            assert stats.regions["shift"].elements_received == v.elements_received
            assert stats.regions["shift"].kept == v.kept


def mpi_case_broadcast(comm):
    rank, n = comm.Get_rank(), comm.Get_size()
    g = values()
    lay = simple(B, (BLOCK, CYCLIC), (2, 2))
    sections = [
        Section.of((5, 5), (3, 3)),                      # one element, one holder: MPI_Bcast
        Section.of((2, 3), IndexSet.strided(0, 8, 4)),   # one holder along rows
        Section.of((1, 7), (0, 9)),                      # everything: several holders
        Section.of((6, 7), IndexSet.strided(1, 9, 2)),
    ]
    for sec in sections:
        stats = CommStats(rank)
        a = from_global(g, lay, comm)
        plan = broadcast_plan(lay, sec, comm)
        buf = plan.execute(a.local, None, stats)
        assert np.array_equal(buf, part(g, B, sec)), str(sec)
        v = exchange_volume(lay, SameSection(sec), n).rank(rank)
        assert stats.regions["broadcast"].elements_received == v.elements_received, str(sec)
    single = broadcast_plan(lay, sections[0], comm)
    assert single.method == ("bcast" if n > 1 else single.method)


def mpi_case_reductions(comm):
    rank, n = comm.Get_rank(), comm.Get_size()
    stats = CommStats(rank)
    assert allreduce(comm, rank + 1, "sum", stats) == n * (n + 1) // 2
    assert allreduce(comm, float(rank), "max", stats) == float(n - 1)
    assert allreduce(comm, rank - 5, "min", stats) == -5
    assert allreduce(comm, 2, "prod", stats) == 2**n
    arr = np.arange(6, dtype=np.float64).reshape(2, 3) * (rank + 1)
    total = allreduce(comm, arr, "sum", stats)
    assert np.array_equal(total, np.arange(6, dtype=np.float64).reshape(2, 3) * (n * (n + 1) // 2))
    r = reduce(comm, np.int64(rank), "sum", root=n - 1, stats=stats, region="to last")
    assert (r == n * (n - 1) // 2) if rank == n - 1 else r is None
    all_v = reduction_volume(n, 1)
    six_v = reduction_volume(n, 6)
    red = stats.regions["reduction"]
    assert red.elements_sent == 4 * all_v.sent[rank] + six_v.sent[rank]
    assert red.messages_received == 4 * all_v.messages_received[rank] + six_v.messages_received[rank]
    last = reduction_volume(n, 1, root=n - 1)
    assert stats.regions["to last"].elements_received == last.received[rank]


def mpi_case_index_helpers_and_ranks_without_data(comm):
    rank, n = comm.Get_rank(), comm.Get_size()
    lay = simple(((1, 3), (1, 4)), (BLOCK, COLLAPSED), (1,))  # rank 0 only
    a = array(lay, comm, ghosts=((1, 1), (0, 0)))
    assert a.holds == (rank == 0)
    if rank:
        assert a.local.size == 0 and a.owned is None
    else:
        assert a.local.shape == (5, 4) and a.interior.shape == (3, 4)
        assert a.global_to_local((1, 2)) == (1, 1) and a.local_to_global((0, 0)) == (0, 1)
    halo_plan(lay, a.ghosts, comm).execute(a.local, a.local)  # everyone takes part, nothing moves
    wide = simple(((1, 30),), (BLOCK,), (3,))
    w = array(wide, comm, ghosts=((2, 2),))
    if w.holds:
        lo, hi = w.local_bounds(0)
        assert w.global_to_local((lo,)) == (2,) and w.local_to_global((0,)) == (lo - 2,)
    stats = CommStats(rank)
    stats.record("x", elements_sent=rank)
    gathered = stats.gather(comm, root=0)
    if rank == 0:
        assert [d["regions"]["x"]["elements_sent"] for d in gathered] == list(range(n))


def mpi_case_ghosts_along_cyclic_fail_alike_on_every_rank(comm):
    from autodist.errors import UnsupportedError

    lay = simple(B, (CYCLIC, COLLAPSED), (3,))
    try:
        array(lay, comm, ghosts=((1, 1), (0, 0)))
    except UnsupportedError as exc:
        assert comm.Get_size() > 1 and "ghost cells along dimension 1" in str(exc)
    else:
        assert comm.Get_size() == 1  # one rank holds everything: one interval
    comm.Barrier()  # every rank got here: nobody waits for a rank that raised
