"""Ownership in closed form: which rank holds which element of an array.

Pure functions of a :class:`~autodist.layout.model.Layout` and the number of
MPI ranks; no MPI here.

HPF semantics, per distributed template dimension of ``n`` cells over ``p``
abstract processors:

* ``BLOCK``: blocks of ``ceil(n / p)`` cells, processor ``q`` gets block ``q``
  (the last blocks may be short or empty);
* ``BLOCK(k)``: blocks of ``k`` cells (``k * p >= n`` is required);
* ``CYCLIC(k)``: blocks of ``k`` cells dealt round robin (``CYCLIC`` is ``k = 1``);
* ``*``: not distributed.

All of them are one formula: cell ``c`` lies in block ``c // k`` and belongs to
abstract coordinate ``(c // k) mod p`` (a BLOCK never wraps).  Array index
``i`` of a dimension aligned with ``t = stride * i + offset`` lies in cell
``stride * i + offset - lower bound of the template``.

**Abstract processors onto ranks.**  A ``PROCESSORS`` arrangement may be larger
or smaller than the number of ranks.  autodist *folds* each arrangement axis:
it picks an effective grid ``E`` (:func:`effective_grid`; ``E == grid`` when
the arrangement fits in the ranks) and maps abstract coordinate ``a`` of an
axis with ``g`` abstract processors to effective coordinate

* ``a * E // g`` along an axis a template dimension is distributed ``BLOCK``
  onto (contiguous, balanced groups: each rank's part stays one interval, so
  ghost cells keep working);
* ``a mod E`` along a ``CYCLIC(k)`` axis (blocks keep being dealt round robin:
  ``CYCLIC(k)`` on ``g = m * E`` processors runs as ``CYCLIC(k)`` on ``E``).

The rank is the column-major linear index of the effective coordinates.  So
``P(20, 10)`` on 4 ranks folds to ``E = (4, 1)``: with ``(BLOCK, BLOCK)``
abstract processor ``(a, b)`` runs on rank ``a // 5``, with
``(CYCLIC, CYCLIC)`` on rank ``a mod 4`` (its column-major linear index
modulo 4).  Folding per axis keeps every rank's part of an array a rectangular
product of per-dimension index sets, so it is one Fortran-order numpy array.  Ranks ``>= prod(E)`` own nothing of
arrays on that arrangement (they still take part in every collective).  A
layout that distributes nothing is held whole by every rank.

**Replication.**  Along a template dimension the array is ``Replicated`` on,
every coordinate holds a copy.  The *primary* holder of an element (the one
that sends it to ranks that need it) has coordinate 0 along replicated axes;
a rank that holds a copy itself never receives it.

Local storage on a rank lists its indices of each dimension in increasing
order (also under a reflection), 0-based.  Every query here is O(1) or
O(log runs) (a run is one block of one period; one per period for BLOCK,
CYCLIC(k) and unit strides), independent of the array size.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from math import gcd, prod
from typing import Sequence

import numpy as np

from ..errors import HpfError
from .model import Axis, Fixed, Layout, Replicated
from .periodic import Labeling
from .sections import IndexSet, Section


@lru_cache(maxsize=1024)
def effective_grid(grid: tuple[int, ...], nranks: int) -> tuple[int, ...]:
    """The grid of ranks a processor arrangement of shape ``grid`` runs on.

    ``grid`` itself when ``prod(grid) <= nranks``; otherwise the ``E`` with
    ``E[i] <= grid[i]`` that uses the most ranks, then folds the most axes
    evenly (``grid[i] % E[i] == 0``), then puts the most ranks on the first axes.
    """
    if nranks < 1:
        raise ValueError("the number of ranks must be positive")
    grid = tuple(grid)
    if prod(grid) <= nranks:
        return grid
    best: tuple | None = None

    def walk(i: int, room: int, chosen: tuple[int, ...]) -> None:
        nonlocal best
        if i == len(grid):
            key = (prod(chosen), sum(g % e == 0 for g, e in zip(grid, chosen)), chosen)
            if best is None or key > best:
                best = key
            return
        for e in range(min(grid[i], room), 0, -1):
            walk(i + 1, room // e, chosen + (e,))

    walk(0, nranks, ())
    assert best is not None
    return best[2]


def fold(a, procs: int, eff: int, contiguous: bool):
    """Effective coordinate of abstract coordinate ``a`` (int or array) of an
    axis of ``procs`` abstract processors folded onto ``eff`` (see the module
    docstring)."""
    return a * eff // procs if contiguous else a % eff


def column_major(coords: Sequence[int], extents: Sequence[int]) -> int:
    """Column-major linear index of ``coords`` in a grid of ``extents``."""
    q = 0
    for c, e in zip(reversed(coords), reversed(extents)):
        q = q * e + c
    return q


def column_major_coords(q: int, extents: Sequence[int]) -> tuple[int, ...]:
    out = []
    for e in extents:
        q, c = divmod(q, e)
        out.append(c)
    return tuple(out)


@dataclass(frozen=True)
class DimMap:
    """How the indices ``lo..hi`` of one array dimension spread over the
    coordinates of one grid axis.

    Index ``i`` lies in template cell ``c = stride * i + cell0``, block
    ``c // block``, abstract coordinate ``a = (c // block) mod procs`` and
    effective coordinate ``fold(a)``: ``a * eff // procs`` when ``contiguous``
    (BLOCK), ``a mod eff`` otherwise (CYCLIC).  ``eff == 1`` means the
    dimension is not distributed (held whole by every coordinate).
    """

    lo: int
    hi: int
    stride: int = 1
    cell0: int = 0
    block: int = 1
    procs: int = 1
    eff: int = 1
    contiguous: bool = False

    @staticmethod
    def whole(lo: int, hi: int) -> "DimMap":
        """A dimension that is not distributed."""
        return DimMap(lo, hi)

    @property
    def distributed(self) -> bool:
        return self.eff > 1

    def coord(self, i: int) -> int:
        """The coordinate owning index ``i``: O(1)."""
        if self.eff == 1:
            return 0
        return fold((self.stride * i + self.cell0) // self.block % self.procs, self.procs, self.eff, self.contiguous)

    def coord_array(self, idx: np.ndarray) -> np.ndarray:
        idx = np.asarray(idx, np.int64)
        if self.eff == 1:
            return np.zeros(idx.shape, np.int64)
        return fold((self.stride * idx + self.cell0) // self.block % self.procs, self.procs, self.eff, self.contiguous)

    @cached_property
    def labeling(self) -> Labeling:
        """:meth:`coord` as a periodic labeling of the array indices."""
        if self.eff == 1:
            return Labeling.constant(0, 1)
        cells = self.block * self.procs
        u = abs(self.stride)
        period = cells // gcd(u, cells)
        c_first = self.cell0
        c_last = self.stride * (period - 1) + self.cell0
        if self.stride > 0:
            js = np.arange(c_first // self.block + 1, c_last // self.block + 1, dtype=np.int64)
            starts = -((self.cell0 - js * self.block) // u)  # ceil((j*block - cell0) / u)
        else:
            js = np.arange(c_last // self.block + 1, c_first // self.block + 1, dtype=np.int64)
            starts = (self.cell0 - js * self.block) // u + 1
        starts = np.concatenate(([0], starts[(starts > 0) & (starts < period)]))
        return Labeling.from_runs(period, starts, self.coord_array(starts), self.eff)

    @cached_property
    def _runs_by_coord(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        lab = self.labeling
        stops = np.append(lab.starts[1:], lab.period)
        order = np.argsort(lab.labels, kind="stable")
        bounds = np.searchsorted(lab.labels[order], np.arange(self.eff + 1))
        return lab.starts[order], stops[order], bounds

    def owned(self, e: int) -> IndexSet:
        """The indices coordinate ``e`` owns (O(runs of one period))."""
        return _owned(self, e)

    def extent(self, e: int) -> int:
        """How many indices coordinate ``e`` owns."""
        return self.owned(e).count()

    def to_local(self, e: int, i: int) -> int:
        """0-based local position of index ``i`` on coordinate ``e``."""
        return self.owned(e).rank(i)

    def to_global(self, e: int, local: int) -> int:
        """The index at 0-based local position ``local`` on coordinate ``e``."""
        return self.owned(e).select(local)


@lru_cache(maxsize=65536)
def _owned(dm: DimMap, e: int) -> IndexSet:
    if not 0 <= e < dm.eff:
        raise ValueError(f"coordinate {e} outside 0..{dm.eff - 1}")
    if dm.eff == 1:
        return IndexSet.interval(dm.lo, dm.hi)
    starts, stops, bounds = dm._runs_by_coord
    sl = slice(int(bounds[e]), int(bounds[e + 1]))
    return IndexSet.periodic(dm.lo, dm.hi, dm.labeling.period, list(zip(starts[sl].tolist(), stops[sl].tolist())))


@dataclass(frozen=True)
class GridAxis:
    """One axis of the (effective) processor grid of a layout.

    ``kind`` is ``"dim"`` (array dimension ``dim`` is distributed along it),
    ``"replicated"`` (every coordinate holds a copy) or ``"fixed"`` (only
    coordinate ``coord`` holds the array).
    """

    extent: int
    procs: int
    kind: str
    dim: int = -1
    coord: int = -1


@dataclass(frozen=True)
class Ownership:
    """Where every element of an array lives on ``nranks`` ranks.  Build with
    :func:`ownership` (cached by value)."""

    layout: Layout
    nranks: int
    axes: tuple[GridAxis, ...]
    dims: tuple[DimMap, ...]
    dim_axis: tuple[int | None, ...]

    # ---------------------------------------------------------------- the grid

    @cached_property
    def grid(self) -> tuple[int, ...]:
        """Effective grid extents (ranks along each axis)."""
        return tuple(a.extent for a in self.axes)

    @cached_property
    def active(self) -> int:
        """Ranks with grid coordinates (``0 .. active-1``)."""
        return prod(self.grid)

    @property
    def replicas(self) -> int:
        """Copies of every element (product of the replicated axes)."""
        return prod(a.extent for a in self.axes if a.kind == "replicated")

    def coords(self, rank: int) -> tuple[int, ...] | None:
        """Effective grid coordinates of ``rank`` (None past the grid)."""
        if not 0 <= rank < self.nranks:
            raise ValueError(f"rank {rank} outside 0..{self.nranks - 1}")
        if rank >= self.active:
            return None
        return column_major_coords(rank, self.grid)

    def rank_of(self, coords: Sequence[int]) -> int:
        return column_major(coords, self.grid)

    def holds(self, rank: int) -> bool:
        """Whether ``rank`` holds a part (possibly empty) of the array."""
        c = self.coords(rank)
        return c is not None and all(a.kind != "fixed" or c[x] == a.coord for x, a in enumerate(self.axes))

    def is_primary(self, rank: int) -> bool:
        """Whether ``rank`` holds a part and is its primary copy (coordinate 0
        along every replicated axis)."""
        c = self.coords(rank)
        return self.holds(rank) and all(a.kind != "replicated" or c[x] == 0 for x, a in enumerate(self.axes))

    def primary_of(self, rank: int) -> int:
        """The primary holder of the part ``rank`` holds (``rank`` itself when
        nothing is replicated)."""
        c = self.coords(rank)
        assert c is not None
        return self.rank_of([0 if a.kind == "replicated" else x for x, a in zip(c, self.axes)])

    def dim_coord(self, rank: int, dim: int) -> int:
        """Coordinate of ``rank`` along the axis of array dimension ``dim`` (0 if
        the dimension is not distributed)."""
        x = self.dim_axis[dim]
        if x is None:
            return 0
        c = self.coords(rank)
        assert c is not None
        return c[x]

    def template_map(self, tdim: int) -> DimMap:
        """Ownership of the *template* indices of template dimension ``tdim``
        (stride 1 onto its own cells): owner coordinate of a template index,
        the indices a coordinate owns, local <-> global, local extent."""
        return _template_map(self.layout, self.nranks, tdim)

    # ---------------------------------------------------------------- what a rank holds

    def owned(self, rank: int) -> Section | None:
        """The section ``rank`` holds, or None when it holds nothing."""
        memo = self._owned
        if rank in memo:
            return memo[rank]
        got = None
        if self.holds(rank):
            c = self.coords(rank)
            got = Section(tuple(dm.owned(0 if x is None else c[x]) for dm, x in zip(self.dims, self.dim_axis)))
        memo[rank] = got
        return got

    @cached_property
    def _owned(self) -> dict[int, Section | None]:
        return {}

    def local_shape(self, rank: int) -> tuple[int, ...]:
        owned = self.owned(rank)
        return owned.shape if owned is not None else (0,) * len(self.dims)

    def to_local(self, rank: int, index: Sequence[int]) -> tuple[int, ...]:
        """0-based local position on ``rank`` of an element it holds."""
        return tuple(dm.to_local(self.dim_coord(rank, d), i) for d, (dm, i) in enumerate(zip(self.dims, index)))

    def to_global(self, rank: int, local: Sequence[int]) -> tuple[int, ...]:
        """The element at 0-based local position ``local`` on ``rank``."""
        return tuple(dm.to_global(self.dim_coord(rank, d), l) for d, (dm, l) in enumerate(zip(self.dims, local)))

    # ---------------------------------------------------------------- who holds an element

    def _element_coords(self, index: Sequence[int]) -> list[int | None]:
        out: list[int | None] = []
        for a in self.axes:
            if a.kind == "dim":
                out.append(self.dims[a.dim].coord(index[a.dim]))
            elif a.kind == "fixed":
                out.append(a.coord)
            else:
                out.append(None)
        return out

    def owner(self, index: Sequence[int]) -> int:
        """The primary holder of an element: O(rank of the array)."""
        return self.rank_of([0 if c is None else c for c in self._element_coords(index)])

    def holders(self, index: Sequence[int]) -> tuple[int, ...]:
        """Every rank holding a copy of an element (sorted)."""
        choices = [range(a.extent) if c is None else (c,) for c, a in zip(self._element_coords(index), self.axes)]
        out = [0]
        for x in reversed(range(len(self.axes))):
            out = [q * self.axes[x].extent + c for q in out for c in choices[x]]
        return tuple(sorted(out))


@lru_cache(maxsize=1024)
def _template_map(layout: Layout, nranks: int, t: int) -> DimMap:
    tlo, thi = layout.template[t]
    x = layout.grid_axis(t)
    if x is None:
        return DimMap.whole(tlo, thi)
    g = layout.grid[x]
    fmt = layout.formats[t]
    k = fmt.block_size(thi - tlo + 1, g, t, "layout")
    return DimMap(tlo, thi, 1, -tlo, k, g, effective_grid(layout.grid, nranks)[x], fmt.scheme.contiguous)


@lru_cache(maxsize=4096)
def ownership(layout: Layout, nranks: int) -> Ownership:
    """The ownership maps of ``layout`` on ``nranks`` ranks; validates the layout
    (alignment inside the template, BLOCK(k) large enough) with an
    :class:`~autodist.errors.HpfError`."""
    where = f"template {layout.template_name}" if layout.template_name else "layout"
    egrid = effective_grid(layout.grid, nranks)
    axes: list[GridAxis] = []
    dims: list[DimMap | None] = [None] * layout.rank
    dim_axis: list[int | None] = [None] * layout.rank
    for t, (target, fmt) in enumerate(zip(layout.align, layout.formats)):
        tlo, thi = layout.template[t]
        n = thi - tlo + 1
        x = layout.grid_axis(t)
        g = layout.grid[x] if x is not None else 1
        k = fmt.block_size(n, g, t, where) if x is not None else max(n, 1)
        if isinstance(target, Axis):
            lo, hi = layout.bounds[target.dim]
            if hi >= lo:
                cells = sorted((target(lo), target(hi)))
                if cells[0] < tlo or cells[1] > thi:
                    raise HpfError(
                        f"{where}: ALIGN puts indices {lo}:{hi} of array dimension {target.dim + 1} "
                        f"at template indices {cells[0]}:{cells[1]}, outside {tlo}:{thi}"
                    )
            if x is None:
                continue
            dims[target.dim] = DimMap(lo, hi, target.stride, target.offset - tlo, k, g, egrid[x],
                                      fmt.scheme.contiguous)
            dim_axis[target.dim] = x
            axes.append(GridAxis(egrid[x], g, "dim", dim=target.dim))
        elif isinstance(target, Fixed):
            if not tlo <= target.index <= thi:
                raise HpfError(f"{where}: ALIGN fixes the array at template index {target.index}, outside {tlo}:{thi}")
            if x is not None:
                cell = target.index - tlo
                coord = fold(cell // k % g, g, egrid[x], fmt.scheme.contiguous)
                axes.append(GridAxis(egrid[x], g, "fixed", coord=coord))
        elif isinstance(target, Replicated):
            if x is not None:
                axes.append(GridAxis(egrid[x], g, "replicated"))
        else:  # pragma: no cover - the model admits nothing else
            raise TypeError(f"unknown alignment target {target!r}")
    if not axes:
        # Nothing is distributed: HPF keeps a copy on every processor.
        axes.append(GridAxis(nranks, nranks, "replicated"))
    full = tuple(dm if dm is not None else DimMap.whole(*layout.bounds[d]) for d, dm in enumerate(dims))
    return Ownership(layout, nranks, tuple(axes), full, tuple(dim_axis))
