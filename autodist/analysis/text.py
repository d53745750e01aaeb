"""Fortran-like text of IR expressions, for reports and messages."""

from __future__ import annotations

from .. import ir

_PREC = {
    "eqv": 1, "neqv": 1, "or": 2, "and": 3, "not": 4,
    "==": 5, "/=": 5, "<": 5, "<=": 5, ">": 5, ">=": 5,
    "//": 6, "+": 7, "-": 7, "*": 8, "/": 8, "**": 10,
}
_SPELL = {"and": ".AND.", "or": ".OR.", "eqv": ".EQV.", "neqv": ".NEQV.", "not": ".NOT."}


def expr_text(e: ir.Expr) -> str:
    return _text(e, 0)


def _text(e: ir.Expr, outer: int) -> str:
    if isinstance(e, ir.Const):
        v = e.value
        if isinstance(v, bool):
            return ".TRUE." if v else ".FALSE."
        if isinstance(v, str):
            return "'" + v.replace("'", "''") + "'"
        if isinstance(v, float):
            s = repr(v)
            return s.upper().replace("E", "D") if e.type.size == 8 and "e" in s else s
        return str(v)
    if isinstance(e, ir.Name):
        return e.name
    if isinstance(e, ir.Index):
        return f"{e.name}({','.join(_text(s, 0) for s in e.subscripts)})"
    if isinstance(e, ir.FuncRef):
        return f"{e.name}({','.join(_text(a, 0) for a in e.args)})"
    if isinstance(e, ir.BinOp):
        p = _PREC.get(e.op, 0)
        op = _SPELL.get(e.op, e.op)
        right_p = p + 1 if e.op != "**" else p
        s = f"{_text(e.left, p)}{op}{_text(e.right, right_p)}"
        return f"({s})" if p < outer else s
    if isinstance(e, ir.UnOp):
        p = _PREC["not"] if e.op == "not" else 7
        op = _SPELL.get(e.op, e.op)
        s = f"{op}{_text(e.operand, p + 1)}"
        return f"({s})" if p < outer else s
    if isinstance(e, ir.Substring):
        lo = _text(e.lower, 0) if e.lower is not None else ""
        hi = _text(e.upper, 0) if e.upper is not None else ""
        return f"{_text(e.base, 99)}({lo}:{hi})"
    if isinstance(e, ir.ImpliedDo):
        items = ",".join(_text(i, 0) for i in e.items)
        step = f",{_text(e.step, 0)}" if e.step is not None else ""
        return f"({items},{e.var}={_text(e.start, 0)},{_text(e.end, 0)}{step})"
    if isinstance(e, ir.OpaqueExpr):
        return e.text
    return "?"
