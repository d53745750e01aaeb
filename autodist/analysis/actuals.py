"""Which part of an array an element actual hands to a procedure.

``CALL SOLVE(LHS(1,1,AA,I))`` with a dummy ``A(5,5)`` gives the callee the
25 elements ``LHS(1:5,1:5,AA,I)``: sequence association from the element on,
over as many elements as the dummy declares.  When those elements lie within
the leading dimensions of the actual (the subscripts there are constants and
the dummy does not run past them), the callee can only touch that block: the
trailing subscripts still say which block, so the call is a reference
``LHS(?,?,AA,I)`` for the dependence tests, and the block lives wholly on the
processor owning ``LHS(1,1,AA,I)`` whenever the leading dimensions are not
distributed (the call can run there: owner-computes at the call, HPF's
inherited mapping of the dummy).
"""

from __future__ import annotations

from .. import ir


def dummy_size(sym: ir.Symbol | None) -> int | None:
    """Elements a dummy array declares, or None when not known or when it is
    declared as a stand-in for "any size" (``*``, or a last extent of 1 as in
    the old ``X(1)`` idiom, which programs index beyond)."""
    if sym is None or not sym.dims:
        return None
    size = 1
    for d in sym.dims:
        b = d.bounds
        if b is None or b[1] < b[0]:
            return None
        size *= b[1] - b[0] + 1
    last = sym.dims[-1].bounds
    if last is not None and last[0] == last[1]:
        return None
    return size


def covered_dims(actual_bounds: tuple[tuple[int, int], ...] | None, subscripts: tuple[ir.Expr, ...],
                 size: int | None) -> int | None:
    """How many leading dimensions of the actual array the ``size`` elements
    from element ``subscripts`` on stay within (0: the element alone), or
    None when they run past the leading dimensions whose subscripts are
    constants."""
    if actual_bounds is None or size is None or len(subscripts) != len(actual_bounds):
        return None
    if size == 1:
        return 0
    offset = 0
    stride = 1
    for k, ((lo, hi), s) in enumerate(zip(actual_bounds, subscripts)):
        a = ir.affine(s)
        if a is None or not a.is_const or not lo <= a.const <= hi:
            return None
        offset += (a.const - lo) * stride
        stride *= hi - lo + 1
        if offset + size <= stride:
            return k + 1
    return None


def element_block(unit: ir.Unit, actual: ir.Expr, callee: ir.Unit | None, position: int) -> int | None:
    """For an element actual ``A(s1,...,sn)`` at ``position`` of a call of
    ``callee`` from ``unit``: the number of leading dimensions of ``A`` the
    dummy's elements cover (see :func:`covered_dims`), else None."""
    if callee is None or not isinstance(actual, ir.Index) or position >= len(callee.args):
        return None
    sym = unit.symbol(actual.name)
    if sym is None or not sym.is_array or sym.dims is None:
        return None
    bounds = tuple(d.bounds for d in sym.dims)
    if any(b is None for b in bounds):
        return None
    dummy = callee.symbol(callee.args[position])
    if dummy is None or not dummy.is_array:
        return 0  # a scalar dummy: the element itself
    return covered_dims(bounds, actual.subscripts, dummy_size(dummy))  # type: ignore[arg-type]
