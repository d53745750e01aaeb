"""Communication counters per named region (a phase, a remap), per rank.

Each rank owns one :class:`CommStats` (no global state: the executor creates
it and hands it to the plans it executes).  A plan records, per execution,
the elements, bytes and messages it sent and received, the elements it copied
locally (``kept``) and the time it took; the executor adds computation time.
Element counts come from the same pure schedules the cost model prices
(:mod:`autodist.layout.volume`), so they equal the prediction exactly.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Iterator


@dataclass
class RegionStats:
    """Totals of one region on one rank."""

    elements_sent: int = 0
    elements_received: int = 0
    bytes_sent: int = 0
    bytes_received: int = 0
    messages_sent: int = 0
    messages_received: int = 0
    kept: int = 0
    calls: int = 0
    comm_time: float = 0.0
    compute_time: float = 0.0

    def merge(self, other: "RegionStats") -> None:
        for k, v in asdict(other).items():
            setattr(self, k, getattr(self, k) + v)


@dataclass
class CommStats:
    """Counters of one rank, by region name (in the order regions first appear)."""

    rank: int = 0
    regions: dict[str, RegionStats] = field(default_factory=dict)

    def region(self, name: str) -> RegionStats:
        if name not in self.regions:
            self.regions[name] = RegionStats()
        return self.regions[name]

    def record(
        self,
        name: str,
        *,
        elements_sent: int = 0,
        elements_received: int = 0,
        messages_sent: int = 0,
        messages_received: int = 0,
        kept: int = 0,
        elem_bytes: int = 8,
        seconds: float = 0.0,
    ) -> None:
        """Add one communication to region ``name``."""
        r = self.region(name)
        r.elements_sent += elements_sent
        r.elements_received += elements_received
        r.bytes_sent += elements_sent * elem_bytes
        r.bytes_received += elements_received * elem_bytes
        r.messages_sent += messages_sent
        r.messages_received += messages_received
        r.kept += kept
        r.calls += 1
        r.comm_time += seconds

    @contextmanager
    def computing(self, name: str) -> Iterator[None]:
        """``with stats.computing("phase 2"): ...`` adds the elapsed time to the
        region's computation time."""
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.region(name).compute_time += time.perf_counter() - t0

    def total(self) -> RegionStats:
        out = RegionStats()
        for r in self.regions.values():
            out.merge(r)
        return out

    def to_dict(self) -> dict:
        return {"rank": self.rank, "regions": {k: asdict(v) for k, v in self.regions.items()}}

    def gather(self, comm, root: int = 0) -> list[dict] | None:
        """Every rank's :meth:`to_dict` on ``root`` (rank order), None elsewhere."""
        return comm.gather(self.to_dict(), root=root)
