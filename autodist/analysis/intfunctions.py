"""The value of a call of one of the program's small integer functions, from
its arguments' values.

Real programs compute sizes with functions: ``LOG = ILOG2(N2)`` (the radix-2
passes of an FFT), a power of two, a block count.  :func:`integer_result` runs
such a function on known argument values, so that the values it yields count
the loops they bound (:mod:`.knownvalues`).  It runs only what cannot touch
anything but the function's own locals: assignments of integer scalars that
are not dummies, block and logical IF, DO and DO WHILE loops, CONTINUE and
RETURN; anything else (a call, I/O, a jump, an array, a read of a variable
not yet assigned, a dummy or COMMON variable written) gives no value, as does
a run of more than :data:`MAX_STEPS` statements.
"""

from __future__ import annotations

from .. import ir

#: statements run at most per call (a loop that does not end gives no value)
MAX_STEPS = 20_000


class _NoValue(Exception):
    pass


class _Returned(Exception):
    pass


_COMPARE = {
    ir.Op.EQ: lambda a, b: a == b, ir.Op.NE: lambda a, b: a != b,
    ir.Op.LT: lambda a, b: a < b, ir.Op.LE: lambda a, b: a <= b,
    ir.Op.GT: lambda a, b: a > b, ir.Op.GE: lambda a, b: a >= b,
}


class _Run:
    def __init__(self, unit: ir.Unit, env: dict[str, int]):
        self.unit = unit
        self.env = env
        self.steps = 0
        self.values = ir.IntEvaluator(env)

    def int(self, e: ir.Expr) -> int:
        v = self.values(e)
        if v is None:
            raise _NoValue
        return v

    def truth(self, e: ir.Expr) -> bool:
        if isinstance(e, ir.Const) and isinstance(e.value, bool):
            return e.value
        if isinstance(e, ir.UnOp) and e.op == ir.UnaryOp.NOT:
            return not self.truth(e.operand)
        if isinstance(e, ir.BinOp):
            if e.op in _COMPARE:
                return _COMPARE[e.op](self.int(e.left), self.int(e.right))
            if e.op == ir.Op.AND:
                return self.truth(e.left) and self.truth(e.right)
            if e.op == ir.Op.OR:
                return self.truth(e.left) or self.truth(e.right)
        raise _NoValue

    def assignable(self, name: str) -> bool:
        if name == self.unit.name:  # the result
            return True
        sym = self.unit.symbol(name)
        return (sym is not None and sym.kind == ir.SymbolKind.VARIABLE and not sym.is_array and not sym.dummy
                and sym.common is None and not sym.equivalenced and sym.type.base == "integer")

    def block(self, stmts: tuple[ir.Stmt, ...]) -> None:
        for s in stmts:
            self.steps += 1
            if self.steps > MAX_STEPS:
                raise _NoValue
            self.stmt(s)

    def stmt(self, s: ir.Stmt) -> None:
        if isinstance(s, ir.Assign):
            if not isinstance(s.target, ir.Name) or not self.assignable(s.target.name):
                raise _NoValue
            self.env[s.target.name] = self.int(s.value)
        elif isinstance(s, ir.If):
            for b in s.branches:
                if b.cond is None or self.truth(b.cond):
                    self.block(b.body)
                    break
        elif isinstance(s, ir.Do):
            if not self.assignable(s.var):
                raise _NoValue
            start, end = self.int(s.start), self.int(s.end)
            step = 1 if s.step is None else self.int(s.step)
            if step == 0:
                raise _NoValue
            trips = max(0, (end - start + step) // step)
            for k in range(trips):
                self.env[s.var] = start + k * step
                self.block(s.body)
            self.env[s.var] = start + trips * step
        elif isinstance(s, ir.DoWhile):
            while self.truth(s.cond):
                self.block(s.body)
        elif isinstance(s, ir.Return):
            raise _Returned
        elif not isinstance(s, ir.Continue):
            raise _NoValue


def integer_result(unit: ir.Unit, args: list[int]) -> int | None:
    """The value ``unit``, an INTEGER FUNCTION of integer scalar dummies,
    returns for the arguments ``args``; None when it cannot be run (see the
    module's doc)."""
    if unit.kind != ir.UnitKind.FUNCTION or len(args) != len(unit.args):
        return None
    result = unit.symbol(unit.name)
    if result is None or result.type.base != "integer" or result.is_array:
        return None
    for name in unit.args:
        sym = unit.symbol(name)
        if sym is None or sym.is_array or sym.type.base != "integer":
            return None
    env = dict(zip(unit.args, args))
    run = _Run(unit, env)
    try:
        run.block(unit.body)
    except _Returned:
        pass
    except (_NoValue, ArithmeticError, OverflowError):
        return None
    return env.get(unit.name)


__all__ = ["integer_result", "MAX_STEPS"]
