"""Where global indices sit in a rank's local numpy storage, and packing.

A :class:`StorageMap` maps the global indices of one array dimension to
positions of one axis of a local (Fortran-order) numpy array: position of
global index ``j`` is ``members.rank(j - delta)``.  It covers

* a distributed array's own elements (``members`` = the indices the rank owns);
* the same with ghost cells (``members`` = the owned interval widened by the
  ghost widths);
* a buffer for a broadcast section (``members`` = the section);
* a buffer for a shifted copy (``members`` = the owned indices, ``delta`` =
  the shift: position of ``A(i + delta)`` is the position of ``i``).

:func:`selector` turns a rectangular piece of global indices into a numpy
index (slices whenever the positions are evenly spaced, index arrays
otherwise), built once per plan; :func:`pack` and :func:`unpack` copy a piece
between local storage and a flat message buffer in Fortran order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ...errors import UnsupportedError
from ...layout.sections import IndexSet, Section

Selector = tuple  # of slices and/or integer arrays, ready for numpy indexing

#: numpy element types of the Fortran types the runtime stores.
_DTYPES = {
    ("integer", 1): np.int8, ("integer", 2): np.int16, ("integer", 4): np.int32, ("integer", 8): np.int64,
    ("real", 4): np.float32, ("real", 8): np.float64,
    ("complex", 8): np.complex64, ("complex", 16): np.complex128,
    ("logical", 1): np.bool_, ("logical", 2): np.bool_, ("logical", 4): np.bool_, ("logical", 8): np.bool_,
}


def numpy_dtype(ftype) -> np.dtype:
    """The numpy dtype of a Fortran :class:`~autodist.ir.Type` (REAL*8 ->
    float64, INTEGER -> int32, LOGICAL -> bool, CHARACTER*8 -> S8: the bytes of
    the value, one per character, as the runtime's strings hold them)."""
    if ftype.base == "character":
        if ftype.size <= 0:
            raise UnsupportedError(f"the runtime does not store arrays of type {ftype} (a length from the actual)")
        return np.dtype(f"S{ftype.size}")
    try:
        return np.dtype(_DTYPES[(ftype.base, ftype.size)])
    except KeyError:
        raise UnsupportedError(f"the runtime does not store arrays of type {ftype}") from None


#: The runtime's CHARACTER values are strings of byte characters (the source is read
#: as Latin-1): stored into an ``S`` array they are those same bytes.
CHARACTER_CODEC = "latin-1"


def storable(dtype: np.dtype):
    """Converts a runtime value to what an element of ``dtype`` stores (the identity
    but for CHARACTER: the string's bytes, blank-padded or cut to the length)."""
    if dtype.kind != "S":
        return lambda v: v
    n = dtype.itemsize
    return lambda v: v.encode(CHARACTER_CODEC)[:n].ljust(n) if isinstance(v, str) else v


@dataclass(frozen=True)
class StorageMap:
    """Position of global index ``j`` along one local axis: ``members.rank(j - delta)``."""

    members: IndexSet
    delta: int = 0

    @property
    def size(self) -> int:
        return self.members.count()

    def position(self, j: int) -> int:
        x = j - self.delta
        if x not in self.members:
            raise IndexError(f"index {j} is not stored here ({self.members} shifted by {self.delta})")
        return self.members.rank(x)

    def global_index(self, position: int) -> int:
        return self.members.select(position) + self.delta

    def positions(self, piece: IndexSet) -> slice | np.ndarray:
        """Positions of the members of ``piece`` (all must be stored here):
        a slice when they are evenly spaced, else an integer array."""
        n = piece.count()
        if n == 0:
            return slice(0, 0)
        if piece.is_interval and self.members.is_interval:
            start = piece.lo - self.delta - self.members.lo
            return slice(start, start + n)
        pos = self.members.rank_array(piece.to_array() - self.delta)
        if n == 1:
            return slice(int(pos[0]), int(pos[0]) + 1)
        step = int(pos[1] - pos[0])
        if step > 0 and np.all(np.diff(pos) == step):
            return slice(int(pos[0]), int(pos[-1]) + 1, step)
        return pos


def selector(maps: Sequence[StorageMap], piece: Section) -> Selector:
    """The numpy index of a piece in storage described by ``maps``."""
    parts = [m.positions(s) for m, s in zip(maps, piece.sets)]
    arrays = sum(isinstance(p, np.ndarray) for p in parts)
    if arrays <= 1:
        return tuple(parts)
    return np.ix_(*[np.arange(p.start, p.stop, p.step or 1) if isinstance(p, slice) else p for p in parts])


def contiguous_offset(shape: Sequence[int], sel: Selector) -> int | None:
    """Offset (in elements) of the selected block in a Fortran-order array of
    ``shape`` when the block is one contiguous stretch of memory, else None."""
    if not all(isinstance(s, slice) for s in sel):
        return None
    offset, stride, partial = 0, 1, False
    for n, s in zip(shape, sel):
        start, stop, step = s.indices(n)
        count = max(0, (stop - start + (step - 1)) // step) if step > 0 else 0
        if count == 0:
            return offset
        if partial and count > 1:
            return None
        if count > 1 and step != 1:
            return None
        if count < n:
            partial = True
        offset += start * stride
        stride *= n
    return offset


def pack(src: np.ndarray, sel: Selector, shape: Sequence[int], buf: np.ndarray, offset: int) -> int:
    """Copy the piece ``src[sel]`` into ``buf[offset:]`` in Fortran order;
    returns the offset after it."""
    n = int(np.prod(shape))
    if n:
        buf[offset:offset + n].reshape(shape, order="F")[...] = src[sel]
    return offset + n


def unpack(buf: np.ndarray, offset: int, shape: Sequence[int], dst: np.ndarray, sel: Selector) -> int:
    """Copy ``buf[offset:]`` (Fortran order) into the piece ``dst[sel]``;
    returns the offset after it."""
    n = int(np.prod(shape))
    if n:
        dst[sel] = buf[offset:offset + n].reshape(shape, order="F")
    return offset + n


def flat(a: np.ndarray) -> np.ndarray:
    """A 1-D view of a Fortran-contiguous array (no copy)."""
    if not a.flags.f_contiguous:
        raise ValueError("local storage must be Fortran-contiguous")
    return a.reshape(-1, order="F")
