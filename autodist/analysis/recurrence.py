"""Recurrences: the chain of dependent operations an innermost loop carries.

A loop whose iteration needs a value the previous iteration computed cannot
overlap its iterations: ``X(I) = X(I) - X(I-1)*A(I)/B(I-1)`` waits, every
iteration, for the multiply, the divide and the subtract of the one before;
``S = S + X(I)`` for one add.  Such a loop runs at the *latency* of that chain,
while a loop without one runs at the *throughput* of its operations and
accesses (vectorized, pipelined) -- on a current core the two differ by an
order of magnitude, and the recurrence sweeps of ADI-like solvers are where
most of their time goes.

:func:`chain_latency` measures the chain of one assignment in latency units:
the longest path, through the right-hand side, from a value the innermost
loop carries to the assigned value; an add, subtract, multiply, MIN/MAX/ABS
counts 1, a divide :data:`DIVIDE_LATENCY`, anything else what
:func:`~.ops.own_flops` counts for it (an elementary function
:data:`~.ops.FUNCTION_WEIGHT`).  A value is carried when it is an element
another (or the same) assignment of the loop wrote a whole number of
iterations earlier (``X(I-1)`` in a loop going up, ``X(I+1)`` going down), or
a scalar the loop assigns and reads before assigning in an iteration (a
reduction, a scalar recurrence).  The cost model prices the chain at the
profile's ``recurrence_time`` per unit (0 in profiles that do not measure it).
"""

from __future__ import annotations

from .. import ir
from .ops import own_flops
from .scalars import first_access

#: Latency of a floating-point divide in units of an add's: 13-20 cycles
#: against 3-4 on the x86 and Arm cores of the last decade (published
#: instruction tables).
DIVIDE_LATENCY = 4


def _assignments(body: tuple[ir.Stmt, ...]) -> list[ir.Assign]:
    return [s for s in ir.walk(body) if isinstance(s, ir.Assign)]


def _distance(read: ir.Index, written: ir.Index, var: str) -> int | None:
    """Iterations of ``var`` between the write of ``written`` and the read of
    ``read`` of the same element (``read`` = ``written`` at ``var - d``), when
    the subscripts say it exactly; None otherwise."""
    if len(read.subscripts) != len(written.subscripts):
        return None
    d = None
    for r, w in zip(read.subscripts, written.subscripts):
        ar, aw = ir.affine(r), ir.affine(w)
        if ar is None or aw is None or ar.terms != aw.terms:
            return None
        diff = ar.const - aw.const
        c = aw.coef(var)
        if c == 0:
            if diff != 0:
                return None
            continue
        if diff % c:
            return None
        k = -diff // c
        if d is not None and k != d:
            return None
        d = k
    return d


def _carried(stmt: ir.Assign, loop: ir.Do) -> set[int]:
    """ids of the sub-expressions of ``stmt``'s value that the loop carries."""
    step = ir.affine(loop.step) if loop.step is not None else ir.Affine(1)
    inc = step.const if step is not None and step.is_const else 0  # 0: not known
    writes = [a.target for a in _assignments(loop.body) if isinstance(a.target, ir.Index)]
    scalars = {a.target.name for a in _assignments(loop.body) if isinstance(a.target, ir.Name)}
    out: set[int] = set()
    for x in stmt.value.walk():
        if isinstance(x, ir.Name) and x.name in scalars and x.name != loop.var:
            if first_access(loop.body, x.name) == "use":
                out.add(id(x))
        elif isinstance(x, ir.Index) and inc:
            for w in writes:
                if w.name == x.name:
                    d = _distance(x, w, loop.var)  # written d values of the variable earlier
                    if d is not None and d % inc == 0 and d // inc > 0:
                        out.add(id(x))
                        break
    return out


def _path(e: ir.Expr, sources: set[int]) -> int | None:
    """Latency from a carried source to ``e``'s value; None when none feeds it."""
    if id(e) in sources:
        return 0
    if isinstance(e, (ir.Const, ir.Name, ir.Index, ir.OpaqueExpr)):
        return None
    if isinstance(e, ir.UnOp):
        return _path(e.operand, sources)
    if isinstance(e, (ir.BinOp, ir.FuncRef)):
        inner = [p for p in (_path(c, sources) for c in e.children()) if p is not None]
        if not inner:
            return None
        return max(inner) + (DIVIDE_LATENCY if isinstance(e, ir.BinOp) and e.op == ir.Op.DIV else own_flops(e))
    inner = [p for p in (_path(c, sources) for c in e.children()) if p is not None]
    return max(inner) if inner else None


def chain_latency(stmt: ir.Assign, loop: ir.Do) -> int:
    """Latency units of the chain the innermost ``loop`` carries through
    ``stmt`` (0: the assignment starts no chain from an earlier iteration)."""
    sources = _carried(stmt, loop)
    if not sources:
        return 0
    return _path(stmt.value, sources) or 0
