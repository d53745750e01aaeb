"""CALL statements of a translated unit (a part of
:class:`~autodist.runtime.codegen.units.UnitTranslator`): arrays passed by
object, scalars by value, the callee's final scalar dummies stored back into
the caller's variables and array elements (call by reference as the caller
sees it), COMMON scalars stored before the call and loaded after."""

from __future__ import annotations

from ... import ir
from ...errors import UnsupportedError
from . import intrinsic_code as ic
from .facts import unsupported


class Calls:
    """CALLs; mixed into ``UnitTranslator``, whose state it uses."""

    # ---------------------------------------------------------------- calls

    def call(self, s: ir.Call) -> None:
        em = self.em
        callee = self.facts.units.get(s.name)
        if callee is None or callee.kind != "subroutine":
            raise unsupported(f"CALL {s.name} (not a subroutine of the program)", s.span)
        args, writeback = self.actuals(s.name, callee, s.args, s.span)
        self.store_commons()
        r = em.fresh("res")
        call = f"{r} = _U[{s.name!r}](_rt{''.join(', ' + a for a in args)})"
        if s.span.first in self.call_lines:
            em(f"with _rt.call_phase(_f, {s.span.first}):")
            with em.indent():
                em(call)
        else:
            em(call)
        self.load_commons()
        for k, target in writeback:
            self.store_result(f"{r}[{k}]", target)
        if any(isinstance(t, ir.Name) and t.name in {m for m, _, _ in self.common_scalars} for _, t in writeback):
            self.store_commons()

    def actuals(self, name: str, callee: ir.Unit, args: tuple[ir.Expr, ...], span: ir.Span
                ) -> tuple[list[str], list[tuple[int, ir.Expr]]]:
        if len(args) != len(callee.args):
            raise UnsupportedError(f"{name} takes {len(callee.args)} argument(s), {len(args)} given",
                                   span.file, span.first)
        out: list[str] = []
        writeback: list[tuple[int, ir.Expr]] = []
        modified = self.facts.modified.get(name, frozenset())
        offset = 1 if callee.kind == "function" else 0
        for k, (d, a) in enumerate(zip(callee.args, args)):
            dsym = callee.symbol(d)
            if dsym is not None and dsym.is_array:
                if isinstance(a, ir.Name) and self.is_array(a.name):
                    out.append(f"a_{a.name}")
                elif isinstance(a, ir.Index) and self.is_array(a.name):
                    subs = ", ".join(self.ex.int_expr(x) for x in a.subscripts)
                    out.append(f"_rt.element(a_{a.name}, ({subs},))")
                else:
                    raise unsupported(f"passing a scalar to array dummy {d} of {name}", span)
                continue
            if isinstance(a, ir.Name) and self.is_array(a.name):
                raise unsupported(f"passing array {a.name} to scalar dummy {d} of {name}", span)
            c, t, _ = self.ex.expr(a)
            if dsym is not None and dsym.type.base not in ("character",) and t.base != "character" \
                    and ic.kind(t) != ic.kind(dsym.type):
                c = ic.convert(c, t, dsym.type, False)
            out.append(c)
            if k in modified and (isinstance(a, ir.Index) or (isinstance(a, ir.Name) and self.scalar_var(a.name))):
                writeback.append((k + offset, a))
        return out, writeback

    def store_result(self, code: str, target: ir.Expr) -> None:
        if isinstance(target, ir.Name):
            self.em(f"v_{target.name} = {code}")
        else:
            assert isinstance(target, ir.Index)
            subs = ", ".join(self.ex.int_expr(x) for x in target.subscripts)
            self.em(f"a_{target.name}.s({code}, {subs})")
