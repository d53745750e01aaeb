"""Point-to-point hand-offs of a pipelined phase: a rank receives what it needs
from its predecessors before it computes and sends what its successors need
after."""

from __future__ import annotations

import time

import numpy as np

from ...layout.model import Layout
from ...layout.routines import PIPELINE
from .storage import pack, selector, unpack


#: MPI tag of the hand-offs (the scalars of a pipelined phase use TAG + 1).
TAG = 7262


class PipelineLink:
    """Point-to-point transfers of a pipelined phase, in two halves: a rank
    receives what it needs from its predecessors before it computes and sends
    what its successors need after."""

    def __init__(self, schedule, comm, src_maps, dst_maps, dtype, region: str):
        rank = comm.Get_rank()
        self.comm, self.region, self.dtype = comm, region, np.dtype(dtype)
        self.sends = [(t.receiver, t.count, [(selector(src_maps, p), p.shape) for p in t.pieces])
                      for t in schedule.sends(rank)]
        self.recvs = [(t.sender, t.count, [(selector(dst_maps, p), p.shape) for p in t.pieces])
                      for t in schedule.receives(rank)]

    def receive(self, dst: np.ndarray, stats) -> None:
        t0 = time.perf_counter()
        n = 0
        for peer, count, parts in self.recvs:
            buf = np.empty(count, self.dtype)
            self.comm.Recv(buf, source=peer, tag=TAG)
            off = 0
            for sel, shape in parts:
                off = unpack(buf, off, shape, dst, sel)
            n += count
        if self.recvs:
            stats.record(self.region, elements_received=n, messages_received=len(self.recvs),
                         elem_bytes=self.dtype.itemsize, seconds=time.perf_counter() - t0)

    def send(self, src: np.ndarray, stats) -> None:
        t0 = time.perf_counter()
        n = 0
        for peer, count, parts in self.sends:
            buf = np.empty(count, self.dtype)
            off = 0
            for sel, shape in parts:
                off = pack(src, sel, shape, buf, off)
            self.comm.Send(buf, dest=peer, tag=TAG)
            n += count
        if self.sends:
            stats.record(self.region, elements_sent=n, messages_sent=len(self.sends),
                         elem_bytes=self.dtype.itemsize, seconds=time.perf_counter() - t0)


def pipeline_link(layout: Layout, per_rank, comm, maps, dtype, region: str) -> PipelineLink:
    """The hand-offs that give every rank ``r`` the sections ``per_rank[r]``
    from the ranks that computed them; both halves work on storage ``maps``
    (what a rank sends is what it computed there)."""
    sched = PIPELINE.schedule(layout, PIPELINE.needs(per_rank), comm.Get_size())
    return PipelineLink(sched, comm, maps, maps, dtype, region)
