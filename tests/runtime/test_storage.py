"""Global index -> storage position, selectors and packing (no MPI)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodist.layout.sections import IndexSet, Section
from autodist.runtime.comm.storage import StorageMap, contiguous_offset, flat, numpy_dtype, pack, selector, unpack

from ..layout.strategies import index_sets


def test_positions_are_slices_when_evenly_spaced():
    owned = StorageMap(IndexSet.periodic(1, 40, 8, [(0, 2)]))  # CYCLIC(2) on 4: 1, 8, 9, 16, ...
    assert owned.positions(IndexSet.strided(8, 40, 8)) == slice(1, 10, 2)
    ghosts = StorageMap(IndexSet.interval(4, 12))  # owned 5..11 with one ghost each side
    assert ghosts.positions(IndexSet.interval(4, 4)) == slice(0, 1)
    assert ghosts.positions(IndexSet.interval(6, 9)) == slice(2, 6)
    assert ghosts.position(12) == 8 and ghosts.global_index(8) == 12
    shifted = StorageMap(IndexSet.interval(5, 11), delta=-1)  # position of A(i-1) at i's place
    assert shifted.position(4) == 0
    odd = owned.positions(IndexSet.from_members([1, 8, 16]))
    assert isinstance(odd, np.ndarray) and odd.tolist() == [0, 1, 3]


def test_contiguous_blocks_of_fortran_storage():
    shape = (4, 5, 3)
    assert contiguous_offset(shape, (slice(0, 4), slice(1, 3), slice(2, 3))) == 0 + 4 * 1 + 20 * 2
    assert contiguous_offset(shape, (slice(1, 2), slice(3, 4), slice(0, 1))) == 1 + 12
    assert contiguous_offset(shape, (slice(0, 2), slice(0, 5), slice(0, 3))) is None
    assert contiguous_offset(shape, (slice(0, 4), slice(0, 5, 2), slice(0, 1))) is None
    assert contiguous_offset(shape, (np.array([0, 1]), slice(0, 5), slice(0, 1))) is None


@given(index_sets(), index_sets(), st.data())
@settings(max_examples=150, deadline=None)
def test_pack_unpack_roundtrip(pa, pb, data):
    (a, ma), (b, mb) = pa, pb
    if not ma or not mb:
        return
    maps = (StorageMap(a), StorageMap(b))
    src = np.asfortranarray(np.arange(len(ma) * len(mb), dtype=np.float64).reshape(len(ma), len(mb)))
    pick_a = IndexSet.from_members(data.draw(st.sets(st.sampled_from(sorted(ma)), min_size=1)))
    pick_b = IndexSet.from_members(data.draw(st.sets(st.sampled_from(sorted(mb)), min_size=1)))
    piece = Section((pick_a, pick_b))
    sel = selector(maps, piece)
    want = np.array([[src[a.rank(i), b.rank(j)] for j in pick_b] for i in pick_a])
    buf = np.zeros(piece.count() + 3)
    assert pack(src, sel, piece.shape, buf, 2) == 2 + piece.count()
    assert np.array_equal(buf[2:2 + piece.count()], want.ravel(order="F"))
    dst = np.zeros_like(src)
    unpack(buf, 2, piece.shape, dst, sel)
    for i, j in itertools.product(pick_a, pick_b):
        assert dst[a.rank(i), b.rank(j)] == src[a.rank(i), b.rank(j)]
    assert np.count_nonzero(dst) == np.count_nonzero(want)
    assert flat(src).base is src or flat(src).base is src.base


def test_fortran_types_map_to_numpy():
    from autodist.errors import UnsupportedError
    from autodist.ir import COMPLEX, DOUBLE, INTEGER, LOGICAL, REAL, Type

    assert [numpy_dtype(t) for t in (INTEGER, REAL, DOUBLE, COMPLEX, LOGICAL)] == [
        np.dtype(np.int32), np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.complex64), np.dtype(bool)]
    assert numpy_dtype(Type("character", 8)) == np.dtype("S8")  # the value's bytes
    with pytest.raises(UnsupportedError, match=r"arrays of type CHARACTER\*\(\*\)"):
        numpy_dtype(Type("character", 0))  # a length only the actual argument gives
