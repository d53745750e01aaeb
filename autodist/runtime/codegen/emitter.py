"""Writing Python source: an indenting line emitter with fresh names, and
:class:`ExprGen`, the typed translation of Fortran expressions."""

from __future__ import annotations

from ... import ir
from ...errors import UnsupportedError
from ...frontend.typeof import type_of
from . import intrinsic_code as ic
from .facts import ProgramFacts, unsupported
from .procedures import is_dummy_procedure


class Emitter:
    """Python source lines with indentation and a map back to Fortran lines."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.linemap: dict[int, tuple[str, int]] = {}
        self.level = 0
        self.where: tuple[str, int] | None = None
        self._n = 0

    def __call__(self, text: str) -> None:
        self.lines.append("    " * self.level + text)
        if self.where is not None:
            self.linemap[len(self.lines)] = self.where

    def indent(self) -> "_Indent":
        return _Indent(self)

    def fresh(self, stem: str) -> str:
        self._n += 1
        return f"_{stem}{self._n}"

    @property
    def source(self) -> str:
        return "\n".join(self.lines) + "\n"


class _Indent:
    def __init__(self, em: Emitter):
        self.em = em

    def __enter__(self) -> None:
        self.em.level += 1

    def __exit__(self, *exc) -> None:
        self.em.level -= 1


Code = tuple[str, ir.Type, bool]  # Python code, Fortran type, vector?

_REL = {"==": "==", "/=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


class ExprGen:
    """Typed translation of expressions.  Subclasses decide how names and
    array elements are read (:meth:`name`, :meth:`element`)."""

    def __init__(self, unit: ir.Unit, facts: ProgramFacts, em: Emitter):
        self.unit = unit
        self.facts = facts
        self.em = em
        self.subst: dict[str, Code] = {}  # statement function dummies being expanded
        self.span: ir.Span | None = None

    # ---------------------------------------------------------------- hooks

    def name(self, name: str) -> Code:
        return (f"v_{name}", self.type_of_name(name), False)

    def element(self, e: ir.Index) -> Code:
        subs = ", ".join(self.int_expr(s) for s in e.subscripts)
        return (f"a_{e.name}.g({subs})", self.type_of_name(e.name), False)

    def external(self, e: ir.FuncRef) -> Code:
        raise unsupported(f"a reference to function {e.name}", self.span)

    # ---------------------------------------------------------------- typing

    def type_of_name(self, name: str) -> ir.Type:
        sym = self.unit.symbol(name)
        if sym is None:
            raise UnsupportedError(f"{name} is not declared", self.span.file if self.span else None,
                                   self.span.first if self.span else None)
        return sym.type

    def type_of(self, e: ir.Expr) -> ir.Type:
        def nt(n: str) -> ir.Type | None:
            if n in self.subst:
                return self.subst[n][1]
            sym = self.unit.symbol(n)
            if sym is not None and sym.kind == "function" and n in self.facts.units:
                u = self.facts.units[n]
                return u.result_type or sym.type
            return sym.type if sym else None

        t = type_of(e, nt)
        if t is None:
            raise unsupported("an expression of unknown type", self.span)
        return t

    # ---------------------------------------------------------------- translation

    #: Whether scalar INTEGER results wrap as gfortran's fixed-width arithmetic does
    #: (not inside subscripts and bounds, where an overflow is out of bounds anyway).
    wrap = True

    def int_expr(self, e: ir.Expr) -> str:
        wrap, self.wrap = self.wrap, False
        try:
            c, t, v = self.expr(e)
        finally:
            self.wrap = wrap
        return ic.convert(c, t, ir.INTEGER, v) if ic.kind(t) != "i" else c

    def wrapped(self, code: str, t: ir.Type, vec: bool) -> str:
        """``code`` of an INTEGER result, wrapped to the width of ``t`` (scalars only:
        vectors are numpy integers stored into arrays of the declared width)."""
        if vec or not self.wrap or ic.kind(t) != "i":
            return code
        return f"i8({code})" if t.size == 8 else f"i4({code})"

    def typed(self, e: ir.Expr, t: ir.Type) -> str:
        c, et, v = self.expr(e)
        if t.base == "character":
            return c
        return ic.convert(c, et, t, v)

    def expr(self, e: ir.Expr) -> Code:
        if isinstance(e, ir.Const):
            return (ic.const_code(e), e.type, False)
        if isinstance(e, ir.Name):
            if e.name in self.subst:
                return self.subst[e.name]
            sym = self.unit.symbol(e.name)
            if sym is not None and sym.kind == "parameter" and isinstance(sym.value, ir.Const):
                return (ic.const_code(sym.value), sym.value.type, False)
            if sym is not None and sym.is_array:
                raise unsupported(f"whole array {e.name} in an expression", self.span)
            return self.name(e.name)
        if isinstance(e, ir.Index):
            return self.element(e)
        if isinstance(e, ir.UnOp):
            c, t, v = self.expr(e.operand)
            if e.op == "not":
                return ((f"(~{c})" if v else f"(not {c})"), ir.LOGICAL, v)
            return ((self.wrapped(f"(-{c})", t, v) if e.op == "-" else c), t, v)
        if isinstance(e, ir.BinOp):
            return self.binop(e)
        if isinstance(e, ir.FuncRef):
            return self.funcref(e)
        if isinstance(e, ir.Substring):
            base, bt, v = self.expr(e.base)
            lo = self.int_expr(e.lower) if e.lower is not None else "1"
            hi = self.int_expr(e.upper) if e.upper is not None else ""
            return (f"{base}[{lo} - 1:{hi}]", ir.Type("character", 0), False)
        if isinstance(e, ir.OpaqueExpr):
            raise unsupported(f"expression {e.text!r} ({e.reason})", self.span)
        raise unsupported(f"expression {type(e).__name__}", self.span)

    def binop(self, e: ir.BinOp) -> Code:
        op = e.op
        if op == "**":
            base = self.expr(e.left)
            expo = self.expr(e.right)
            const = e.right.value if isinstance(e.right, ir.Const) and type(e.right.value) is int else None
            if ic.kind(base[1]) in ("r4", "r8") and isinstance(e.right, ir.Const) and \
                    ic.kind(e.right.type) in ("r4", "r8") and float(e.right.value) in (1.0, 2.0):
                # gcc folds pow(x, 1.0) and pow(x, 2.0) into x and x*x
                tt = ic.widest_type(base[1], e.right.type)
                b = ic.convert(base[0], base[1], tt, base[2])
                if float(e.right.value) == 1.0:
                    return (b, tt, base[2])
                return (self.power((b, tt, base[2]), ("2", ir.INTEGER, False), 2)[0], tt, base[2])
            code, t = self.power(base, expo, const)
            return (self.wrapped(code, t, base[2] or expo[2]), t, base[2] or expo[2])
        left, right = self.expr(e.left), self.expr(e.right)
        lc, lt, lv = left
        rc, rt, rv = right
        vec = lv or rv
        if op == "//":
            return (f"({lc} + {rc})", ir.Type("character", 0), False)
        if op in ("and", "or"):
            if vec:
                return (f"({lc} {'&' if op == 'and' else '|'} {rc})", ir.LOGICAL, True)
            return (f"({lc} {op} {rc})", ir.LOGICAL, False)
        if op in ("eqv", "neqv"):
            return (f"({lc} {'==' if op == 'eqv' else '!='} {rc})", ir.LOGICAL, vec)
        if op in _REL:
            if lt.base == "character" or rt.base == "character":
                return (f"_streq({lc}, {rc}, {op!r})", ir.LOGICAL, False)
            t = ic.widest_type(lt, rt)
            a, b = ic.convert(lc, lt, t, lv), ic.convert(rc, rt, t, rv)
            return (f"({a} {_REL[op]} {b})", ir.LOGICAL, vec)
        t = ic.widest_type(lt, rt)
        a, b = ic.convert(lc, lt, t, lv), ic.convert(rc, rt, t, rv)
        k = ic.kind(t)
        if op == "/":
            if k == "i":
                if vec and ic._nonzero_literal(b):
                    return (f"vidivk({a}, {b})", t, vec)
                return ((f"vidiv({a}, {b})" if vec else f"idiv({a}, {b})"), t, vec)
            if k == "r8" and not vec and not _nonzero_const(e.right):
                return (f"ddiv({a}, {b})", t, False)
        return (self.wrapped(f"({a} {op} {b})", t, vec), t, vec)

    def power(self, base: Code, expo: Code, const: int | None) -> tuple[str, ir.Type]:
        """The code of ``base ** expo`` (``const``: the exponent when it is an
        integer constant) and its type."""
        return ic.power_code(base, expo, const, self.em.fresh("pw"))

    def funcref(self, e: ir.FuncRef) -> Code:
        if e.kind == "statement":
            return self.statement_function(e)
        if is_dummy_procedure(self.unit, e.name):
            return self.external(e)
        if e.kind == "intrinsic" or (e.name not in self.facts.units and ic.canonical_name(e.name) in ic.INTRINSICS):
            args = [self.expr(a) for a in e.args]
            try:
                code, t = ic.call_code(e.name, args)
            except UnsupportedError as exc:
                raise UnsupportedError(exc.message, self.span.file if self.span else None,
                                       self.span.first if self.span else None) from None
            return (code, t, any(v for _, _, v in args))
        return self.external(e)

    def statement_function(self, e: ir.FuncRef) -> Code:
        sf = next((s for s in self.unit.stmt_functions if s.name == e.name), None)
        if sf is None:
            raise unsupported(f"statement function {e.name} without a definition", self.span)
        if len(sf.args) != len(e.args):
            raise UnsupportedError(f"statement function {e.name} takes {len(sf.args)} argument(s)",
                                   self.span.file if self.span else None, self.span.first if self.span else None)
        bound: dict[str, Code] = {}
        for d, a in zip(sf.args, e.args):
            c, t, v = self.expr(a)
            dt = self.type_of_name(d)
            bound[d] = (ic.convert(c, t, dt, v) if dt.base != "character" else c, dt, v)
        saved = self.subst
        self.subst = {**saved, **bound}
        try:
            c, t, v = self.expr(sf.expr)
        finally:
            self.subst = saved
        rt = self.type_of_name(sf.name)
        return (ic.convert(c, t, rt, v) if rt.base != "character" else c, rt, v)


def _nonzero_const(e: ir.Expr) -> bool:
    return isinstance(e, ir.Const) and isinstance(e.value, (int, float)) and e.value != 0
