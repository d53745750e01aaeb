"""Distributed arrays: one rank's part of a global array under a layout.

``DistArray(layout, comm, dtype, ghosts)`` holds ``local``: a Fortran-order
numpy array with this rank's elements (indices of each dimension in increasing
order, see :mod:`autodist.layout.ownership`), widened by ghost cells where
asked (``ghosts[d] = (below, above)``; only along dimensions a rank holds as
one interval).  A rank that holds nothing has an empty ``local``.

Indices are the program's own (1-based unless declared otherwise); storage
positions are 0-based and include the ghost offset.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ...errors import UnsupportedError
from ...layout.model import Layout
from ...layout.ownership import Ownership, ownership
from ...layout.sections import Section
from .plans import Ghosts, ExchangePlan, gather_plan, halo_plan, normalize_ghosts, redistribute_plan, scatter_plan, storage_maps, storage_shape
from .stats import CommStats
from .storage import StorageMap, numpy_dtype, selector

__all__ = ["DistArray", "numpy_dtype"]


class DistArray:
    """This rank's part of one global array laid out as ``layout`` on ``comm``."""

    def __init__(self, layout: Layout, comm, dtype=np.float64, ghosts: Ghosts | None = None):
        self.layout = layout
        self.comm = comm
        self.nranks = comm.Get_size()
        self.rank = comm.Get_rank()
        self.dtype = np.dtype(dtype)
        self.ghosts = normalize_ghosts(layout.rank, ghosts)
        self.ownership: Ownership = ownership(layout, self.nranks)
        self.maps: tuple[StorageMap, ...] | None = storage_maps(self.ownership, self.rank, self.ghosts)
        self.local = np.zeros(storage_shape(self.maps, layout.rank), self.dtype, order="F")
        self._halos: dict[tuple, ExchangePlan] = {}

    # ---------------------------------------------------------------- facts

    @property
    def shape(self) -> tuple[int, ...]:
        """Global shape."""
        return self.layout.shape

    @property
    def owned(self) -> Section | None:
        """The global indices this rank owns (None when it holds nothing)."""
        return self.ownership.owned(self.rank)

    @property
    def holds(self) -> bool:
        return self.maps is not None

    @property
    def interior(self) -> np.ndarray:
        """View of ``local`` without the ghost cells."""
        if self.maps is None:
            return self.local
        sl = tuple(
            slice(below, below + (s.count() if s else 0)) if s else slice(0, 0)
            for s, (below, _) in zip(self.owned.sets, self.ghosts)
        )
        return self.local[sl]

    def local_bounds(self, dim: int) -> tuple[int, int] | None:
        """First and last global index this rank owns along ``dim`` when it
        owns an interval of them (BLOCK-like); None when it owns none."""
        owned = self.owned
        if owned is None or not owned.sets[dim]:
            return None
        s = owned.sets[dim]
        if not s.is_interval:
            raise UnsupportedError(f"dimension {dim + 1} is not held as one interval ({self.layout.distribute_str()})")
        return s.lo, s.hi

    def global_to_local(self, index: Sequence[int]) -> tuple[int, ...]:
        """Storage position (ghosts included) of global ``index``."""
        if self.maps is None:
            raise IndexError(f"rank {self.rank} holds no part of this array")
        return tuple(m.position(i) for m, i in zip(self.maps, index))

    def local_to_global(self, position: Sequence[int]) -> tuple[int, ...]:
        """Global index at storage ``position`` (ghosts included)."""
        if self.maps is None:
            raise IndexError(f"rank {self.rank} holds no part of this array")
        return tuple(m.global_index(p) for m, p in zip(self.maps, position))

    # ---------------------------------------------------------------- whole arrays

    @classmethod
    def from_global(cls, global_array: np.ndarray | None, layout: Layout, comm, dtype=None,
                    ghosts: Ghosts | None = None, root: int | None = None, stats: CommStats | None = None,
                    region: str = "scatter") -> "DistArray":
        """Distribute a global array (its shape is the layout's).  With
        ``root=None`` every rank passes the same array and keeps its part (no
        communication); otherwise only ``root``'s array is used and scattered."""
        if root is None:
            g = np.asarray(global_array)
            out = cls(layout, comm, dtype or g.dtype, ghosts)
            if g.shape != layout.shape:
                raise ValueError(f"global array of shape {g.shape} for a layout of shape {layout.shape}")
            if out.maps is not None:
                whole = tuple(StorageMap(s) for s in Section.from_bounds(layout.bounds).sets)
                out.interior[...] = g[selector(whole, out.owned)]
            return out
        g = np.asarray(global_array) if comm.Get_rank() == root else None
        dt = comm.bcast(np.dtype(dtype or g.dtype).str if g is not None else None, root=root)
        out = cls(layout, comm, np.dtype(dt), ghosts)
        if g is not None and g.shape != layout.shape:
            raise ValueError(f"global array of shape {g.shape} for a layout of shape {layout.shape}")
        plan = scatter_plan(layout, comm, out.dtype, root, out.ghosts, region)
        plan.execute(None if g is None else np.asfortranarray(g, out.dtype), out.local, stats)
        return out

    def to_global(self, root: int | None = None, stats: CommStats | None = None,
                  region: str = "gather") -> np.ndarray | None:
        """The whole array on every rank (``root=None``) or on ``root`` only
        (None elsewhere)."""
        plan = gather_plan(self.layout, self.comm, self.dtype, root, self.ghosts, region)
        out = plan.execute(self.local, None, stats)
        return out if root is None or self.rank == root else None

    # ---------------------------------------------------------------- communication

    def redistribute(self, layout: Layout, ghosts: Ghosts | None = None, stats: CommStats | None = None,
                     region: str = "remap") -> "DistArray":
        """A new DistArray with the same values under ``layout`` (plans each
        call; keep a :func:`~autodist.runtime.comm.plans.redistribute_plan` to repeat)."""
        out = DistArray(layout, self.comm, self.dtype, ghosts)
        plan = redistribute_plan(self.layout, layout, self.comm, self.dtype, self.ghosts, out.ghosts, region)
        plan.execute(self.local, out.local, stats)
        return out

    def exchange_halo(self, corners: bool = False, widths: Ghosts | None = None, stats: CommStats | None = None,
                      region: str = "halo") -> None:
        """Fill the ghost cells from their owners (the plan is built on first use)."""
        key = (corners, None if widths is None else tuple(map(tuple, widths)))
        if key not in self._halos:
            self._halos[key] = halo_plan(self.layout, self.ghosts, self.comm, self.dtype, corners, widths, region)
        self._halos[key].execute(self.local, self.local, stats, region)

    def __repr__(self) -> str:
        return (f"DistArray({self.layout.distribute_str()} shape={self.shape} rank={self.rank}/{self.nranks} "
                f"local={self.local.shape} ghosts={self.ghosts})")
