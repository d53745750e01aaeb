"""Constant folding with Fortran semantics.

* INTEGER division truncates toward zero; ``MOD`` takes the sign of its first
  argument; ``I**(-k)`` is 0 unless ``|I| == 1`` (the integer arithmetic of
  :mod:`autodist.ir.evaluate`, which every stage shares); results must fit the kind.
* REAL (size 4) results are rounded to single precision (computing in double
  and rounding once is the correctly rounded result for + - * / and SQRT);
  DOUBLE PRECISION results are Python floats.
* A mixed operation converts to the wider type first (INTEGER < REAL <
  DOUBLE PRECISION < COMPLEX < DOUBLE COMPLEX).

:func:`fold` folds the INTEGER, LOGICAL and CHARACTER constant parts of any
expression (exact, so always safe); :func:`evaluate` evaluates a whole constant
expression of any type (PARAMETER values, bounds, lengths) or returns None.
"""

from __future__ import annotations

import math

import numpy as np

from ..ir import (
    LOGICAL, BinOp, Const, Expr, FuncKind, FuncRef, Index, ImpliedDo, Op, Substring, Type, UnaryOp, UnOp,
)
from ..ir.evaluate import RELATIONS, int_mod, int_power, trunc_div
from .intrinsics import INTRINSICS, result_type, widest

_INT_LIMIT = {1: 2**7, 2: 2**15, 4: 2**31, 8: 2**63}
_EXACT = ("integer", "logical", "character")


def rounded(value: float, size: int) -> float:
    """``value`` rounded to REAL*``size`` (infinite where it overflows that kind)."""
    if size != 4:
        return float(value)
    with np.errstate(over="ignore"):
        return float(np.float32(value))


def _real(value: float, size: int) -> float | None:
    if isinstance(value, complex):
        value = value.real
    f = rounded(value, size)
    return f if math.isfinite(f) else None


def _complex(value: complex, size: int) -> complex | None:
    re, im = _real(complex(value).real, size // 2), _real(complex(value).imag, size // 2)
    return None if re is None or im is None else complex(re, im)


def _int(value: int, size: int) -> int | None:
    limit = _INT_LIMIT.get(size, 2**31)
    return value if -limit <= value < limit else None


def make(value: object, t: Type) -> Const | None:
    """A constant of type ``t`` holding ``value`` converted as Fortran assignment does."""
    if t.base == "integer":
        if isinstance(value, bool) or isinstance(value, str):
            return None
        if isinstance(value, complex):
            value = value.real
        v = _int(int(value), t.size) if not isinstance(value, float) or math.isfinite(value) else None
    elif t.base == "real":
        v = None if isinstance(value, (bool, str)) else _real(value, t.size)
    elif t.base == "complex":
        v = None if isinstance(value, (bool, str)) else _complex(value, t.size)
    elif t.base == "logical":
        v = value if isinstance(value, bool) else None
    elif t.base == "character":
        if not isinstance(value, str):
            return None
        v = value if t.size == 0 else value[: t.size].ljust(t.size)
        t = t if t.size else Type("character", len(value))
    else:
        return None
    return None if v is None else Const(v, t)


def convert(c: Const, t: Type) -> Const | None:
    """``c`` converted to type ``t`` as an assignment does (a REAL literal is first
    rounded to single precision: ``DOUBLE PRECISION X = 0.1`` is not 0.1)."""
    own = make(c.value, c.type)
    return None if own is None else make(own.value, t)


def _power(a: object, b: object, t: Type) -> object:
    if t.base == "integer":
        return int_power(a, b)
    try:
        if isinstance(b, int) or t.base == "complex":
            return a**b
        if a < 0:
            return None
        return math.pow(a, b)
    except (OverflowError, ZeroDivisionError, ValueError):
        return None


def _arith(op: str, a: Const, b: Const) -> Const | None:
    t = widest([a.type, b.type])
    if t is None or t.base not in ("integer", "real", "complex"):
        return None
    va, vb = a.value, b.value
    if isinstance(va, (bool, str)) or isinstance(vb, (bool, str)):
        return None
    if op == Op.POW and b.type.base == "integer":
        t = a.type if a.type.base != "integer" else t
        value = _power(va, vb, t)
        return None if value is None else make(value, t)
    if t.base != "integer":
        va = complex(va) if t.base == "complex" else float(va)
        vb = complex(vb) if t.base == "complex" else float(vb)
    try:
        if op == Op.ADD:
            value = va + vb
        elif op == Op.SUB:
            value = va - vb
        elif op == Op.MUL:
            value = va * vb
        elif op == Op.DIV:
            if vb == 0:
                return None
            value = trunc_div(va, vb) if t.base == "integer" else va / vb
        elif op == Op.POW:
            value = _power(va, vb, t)
        else:
            return None
    except (OverflowError, ZeroDivisionError):
        return None
    return None if value is None else make(value, t)


_LOGICAL = {
    Op.AND: lambda x, y: x and y,
    Op.OR: lambda x, y: x or y,
    Op.EQV: lambda x, y: x == y,
    Op.NEQV: lambda x, y: x != y,
}


def _binary(op: str, a: Const, b: Const) -> Const | None:
    if op in RELATIONS:
        if isinstance(a.value, str) and isinstance(b.value, str):
            n = max(len(a.value), len(b.value))
            return Const(RELATIONS[op](a.value.ljust(n), b.value.ljust(n)), LOGICAL)
        if isinstance(a.value, (bool, str)) or isinstance(b.value, (bool, str)):
            return None
        if isinstance(a.value, complex) or isinstance(b.value, complex):
            if op not in (Op.EQ, Op.NE):
                return None
        return Const(bool(RELATIONS[op](a.value, b.value)), LOGICAL)
    if op in _LOGICAL:
        if isinstance(a.value, bool) and isinstance(b.value, bool):
            return Const(_LOGICAL[op](a.value, b.value), LOGICAL)
        return None
    if op == Op.CONCAT:
        if isinstance(a.value, str) and isinstance(b.value, str):
            return Const(a.value + b.value, Type("character", len(a.value) + len(b.value)))
        return None
    return _arith(op, a, b)


def _unary(op: str, a: Const) -> Const | None:
    if op == UnaryOp.NOT:
        return Const(not a.value, LOGICAL) if isinstance(a.value, bool) else None
    if isinstance(a.value, (bool, str)):
        return None
    return make(-a.value if op == UnaryOp.NEG else a.value, a.type)


def _nint(x: float) -> int:
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


def _fmod(a: object, b: object, t: Type) -> object:
    if b == 0:
        return None
    if t.base == "integer":
        return int_mod(a, b)
    return math.fmod(a, b)


_MATH = {
    "SQRT": math.sqrt, "EXP": math.exp, "LOG": math.log, "LOG10": math.log10,
    "SIN": math.sin, "COS": math.cos, "TAN": math.tan, "ASIN": math.asin, "ACOS": math.acos,
    "ATAN": math.atan, "SINH": math.sinh, "COSH": math.cosh, "TANH": math.tanh,
}
_SPECIFIC_MATH = {
    "ALOG": "LOG", "ALOG10": "LOG10", "DSQRT": "SQRT", "DEXP": "EXP", "DLOG": "LOG", "DLOG10": "LOG10",
    "DSIN": "SIN", "DCOS": "COS", "DTAN": "TAN", "DASIN": "ASIN", "DACOS": "ACOS", "DATAN": "ATAN",
    "DSINH": "SINH", "DCOSH": "COSH", "DTANH": "TANH",
}
_MAXMIN = {
    "MAX": max, "MAX0": max, "AMAX1": max, "DMAX1": max, "AMAX0": max, "MAX1": max,
    "MIN": min, "MIN0": min, "AMIN1": min, "DMIN1": min, "AMIN0": min, "MIN1": min,
}


def _intrinsic(name: str, args: list[Const]) -> Const | None:
    """``name(args)`` on constant arguments, for the intrinsics that can be folded."""
    if name not in INTRINSICS or not args:
        return None
    t = result_type(name, [a.type for a in args])
    v = [a.value for a in args]
    try:
        if name in _MAXMIN:
            common = widest([a.type for a in args])
            value = _MAXMIN[name](make(x, common).value for x in v)  # type: ignore[union-attr]
            if t.base == "integer" and isinstance(value, float):
                value = math.trunc(value)
            return make(value, t)
        if isinstance(v[0], bool):
            return None
        if name in ("INT", "IFIX", "IDINT"):
            return make(math.trunc(v[0].real if isinstance(v[0], complex) else v[0]), t)
        if name in ("NINT", "IDNINT"):
            return make(_nint(v[0]), t)
        if name in ("AINT", "DINT"):
            return make(float(math.trunc(v[0])), t)
        if name in ("ANINT", "DNINT"):
            return make(float(_nint(v[0])), t)
        if name in ("REAL", "FLOAT", "SNGL", "DBLE", "DREAL"):
            return make(v[0].real if isinstance(v[0], complex) else v[0], t)
        if name in ("CMPLX", "DCMPLX"):
            return make(complex(v[0], v[1] if len(v) > 1 else 0.0), t)
        if name in ("ABS", "IABS", "DABS", "CABS", "CDABS", "ZABS"):
            return make(abs(v[0]), t)
        if name in ("MOD", "AMOD", "DMOD"):
            return make(_fmod(make(v[0], t).value, make(v[1], t).value, t), t)  # type: ignore[union-attr]
        if name in ("SIGN", "ISIGN", "DSIGN"):
            return make(abs(v[0]) if v[1] >= 0 else -abs(v[0]), t)
        if name in ("DIM", "IDIM", "DDIM"):
            return make(max(v[0] - v[1], 0), t)
        if name == "DPROD":
            return make(float(v[0]) * float(v[1]), t)
        if name in ("AIMAG", "DIMAG"):
            return make(complex(v[0]).imag, t)
        if name in ("CONJG", "DCONJG"):
            return make(complex(v[0]).conjugate(), t)
        if name in ("LEN", "ICHAR", "CHAR", "INDEX"):
            if name == "LEN":
                return make(len(v[0]), t)
            if name == "ICHAR":
                return make(ord(v[0][0]), t) if v[0] else None
            if name == "CHAR":
                return make(chr(v[0]), t)
            return make(v[0].find(v[1]) + 1, t)
        if name in ("ATAN2", "DATAN2"):
            return make(math.atan2(v[0], v[1]), t)
        base = _SPECIFIC_MATH.get(name, name)
        if base in _MATH and not isinstance(v[0], complex):
            if args[0].type.base == "integer":
                return None
            return make(_MATH[base](v[0]), t)
    except (ValueError, OverflowError, TypeError, ZeroDivisionError, AttributeError, IndexError):
        return None
    return None


def _fold(expr: Expr, full: bool) -> Expr:
    def keep(c: Const | None, otherwise: Expr) -> Expr:
        if c is None or (not full and c.type.base not in _EXACT):
            return otherwise
        return c

    if isinstance(expr, BinOp):
        left, right = _fold(expr.left, full), _fold(expr.right, full)
        new = expr if (left is expr.left and right is expr.right) else BinOp(expr.op, left, right)
        if isinstance(left, Const) and isinstance(right, Const):
            return keep(_binary(expr.op, left, right), new)
        return new
    if isinstance(expr, UnOp):
        operand = _fold(expr.operand, full)
        new = expr if operand is expr.operand else UnOp(expr.op, operand)
        if isinstance(operand, Const):
            c = _unary(expr.op, operand)  # exact for every type: always folded
            return c if c is not None else new
        return new
    if isinstance(expr, FuncRef):
        args = tuple(_fold(a, full) for a in expr.args)
        new = expr if args == expr.args else FuncRef(expr.name, args, expr.kind)
        if expr.kind == FuncKind.INTRINSIC and all(isinstance(a, Const) for a in args):
            return keep(_intrinsic(expr.name, list(args)), new)  # type: ignore[arg-type]
        return new
    if isinstance(expr, Index):
        subs = tuple(_fold(s, full) for s in expr.subscripts)
        return expr if subs == expr.subscripts else Index(expr.name, subs)
    if isinstance(expr, Substring):
        parts = [None if p is None else _fold(p, full) for p in (expr.base, expr.lower, expr.upper)]
        return Substring(parts[0], parts[1], parts[2])  # type: ignore[arg-type]
    if isinstance(expr, ImpliedDo):
        return ImpliedDo(
            tuple(_fold(i, full) for i in expr.items),
            expr.var,
            _fold(expr.start, full),
            _fold(expr.end, full),
            None if expr.step is None else _fold(expr.step, full),
        )
    return expr


def fold(expr: Expr) -> Expr:
    """``expr`` with its INTEGER, LOGICAL and CHARACTER constant sub-expressions folded."""
    return _fold(expr, False)


def evaluate(expr: Expr) -> Const | None:
    """The value of a constant expression of any type, or None when it is not constant."""
    result = _fold(expr, True)
    return result if isinstance(result, Const) else None
