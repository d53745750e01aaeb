"""The Fortran type of an IR expression (given the types of the names)."""

from __future__ import annotations

from typing import Callable

from ..ir import LOGICAL, BinOp, Const, Expr, FuncRef, Index, Name, Substring, Type, UnOp
from .intrinsics import is_intrinsic, result_type, widest

_RELATIONAL = ("==", "/=", "<", "<=", ">", ">=", "and", "or", "eqv", "neqv")


def type_of(expr: Expr, name_type: Callable[[str], Type | None]) -> Type | None:
    """The type of ``expr``; ``name_type`` gives the type of a variable or function name."""
    if isinstance(expr, Const):
        return expr.type
    if isinstance(expr, (Name, Index)):
        return name_type(expr.name)
    if isinstance(expr, Substring):
        lo, hi = expr.lower, expr.upper
        if isinstance(lo, Const) and isinstance(hi, Const) and type(lo.value) is int and type(hi.value) is int:
            return Type("character", max(0, hi.value - lo.value + 1))
        return Type("character", 0)
    if isinstance(expr, FuncRef):
        if expr.kind == "intrinsic" and is_intrinsic(expr.name):
            args = [type_of(a, name_type) for a in expr.args]
            return result_type(expr.name, [a for a in args if a is not None])
        return name_type(expr.name)
    if isinstance(expr, UnOp):
        return LOGICAL if expr.op == "not" else type_of(expr.operand, name_type)
    if isinstance(expr, BinOp):
        if expr.op in _RELATIONAL:
            return LOGICAL
        left, right = type_of(expr.left, name_type), type_of(expr.right, name_type)
        if expr.op == "//":
            sizes = [t.size if t is not None else 0 for t in (left, right)]
            return Type("character", 0 if 0 in sizes else sum(sizes))
        known = [t for t in (left, right) if t is not None]
        return widest(known) if known else None
    return None
