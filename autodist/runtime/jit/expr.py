"""Expressions of compiled code: :class:`ExprGen` as numba takes it.

:class:`JitExpr` is mixed in before one of the code generators' expression
classes and changes the little that numba cannot run as the Python path
writes it: integer division, MOD, MODULO and integer powers name the site
they may fault at (:mod:`.faults`); a power by a constant integer calls a
module function holding gfortran's multiplication chain (numba does not take
the walrus that the Python path evaluates the base once with); real
constants that meet a REAL operand are float32 (:mod:`.helpers`).  Whatever
else the generated code needs and a kernel cannot run is caught by
:func:`.check.foreign_names`.
"""

from __future__ import annotations

from ... import ir
from ..codegen import intrinsic_code as ic
from ..codegen.emitter import Code
from ..fortran.intrinsics import powi_chain
from .faults import Sites

#: Helpers that fault, with the message of their fault.
_FAULTING = {"idiv(": "integer division by zero", "imod(": "MOD with a zero second argument",
             "imodulo(": "MODULO with a zero second argument"}


class JitExpr:
    """Compiled-code overrides of :class:`~autodist.runtime.codegen.emitter.ExprGen`."""

    sites: Sites
    chains: set[int]  # the exponents of the multiplication chains the code calls

    def _where(self) -> tuple[str, int] | None:
        return (self.span.file, self.span.first) if self.span is not None else None

    def _sited(self, code: str) -> str:
        for prefix, message in _FAULTING.items():
            if code.startswith(prefix):
                site = self.sites.message(message, self._where())
                return f"{prefix[:-1]}_at({site}, {code[len(prefix):]}"
        return code

    def binop(self, e: ir.BinOp) -> Code:
        code, t, v = super().binop(e)
        return self._sited(code), t, v

    def funcref(self, e: ir.FuncRef) -> Code:
        code, t, v = super().funcref(e)
        if code.startswith("modulo("):  # of integers (it faults) or of reals
            code = {"i": "imodulo(", "r8": "rmodulo8("}.get(ic.kind(t), "rmodulo(") + code[len("modulo("):]
        elif code.startswith("rmod(") and ic.kind(t) == "r8":
            code = "rmod8(" + code[len("rmod("):]
        return self._sited(code), t, v

    def power(self, base: Code, expo: Code, const: int | None) -> tuple[str, ir.Type]:
        (bc, bt, _), (ec, et, _) = base, expo
        if ic.kind(et) != "i" or ic.kind(bt) not in ("i", "r4", "r8"):
            return super().power(base, expo, const)
        if ic.kind(bt) == "i":
            site = self.sites.message("zero raised to a negative power", self._where())
            return f"ipow_at(np.int64({site}), {bc}, {ec})", bt  # not one compiled helper per site
        if const is None:
            return f"powi({bc}, {ec})", bt
        if const == 0:
            return f"({bc} * ZERO4 + ONE4)", bt
        m = abs(const)
        body = bc
        if m > 1:
            self.chains.add(m)
            body = f"_pow{m}({bc})"
        return (f"(ONE4 / {body})" if const < 0 else body), bt


def chain_source(n: int) -> str:
    """The source of ``_pow<n>(x)``: ``x**n`` by gfortran's multiplication
    chain for a constant ``n >= 2`` (:func:`~autodist.runtime.fortran.intrinsics.powi_chain`;
    ``x`` evaluated once, as the argument)."""
    tree: dict[int, tuple[int, int]] = {k: (a, b) for k, a, b in powi_chain(n)}

    def render(k: int) -> str:
        if k == 1:
            return "x"
        a, b = tree[k]
        return f"({render(a)} * {render(b)})"

    return f"@njit\ndef _pow{n}(x):\n    return {render(n)}\n"
