"""Value ranges of DO variables in generated code, to leave out subscript checks
that cannot fail.

Inside ``DO I = 1, 16`` the variable ``I`` holds 1..16 on every trip (Fortran
forbids redefining a DO variable in its loop), so a subscript ``I + 1`` of an
array declared ``(17)`` needs no check.  :func:`interval` bounds the value of
an integer expression of generated code (Python source) from the ranges of the
variables it names; :func:`fixed_in` says whether a loop's body leaves its
variable alone, so that its range holds throughout the body.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from ... import ir

Interval = tuple[int, int]


def interval(code: str, ranges: Mapping[str, Interval]) -> Interval | None:
    """The least and greatest value of the integer expression ``code`` (generated
    Python: integers, names, ``+ - *``, unary minus) when each name lies in its
    range; None when it names anything else."""
    try:
        tree = ast.parse(code, mode="eval").body
    except SyntaxError:
        return None
    lin = _affine(tree)
    if lin is not None and all(n in ranges for n in lin if n):
        # exact for an affine expression (``2*I - I + 1`` is ``I + 1``)
        lo = hi = lin.get("", 0)
        for n, c in lin.items():
            if n:
                a, b = ranges[n]
                lo, hi = lo + min(c * a, c * b), hi + max(c * a, c * b)
        return lo, hi
    return _interval(tree, ranges)


def _affine(node: ast.AST) -> dict[str, int] | None:
    """``node`` as coefficients of its names (the constant under ""), when affine."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return {"": node.value}
    if isinstance(node, ast.Name):
        return {node.id: 1}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        x = _affine(node.operand)
        return None if x is None else {n: -c for n, c in x.items()}
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
        a, b = _affine(node.left), _affine(node.right)
        if a is None or b is None:
            return None
        if isinstance(node.op, ast.Mult):
            if set(a) <= {""}:
                a, b = b, a
            if not set(b) <= {""}:
                return None  # a product of two variables
            k = b.get("", 0)
            return {n: c * k for n, c in a.items()}
        sign = 1 if isinstance(node.op, ast.Add) else -1
        out = dict(a)
        for n, c in b.items():
            out[n] = out.get(n, 0) + sign * c
        return out
    return None


def _interval(node: ast.AST, ranges: Mapping[str, Interval]) -> Interval | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value, node.value
    if isinstance(node, ast.Name):
        return ranges.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        x = _interval(node.operand, ranges)
        return None if x is None else (-x[1], -x[0])
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
        a, b = _interval(node.left, ranges), _interval(node.right, ranges)
        if a is None or b is None:
            return None
        if isinstance(node.op, ast.Add):
            return a[0] + b[0], a[1] + b[1]
        if isinstance(node.op, ast.Sub):
            return a[0] - b[1], a[1] - b[0]
        products = [x * y for x in a for y in b]
        return min(products), max(products)
    return None


def loop_interval(lo: str, hi: str, step: str, ranges: Mapping[str, Interval]) -> Interval | None:
    """The values a DO variable takes on the trips of ``DO v = lo, hi, step``
    (codes of the bounds as evaluated on entry); None when unknown."""
    s = interval(step, ranges)
    if s is None or s[0] != s[1] or s[0] == 0:
        return None
    a, b = interval(lo, ranges), interval(hi, ranges)
    if a is None or b is None:
        return None
    # from the first value towards the last, never past either
    return (a[0], b[1]) if s[0] > 0 else (b[0], a[1])


def fixed_in(var: str, body: tuple[ir.Stmt, ...]) -> bool:
    """Whether no statement of ``body`` can give ``var`` a new value: it is not
    assigned, read, the variable of an inner loop or implied DO, an IOSTAT=
    or INQUIRE variable, nor an actual argument (a callee may assign its dummy)."""
    for s in ir.walk(body):
        if isinstance(s, ir.Assign) and isinstance(s.target, ir.Name) and s.target.name == var:
            return False
        if isinstance(s, ir.Do) and s.var == var:
            return False
        if isinstance(s, ir.Io) and any(isinstance(t, ir.Name) and t.name == var for t in s.targets()):
            return False
        if isinstance(s, ir.Call) and any(isinstance(a, ir.Name) and a.name == var for a in s.args):
            return False
        if isinstance(s, ir.Opaque):
            return False
        if any(isinstance(a, ir.Name) and a.name == var for f in ir.external_calls(s) for a in f.args):
            return False
    return True
