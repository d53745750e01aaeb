"""Strided interval sets and sections against plain Python sets."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodist.layout.periodic import Labeling, joint_counts
from autodist.layout.sections import IndexSet, Section, box_minus, minus_parts, set_minus

from .strategies import index_sets

SETTINGS = settings(max_examples=300, deadline=None)


def test_builders_give_the_fortran_sets():
    assert list(IndexSet.interval(3, 6)) == [3, 4, 5, 6]
    assert list(IndexSet.interval(3, 2)) == []
    assert list(IndexSet.strided(1, 10, 3)) == [1, 4, 7, 10]
    assert list(IndexSet.strided(-5, 6, 4)) == [-5, -1, 3]
    assert list(IndexSet.strided(10, 1, -3)) == [1, 4, 7, 10]
    assert list(IndexSet.strided(1, 10, -1)) == []
    assert list(IndexSet.periodic(0, 20, 8, [(0, 2)])) == [0, 1, 8, 9, 16, 17]
    with pytest.raises(ValueError):
        IndexSet.strided(1, 5, 0)
    with pytest.raises(ValueError):
        IndexSet.periodic(0, 5, 4, [(2, 6)])


def test_normal_forms_compare_equal():
    # A CYCLIC(2) pattern on 4 processors whose range only holds one block
    # is an interval; two ways of writing the same set are equal.
    assert IndexSet.periodic(0, 5, 8, [(2, 4)]) == IndexSet.interval(2, 3)
    assert IndexSet.periodic(0, 30, 8, [(0, 2), (4, 6)]) == IndexSet.periodic(0, 30, 4, [(0, 2)])
    assert list(IndexSet.from_members([1, 4, 7])) == list(IndexSet.strided(1, 7, 3))
    assert str(IndexSet.strided(1, 7, 3)) == "1:7:3"
    assert str(IndexSet.interval(2, 5)) == "2:5"


def test_queries_do_not_depend_on_the_range_length():
    # 10**15 members: counting, ranking and selecting are closed forms.
    s = IndexSet.periodic(1, 10**16, 10, [(3, 5)])
    assert s.count() == 2 * 10**15
    x = 10**16 - 6  # ends in 4
    assert x in s and s.rank(x) == s.count() - 1 and s.select(s.count() - 1) == x
    t = IndexSet.periodic(0, 10**16, 15, [(3, 4)])
    # Common members: x = 3 (mod 30), from 3 up to the last one below 10**16 - 5.
    assert s.count_intersection(t) == (10**16 - 6 - 3) // 30 + 1


@given(index_sets())
@SETTINGS
def test_members_count_rank_select(pair):
    s, members = pair
    ordered = sorted(members)
    assert list(s) == ordered
    assert s.count() == len(ordered) and len(s) == len(ordered)
    assert bool(s) == bool(ordered)
    for j, x in enumerate(ordered):
        assert s.rank(x) == j
        assert s.select(j) == x
    if ordered:
        xs = np.array(ordered)
        assert s.rank_array(xs).tolist() == list(range(len(ordered)))
        assert s.select_array(np.arange(len(ordered))).tolist() == ordered
        assert (s.first(), s.last()) == (ordered[0], ordered[-1])
        assert s.is_interval == (ordered == list(range(ordered[0], ordered[-1] + 1)))
    for x in range(-20, 60):
        assert (x in s) == (x in members)
    assert s.intervals() == _runs(ordered)


def _runs(xs):
    out = []
    for x in xs:
        if out and out[-1][1] == x - 1:
            out[-1] = (out[-1][0], x)
        else:
            out.append((x, x))
    return out


@given(index_sets(), index_sets(), st.integers(-7, 7), st.integers(-20, 20), st.integers(-20, 60))
@SETTINGS
def test_algebra(pa, pb, delta, lo, hi):
    (a, ma), (b, mb) = pa, pb
    assert set(a & b) == ma & mb
    assert a.count_intersection(b) == len(ma & mb)
    assert set(a.shift(delta)) == {x + delta for x in ma}
    assert set(a.clip(lo, hi)) == {x for x in ma if lo <= x <= hi}
    assert a.count_between(lo, hi) == len({x for x in ma if lo <= x <= hi})
    assert a.issubset(b) == ma.issubset(mb)
    assert IndexSet.from_members(ma) == IndexSet.from_members(sorted(ma))
    assert set(IndexSet.from_members(ma)) == ma


@given(index_sets(), index_sets(), index_sets(), index_sets())
@SETTINGS
def test_differences_of_sets_and_boxes(pa, pb, pc, pd):
    (a, ma), (b, mb), (c, mc), (d, md) = pa, pb, pc, pd
    parts = minus_parts(a, b)
    members = [set(p) for p in parts]
    assert all(members) and sum(len(m) for m in members) == len(ma - mb)
    assert set().union(*members) == ma - mb  # disjoint (counts add up) and covering
    assert set(set_minus(a, b)) == ma - mb
    boxes = box_minus(Section((a, c)), Section((b, d)))
    cells = [(x, y) for box in boxes for x in box.sets[0] for y in box.sets[1]]
    assert len(cells) == len(set(cells)) and set(cells) == {(x, y) for x in ma for y in mc} - {
        (x, y) for x in mb for y in md}


@given(index_sets(), st.integers(-20, 20), st.integers(0, 40))
@SETTINGS
def test_runs_between_lists_maximal_runs(pair, u, length):
    s, members = pair
    v = u + length
    starts, stops = s.runs_between(u, v)
    assert _runs(sorted(x for x in members if u <= x <= v)) == [(a, b - 1) for a, b in zip(starts, stops)]


@given(index_sets())
@SETTINGS
def test_membership_labeling(pair):
    s, members = pair
    lab = s.labeling
    for x in range(s.lo, s.hi + 1):
        assert lab.label(x) == (x in members)


@st.composite
def labelings(draw):
    period = draw(st.integers(1, 12))
    nlabels = draw(st.integers(1, 4))
    cuts = sorted(set(draw(st.lists(st.integers(1, period - 1), max_size=4)) if period > 1 else []))
    starts = [0] + cuts
    labels = [draw(st.integers(0, nlabels - 1)) for _ in starts]
    return Labeling.from_runs(period, np.array(starts), np.array(labels), nlabels), (period, starts, labels)


def _label(spec, x):
    period, starts, labels = spec
    r = x % period
    return labels[max(j for j, s in enumerate(starts) if s <= r)]


@given(labelings(), labelings(), st.integers(-30, 30), st.integers(-1, 80))
@settings(max_examples=300, deadline=None)
def test_joint_counts_match_enumeration(f, g, lo, length):
    (lf, sf), (lg, sg) = f, g
    hi = lo + length
    expect: dict = {}
    for x in range(lo, hi + 1):
        key = (_label(sf, x), _label(sg, x))
        expect[key] = expect.get(key, 0) + 1
    a, b, n = joint_counts(lf, lg, lo, hi)
    assert dict(zip(zip(a.tolist(), b.tolist()), n.tolist())) == expect
    assert list(zip(a.tolist(), b.tolist())) == sorted(expect)
    labels, counts = lf.totals_in(lo, hi)
    totals: dict = {}
    for (x, _), c in expect.items():
        totals[x] = totals.get(x, 0) + c
    assert dict(zip(labels.tolist(), counts.tolist())) == totals


def test_joint_counts_of_long_ranges_use_whole_periods():
    # BLOCK-like labeling (runs of 10**6) against a CYCLIC-like one (period 3)
    # over 4 * 10**6 indices: exact without listing them.
    block = Labeling.from_runs(4 * 10**6, np.array([0, 10**6, 2 * 10**6, 3 * 10**6]), np.array([0, 1, 2, 3]), 4)
    cyc = Labeling.from_runs(3, np.array([0, 1, 2]), np.array([0, 1, 2]), 3)
    a, b, n = joint_counts(block, cyc, 0, 4 * 10**6 - 1)
    got = {(x, y): c for x, y, c in zip(a.tolist(), b.tolist(), n.tolist())}
    for q in range(4):
        for r in range(3):
            lo, hi = q * 10**6, (q + 1) * 10**6 - 1
            assert got[(q, r)] == (hi - r) // 3 - (lo - 1 - r) // 3


def test_sections():
    s = Section.of((1, 4), IndexSet.strided(1, 9, 2))
    assert s.shape == (4, 5) and s.count() == 20
    assert (2, 3) in s and (2, 4) not in s
    t = Section.of((3, 8), (4, 9))
    assert (s & t).shape == (2, 3)
    assert s.count_intersection(t) == 6
    assert s.shift((1, -1)).sets[1] == IndexSet.strided(0, 8, 2)
    assert s.clip(((2, 3), (1, 4))).shape == (2, 2)
    assert not Section.of((1, 0), (1, 5))
    assert str(s) == "(1:4, 1:9:2)"
