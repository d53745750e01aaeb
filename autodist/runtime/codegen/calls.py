"""CALL statements of a translated unit (a part of
:class:`~autodist.runtime.codegen.units.UnitTranslator`): arrays passed by
object, scalars by value, the callee's final scalar dummies stored back into
the caller's variables and array elements (call by reference as the caller
sees it), COMMON scalars stored before the call and loaded after.  The
arguments of gfortran's extension routines and of the ``--link`` routines
(every scalar variable may be written) go the same way."""

from __future__ import annotations

import numpy as np

from ... import ir
from ...errors import UnsupportedError
from ..comm.storage import CHARACTER_CODEC, numpy_dtype
from ..fortran.extensions import ROUTINES
from ..fortran.foreign import RESULT_TYPES, abi_code
from . import intrinsic_code as ic
from .facts import unsupported
from .procedures import is_dummy_procedure, passed_procedure


class Calls:
    """CALLs; mixed into ``UnitTranslator``, whose state it uses."""

    # ---------------------------------------------------------------- calls

    def call(self, s: ir.Call) -> None:
        em = self.em
        r = em.fresh("res")
        if is_dummy_procedure(self.unit, s.name):  # the routine the dummy holds, among those that may
            targets = [(f"v_{s.name} == {t!r}", t, intrinsic) for t, intrinsic in self.procedure_targets(s.name)]
        else:
            targets = [(None, s.name, False)]
        options = []
        for cond, t, intrinsic in targets:
            self.copies_back = []
            options.append((cond,) + self.subroutine_call(t, intrinsic, s) + (self.copies_back,))
        self.copies_back = None
        self.store_commons()
        phase = s.span.first in self.call_lines
        if phase:
            em(f"with _rt.call_phase(_f, {s.span.first}):")
            em.level += 1
        for k, (cond, call, writeback, back) in enumerate(options):
            if cond is not None:
                em(f"{'if' if k == 0 else 'elif'} {cond}:")
                em.level += 1
            em(f"{r} = {call}")
            self.load_commons()
            stored = [(f"{r}[{j}]", target) for j, target in writeback]
            for copy_back in back:
                if isinstance(copy_back, str):
                    em(copy_back)
                else:
                    stored.append(copy_back)
            for code, target in stored:
                self.store_result(code, target)
            if any(isinstance(t, ir.Name) and t.name in {m for m, _, _ in self.common_scalars} for _, t in stored):
                self.store_commons()
            if cond is not None:
                em.level -= 1
        if not options or options[0][0] is not None:
            if options:
                em("else:")
            with em.indent():
                em(f"raise _fault({self.unbound(s.name)!r})")
        if phase:
            em.level -= 1

    def subroutine_call(self, name: str, intrinsic: bool, s: ir.Call) -> tuple[str, list[tuple[int, ir.Expr]]]:
        """The code calling subroutine ``name`` with the arguments of ``s``, and
        the arguments to store back (at their positions in its result)."""
        callee = self.facts.units.get(name)
        if callee is None and not intrinsic and name in ROUTINES and not ROUTINES[name].function:
            return self.extension(name, s.args, s.span)
        if callee is None and not intrinsic and name in self.facts.linked:
            return self.linked(name, None, s.args, s.span)
        if callee is None or callee.kind != "subroutine":
            via = f" through dummy {s.name}" if name != s.name else ""
            raise unsupported(f"CALL {name}{via} (not a subroutine of the program)", s.span)
        args, writeback = self.actuals(name, callee, s.args, s.span)
        return f"_U[{name!r}](_rt{''.join(', ' + a for a in args)})", writeback

    def procedure_targets(self, dummy: str) -> tuple[tuple[str, bool], ...]:
        """The routines that may reach dummy procedure ``dummy`` (name, intrinsic?)."""
        return (self.facts.procedures or {}).get((self.unit.name, dummy), ())

    def unbound(self, dummy: str) -> str:
        return (f"{self.unit.name}: dummy procedure {dummy} was given no routine of the program "
                f"(none is passed to it)")

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
            p = passed_procedure(self.unit, a)
            if is_dummy_procedure(callee, d):
                if p is None:
                    raise unsupported(f"passing something other than a routine to dummy procedure {d} of {name}",
                                      span)
                out.append(f"v_{p[0]}" if is_dummy_procedure(self.unit, p[0]) else repr(p[0]))
                continue
            if p is not None:
                raise unsupported(f"passing routine {p[0]} to dummy {d} of {name}, which is no procedure", span)
            if isinstance(a, ir.Hollerith) and dsym is not None:
                out.append(self.hollerith_actual(a, dsym, name, span))
                continue
            if dsym is not None and dsym.is_array:
                if isinstance(a, ir.SectionActual) and self.is_array(a.name):
                    out.append(self.section_actual(a, dsym, name, span, k in modified))
                    continue
                if not isinstance(a, ir.OpaqueExpr) and not (isinstance(a, (ir.Name, ir.Index))
                                                             and self.is_array(a.name)):
                    out.append(self.scalar_actual(a, dsym, name, span, k in modified))
                    continue
                if not (isinstance(a, (ir.Name, ir.Index)) and self.is_array(a.name)):
                    what = (f"{a.reason} {a.text}" if isinstance(a, ir.OpaqueExpr)
                            else "an expression" if not isinstance(a, (ir.Name, ir.Index, ir.Const)) else "a scalar")
                    raise unsupported(f"passing {what} to array dummy {d} of {name}", span)
                out.append(self.array_actual(a, dsym, name))
                continue
            if isinstance(a, ir.Name) and self.is_array(a.name):
                raise unsupported(f"passing array {a.name} to scalar dummy {d} of {name}", span)
            c, t, _ = self.ex.expr(a)
            if dsym is not None and dsym.type.base not in ("character",) and t.base != "character" \
                    and ic.kind(t) != ic.kind(dsym.type):
                c = ic.convert(c, t, dsym.type, False)
            out.append(c)
            # an expression or a constant given to a dummy the callee writes: gfortran
            # passes a temporary, and so the written value is lost here too
            if k in modified and (isinstance(a, ir.Index) or (isinstance(a, ir.Name) and self.assignable(a.name))):
                writeback.append((k + offset, a))
        return out, writeback

    def array_actual(self, a: ir.Name | ir.Index, dummy: ir.Symbol, callee: str) -> str:
        """The code passing array ``a`` (or the element ``a``, where the dummy starts)
        to array ``dummy`` of ``callee``."""
        if isinstance(a, ir.Name):
            return f"a_{a.name}"
        subs = ", ".join(self.ex.int_expr(x) for x in a.subscripts)
        return f"_rt.element(a_{a.name}, ({subs},))"

    #: What stores back the copies passed to the CALL being translated, after it:
    #: a statement (an array section's copy-out) or a ``(code, variable)`` store (a
    #: scalar given to an array dummy); None where nothing can be stored back (a
    #: FUNCTION reference has no statement after it).
    copies_back: list | None = None

    def scalar_actual(self, a: ir.Expr, dummy: ir.Symbol, callee: str, span: ir.Span, modified: bool) -> str:
        """The code passing scalar ``a`` (a variable, an element of no array, an
        expression) to array ``dummy`` of ``callee``: a one-element array holding
        its value (``CALL EVAL(1, T, U)`` into ``X(NV)``, ``Y(NV)``: the legacy
        idiom gfortran accepts), stored back into the variable after a CALL that
        may define the dummy.  Of the dummy's own type only: storage association
        of other types is not done for scalars."""
        c, t, _ = self.ex.expr(a)
        if (t.base, t.size) != (dummy.type.base, dummy.type.size) or t.base == "character":
            raise unsupported(f"passing a {t} scalar to {dummy.type} array dummy {dummy.name} of {callee}", span)
        variable = isinstance(a, ir.Index) or (isinstance(a, ir.Name) and self.assignable(a.name))
        if self.copies_back is None and modified and variable:
            raise unsupported(f"passing scalar {a.name} to array dummy {dummy.name} of FUNCTION {callee}, "
                              f"which may define it (copy-out after a function reference)", span)
        code = f"_rt.scalar_array({c}, {t.base!r}, {t.size}, {dummy.name!r})"
        if self.copies_back is None or not (modified and variable):
            return code
        tmp = self.em.fresh("one")
        self.em(f"{tmp} = {code}")
        self.copies_back.append((f"{tmp}.g(1)", a))
        return tmp

    def hollerith_actual(self, a: ir.Hollerith, dummy: ir.Symbol, callee: str, span: ir.Span) -> str:
        """The code passing Hollerith constant ``a`` to ``dummy`` of ``callee`` as
        gfortran passes it: its bytes (blank-padded to a multiple of 4), which a
        numeric dummy sees as its own type, byte for byte (an array dummy as many
        elements as they fill, NUL bytes completing the last one); no length goes
        with them, so a ``CHARACTER*(*)`` dummy is refused."""
        t = dummy.type
        if t.base == "character" and t.size == 0:
            raise unsupported(f"Hollerith constant {a.source} given to CHARACTER*(*) dummy {dummy.name} of {callee} "
                              f"(gfortran passes no length with it)", span)
        if dummy.is_array:
            return f"_rt.hollerith_array({a.value!r}, {t.base!r}, {t.size}, {dummy.name!r})"
        if t.base == "character":
            return ic.const_code(a)
        return ic.const_code(ir.Const(hollerith_value(a.value, t), t))

    def section_actual(self, a: ir.SectionActual, dummy: ir.Symbol, callee: str, span: ir.Span,
                       modified: bool) -> str:
        """The code passing array section ``a`` to array ``dummy`` of ``callee``
        (which may define it when ``modified``): a copy of its elements in array
        element order, made before the call and stored back after it
        (copy-in/copy-out, as compilers pass a section that is not one stretch
        of storage).  A FUNCTION reference has no statement after the call to
        store the copy back in: one that may define the dummy is refused."""
        if self.copies_back is None and modified:
            raise unsupported(f"passing array section {a.text} to array dummy {dummy.name} of FUNCTION {callee}, "
                              f"which may define it (copy-out after a function reference)", span)
        specs = []
        for x in a.subscripts:
            if isinstance(x, ir.Triplet):
                step = "1" if x.step is None else self.ex.int_expr(x.step)
                specs.append(f"({self.ex.int_expr(x.lower)}, {self.ex.int_expr(x.upper)}, {step})")
            else:
                specs.append(self.ex.int_expr(x))
        where = f"({', '.join(specs)},)"
        if self.copies_back is None:  # read only, inside an expression
            return f"_rt.section_in(a_{a.name}, {where}, {a.text!r})"
        t, at = self.em.fresh("sec"), self.em.fresh("at")
        self.em(f"{at} = {where}")
        self.em(f"{t} = _rt.section_in(a_{a.name}, {at}, {a.text!r})")
        if modified:
            self.copies_back.append(f"_rt.section_out(a_{a.name}, {at}, {t})")
        return t

    def extension(self, name: str, args: tuple[ir.Expr, ...], span: ir.Span
                  ) -> tuple[str, list[tuple[int, ir.Expr]]]:
        """The call of a gfortran extension routine (:mod:`~autodist.runtime.fortran.extensions`)
        and the arguments to store back (at their positions in its result)."""
        rt = ROUTINES[name]
        lo, hi = rt.nargs
        if not lo <= len(args) <= hi:
            raise UnsupportedError(f"{name} takes {lo}..{hi} argument(s), {len(args)} given", span.file, span.first)
        codes, kinds, writeback = [], [], []
        offset = 1 if rt.function else 0
        for k, a in enumerate(self.by_position(name, rt.keywords, args, span)):
            if a is None:
                codes.append("None")
                kinds.append("none")
                continue
            if k in rt.arrays:
                if not (isinstance(a, ir.Name) and self.is_array(a.name)):
                    raise unsupported(f"argument {k + 1} of {name} other than a whole array", span)
                codes.append(f"a_{a.name}")
                kinds.append("array")
                continue
            if isinstance(a, ir.Name) and self.is_array(a.name):
                raise unsupported(f"array {a.name} as argument {k + 1} of {name}", span)
            c, t, _ = self.ex.expr(a)
            codes.append(c)
            kinds.append(f"s{t.size}" if t.base == "character" else ic.io_kind(t))
            if k in rt.writes:
                if not (isinstance(a, ir.Index) or (isinstance(a, ir.Name) and self.assignable(a.name))):
                    raise unsupported(f"argument {k + 1} of {name} other than a variable", span)
                writeback.append((k + offset, a))
        call = f"_rt.ext.call({name!r}, {tuple(kinds)!r}{''.join(', ' + c for c in codes)})"
        return call, writeback

    def linked(self, name: str, result: ir.Type | None, args: tuple[ir.Expr, ...], span: ir.Span
               ) -> tuple[str, list[tuple[int, ir.Expr]]]:
        """The call of a routine of the ``--link`` libraries
        (:mod:`~autodist.runtime.spmd.linked`; a FUNCTION of type ``result``,
        a subroutine when None) and the arguments to store back: every scalar
        variable passed, since the routine may write any of them.  Arrays and
        array elements go as arrays (the routine writes them in place)."""
        res = None if result is None else abi_code(result)
        if result is not None and res not in RESULT_TYPES:
            raise unsupported(f"a {result} result of --link function {name}", span)
        codes, kinds, writeback = [], [], []
        offset = 1 if result is not None else 0
        for k, a in enumerate(args):
            sym = self.sym(a.name) if isinstance(a, (ir.Name, ir.Index)) else None
            if sym is not None and sym.is_array:
                subs = ", ".join(self.ex.int_expr(x) for x in a.subscripts) if isinstance(a, ir.Index) else None
                code, t = (f"a_{a.name}" if subs is None else f"_rt.element(a_{a.name}, ({subs},))"), sym.type
            elif isinstance(a, ir.Name) and self.assignable(a.name):
                code, t, _ = self.ex.expr(a)
                writeback.append((k + offset, a))
            elif sym is not None and isinstance(a, ir.Name) and sym.kind in ("function", "subroutine", "intrinsic"):
                raise unsupported(f"passing procedure {a.name} to --link routine {name}", span)
            else:
                code, t, _ = self.ex.expr(a)
            codes.append(code)
            kinds.append(_abi(t, f"argument {k + 1} ({t}) of --link routine {name}", span))
        call = f"_rt.linked.call({name!r}, {res!r}, {tuple(kinds)!r}{''.join(', ' + c for c in codes)})"
        return call, writeback

    def by_position(self, name: str, keywords: tuple[str, ...], args: tuple[ir.Expr, ...], span: ir.Span
                    ) -> list[ir.Expr | None]:
        """``args`` at their dummies' positions: keyword arguments ``KEY = variable``
        placed by name, omitted ones None."""
        out: list[ir.Expr | None] = []
        for a in args:
            text = a.text if isinstance(a, ir.OpaqueExpr) else None
            if text is None or "=" not in text:
                if len(out) > sum(x is not None for x in out):
                    raise unsupported(f"a positional argument of {name} after a keyword argument", span)
                out.append(a)
                continue
            key, _, value = (p.strip().upper() for p in text.partition("="))
            if key not in keywords or not value.isidentifier() or self.sym(value) is None:
                raise unsupported(f"argument {text!r} of {name}", span)
            k = keywords.index(key)
            out.extend([None] * (k + 1 - len(out)))
            out[k] = ir.Name(value)
        return out

    def stored_in_expression(self, code: str, target: ir.Expr) -> str:
        """An expression storing ``code`` into ``target`` (a variable, COMMON
        too, or an array element), for a function that writes its arguments."""
        if isinstance(target, ir.Name):
            slot = next(((blk, k) for m, blk, k in self.common_scalars if m == target.name), None)
            store = f"(v_{target.name} := {code})"
            return store if slot is None else f"{slot[0]}.__setitem__({slot[1]}, {store})"
        assert isinstance(target, ir.Index)
        subs = ", ".join(self.ex.int_expr(x) for x in target.subscripts)
        return f"a_{target.name}.s({code}, {subs})"

    def store_result(self, code: str, target: ir.Expr) -> None:
        if isinstance(target, ir.Name):
            self.em(f"v_{target.name} = {code}")
        else:
            assert isinstance(target, ir.Index)
            subs = ", ".join(self.ex.int_expr(x) for x in target.subscripts)
            self.em(f"a_{target.name}.s({code}, {subs})")


def _abi(t: ir.Type, what: str, span: ir.Span) -> str:
    """The ABI code of ``t`` (:func:`~autodist.runtime.fortran.foreign.abi_code`),
    or the error for ``what`` when a linked routine cannot take or return it."""
    code = abi_code(t)
    if code is None:
        raise unsupported(what, span)
    return code


def hollerith_value(chars: str, t: ir.Type) -> object:
    """The value of type ``t`` whose bytes are the first ones of ``chars``
    (NULs after them): a Hollerith constant seen by a numeric scalar dummy."""
    dtype = numpy_dtype(t)
    raw = chars.encode(CHARACTER_CODEC)[: dtype.itemsize].ljust(dtype.itemsize, b"\0")
    return np.frombuffer(raw, dtype)[0].item()
