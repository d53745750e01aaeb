"""Expression types and operation counts.

Operation counts feed the computation cost: ``flops`` counts the arithmetic of
value computations (subscript arithmetic is address calculation and is not
counted), with elementary functions weighted by :data:`FUNCTION_WEIGHT`;
``memory`` counts array element loads and stores.
"""

from __future__ import annotations

from .. import ir

#: Cost in operations of one call of an elementary function (a typical libm
#: SQRT/EXP/LOG/SIN on the machines DDT targeted costs some tens of flops;
#: 8 keeps them visible without dominating).
FUNCTION_WEIGHT = 8
#: Cost of ``x ** y`` with a non-constant or non-integer exponent (exp(y*log x)).
POWER_WEIGHT = 2 * FUNCTION_WEIGHT

_MATH = {
    "SQRT", "DSQRT", "CSQRT", "EXP", "DEXP", "CEXP", "LOG", "ALOG", "DLOG", "CLOG",
    "LOG10", "ALOG10", "DLOG10", "SIN", "DSIN", "CSIN", "COS", "DCOS", "CCOS", "TAN",
    "DTAN", "ASIN", "DASIN", "ACOS", "DACOS", "ATAN", "DATAN", "ATAN2", "DATAN2",
    "SINH", "DSINH", "COSH", "DCOSH", "TANH", "DTANH",
}

_INT_RESULT = {
    "INT", "IFIX", "IDINT", "NINT", "IDNINT", "IABS", "ISIGN", "IDIM", "MAX0", "MIN0",
    "MAX1", "MIN1", "MOD", "LEN", "INDEX", "ICHAR", "LGE", "LGT", "LLE", "LLT",
}
_REAL_RESULT = {
    "REAL", "FLOAT", "SNGL", "AMAX1", "AMIN1", "AMAX0", "AMIN0", "AMOD", "ALOG", "ALOG10",
    "AINT", "ANINT", "ABS", "AIMAG",
}
_DOUBLE_RESULT = {
    "DBLE", "DSQRT", "DEXP", "DLOG", "DLOG10", "DSIN", "DCOS", "DTAN", "DASIN", "DACOS",
    "DATAN", "DATAN2", "DSINH", "DCOSH", "DTANH", "DABS", "DMAX1", "DMIN1", "DMOD",
    "DSIGN", "DDIM", "DINT", "DNINT", "DPROD",
}
_COMPLEX_RESULT = {"CMPLX", "CONJG", "CSQRT", "CEXP", "CLOG", "CSIN", "CCOS", "CABS"}
_GENERIC_SAME = {"ABS", "MIN", "MAX", "SIGN", "DIM", "MOD", "AINT", "ANINT"} | _MATH


def implicit_type(name: str) -> ir.Type:
    """Fortran's default implicit typing: I-N integer, otherwise real."""
    return ir.INTEGER if "I" <= name[:1].upper() <= "N" else ir.REAL


def name_type(unit: ir.Unit, name: str) -> ir.Type:
    sym = unit.symbol(name)
    if sym is not None:
        return sym.type
    return implicit_type(name)


def _promote(a: ir.Type, b: ir.Type) -> ir.Type:
    order = {"logical": 0, "character": 0, "integer": 1, "real": 2, "complex": 3}
    if order.get(a.base, 0) != order.get(b.base, 0):
        return a if order.get(a.base, 0) > order.get(b.base, 0) else b
    return a if a.size >= b.size else b


def expr_type(unit: ir.Unit, expr: ir.Expr) -> ir.Type:
    """The Fortran type of an expression (implicit rules where undeclared)."""
    if isinstance(expr, ir.Const):
        return expr.type
    if isinstance(expr, (ir.Name, ir.Index)):
        return name_type(unit, expr.name)
    if isinstance(expr, ir.FuncRef):
        name = expr.name
        if expr.kind != "intrinsic":
            sym = unit.symbol(name)
            return sym.type if sym is not None else implicit_type(name)
        if name in _INT_RESULT:
            return ir.INTEGER
        if name in _DOUBLE_RESULT:
            return ir.DOUBLE
        if name == "CABS":
            return ir.REAL
        if name in _COMPLEX_RESULT:
            return ir.COMPLEX
        if name in _GENERIC_SAME and expr.args:
            t = expr_type(unit, expr.args[0])
            for a in expr.args[1:]:
                t = _promote(t, expr_type(unit, a))
            if name == "ABS" and t.base == "complex":
                return ir.Type("real", t.size // 2)
            return t
        if name in _REAL_RESULT:
            return ir.REAL
        return implicit_type(name)
    if isinstance(expr, ir.BinOp):
        if expr.op in ("==", "/=", "<", "<=", ">", ">=", "and", "or", "eqv", "neqv"):
            return ir.LOGICAL
        if expr.op == "//":
            return ir.Type("character", 0)
        return _promote(expr_type(unit, expr.left), expr_type(unit, expr.right))
    if isinstance(expr, ir.UnOp):
        return ir.LOGICAL if expr.op == "not" else expr_type(unit, expr.operand)
    if isinstance(expr, ir.Substring):
        return ir.Type("character", 0)
    return ir.REAL


def own_flops(expr: ir.Expr) -> int:
    """The operations of ``expr``'s own operator, its operands not counted (as
    :func:`flops` counts them)."""
    if isinstance(expr, ir.FuncRef):
        if expr.kind == "intrinsic":
            return FUNCTION_WEIGHT if expr.name in _MATH else max(1, len(expr.args) - 1)
        return FUNCTION_WEIGHT  # an external function: unknown, priced as a libm call
    if isinstance(expr, ir.BinOp):
        if expr.op in ("and", "or", "eqv", "neqv", "//"):
            return 0
        if expr.op == "**":
            r = expr.right
            if isinstance(r, ir.Const) and type(r.value) is int and 0 <= r.value <= 8:
                return max(1, r.value - 1)
            return POWER_WEIGHT
        return 1
    return 0


def flops(unit: ir.Unit, expr: ir.Expr) -> int:
    """Arithmetic operations in evaluating ``expr`` (subscripts excluded)."""
    if isinstance(expr, (ir.Const, ir.Name, ir.OpaqueExpr, ir.Index)):
        return 0  # subscript arithmetic is address computation
    if isinstance(expr, ir.FuncRef):
        return sum(flops(unit, a) for a in expr.args) + own_flops(expr)
    if isinstance(expr, ir.UnOp):
        return flops(unit, expr.operand)
    if isinstance(expr, ir.BinOp):
        return flops(unit, expr.left) + flops(unit, expr.right) + own_flops(expr)
    return sum(flops(unit, c) for c in expr.children())


def loads(expr: ir.Expr) -> int:
    """Array element loads in evaluating ``expr`` (indirections included)."""
    return sum(1 for e in expr.walk() if isinstance(e, ir.Index))
