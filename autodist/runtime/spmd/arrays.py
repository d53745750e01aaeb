"""The arrays of a running program, one :class:`RtArray` per array per rank.

An :class:`RtArray` is a Fortran array under its current HPF layout, the one
distributed-array type of the runtime.  It holds ``local``: a Fortran-order
numpy array with this rank's elements (indices of each dimension in increasing
order, see :mod:`autodist.layout.ownership`), widened by ghost cells where asked
(``ghosts[d] = (below, above)``; only along dimensions a rank holds as one
interval); a rank that holds nothing has an empty ``local``.  Indices are the
program's own (1-based unless declared otherwise); storage positions are
0-based and include the ghost offset (:meth:`RtArray.global_to_local`,
:meth:`RtArray.local_to_global`, :attr:`RtArray.interior`).  On top of the
storage it gives what the translated code needs:

* element access for code outside vectorized phases, :meth:`RtArray.g`
  (read) and :meth:`RtArray.s` (write), with Fortran bounds checks; a read of
  an element this rank does not hold is a broadcast from its owner, so every
  rank must make it (the runtime keeps scalars replicated: every rank runs the
  same statements outside phases);
* :meth:`RtArray.over`: a replicated array over given storage (a view of a
  storage-associated buffer, :mod:`.shared_storage`), which never moves;
* :meth:`RtArray.remap` to another layout (a planned, cached redistribution),
  :meth:`RtArray.full` (the whole array on every rank) and
  :meth:`RtArray.keep_part` (take one's part of a whole array);
* :attr:`RtArray.offsets`: along dimensions stored as one interval, the
  storage position of global index ``i`` is ``i - offsets[d]``.

Communication goes through a :class:`Comms` (one per executor run): the MPI
communicator, the counters, and the cache of planned exchanges, so that a
remap between two layouts is planned once and reused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ... import ir
from ...errors import RuntimeFault, UnsupportedError
from ...layout.model import Layout, replicated
from ...layout.ownership import Ownership, ownership
from ...layout.sections import Section
from ...layout.routines import ALL_TO_ALL, ALL_TO_ONE, REMAP
from ..comm.builders import builder
from ..comm.plans import Ghosts, normalize_ghosts, storage_maps, storage_shape
from ..comm.stats import CommStats
from ..comm.storage import CHARACTER_CODEC, StorageMap, numpy_dtype, selector, storable

Bounds = tuple[tuple[int, int], ...]


class Comms:
    """The communicator, this rank's counters and the plan cache of one run."""

    def __init__(self, comm, stats: CommStats | None = None):
        self.comm = comm
        self.rank = comm.Get_rank()
        self.size = comm.Get_size()
        self.stats = stats if stats is not None else CommStats(self.rank)
        self._plans: dict[tuple, object] = {}
        self._states = 0

    def new_state(self) -> int:
        """A number never given before in this run (identifies an array's storage state)."""
        self._states += 1
        return self._states

    def plan(self, key: tuple, build: Callable[[], object]):
        """The plan cached under ``key`` (built on first use, collectively)."""
        p = self._plans.get(key)
        if p is None:
            p = self._plans[key] = build()
        return p

    def remap_plan(self, src: Layout, dst: Layout, dtype, src_ghosts, dst_ghosts):
        key = ("remap", src, dst, np.dtype(dtype).str, src_ghosts, dst_ghosts)
        return self.plan(key, lambda: builder(REMAP)(src, dst, self.comm, dtype, src_ghosts, dst_ghosts))

    def gather_plan(self, layout: Layout, dtype, ghosts, root: int | None = None):
        key = ("gather", layout, np.dtype(dtype).str, ghosts, root)
        gather = builder(ALL_TO_ALL if root is None else ALL_TO_ONE, "gather_plan")
        return self.plan(key, lambda: gather(layout, self.comm, dtype, root, ghosts))

    def bcast_element(self, value, root: int, dtype, region: str):
        """``value`` (given on ``root``) on every rank; counted in ``region``."""
        buf = np.empty(1, dtype)
        if self.rank == root:
            buf[0] = value
        if self.size > 1:
            self.comm.Bcast(buf, root=root)
            me = self.rank == root
            self.stats.record(region, elements_sent=(self.size - 1) if me else 0,
                              elements_received=0 if me else 1, messages_sent=(self.size - 1) if me else 0,
                              messages_received=0 if me else 1, elem_bytes=buf.itemsize)
        return buf[0]


def pyvalue(dtype: np.dtype) -> Callable:
    """Converts an element read from storage to the runtime's scalar representation."""
    if dtype.kind == "S":  # numpy drops trailing NUL bytes: give them back
        n = dtype.itemsize
        return lambda b: b.decode(CHARACTER_CODEC).ljust(n, "\0")
    if dtype == np.float32:
        return np.float32
    if dtype == np.complex64:
        return np.complex64
    if dtype.kind == "b":
        return bool
    if dtype.kind in "iu":
        return int
    if dtype.kind == "c":
        return complex
    return float


@dataclass
class ElementRef:
    """An array element passed where the callee expects an array
    (sequence association: the dummy starts at that element)."""

    array: "RtArray"
    index: tuple[int, ...]

    @property
    def offset(self) -> int:
        """Position of the element in the array's column-major order."""
        off, stride = 0, 1
        for i, (lo, hi) in zip(self.index, self.array.bounds):
            off += (i - lo) * stride
            stride *= hi - lo + 1
        return off


class RtArray:
    """A Fortran array on this rank (see the module docstring)."""

    def __init__(self, name: str, ftype: ir.Type, bounds: Bounds, layout: Layout | None, comms: Comms,
                 label: str = "", ghosts: Ghosts | None = None):
        self.name = name
        self.label = label or name
        self.ftype = ftype
        self.dtype = numpy_dtype(ftype)
        self.bounds = tuple(bounds)
        self.comms = comms
        self._conv = pyvalue(self.dtype)
        self.state = 0  # changes whenever the layout or the storage does (plans are cached by it)
        self._ghost_memory: dict[Layout, tuple] = {}
        self.fixed = False  # storage shared with other names (storage association): never moves
        self._store(layout or replicated(self.bounds), ghosts)

    @classmethod
    def over(cls, name: str, ftype: ir.Type, bounds: Bounds, storage: np.ndarray, comms: Comms,
             label: str = "") -> "RtArray":
        """A replicated array whose ``local`` is ``storage``, a view other names
        share (storage association); it is never remapped nor widened."""
        arr = cls(name, ftype, bounds, None, comms, label)
        arr.local, arr.fixed = storage, True
        arr._refresh()
        return arr

    # ---------------------------------------------------------------- state

    def _store(self, layout: Layout, ghosts: Ghosts | None) -> np.ndarray:
        """Take fresh (zeroed) storage for ``layout`` with ``ghosts``; returns the old one."""
        old = getattr(self, "local", None)
        self.layout = layout
        self.ghosts = normalize_ghosts(layout.rank, ghosts)
        self.ownership: Ownership = ownership(layout, self.comms.size)
        self.maps: tuple[StorageMap, ...] | None = storage_maps(self.ownership, self.comms.rank, self.ghosts)
        self.local = np.zeros(storage_shape(self.maps, layout.rank), self.dtype, order="F")
        self._refresh()
        return old

    @property
    def size(self) -> int:
        n = 1
        for lo, hi in self.bounds:
            n *= max(hi - lo + 1, 0)
        return n

    @property
    def shape(self) -> tuple[int, ...]:
        """Global shape."""
        return self.layout.shape

    @property
    def holds(self) -> bool:
        """Whether this rank holds a part of the array."""
        return self.maps is not None

    def _refresh(self) -> None:
        self.state = self.comms.new_state()
        maps = self.maps
        self.owned: Section | None = self.ownership.owned(self.comms.rank)
        self.whole = maps is not None and self.owned is not None and all(
            s.count() == hi - lo + 1 for s, (lo, hi) in zip(self.owned.sets, self.bounds))
        self.offsets = None if maps is None else tuple(
            m.members.lo + m.delta if m.members.is_interval else None for m in maps)
        self.g = self._make_get()
        self.s = self._make_set()

    def storage_maps(self) -> tuple[StorageMap, ...] | None:
        return self.maps

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

    def global_to_local(self, index) -> tuple[int, ...]:
        """Storage position (ghosts included) of global ``index``."""
        if self.maps is None:
            raise IndexError(f"rank {self.comms.rank} holds no part of {self.label}")
        return tuple(m.position(i) for m, i in zip(self.maps, index))

    def local_to_global(self, position) -> tuple[int, ...]:
        """Global index at storage ``position`` (ghosts included)."""
        if self.maps is None:
            raise IndexError(f"rank {self.comms.rank} holds no part of {self.label}")
        return tuple(m.global_index(p) for m, p in zip(self.maps, position))

    # ---------------------------------------------------------------- element access

    def _check(self, idx: tuple[int, ...]) -> None:
        if len(idx) != len(self.bounds):
            raise RuntimeFault(f"{self.label} has {len(self.bounds)} dimension(s), referenced with {len(idx)} subscript(s)")
        for d, (i, (lo, hi)) in enumerate(zip(idx, self.bounds)):
            if not lo <= i <= hi:
                raise RuntimeFault(f"index {i} of {self.label} dimension {d + 1} is outside {lo}:{hi}")

    def _make_get(self) -> Callable:
        local, conv, check = self.local, self._conv, self._check
        # a local read only when every rank holds the whole array: the choice
        # between reading and broadcasting must be the same on every rank
        if self.whole and self.everywhere and all(o is not None for o in self.offsets):  # type: ignore[union-attr]
            offs = self.offsets
            bounds = self.bounds
            if len(bounds) == 1:
                (o0,), ((l0, h0),) = offs, bounds

                def get1(i):
                    if l0 <= i <= h0:
                        return conv(local[i - o0])
                    check((i,))
                return get1
            if len(bounds) == 2:
                (o0, o1), ((l0, h0), (l1, h1)) = offs, bounds

                def get2(i, j):
                    if l0 <= i <= h0 and l1 <= j <= h1:
                        return conv(local[i - o0, j - o1])
                    check((i, j))
                return get2

            def getn(*idx):
                check(idx)
                return conv(local[tuple(i - o for i, o in zip(idx, offs))])
            return getn

        def get_remote(*idx):
            check(idx)
            return self._read(idx)
        return get_remote

    def _make_set(self) -> Callable:
        local, check = self.local, self._check
        stored = storable(self.dtype)
        if self.whole and all(o is not None for o in self.offsets):  # type: ignore[union-attr]
            offs = self.offsets

            def put(v, *idx):
                check(idx)
                local[tuple(i - o for i, o in zip(idx, offs))] = stored(v)
            return put

        def put_owned(v, *idx):
            check(idx)
            if self.owned is not None and idx in self.owned:
                local[self.global_to_local(idx)] = stored(v)
        return put_owned

    def values(self, region: str = "gather") -> list:
        """Every element in array element order, as the runtime's scalars (a collective)."""
        conv = self._conv
        return [conv(v) for v in self.full(region=region).reshape(-1, order="F")]

    def _read(self, idx: tuple[int, ...]):
        owner = self.ownership.owner(idx)
        value = None
        if self.comms.rank == owner:
            value = self.local[self.global_to_local(idx)]
        return self._conv(self.comms.bcast_element(value, owner, self.dtype, "scalar access"))

    # ---------------------------------------------------------------- layouts

    def remap(self, layout: Layout, region: str = "remap") -> bool:
        """Move to ``layout``; False when it is the current one.  The ghost
        cells this array last had under ``layout`` come back with it."""
        if layout == self.layout:
            return False
        self._refuse_move()
        self._ghost_memory[self.layout] = self.ghosts
        src, src_ghosts = self.layout, self.ghosts
        old = self._store(layout, self._ghost_memory.get(layout))
        plan = self.comms.remap_plan(src, layout, self.dtype, src_ghosts, self.ghosts)
        plan.execute(old, self.local, self.comms.stats, region)
        return True

    def borrow_whole(self) -> tuple:
        """Take replicated whole-array storage holding this rank's own
        elements (the others zero until filled); returns what
        :meth:`give_back` needs to put back the layout and storage as they
        were, moving nothing (see :mod:`.inline_data`)."""
        self._refuse_move()
        saved = (self.layout, self.ghosts, self.ownership, self.maps, self.local)
        interior, owned = (self.interior, self.owned) if self.maps is not None else (None, None)
        self._store(replicated(self.bounds), None)
        if interior is not None and owned is not None:
            full = tuple(StorageMap(s) for s in Section.from_bounds(self.bounds).sets)
            self.local[selector(full, owned)] = interior
        return saved

    def give_back(self, saved: tuple) -> None:
        """Back to the layout and storage :meth:`borrow_whole` saved."""
        self.layout, self.ghosts, self.ownership, self.maps, self.local = saved
        self._refresh()

    def widen(self, ghosts) -> None:
        """Give the storage at least ``ghosts`` cells around this rank's part
        (a local copy; nothing moves between ranks)."""
        new = tuple((max(a, c), max(b, d)) for (a, b), (c, d) in zip(self.ghosts, ghosts))
        if new == self.ghosts:
            return
        self._refuse_move()
        interior = self.interior if self.maps is not None else None
        self._store(self.layout, new)
        if interior is not None:
            self.interior[...] = interior

    def _refuse_move(self) -> None:
        if self.fixed:
            raise RuntimeFault(f"{self.label} shares its storage with other names (storage association): "
                               "it stays replicated")

    def full(self, region: str = "gather", root: int | None = None) -> np.ndarray | None:
        """The whole array (Fortran order) on every rank, or on ``root`` only
        (None elsewhere).  A collective."""
        if self.everywhere:  # the same decision on every rank: no collective then
            return np.asfortranarray(self.interior).copy() if root is None or self.comms.rank == root else None
        plan = self.comms.gather_plan(self.layout, self.dtype, self.ghosts, root)
        out = plan.execute(self.local, None, self.comms.stats, region)
        return out if root is None or self.comms.rank == root else None

    @property
    def everywhere(self) -> bool:
        """Every rank holds the whole array (the same answer on every rank)."""
        own = self.ownership
        return own.active == self.comms.size and all(a.kind == "replicated" for a in own.axes)

    def keep_part(self, whole: np.ndarray) -> None:
        """Set this rank's part from the whole array (every rank passes the same)."""
        if self.maps is None:
            return
        full_maps = tuple(StorageMap(s) for s in Section.from_bounds(self.bounds).sets)
        self.interior[...] = whole[selector(full_maps, self.owned)]

    def __repr__(self) -> str:
        return f"RtArray({self.label} {self.layout.distribute_str()} local={self.local.shape})"
