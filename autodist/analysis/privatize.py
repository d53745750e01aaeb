"""Array privatization: work arrays written before they are read in every iteration.

NAS-style codes compute a line of fluxes into a work array in each iteration
of an outer loop (``FLUX(M, I)`` for ``I = 1..NX``, then read ``FLUX(M, I+1)``
and ``FLUX(M, I-1)``).  The array carries no value from one iteration to the
next, so the outer loop is parallel if every iteration gets its own copy.

An array is private to a loop when

* in the loop body, its first access is an unconditional write, and the
  sections written before each read (hulls over the inner loops' ranges)
  cover the section read;
* the value it holds after the loop is dead: no other unit reads it (it is
  not a dummy, not SAVEd, and no other unit reads its COMMON storage) and
  every other loop nest of the unit that reads it writes it first in the same
  way.
"""

from __future__ import annotations

import math

from .. import ir
from .loops import affine_range


Hull = tuple[tuple[float, float], ...]


def _hull(x: ir.Index, ranges: dict[str, tuple[float, float]]) -> Hull | None:
    out = []
    for s in x.subscripts:
        if ir.affine(s) is None:
            return None
        r = affine_range(s, ranges)
        if not (math.isfinite(r[0]) and math.isfinite(r[1])):
            return None
        out.append(r)
    return tuple(out)


def _merge(covers: list[Hull]) -> list[Hull]:
    """Merge boxes that agree on all dimensions but one where they touch or overlap."""
    boxes = list(dict.fromkeys(covers))
    changed = True
    while changed:
        changed = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                if len(a) != len(b):
                    continue
                diff = [d for d in range(len(a)) if a[d] != b[d]]
                if len(diff) > 1:
                    continue
                if not diff:
                    boxes.pop(j)
                else:
                    d = diff[0]
                    if a[d][1] + 1 < b[d][0] or b[d][1] + 1 < a[d][0]:
                        continue
                    merged = list(a)
                    merged[d] = (min(a[d][0], b[d][0]), max(a[d][1], b[d][1]))
                    boxes[i] = tuple(merged)
                    boxes.pop(j)
                changed = True
                break
            if changed:
                break
    return boxes


def _inside(h: Hull, covers: list[Hull]) -> bool:
    """Is hull ``h`` inside the union of ``covers`` (merged into boxes)?"""
    for c in _merge(covers):
        if len(c) == len(h) and all(a[0] <= b[0] and b[1] <= a[1] for a, b in zip(c, h)):
            return True
    return False


def _loop_range(do: ir.Do, ranges: dict[str, tuple[float, float]]) -> tuple[float, float] | None:
    lo, hi = ir.eval_affine(do.start, {}), ir.eval_affine(do.end, {})
    if lo is None or hi is None:
        if ir.affine(do.start) is None or ir.affine(do.end) is None:
            return None
        ra, rb = affine_range(do.start, ranges), affine_range(do.end, ranges)
        lo_f, hi_f = min(ra[0], rb[0]), max(ra[1], rb[1])
        if not (math.isfinite(lo_f) and math.isfinite(hi_f)):
            return None
        return (lo_f, hi_f)
    return (min(lo, hi), max(lo, hi))


def written_first(stmts: tuple[ir.Stmt, ...], array: str) -> bool:
    """Is ``array`` written before it is read in one pass over ``stmts``, every
    read covered by an unconditional earlier write?"""
    covers: list[Hull] = []
    seen_write = False

    def visit(block: tuple[ir.Stmt, ...], ranges: dict[str, tuple[float, float]], conditional: bool) -> bool:
        nonlocal seen_write
        for s in block:
            if isinstance(s, ir.Do):
                r = _loop_range(s, ranges)
                if r is None:
                    return False
                inner = dict(ranges)
                inner[s.var] = r
                for e in s.exprs():
                    if any(isinstance(x, ir.Index) and x.name == array for x in e.walk()):
                        return False
                if not visit(s.body, inner, conditional):
                    return False
                continue
            if isinstance(s, (ir.If, ir.DoWhile)):
                for e in s.exprs():
                    for x in e.walk():
                        if isinstance(x, ir.Index) and x.name == array:
                            h = _hull(x, ranges)
                            if h is None or not _inside(h, covers):
                                return False
                for b in s.blocks():
                    if not visit(b, ranges, True):
                        return False
                continue
            if isinstance(s, ir.Call) and any(isinstance(a, (ir.Name, ir.Index)) and a.name == array for a in s.args):
                return False
            # reads first (the right-hand side is evaluated before the store)
            target = s.target if isinstance(s, ir.Assign) else None
            for e in s.exprs():
                for x in e.walk():
                    if isinstance(x, ir.Index) and x.name == array and x is not target:
                        h = _hull(x, ranges)
                        if h is None or not _inside(h, covers):
                            return False
                    if isinstance(x, ir.Name) and x.name == array:
                        return False  # the whole array is used
            if isinstance(target, ir.Index) and target.name == array:
                if conditional:
                    continue  # a conditional write covers nothing
                h = _hull(target, ranges)
                if h is None:
                    return False
                covers.append(h)
                seen_write = True
        return True

    return visit(stmts, {}, False) and seen_write


def dead_after(unit: ir.Unit, loop: ir.Do, array: str, read_elsewhere: bool) -> bool:
    """Is the value ``array`` has after ``loop`` never read?"""
    sym = unit.symbol(array)
    if sym is None or sym.dummy or sym.save or sym.in_data or sym.equivalenced or read_elsewhere:
        return False
    # every other top-level statement (or loop nest) touching it writes it first
    for s in _top_nests(unit.body):
        if s is loop or not ir.stmts_mention((s,), array):
            continue
        if _contains(s, loop):
            if _mentioned_around(s, loop, array):
                return False  # the enclosing nest uses it outside `loop`
            continue
        body = s.body if isinstance(s, ir.Do) else (s,)
        if not written_first(body if isinstance(s, ir.Do) else (s,), array):
            return False
    return True


def _mentioned_around(outer: ir.Stmt, loop: ir.Do, array: str) -> bool:
    """Is ``array`` used in ``outer`` other than inside ``loop``?"""
    for e in outer.exprs():
        if any(isinstance(x, (ir.Index, ir.Name)) and x.name == array for x in e.walk()):
            return True
    for block in outer.blocks():
        for s in block:
            if s is loop:
                continue
            if _contains(s, loop):
                if _mentioned_around(s, loop, array):
                    return True
            elif ir.stmts_mention((s,), array):
                return True
    return False


def _contains(outer: ir.Stmt, inner: ir.Stmt) -> bool:
    return any(x is inner for x in ir.walk((outer,)))


def _top_nests(stmts: tuple[ir.Stmt, ...]):
    """Outermost DO nests and other statements, looking inside control structures."""
    for s in stmts:
        if isinstance(s, ir.Do):
            yield s
        elif isinstance(s, (ir.If, ir.DoWhile)):
            for b in s.blocks():
                yield from _top_nests(b)
        else:
            yield s


def private_arrays(unit: ir.Unit, loop: ir.Do, candidates: set[str], read_elsewhere: set[str]) -> tuple[str, ...]:
    """The arrays among ``candidates`` (written in ``loop``) that are private to it."""
    out = []
    for a in sorted(candidates):
        if written_first(loop.body, a) and dead_after(unit, loop, a, a in read_elsewhere):
            out.append(a)
    return tuple(out)
