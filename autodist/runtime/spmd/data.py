"""DATA statements as the executor applies them: the value of each constant in
the type of its target, the scalars and array elements a target list names,
and the integer value of their subscripts (also of dummy bounds)."""

from __future__ import annotations

import numpy as np

from ... import ir
from ...errors import RuntimeFault, UnsupportedError
from ..codegen import intrinsic_code as ic
from ..fortran import intrinsics as it


def data_value(c: ir.Expr, t: ir.Type):
    if not isinstance(c, ir.Const):
        raise UnsupportedError("a DATA value that is not a constant")
    v = eval(ic.const_code(c), dict(it.HELPERS))
    if t.base == "character":
        return str(v).ljust(t.size)[: t.size]
    return eval(ic.convert(repr(v) if not isinstance(v, np.generic) else ic.const_code(c), c.type, t, False),
                dict(it.HELPERS))


def data_targets(u: ir.Unit, t: ir.Expr, env: dict[str, int]) -> list[tuple[str, tuple[int, ...] | None]]:
    """The scalars and array elements a DATA target list names, in order."""
    if isinstance(t, ir.Name):
        sym = u.symbol(t.name)
        if sym is not None and sym.is_array:
            bounds = [d.bounds for d in sym.dims or ()]
            idx = np.indices([hi - lo + 1 for lo, hi in bounds]).reshape(len(bounds), -1, order="F").T
            return [(t.name, tuple(int(i) + lo for i, (lo, _) in zip(row, bounds))) for row in idx]
        return [(t.name, None)]
    if isinstance(t, ir.Index):
        return [(t.name, tuple(int_value(s, env) for s in t.subscripts))]
    if isinstance(t, ir.ImpliedDo):
        out = []
        a, b = int_value(t.start, env), int_value(t.end, env)
        st = 1 if t.step is None else int_value(t.step, env)
        for v in range(a, b + (1 if st > 0 else -1), st):
            for x in t.items:
                out.extend(data_targets(u, x, {**env, t.var: v}))
        return out
    raise UnsupportedError("this DATA target")


def int_value(e: ir.Expr, env: dict[str, int]) -> int:
    if isinstance(e, ir.Const) and type(e.value) is int:
        return e.value
    if isinstance(e, ir.Name) and e.name in env:
        return env[e.name]
    if isinstance(e, ir.UnOp) and e.op == "-":
        return -int_value(e.operand, env)
    if isinstance(e, ir.BinOp) and e.op in ("+", "-", "*", "/"):
        a, b = int_value(e.left, env), int_value(e.right, env)
        return {"+": a + b, "-": a - b, "*": a * b}.get(e.op) if e.op != "/" else it.idiv(a, b)
    if isinstance(e, ir.BinOp) and e.op == "**":
        a, b = int_value(e.left, env), int_value(e.right, env)
        if b >= 0:
            return a ** b
    if isinstance(e, ir.FuncRef) and e.kind == "intrinsic" and e.args:
        args = [int_value(x, env) for x in e.args]
        name = e.name.upper()
        if name in ("MAX", "MAX0"):
            return max(args)
        if name in ("MIN", "MIN0"):
            return min(args)
        if name in ("ABS", "IABS") and len(args) == 1:
            return abs(args[0])
        if name == "MOD" and len(args) == 2 and args[1] != 0:
            return args[0] - it.idiv(args[0], args[1]) * args[1]
        if name == "INT" and len(args) == 1:
            return args[0]
    raise RuntimeFault("a bound or subscript that is not a known integer")
