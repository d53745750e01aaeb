"""Hypothesis strategies: random layouts of small arrays, index sets."""

from __future__ import annotations

from hypothesis import strategies as st

from autodist.layout.model import BLOCK, COLLAPSED, CYCLIC, REPLICATED, Axis, Fixed, Format, Layout
from autodist.layout.sections import IndexSet


@st.composite
def bounds(draw, rank: int | None = None, max_extent: int = 9):
    rank = rank if rank is not None else draw(st.integers(1, 2))
    out = []
    for _ in range(rank):
        lo = draw(st.integers(-3, 3))
        out.append((lo, lo + draw(st.integers(0, max_extent - 1))))
    return tuple(out)


@st.composite
def layouts(draw, array_bounds=None, max_procs: int = 5):
    """Any layout of an array with ``array_bounds`` (drawn when None): permuted
    alignment with strides +-1, +-2, 3 and offsets, an optional extra template
    dimension the array is replicated along or fixed at, and BLOCK, BLOCK(k),
    CYCLIC, CYCLIC(k) or * on every template dimension."""
    b = array_bounds if array_bounds is not None else draw(bounds())
    rank = len(b)
    ntd = rank + draw(st.integers(0, 1))
    perm = draw(st.permutations(range(ntd)))
    template: list = [None] * ntd
    align: list = [None] * ntd
    for d in range(rank):
        t = perm[d]
        s = draw(st.sampled_from([1, 1, -1, 2, -2, 3]))
        lo, hi = b[d]
        first, last = sorted((s * lo, s * hi))
        tlo = draw(st.integers(-3, 3))
        off = tlo + draw(st.integers(0, 2)) - first
        template[t] = (tlo, last + off + draw(st.integers(0, 4)))
        align[t] = Axis(d, s, off)
    for t in perm[rank:]:
        tlo = draw(st.integers(0, 2))
        template[t] = (tlo, tlo + draw(st.integers(0, 5)))
        align[t] = draw(st.sampled_from([REPLICATED, Fixed(draw(st.integers(*template[t])))]))
    formats, grid = [], []
    for t in range(ntd):
        n = template[t][1] - template[t][0] + 1
        kind = draw(st.sampled_from(["*", "BLOCK", "BLOCK(k)", "CYCLIC", "CYCLIC(k)"]))
        if kind == "*":
            formats.append(COLLAPSED)
            continue
        g = draw(st.integers(1, max_procs))
        grid.append(g)
        if kind == "BLOCK":
            formats.append(BLOCK)
        elif kind == "BLOCK(k)":
            formats.append(Format("BLOCK", -(-n // g) + draw(st.integers(0, 3))))
        elif kind == "CYCLIC":
            formats.append(CYCLIC)
        else:
            formats.append(Format("CYCLIC", draw(st.integers(1, 4))))
    return Layout(tuple(b), tuple(template), tuple(align), tuple(formats), tuple(grid))


@st.composite
def index_sets(draw, max_period: int = 12):
    """``(IndexSet, the same set as a Python set)``."""
    p = draw(st.integers(1, max_period))
    lo = draw(st.integers(-15, 10))
    hi = lo + draw(st.integers(-1, 45))
    runs = []
    for _ in range(draw(st.integers(0, 3))):
        a = draw(st.integers(0, p - 1))
        runs.append((a, draw(st.integers(a, p))))
    members = {x for x in range(lo, hi + 1) if any(a <= x % p < e for a, e in runs)}
    return IndexSet.periodic(lo, hi, p, runs), members
