"""Directive expressions evaluated in a unit's scope: PARAMETERs, ``values``
for dummies, the processor count and the inquiries NUMBER_OF_PROCESSORS,
SIZE, LBOUND and UBOUND (used by :mod:`.resolve`)."""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Mapping

from .. import ir
from ..errors import HpfError
from . import model as m

Bounds = tuple[tuple[int, int], ...]


class UnknownValue(Exception):
    """A value that cannot be known without the call site (not a user error)."""


def hpf_error(message: str, span: ir.Span | None) -> HpfError:
    return HpfError(message, span.file if span else None, span.first if span else None)


@dataclass(frozen=True)
class DirectiveEnv:
    """Evaluates directive expressions against PARAMETERs, ``values`` and the processor count."""

    unit: ir.Unit
    nprocs: int
    values: Mapping[str, int]

    def eval(self, e: ir.Expr, span: ir.Span | None) -> int:
        value = _DirectiveValue(self, span)(e)
        assert value is not None  # every failure raises
        return value

    def bounds_of(self, name: str, span: ir.Span | None) -> Bounds:
        sym = self.unit.symbol(name)
        if sym is None or not sym.is_array:
            raise hpf_error(f"{name} is not a declared array", span)
        out = []
        for d in sym.dims or ():
            if d.upper is None:
                raise UnknownValue(f"{name} is assumed-size")
            out.append((self.eval(d.lower, span), self.eval(d.upper, span)))
        return tuple(out)

    def shape(self, s: m.Shape, span: ir.Span | None) -> Bounds:
        out = []
        for x in s.shape:
            lo = 1 if x.lower is None else self.eval(x.lower, span)
            out.append((lo, self.eval(x.upper, span)))
        return tuple(out)


class _DirectiveValue(ir.IntEvaluator):
    """The integer value of a directive expression: names are ``values`` or
    PARAMETERs, functions integer intrinsics or the inquiries
    NUMBER_OF_PROCESSORS, SIZE, LBOUND, UBOUND; anything else is an error at ``span``."""

    def __init__(self, env: DirectiveEnv, span: ir.Span | None):
        super().__init__(env.values)
        self.owner = env
        self.span = span

    def name(self, name: str) -> int | None:
        if name in self.env:
            return self.env[name]
        sym = self.owner.unit.symbol(name)
        if sym is not None and sym.kind == ir.SymbolKind.PARAMETER and isinstance(sym.value, ir.Const):
            return self(sym.value)
        if sym is None:
            raise hpf_error(f"{name} is not declared", self.span)
        raise UnknownValue(f"{name} is not a PARAMETER")

    def function(self, f: ir.FuncRef) -> int | None:
        if f.name == "NUMBER_OF_PROCESSORS":
            if f.args and self(f.args[0]) != 1:
                return 1
            return self.owner.nprocs
        if f.name in ("SIZE", "LBOUND", "UBOUND"):
            if not f.args or not isinstance(f.args[0], ir.Name):
                raise hpf_error(f"{f.name} needs an array name", self.span)
            bounds = self.owner.bounds_of(f.args[0].name, self.span)
            dims = [self(f.args[1])] if len(f.args) > 1 else list(range(1, len(bounds) + 1))
            if any(not 1 <= d <= len(bounds) for d in dims):  # type: ignore[operator]
                raise hpf_error(f"{f.name}({f.args[0].name}, ...) names a dimension it does not have", self.span)
            if f.name == "SIZE":
                return prod(max(0, bounds[d - 1][1] - bounds[d - 1][0] + 1) for d in dims)  # type: ignore[operator]
            if len(dims) != 1:
                raise hpf_error(f"{f.name} of a rank-{len(bounds)} array needs a dimension here", self.span)
            return bounds[dims[0] - 1][0 if f.name == "LBOUND" else 1]  # type: ignore[operator]
        return self.intrinsic(f)

    def fail(self, e: ir.Expr, why: str | None) -> int | None:
        if isinstance(e, ir.Index):  # known only where the program runs (a bound such as IA(N+1))
            raise UnknownValue(f"{e.name}(...) is an array element")
        if why is None:
            what = f"{e.name}(...)" if isinstance(e, ir.FuncRef) else repr(e)
            why = f"cannot evaluate {what} in a directive"
        raise hpf_error(why, self.span)
