"""Closed-form ownership against brute force and hand-computed HPF answers."""

from __future__ import annotations

import itertools
from math import prod

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodist.errors import HpfError
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
from autodist.layout.ownership import column_major, effective_grid, ownership

from . import brute
from .strategies import layouts


def owned_list(own, rank):
    sec = own.owned(rank)
    return None if sec is None else [list(s) for s in sec.sets]


# ------------------------------------------------------------------ HPF by hand


def test_block_uses_ceiling_blocks_and_may_leave_processors_empty():
    own = ownership(simple(((1, 10),), (BLOCK,), (4,)), 4)
    assert [owned_list(own, r) for r in range(4)] == [[[1, 2, 3]], [[4, 5, 6]], [[7, 8, 9]], [[10]]]
    own = ownership(simple(((1, 9),), (BLOCK,), (4,)), 4)
    assert [own.dims[0].extent(e) for e in range(4)] == [3, 3, 3, 0]


def test_block_k_and_cyclic_k():
    own = ownership(simple(((1, 10),), (Format("BLOCK", 4),), (3,)), 3)
    assert [owned_list(own, r) for r in range(3)] == [[[1, 2, 3, 4]], [[5, 6, 7, 8]], [[9, 10]]]
    own = ownership(simple(((1, 10),), (Format("CYCLIC", 2),), (3,)), 3)
    assert [owned_list(own, r) for r in range(3)] == [[[1, 2, 7, 8]], [[3, 4, 9, 10]], [[5, 6]]]
    own = ownership(simple(((0, 6),), (CYCLIC,), (3,)), 3)
    assert owned_list(own, 1) == [[1, 4]]
    assert own.dims[0].to_local(1, 4) == 1 and own.dims[0].to_global(1, 1) == 4


def test_block_k_too_small_is_an_hpf_error():
    with pytest.raises(HpfError, match=r"BLOCK\(2\) on 3 processors covers 6 cells, fewer than the 10"):
        ownership(simple(((1, 10),), (Format("BLOCK", 2),), (3,)), 3)


def test_alignment_outside_the_template_is_an_hpf_error():
    layout = Layout(((1, 10),), ((1, 10),), (Axis(0, 1, 1),), (BLOCK,), (2,), template_name="T")
    with pytest.raises(HpfError, match="template T: ALIGN puts indices 1:10 .* at template indices 2:11, outside 1:10"):
        ownership(layout, 2)
    fixed = Layout(((1, 4),), ((1, 4), (1, 3)), (Axis(0), Fixed(5)), (COLLAPSED, BLOCK), (3,))
    with pytest.raises(HpfError, match="template index 5, outside 1:3"):
        ownership(fixed, 3)


def test_reflection_and_stride_two():
    # A(I) WITH T(11-I), T(1:10) BLOCK on 2: indices 6..10 on processor 0.
    refl = Layout(((1, 10),), ((1, 10),), (Axis(0, -1, 11),), (BLOCK,), (2,))
    own = ownership(refl, 2)
    assert owned_list(own, 0) == [[6, 7, 8, 9, 10]] and owned_list(own, 1) == [[1, 2, 3, 4, 5]]
    assert own.to_local(0, (6,)) == (0,)  # local order follows the array index
    # A(I) WITH T(2*I), T(1:12) CYCLIC(3) on 2: I = 1..6 lies at template
    # indices 2, 4, ..., 12; processor 0 owns indices 1-3 and 7-9.
    st2 = Layout(((1, 6),), ((1, 12),), (Axis(0, 2, 0),), (Format("CYCLIC", 3),), (2,))
    own = ownership(st2, 2)
    assert owned_list(own, 0) == [[1, 4]] and owned_list(own, 1) == [[2, 3, 5, 6]]


def test_replicated_fixed_and_transposed():
    # B(J, I) WITH T(I, J) on a 2x2 grid, (BLOCK, CYCLIC).
    t = Layout(((1, 4), (1, 6)), ((1, 6), (1, 4)), (Axis(1), Axis(0)), (BLOCK, CYCLIC), (2, 2))
    own = ownership(t, 4)
    assert owned_list(own, column_major((1, 0), (2, 2))) == [[1, 3], [4, 5, 6]]
    # V(I) WITH T(I, *): replicated along the second grid axis.
    v = Layout(((1, 4),), ((1, 4), (1, 2)), (Axis(0), REPLICATED), (BLOCK, BLOCK), (2, 2))
    own = ownership(v, 4)
    assert own.holders((3,)) == (1, 3) and own.owner((3,)) == 1 and own.replicas == 2
    assert own.is_primary(1) and not own.is_primary(3) and own.primary_of(3) == 1
    # W(I) WITH T(I, 2): only the second column of the grid holds it.
    w = Layout(((1, 4),), ((1, 4), (1, 2)), (Axis(0), Fixed(2)), (BLOCK, BLOCK), (2, 2))
    own = ownership(w, 4)
    assert [own.holds(r) for r in range(4)] == [False, False, True, True]


def test_undistributed_arrays_live_on_every_rank():
    own = ownership(replicated(((1, 3), (1, 2))), 5)
    assert all(owned_list(own, r) == [[1, 2, 3], [1, 2]] for r in range(5))
    assert own.holders((2, 1)) == (0, 1, 2, 3, 4) and own.owner((2, 1)) == 0


def test_on_rank_puts_everything_on_one_rank():
    own = ownership(on_rank(((1, 3),), 2), 4)
    assert [own.holds(r) for r in range(4)] == [False, False, True, False]
    assert owned_list(own, 2) == [[1, 2, 3]]


# ------------------------------------------------------------------ folding


def test_larger_arrangement_folds_onto_the_ranks():
    # P(20, 10) on 4 ranks folds to a 4 x 1 grid of ranks.
    assert effective_grid((20, 10), 4) == (4, 1)
    # BLOCK axes fold in contiguous groups: abstract (a, b) on rank a // 5, so
    # every rank's part is one interval per dimension.
    own = ownership(simple(((1, 40), (1, 30)), (BLOCK, BLOCK), (20, 10)), 4)
    for i, j in itertools.product(range(1, 41, 3), range(1, 31, 4)):
        assert own.holders((i, j)) == (((i - 1) // 2) // 5,)
    assert owned_list(own, 1) == [list(range(11, 21)), list(range(1, 31))]
    # CYCLIC axes fold round robin: abstract (a, b) on rank a mod 4, its
    # column-major linear index a + 20 b modulo 4.
    own = ownership(simple(((1, 40), (1, 30)), (CYCLIC, CYCLIC), (20, 10)), 4)
    for i, j in itertools.product(range(1, 41, 3), range(1, 31, 4)):
        a, b = (i - 1) % 20, (j - 1) % 10
        assert own.holders((i, j)) == ((a + 20 * b) % 4,)
    assert owned_list(own, 1)[0] == [i for i in range(1, 41) if (i - 1) % 4 == 1]
    # Uneven folds stay balanced: 5 BLOCK processors on 3 ranks take 2, 2, 1.
    own = ownership(simple(((1, 10),), (BLOCK,), (5,)), 3)
    assert [owned_list(own, r) for r in range(3)] == [[[1, 2, 3, 4]], [[5, 6, 7, 8]], [[9, 10]]]


def test_smaller_arrangement_leaves_ranks_idle():
    own = ownership(simple(((1, 10),), (BLOCK,), (3,)), 5)
    assert [own.holds(r) for r in range(5)] == [True, True, True, False, False]
    assert own.owned(4) is None and own.local_shape(4) == (0,)


@given(st.lists(st.integers(1, 7), min_size=1, max_size=3), st.integers(1, 12))
@settings(max_examples=200, deadline=None)
def test_effective_grid_is_the_best_fold(grid, nranks):
    grid = tuple(grid)
    e = effective_grid(grid, nranks)
    assert all(1 <= x <= g for x, g in zip(e, grid)) and prod(e) <= nranks
    if prod(grid) <= nranks:
        assert e == grid
        return
    best = max(
        (prod(c), sum(g % x == 0 for g, x in zip(grid, c)), c)
        for c in itertools.product(*(range(1, g + 1) for g in grid))
        if prod(c) <= nranks
    )
    assert e == best[2]


# ------------------------------------------------------------------ brute force


@given(layouts(), st.integers(1, 7))
@settings(max_examples=250, deadline=None)
def test_ownership_matches_brute_force(layout, nranks):
    own = ownership(layout, nranks)
    everything = brute.owned_elements(layout, nranks)
    for idx in brute.elements(layout.bounds):
        assert set(own.holders(idx)) == brute.holders(layout, nranks, idx)
        assert own.owner(idx) == brute.sender(layout, nranks, idx, -1)
    for r in range(nranks):
        sec = own.owned(r)
        elems = set(itertools.product(*(list(s) for s in sec.sets))) if sec is not None else set()
        assert elems == everything[r] or (not everything[r] and sec is not None and sec.count() == 0)
        assert own.local_shape(r) == (sec.shape if sec is not None else (0,) * layout.rank)
        if not elems:
            continue
        for d in range(layout.rank):
            ordered = sorted({e[d] for e in elems})
            for j, i in enumerate(ordered):
                assert own.dims[d].to_local(own.dim_coord(r, d), i) == j
        for idx in elems:
            assert own.to_global(r, own.to_local(r, idx)) == idx
        for d in range(layout.rank):
            dm = own.dims[d]
            for i in range(*layout.bounds[d]):
                assert dm.coord(i) == dm.labeling.label(i)


def test_queries_on_huge_arrays_are_closed_forms():
    n = 10**12
    layout = simple(((1, n),), (Format("CYCLIC", 7),), (1000,))
    own = ownership(layout, 64)  # folds 1000 abstract processors onto 64 ranks
    assert own.grid == (64,)
    i = n - 3
    q = ((i - 1) // 7) % 1000 % 64
    assert own.owner((i,)) == q
    loc = own.to_local(q, (i,))
    assert own.to_global(q, loc) == (i,)
    assert sum(own.dims[0].extent(e) for e in range(64)) == n


@given(layouts(), st.integers(1, 7))
@settings(max_examples=100, deadline=None)
def test_template_indices(layout, nranks):
    own = ownership(layout, nranks)
    eg = own.grid
    for t, fmt in enumerate(layout.formats):
        tm = own.template_map(t)
        tlo, thi = layout.template[t]
        x = layout.grid_axis(t)
        for tidx in range(tlo, thi + 1):
            if x is None:
                assert tm.coord(tidx) == 0
                continue
            a = brute.hpf_owner(fmt, thi - tlo + 1, layout.grid[x], tidx - tlo)
            assert tm.coord(tidx) == brute.fold(a, layout.grid[x], eg[x], fmt.kind)
        for e in range(tm.eff):
            mine = [i for i in range(tlo, thi + 1) if tm.coord(i) == e]
            assert list(tm.owned(e)) == mine and tm.extent(e) == len(mine)
            assert [tm.to_global(e, j) for j in range(len(mine))] == mine
