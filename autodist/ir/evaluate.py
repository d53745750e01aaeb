"""One evaluator of integer IR expressions, with Fortran semantics.

Every stage that needs the value of an integer expression -- constant folding,
loop bounds and trip counts, conditions, directive arguments, propagated
constants -- asks this module, so they agree on what Fortran says:

* INTEGER division truncates toward zero (:func:`trunc_div`); ``MOD`` takes the
  sign of its first argument (:func:`int_mod`); ``I**(-k)`` is 0 unless
  ``|I| == 1`` (:func:`int_power`); ``MIN``/``MAX``/``ABS`` of integers.
* :class:`IntEvaluator` evaluates an expression given values of some names; a
  name without a value (a dummy argument, a variable) leaves the expression
  unevaluated: the result is None.  Subclasses say what names and functions
  mean and whether a failure is an error (:mod:`autodist.hpf.resolve`).
* :func:`affine` turns an expression into its :class:`Affine` form
  (``const + sum(coef * var)``), the coefficient form dependence tests,
  alignment and directives use; :func:`eval_affine` evaluates through it, so
  ``I - I`` is 0 even when I is unknown.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Callable, Container, Mapping

from ..keys import cached_hash
from .kinds import FuncKind, Op, UnaryOp
from .nodes import BinOp, Const, Expr, FuncRef, Name, UnOp

# --------------------------------------------------------------------------- integer arithmetic


def trunc_div(a: int, b: int) -> int:
    """Integer division truncating toward zero (Fortran), exact for any size; ``b != 0``."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def int_mod(a: int, b: int) -> int:
    """``MOD(a, b)``: the remainder of :func:`trunc_div`, with the sign of ``a``; ``b != 0``."""
    return a - trunc_div(a, b) * b


#: Exponents above this (of a base other than 0 and +-1) are refused: the value
#: would not fit any INTEGER kind, and computing it could take very long.
POWER_LIMIT = 64


def int_power(a: int, b: int) -> int | None:
    """``a**b`` on integers: ``1/(a**-b)`` truncated for ``b < 0``; None when undefined
    (zero to a negative power) or beyond :data:`POWER_LIMIT`."""
    if b >= 0:
        return a**b if abs(a) <= 1 or b <= POWER_LIMIT else None
    if a == 0:
        return None
    return 1 if a == 1 else (1 if b % 2 == 0 else -1) if a == -1 else 0


def trips(start: int, end: int, step: int) -> int:
    """Fortran 77 iteration count of ``DO V = start, end, step`` (``step != 0``)."""
    return max(0, trunc_div(end - start + step, step))


#: The relational operators as functions (of integers, reals or blank-padded strings).
RELATIONS: dict[Op, Callable[[Any, Any], bool]] = {
    Op.EQ: operator.eq,
    Op.NE: operator.ne,
    Op.LT: operator.lt,
    Op.LE: operator.le,
    Op.GT: operator.gt,
    Op.GE: operator.ge,
}

_INT_MIN = ("MIN", "MIN0")
_INT_MAX = ("MAX", "MAX0")
_INT_ABS = ("ABS", "IABS")


def int_intrinsic(name: str, args: list[int]) -> int | None:
    """An integer intrinsic (MIN, MAX, ABS, MOD and their specific names) of
    integer arguments, or None for another function or a bad argument list."""
    if not args:
        return None
    if name in _INT_MIN:
        return min(args)
    if name in _INT_MAX:
        return max(args)
    if name in _INT_ABS and len(args) == 1:
        return abs(args[0])
    if name == "MOD" and len(args) == 2 and args[1] != 0:
        return int_mod(args[0], args[1])
    return None


# --------------------------------------------------------------------------- the evaluator


class IntEvaluator:
    """The integer value of an IR expression, or None when it has none here.

    ``env`` gives the values of names; a name it does not hold has no value.
    Subclasses may redefine :meth:`name` (what a name is worth), :meth:`function`
    (what a function reference is worth) and :meth:`fail` (None here; a caller
    that must have a value raises an error naming ``why``).
    """

    def __init__(self, env: Mapping[str, int] | None = None):
        self.env = {} if env is None else env

    def __call__(self, e: Expr) -> int | None:
        if isinstance(e, Const):
            if type(e.value) is int:
                return e.value
            return self.fail(e, f"expected an integer, not {e.value!r}")
        if isinstance(e, Name):
            return self.name(e.name)
        if isinstance(e, UnOp) and e.op in (UnaryOp.NEG, UnaryOp.PLUS):
            v = self(e.operand)
            return None if v is None else -v if e.op == UnaryOp.NEG else v
        if isinstance(e, BinOp) and e.op in _ARITH:
            a, b = self(e.left), self(e.right)
            if a is None or b is None:
                return None
            return self._arith(e, a, b)
        if isinstance(e, FuncRef):
            return self.function(e)
        return self.fail(e, None)

    def _arith(self, e: BinOp, a: int, b: int) -> int | None:
        if e.op == Op.ADD:
            return a + b
        if e.op == Op.SUB:
            return a - b
        if e.op == Op.MUL:
            return a * b
        if e.op == Op.DIV:
            return trunc_div(a, b) if b != 0 else self.fail(e, "division by zero")
        v = int_power(a, b)
        if v is None:
            return self.fail(e, "division by zero" if a == 0 else f"integer power {a}**{b} too large")
        return v

    def name(self, name: str) -> int | None:
        """The value of the name ``name`` (None: it has none here)."""
        return self.env.get(name)

    def function(self, f: FuncRef) -> int | None:
        """The value of a function reference: integer intrinsics only."""
        if f.kind != FuncKind.INTRINSIC:
            return self.fail(f, None)
        return self.intrinsic(f)

    def intrinsic(self, f: FuncRef) -> int | None:
        """``f`` as an integer intrinsic of evaluated arguments (:func:`int_intrinsic`)."""
        args = [self(a) for a in f.args]
        if any(v is None for v in args):
            return None
        v = int_intrinsic(f.name, args)  # type: ignore[arg-type]
        return v if v is not None else self.fail(f, None)

    def fail(self, e: Expr, why: str | None) -> int | None:
        """What ``e`` is worth when it cannot be evaluated (``why``, if known): None."""
        return None


_ARITH = (Op.ADD, Op.SUB, Op.MUL, Op.DIV, Op.POW)


def int_value(expr: Expr, env: Mapping[str, int] | None = None) -> int | None:
    """The integer value of ``expr`` given the values ``env`` of some names, or None."""
    return IntEvaluator(env)(expr)


# --------------------------------------------------------------------------- affine forms


@cached_hash
@dataclass(frozen=True)
class Affine:
    """``const + sum(coef * var)``; ``terms`` sorted by variable name, no zero coefs."""

    const: int
    terms: tuple[tuple[str, int], ...] = ()

    @property
    def vars(self) -> tuple[str, ...]:
        return tuple(v for v, _ in self.terms)

    def coef(self, var: str) -> int:
        for v, c in self.terms:
            if v == var:
                return c
        return 0

    @property
    def is_const(self) -> bool:
        return not self.terms

    def value(self, env: Mapping[str, int]) -> int | None:
        """The value given ``env`` (None: a variable it uses has no value there)."""
        total = self.const
        for v, c in self.terms:
            if v not in env:
                return None
            total += c * env[v]
        return total

    def __add__(self, other: "Affine") -> "Affine":
        acc = dict(self.terms)
        for v, c in other.terms:
            acc[v] = acc.get(v, 0) + c
        return Affine(self.const + other.const, _norm(acc))

    def scale(self, k: int) -> "Affine":
        return Affine(self.const * k, _norm({v: c * k for v, c in self.terms}))

    def __neg__(self) -> "Affine":
        return self.scale(-1)

    def __sub__(self, other: "Affine") -> "Affine":
        return self + (-other)

    def __str__(self) -> str:
        parts = []
        for v, c in self.terms:
            parts.append(v if c == 1 else f"-{v}" if c == -1 else f"{c}*{v}")
        if self.const > 0 and parts and parts[0].startswith("-"):
            parts.insert(0, str(self.const))  # "65-II" rather than "-II+65"
        elif self.const or not parts:
            parts.append(str(self.const))
        return "+".join(parts).replace("+-", "-")


def _norm(acc: dict[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((v, c) for v, c in acc.items() if c != 0))


def affine(
    expr: Expr,
    variables: Container[str] | None = None,
    value: Callable[[Expr], int | None] | None = None,
) -> Affine | None:
    """The affine form of an integer expression, or None when it is not affine.

    Affine: integer constants, scalar names, ``+``, ``-``, unary minus, and ``*``
    where one side is constant.  Anything else (array elements as in
    ``A(IDX(I))``, products of two variables, division, function calls) is not.

    With ``variables``, only those names are variables: a sub-expression naming
    none of them is a constant, whose value ``value`` gives (``N/2`` in
    ``2*I + N/2`` when only I is a variable); None from ``value`` means not affine.
    """
    if variables is not None and not any(isinstance(x, Name) and x.name in variables for x in expr.walk()):
        v = value(expr) if value is not None else None
        return None if v is None else Affine(v)
    if isinstance(expr, Const):
        if isinstance(expr.value, bool) or not isinstance(expr.value, int):
            return None
        return Affine(expr.value)
    if isinstance(expr, Name):
        return Affine(0, ((expr.name, 1),))
    if isinstance(expr, UnOp) and expr.op in (UnaryOp.NEG, UnaryOp.PLUS):
        a = affine(expr.operand, variables, value)
        if a is None:
            return None
        return -a if expr.op == UnaryOp.NEG else a
    if isinstance(expr, BinOp) and expr.op in (Op.ADD, Op.SUB, Op.MUL):
        left, right = affine(expr.left, variables, value), affine(expr.right, variables, value)
        if left is None or right is None:
            return None
        if expr.op == Op.ADD:
            return left + right
        if expr.op == Op.SUB:
            return left - right
        if left.is_const:
            return right.scale(left.const)
        if right.is_const:
            return left.scale(right.const)
        return None
    return None


def constant(expr: Expr) -> int | None:
    """The value of ``expr`` when its affine form is a constant (``N - N + 2`` is 2)."""
    a = affine(expr)
    return a.const if a is not None and a.is_const else None


def eval_affine(expr: Expr, env: Mapping[str, int]) -> int | None:
    """Value of an integer expression given some variable values, or None: through
    its affine form when it has one (terms cancel), else by :func:`int_value`."""
    a = affine(expr)
    return int_value(expr, env) if a is None else a.value(env)
