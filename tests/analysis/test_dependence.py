"""Dependence tests against brute-force enumeration of small affine loop nests."""

from __future__ import annotations

import itertools

from hypothesis import given, settings, strategies as st

from autodist import ir
from autodist.analysis.parallel import UnitContext, classify_loop

from .irbuild import do, lin, span, unit

coef = st.integers(-2, 2)
const = st.integers(-3, 3)


@st.composite
def nests(draw, separable=False):
    """DO I = 1, n1 / DO J = 1, n2 / A(w1, w2) = A(r1, r2) + 1 (optionally a 2nd write)."""
    n1 = draw(st.integers(1, 5))
    n2 = draw(st.integers(1, 5))
    s1 = draw(st.sampled_from([1, 1, 2, -1]))

    def sub(dim):
        if separable:
            var = draw(st.sampled_from(["I", "J", None]))
            k = draw(st.sampled_from([1, 2])) if var else 0
            return ({var: k} if var else {}), draw(const)
        return {"I": draw(coef), "J": draw(coef)}, draw(const)

    w = [sub(d) for d in range(2)]
    if separable:  # same coefficients on both sides in each position (strong SIV)
        r = [(w[d][0], draw(const)) for d in range(2)]
    else:
        r = [sub(d) for d in range(2)]
    two_writes = draw(st.booleans())
    return n1, n2, s1, w, r, two_writes


def build(n1, n2, s1, w, r, two_writes):
    lhs = ir.Index("A", tuple(lin(c, k + 10) for c, k in w))
    rhs = ir.Index("A", tuple(lin(c, k + 10) for c, k in r))
    # A(w) = A(r) * 2 + 1: not a reduction form, so every dependence counts
    value = ir.BinOp("+", ir.BinOp("*", rhs, ir.Const(2.0, ir.DOUBLE)), ir.Const(1.0, ir.DOUBLE))
    body = [ir.Assign(span(3), None, lhs, value)]
    if two_writes:
        body.append(ir.Assign(span(4), None, rhs, ir.Const(0.0, ir.DOUBLE)))
    inner = do("J", 1, n2, tuple(body), 2)
    lo, hi = (1, n1) if s1 > 0 else (n1, 1)
    outer = do("I", lo, hi, (inner,), 1, step=s1 if s1 != 1 else None)
    u = unit((outer,), {"A": (40, 40)})
    return u, outer, inner


def elem(subs, i, j):
    return tuple(c.get("I", 0) * i + c.get("J", 0) * j + k for c, k in subs)


def brute(n1, n2, s1, w, r, two_writes, level):
    """Does the loop at ``level`` (0 = I, 1 = J) carry a dependence?"""
    irange = list(range(1, n1 + 1, 1)) if s1 == 1 else list(range(1, n1 + 1, 2)) if s1 == 2 else list(range(n1, 0, -1))
    if s1 == 2:
        irange = list(range(1, n1 + 1, 2))
    iters = [(i, j) for i in irange for j in range(1, n2 + 1)]
    writes = [w] + ([r] if two_writes else [])
    refs = [(w, True), (r, False)] + ([(r, True)] if two_writes else [])
    for (a, b) in itertools.product(iters, iters):
        if level == 0 and a[0] == b[0]:
            continue
        if level == 1 and (a[0] != b[0] or a[1] == b[1]):
            continue
        for (s1_, wr1), (s2_, wr2) in itertools.product(refs, refs):
            if not (wr1 or wr2):
                continue
            if elem(s1_, *a) == elem(s2_, *b):
                return True
    return False


def ours(case, level):
    n1, n2, s1, w, r, two = case
    u, outer, inner = build(*case)
    uc = UnitContext(u, {})
    if level == 0:
        info = classify_loop(outer, (), uc, 0, None, None, True, 0)
    else:
        info = classify_loop(inner, (outer,), uc, 1, 1, None, True, 0)
    return not info.parallel


@settings(max_examples=300, deadline=None)
@given(nests())
def test_never_misses_a_dependence(case):
    for level in (0, 1):
        if brute(*case, level):
            assert ours(case, level), (case, level)


@settings(max_examples=300, deadline=None)
@given(nests(separable=True))
def test_exact_on_separable_strong_siv(case):
    for level in (0, 1):
        assert ours(case, level) == brute(*case, level), (case, level)
