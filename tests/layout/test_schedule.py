"""Schedules and volumes against brute-force element enumeration and hand counts."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodist.errors import UnsupportedError
from autodist.layout.model import BLOCK, COLLAPSED, CYCLIC, Format, on_rank, replicated, simple
from autodist.layout.ownership import ownership
from autodist.layout.schedule import (
    Explicit,
    Halo,
    OnRank,
    SameSection,
    Shift,
    exchange_schedule,
    receive_volume,
    redistribution_schedule,
)
from autodist.layout.sections import IndexSet, Section
from autodist.layout.volume import exchange_volume, reduction_volume, redistribution_volume

from . import brute
from .strategies import layouts

SETTINGS = settings(max_examples=150, deadline=None)


def members(section: Section) -> set:
    return set(itertools.product(*(list(s) for s in section.sets)))


def expected_volume(counts, nranks):
    sent, recv, ms, mr, kept = ([0] * nranks for _ in range(5))
    for (s, r), n in counts.items():
        if s == r:
            kept[r] += n
        else:
            sent[s] += n
            recv[r] += n
            ms[s] += 1
            mr[r] += 1
    return tuple(map(tuple, (sent, recv, ms, mr, kept)))


def as_tuple(v):
    return (v.sent, v.received, v.messages_sent, v.messages_received, v.kept)


def check_schedule(sched, counts, nranks):
    """Every transfer lists exactly the elements the brute force assigns it."""
    for r in range(nranks):
        incoming = {t.sender: t for t in sched.receives(r)}
        local = sched.local(r)
        if local is not None:
            incoming[r] = local
        for t in incoming.values():
            elems = set().union(*(members(p) for p in t.pieces))
            assert len(elems) == t.count == sum(p.count() for p in t.pieces)
            assert t.count == counts[(t.sender, r)]
        assert sum(t.count for t in incoming.values()) == sum(n for (s, rr), n in counts.items() if rr == r)
        for t in sched.sends(r):
            mirror = [x for x in sched.receives(t.receiver) if x.sender == r]
            assert len(mirror) == 1 and mirror[0].pieces == t.pieces and mirror[0].count == t.count
        assert sum(t.count for t in sched.sends(r)) == sum(n for (s, rr), n in counts.items() if s == r and rr != r)


# ------------------------------------------------------------------ exact hand counts


def test_adi_transpose_at_16_ranks():
    b = ((1, 256), (1, 256))
    rows, cols = simple(b, (BLOCK, COLLAPSED), (16,)), simple(b, (COLLAPSED, BLOCK), (16,))
    v = redistribution_volume(rows, cols, 16, 8)
    assert set(v.kept) == {256}
    assert set(v.sent) == {3840} and set(v.received) == {3840}
    assert v.max_bytes_sent == 30720 and set(v.messages_sent) == {15}
    assert v.total_elements == 16 * 3840 and v.total_messages == 16 * 15 and v.total_bytes == 16 * 30720
    sched = redistribution_schedule(rows, cols, 16)
    assert [t.receiver for t in sched.sends(3)] == [r for r in range(16) if r != 3]
    assert sched.sends(3)[0].pieces == (Section.of((49, 64), (1, 16)),)
    assert as_tuple(exchange_volume(sched.src, sched.needs, sched.nranks)) == as_tuple(v)


def test_shift_by_one_row():
    b = ((1, 256), (1, 256))
    rows = simple(b, (BLOCK, COLLAPSED), (16,))
    # Rank 5 computes rows 81..96 and reads A(I-1, J): it needs row 80 from rank 4.
    rv = receive_volume(rows, 5, Section.of((80, 95), (1, 256)), 16)
    assert rv.per_sender == ((4, 256),) and rv.local == 15 * 256 and rv.messages == 1 and rv.bytes(8) == 2048
    v = exchange_volume(rows, Shift((-1, 0)), 16)
    assert v.received == (0,) + (256,) * 15 and v.sent == (256,) * 15 + (0,)
    h = exchange_volume(rows, Halo(((1, 1), (0, 0))), 16)
    assert h.received == (256,) + (512,) * 14 + (256,) and h.total_messages == 30


def test_broadcast_gather_and_reduction_volumes():
    b = ((1, 12), (1, 8))
    layout = simple(b, (CYCLIC, COLLAPSED), (4,))
    row = Section.of((5, 5), (1, 8))  # held by rank 0 only
    v = exchange_volume(layout, SameSection(row), 4)
    assert v.sent == (24, 0, 0, 0) and v.received == (0, 8, 8, 8) and v.kept == (8, 0, 0, 0)
    g = exchange_volume(layout, OnRank(2, Section.from_bounds(b)), 4)
    assert g.received == (0, 0, 72, 0) and g.sent == (24, 24, 0, 24) and g.kept == (0, 0, 24, 0)
    assert as_tuple(g) == as_tuple(redistribution_volume(layout, on_rank(b, 2), 4))
    r = reduction_volume(4, 3)
    assert r.sent == (9, 3, 3, 3) and r.received == (9, 3, 3, 3) and r.messages_sent == (3, 1, 1, 1)
    r = reduction_volume(4, 3, root=1)
    assert r.sent == (3, 0, 3, 3) and r.received == (0, 9, 0, 0) and r.total_messages == 3


def test_replicated_target_and_source():
    b = ((1, 6),)
    dist = simple(b, (BLOCK,), (3,))
    v = redistribution_volume(dist, replicated(b), 3)
    assert v.sent == (4, 4, 4) and v.received == (4, 4, 4) and v.kept == (2, 2, 2)
    v = redistribution_volume(replicated(b), dist, 3)
    assert v.total_elements == 0 and v.kept == (2, 2, 2)
    # Extra ranks take no part but receive a replicated copy.
    v = redistribution_volume(dist, replicated(b), 5)
    assert v.received == (4, 4, 4, 6, 6) and v.sent == (8, 8, 8, 0, 0)


def test_ghosts_need_block_like_dimensions():
    layout = simple(((1, 10),), (CYCLIC,), (2,))
    with pytest.raises(UnsupportedError, match="dimension 1 need one interval"):
        exchange_schedule(layout, Halo(((1, 1),)), 2).receives(0)


# ------------------------------------------------------------------ brute force


@st.composite
def layout_pairs(draw):
    a = draw(layouts())
    return a, draw(layouts(array_bounds=a.bounds))


@given(layout_pairs(), st.integers(1, 6))
@SETTINGS
def test_redistribution_matches_brute_force(pair, nranks):
    src, dst = pair
    counts = brute.redistribution_counts(src, dst, nranks)
    want = expected_volume(counts, nranks)
    assert as_tuple(redistribution_volume(src, dst, nranks)) == want
    sched = redistribution_schedule(src, dst, nranks)
    assert as_tuple(exchange_volume(sched.src, sched.needs, sched.nranks)) == want
    check_schedule(sched, counts, nranks)
    for r in range(nranks):
        for t in sched.receives(r) + ((sched.local(r),) if sched.local(r) else ()):
            for idx in set().union(*(members(p) for p in t.pieces)):
                assert brute.sender(src, nranks, idx, r) == t.sender


@st.composite
def needs_patterns(draw, layout):
    kind = draw(st.sampled_from(["halo", "shift", "same", "on", "explicit"]))
    rank = layout.rank
    if kind == "halo":
        widths = tuple((draw(st.integers(0, 2)), draw(st.integers(0, 2))) for _ in range(rank))
        return Halo(widths, draw(st.booleans()))
    if kind == "shift":
        return Shift(tuple(draw(st.integers(-3, 3)) for _ in range(rank)))
    def section():
        return Section(tuple(IndexSet.strided(draw(st.integers(lo - 1, hi)), draw(st.integers(lo, hi + 1)),
                                              draw(st.integers(1, 3))) for lo, hi in layout.bounds))
    if kind == "same":
        return SameSection(section())
    if kind == "on":
        return OnRank(draw(st.integers(0, 3)), section())
    return Explicit(tuple((section(),) for _ in range(draw(st.integers(0, 4)))))


def brute_needs(layout, needs, nranks):
    own = brute.owned_elements(layout, nranks)
    out = {r: set() for r in range(nranks)}
    inside = lambda e: all(lo <= i <= hi for i, (lo, hi) in zip(e, layout.bounds))  # noqa: E731
    for r in range(nranks):
        mine = own[r]
        if isinstance(needs, Shift):
            out[r] = {e for e in (tuple(i + d for i, d in zip(x, needs.offsets)) for x in mine) if inside(e)}
        elif isinstance(needs, Halo):
            if not mine:
                continue
            ranges, held = [], []
            for d, (below, above) in enumerate(needs.widths):
                vals = sorted({x[d] for x in mine})
                held.append(set(vals))
                lo, hi = layout.bounds[d]
                ranges.append(range(max(lo, vals[0] - below), min(hi, vals[-1] + above) + 1) if below or above else vals)
            for e in itertools.product(*ranges):
                outside = sum(e[d] not in held[d] for d in range(layout.rank))
                if outside == 1 or (outside > 1 and needs.corners):
                    out[r].add(e)
        elif isinstance(needs, SameSection):
            out[r] = {e for e in members(needs.section) if inside(e)}
        elif isinstance(needs, OnRank):
            out[r] = {e for e in members(needs.section) if inside(e)} if r == needs.rank else set()
        else:
            out[r] = {e for s in (needs.per_rank[r] if r < len(needs.per_rank) else ()) for e in members(s) if inside(e)}
    return out


@given(layouts(), st.integers(1, 5), st.data())
@SETTINGS
def test_needs_schedules_match_brute_force(layout, nranks, data):
    needs = data.draw(needs_patterns(layout))
    sched = exchange_schedule(layout, needs, nranks)
    try:
        listed = {r: [members(p) for p in sched.needed(r)] for r in range(nranks)}
    except UnsupportedError:
        own = ownership(layout, nranks)
        assert isinstance(needs, Halo) and any(
            own.owned(r) is not None and any(not s.is_interval and s and (w[0] or w[1])
                                             for s, w in zip(own.owned(r).sets, needs.widths))
            for r in range(nranks))
        return
    want_needs = brute_needs(layout, needs, nranks)
    for r in range(nranks):
        assert sum(len(p) for p in listed[r]) == len(set().union(*listed[r])) if listed[r] else True
        assert (set().union(*listed[r]) if listed[r] else set()) == want_needs[r]
    counts = brute.pair_counts(want_needs, layout, nranks)
    assert as_tuple(exchange_volume(layout, needs, nranks)) == expected_volume(counts, nranks)
    check_schedule(sched, counts, nranks)
    for r in range(nranks):
        for piece in sched.needed(r)[:1]:
            rv = receive_volume(layout, r, piece, nranks)
            single = brute.pair_counts({r: members(piece)}, layout, nranks)
            assert dict(rv.per_sender) == {s: n for (s, _), n in single.items() if s != r}
            assert rv.local == single.get((r, r), 0)


def test_remap_counts_for_huge_arrays():
    # BLOCK -> CYCLIC(5) on 3 ranks, 3 * 10**12 elements: exact counts from
    # the per-dimension closed forms (nothing is listed element by element).
    def cyclic_below(x, r):  # cells c < x with (c // 5) mod 3 == r
        return x // 15 * 5 + min(max(x % 15 - 5 * r, 0), 5)

    for n in (3 * 10**3, 3 * 10**12):
        b = ((1, n),)
        v = redistribution_volume(simple(b, (BLOCK,), (3,)), simple(b, (Format("CYCLIC", 5),), (3,)), 3)
        per = n // 3
        kept = [cyclic_below((r + 1) * per, r) - cyclic_below(r * per, r) for r in range(3)]
        assert list(v.kept) == kept
        assert [s + k for s, k in zip(v.sent, v.kept)] == [per] * 3
        assert v.messages_sent == (2, 2, 2) and v.messages_received == (2, 2, 2)
