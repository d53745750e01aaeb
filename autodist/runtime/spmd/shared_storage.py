"""The byte storages of storage association and the typed views over them.

A storage (a storage-associated COMMON block, a local EQUIVALENCE class:
:class:`~autodist.runtime.codegen.association.StoragePlan`) is one numpy
``uint8`` buffer on every rank; each variable in it is a numpy view of its
own type at its byte offset, in Fortran order, one element every
``type.size`` bytes (a LOGICAL*4 view reads the first byte of each word), so
that what one name writes, every other name sharing those bytes sees, bit
for bit, as compiled Fortran does.  Arrays over views are replicated
:class:`~autodist.runtime.spmd.arrays.RtArray` objects that never move
(:meth:`RtArray.over`); scalars are read and written through
:class:`Slots`, indexed as the generated code indexes a COMMON block's list.
"""

from __future__ import annotations

import numpy as np

from ..codegen.association import Place, StoragePlan
from ..comm.storage import numpy_dtype, storable
from .arrays import pyvalue


class Slots:
    """Scalars in storages by position (``None`` for a position that holds an
    array): ``slots[k]`` reads the runtime's value, ``slots[k] = v`` stores it."""

    def __init__(self, views: list[np.ndarray | None]):
        self.views = views
        self.read = [None if v is None else pyvalue(v.dtype) for v in views]
        self.write = [None if v is None else storable(v.dtype) for v in views]

    def __getitem__(self, k: int):
        return self.read[k](self.views[k][0])

    def __setitem__(self, k: int, value) -> None:
        self.views[k][0] = self.write[k](value)


class Storages:
    """The buffers of a run's storages (zeroed, as static storage starts)."""

    def __init__(self, plan: StoragePlan):
        self.buffers = {key: np.zeros(size, np.uint8) for key, size in plan.sizes.items()}

    def view(self, place: Place) -> np.ndarray:
        """The variable at ``place``: a typed view of its storage (shape (1,) for a scalar)."""
        shape = tuple(hi - lo + 1 for lo, hi in place.bounds) if place.bounds is not None else (1,)
        strides, step = [], place.type.size
        for n in shape:
            strides.append(step)
            step *= n
        return np.ndarray(shape, numpy_dtype(place.type), buffer=self.buffers[place.storage],
                          offset=place.offset, strides=tuple(strides))

    def slots(self, places: list[Place | None]) -> Slots:
        """The scalars at ``places`` (None where an array sits)."""
        return Slots([None if p is None else self.view(p) for p in places])
