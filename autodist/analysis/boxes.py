"""Boxes: array sections whose bounds are affine forms in a unit's variables.

A :data:`Box` holds one ``(lower, upper)`` pair of :class:`~autodist.ir.Affine`
forms per dimension; an element with constant subscripts (``GRID_POINTS(1)``)
stands for a variable of that name (:func:`aff`).  The algebra the kill
summaries need (:mod:`.kills`): containment when the variable terms agree
(:func:`contains`, and :func:`within` knowing that reads lie inside the
declared bounds), the boxes the union of several surely contains
(:func:`merge`, through :func:`chains` of touching intervals), the boxes no
other contains (:func:`largest`); and across a call, a callee's boxes in the
caller's variables (:func:`box_substitution`) and how an actual is
associated with a dummy (:func:`association`: a whole array of the same
shape, or an element whose leading dimensions are the dummy's shape).
"""

from __future__ import annotations

import numpy as np

from .. import ir

Bounds = tuple[ir.Affine, ir.Affine]
Box = tuple[Bounds, ...]

#: merging boxes stops there (a guard on pathological statement lists)
MAX_BOXES = 1500


def as_name(x: ir.Expr) -> ir.Expr:
    """An element with constant subscripts as a variable named after it (``GRID_POINTS(1)``)."""
    if isinstance(x, ir.Index):
        subs = [ir.constant(s) for s in x.subscripts]
        if all(c is not None for c in subs):
            return ir.Name(f"{x.name}({','.join(str(c) for c in subs)})")
    return x


def aff(e: ir.Expr) -> ir.Affine | None:
    """The affine form of ``e``, an element with constant subscripts
    (``GRID_POINTS(1)``) standing for a variable of that name."""
    if not any(isinstance(x, ir.Index) for x in e.walk()):
        return ir.affine(e)
    return ir.affine(ir.map_exprs(e, as_name))


def uses(s: ir.Stmt, name: str) -> bool:
    """Does ``name`` appear (as a name or an array element) in ``s``'s own expressions?"""
    return any(isinstance(x, (ir.Name, ir.Index)) and x.name == name for x in ir.stmt_exprs(s))


def base(v: str) -> str:
    return v.split("(", 1)[0]


def const(a: ir.Affine) -> int | None:
    return a.const if a.is_const else None


def le(a: ir.Affine, b: ir.Affine) -> bool:
    """Surely ``a <= b`` (the same variable terms, a smaller constant)."""
    return a.terms == b.terms and a.const <= b.const


def subst(a: ir.Affine, var: str, by: ir.Affine) -> ir.Affine:
    c = a.coef(var)
    if not c:
        return a
    rest = ir.Affine(a.const, tuple((v, k) for v, k in a.terms if v != var))
    return rest + by.scale(c)


def mentions(box: Box, var: str) -> bool:
    return any(lo.coef(var) or hi.coef(var) for lo, hi in box)


def vars_of(box: Box) -> set[str]:
    return {v for lo, hi in box for v in lo.vars + hi.vars}


def contains(c: Box, r: Box) -> bool:
    return len(c) == len(r) and all(le(cl, rl) and le(rh, ch) for (cl, ch), (rl, rh) in zip(c, r))


def within(c: Box, r: Box, decl: list) -> bool:
    """Does ``c`` contain the read box ``r``, knowing that a read lies inside
    the declared bounds ``decl``: a side of ``c`` at the declared bound holds
    whatever ``r``'s side is (``[0, N]`` holds a read of ``N-1`` of an array
    declared ``(0:M)``: the program reads inside its arrays)."""
    if len(c) != len(r) or len(decl) != len(r):
        return False
    for (cl, ch), (rl, rh), (dl, dh) in zip(c, r, decl):
        if not (le(cl, rl) or (dl is not None and cl == dl)):
            return False
        if not (le(rh, ch) or (dh is not None and ch == dh)):
            return False
    return True


def signature(box: Box) -> tuple:
    return tuple((lo.terms, hi.terms) for lo, hi in box)


def merge(boxes: list[Box]) -> list[Box]:
    """``boxes`` and the boxes their unions surely contain: two boxes equal but
    in one dimension, ``[a, b]`` and ``[p, q]`` with ``p <= b + 1``, contain
    ``[a, q]`` (an element above ``b`` is at least ``p``).  Dimension by
    dimension, among the boxes that agree on the others, two rounds."""
    out = list(dict.fromkeys(boxes))
    for _ in range(2):
        before = len(out)
        for d in range(max((len(b) for b in out), default=0)):
            groups: dict = {}
            for b in out:
                if len(b) > d:
                    groups.setdefault((len(b), b[:d], b[d + 1:]), []).append(b[d])
            new: list[Box] = []
            for (_, head, tail), ivs in groups.items():
                if len(ivs) < 2:
                    continue
                for iv in chains(list(dict.fromkeys(ivs))):
                    new.append(head + (iv,) + tail)
            out = list(dict.fromkeys(out + new))
        if len(out) == before or len(out) > MAX_BOXES:
            break
    return largest(out)


def largest(boxes: list[Box]) -> list[Box]:
    """The boxes no other box contains (they cover what all cover); a box
    can only contain one whose bounds have the same variable terms."""
    groups: dict = {}
    for b in boxes:
        groups.setdefault(signature(b), []).append(b)
    keep = set()
    for group in groups.values():
        if len(group) <= _SMALL_GROUP:
            keep.update(b for b in group if not any(c != b and contains(c, b) for c in group))
            continue
        # within a group only the constants differ: c contains b when each of c's
        # lower constants is at most b's and each upper one at least b's
        keys = np.array([[x for lo, hi in b for x in (lo.const, -hi.const)] for b in group], dtype=object)
        try:
            keys = keys.astype(np.int64)
        except OverflowError:  # constants past 64 bits: compared as Python integers
            pass
        for i, b in enumerate(group):
            holds = np.all(keys <= keys[i], axis=1) & np.any(keys != keys[i], axis=1)
            if not holds.any():
                keep.add(b)
    return [b for b in boxes if b in keep]


#: groups of boxes up to this size are compared pairwise in Python
_SMALL_GROUP = 24


def chains(ivs: list[Bounds]) -> list[Bounds]:
    """``ivs`` and each ``[a, h]`` their union surely contains: ``[a, b]``
    followed by a chain of intervals each starting at most one past where the
    previous ends (``p <= b + 1``, same variable terms) and ending further up.
    Per interval only the furthest end of each variable form is kept."""
    starting: dict = {}  # the variable terms of a lower bound -> intervals
    for lo, hi in ivs:
        starting.setdefault(lo.terms, []).append((lo, hi))
    memo: dict[ir.Affine, list[ir.Affine]] = {}

    def ends(h: ir.Affine, visiting: set) -> list[ir.Affine]:
        """The furthest ends reachable from a covered run ending at ``h``."""
        hit = memo.get(h)
        if hit is not None:
            return hit
        if h in visiting:  # a cycle of symbolic bounds: what is known so far
            return [h]
        visiting.add(h)
        best: dict = {h.terms: h}
        for lo2, hi2 in starting.get(h.terms, ()):
            if lo2.const <= h.const + 1 and not le(hi2, h):
                for e in ends(hi2, visiting):
                    cur = best.get(e.terms)
                    if cur is None or cur.const < e.const:
                        best[e.terms] = e
        visiting.discard(h)
        memo[h] = out = list(best.values())
        return out

    result = list(ivs)
    for lo, hi in ivs:
        result.extend((lo, e) for e in ends(hi, set()) if e != hi)
    return list(dict.fromkeys(result))


# ---------------------------------------------------------------- across a call


def box_substitution(unit: ir.Unit, callee: ir.Unit, args: tuple[ir.Expr, ...], commons: ir.CommonLayouts):
    """A function rewriting a callee's affine forms (or boxes) in the caller's
    variables: scalar dummies become the actuals, COMMON scalars the caller's
    names for them; None where that is not possible."""
    sigma: dict[str, ir.Affine | None] = {}
    for j, d in enumerate(callee.args):
        sym = callee.symbol(d)
        if sym is not None and not sym.is_array and j < len(args):
            sigma[d] = aff(args[j])
    for sym in callee.symbols:
        if sym.common is not None and not sym.is_array:
            slot = commons.slot(sym)
            mine = commons.symbol_at(unit, slot)
            ok = mine is not None and slot is not None and slot[1] != ir.WHOLE_BLOCK
            sigma[sym.name] = ir.Affine(0, ((mine.name, 1),)) if ok else None  # type: ignore[union-attr]

    def pseudo(v: str) -> ir.Affine | None:
        base, rest = v.split("(", 1)
        sym = callee.symbol(base)
        slot = commons.slot(sym)
        if slot is None or slot[1] == ir.WHOLE_BLOCK:
            return None
        mine = commons.symbol_at(unit, slot)
        if mine is None or mine.dims != sym.dims:
            return None
        return ir.Affine(0, ((f"{mine.name}({rest}", 1),))

    def sub(a: ir.Affine) -> ir.Affine | None:
        out = ir.Affine(a.const)
        for v, c in a.terms:
            by = sigma.get(v) if "(" not in v else pseudo(v)
            if by is None:
                return None
            out = out + by.scale(c)
        return out

    def sub_box(box):
        if isinstance(box, ir.Affine):
            return sub(box)
        out = []
        for lo, hi in box:
            nlo, nhi = sub(lo), sub(hi)
            if nlo is None or nhi is None:
                return None
            out.append((nlo, nhi))
        return tuple(out)

    return sub_box


def declared_bounds(sym: ir.Symbol, conv) -> list[tuple[ir.Affine | None, ir.Affine | None]]:
    """The declared (lower, upper) bounds of ``sym`` as affine forms passed through ``conv``
    (None where not affine or assumed size)."""
    out = []
    for dim in sym.dims or ():
        lo = aff(dim.lower)
        hi = aff(dim.upper) if dim.upper is not None else None
        out.append((conv(lo) if lo is not None else None, conv(hi) if hi is not None else None))
    return out


def association(mine: ir.Symbol, dummy: ir.Symbol, actual: ir.Expr, sub_box) -> tuple | str | None:
    """How an actual argument of this unit is associated with a dummy:
    "scalar"; a tuple of the affine subscripts the caller's trailing
    dimensions are fixed at (``()`` for a whole array of the same shape up to
    its last dimension, whose lower bound agrees); None when the dummy sees the
    actual with another shape."""
    if not dummy.is_array:
        return "scalar" if (not mine.is_array and isinstance(actual, ir.Name)) else None
    cd = declared_bounds(dummy, sub_box)
    md = declared_bounds(mine, lambda a: a)
    r = len(cd)

    def same(x, y) -> bool:
        return x is not None and y is not None and x == y

    if isinstance(actual, ir.Name):
        if len(md) != r or r == 0:
            return None
        if not all(same(cd[d][0], md[d][0]) and same(cd[d][1], md[d][1]) for d in range(r - 1)):
            return None
        return () if same(cd[-1][0], md[-1][0]) else None
    if not isinstance(actual, ir.Index):
        return None
    subs = [aff(s) for s in actual.subscripts]
    if len(md) < r or len(subs) != len(md) or any(s is None for s in subs):
        return None
    if not all(same(cd[d][0], md[d][0]) and same(cd[d][1], md[d][1]) and subs[d] == md[d][0] for d in range(r)):
        return None
    return tuple(subs[r:])
