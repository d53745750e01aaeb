"""Fortran 77 procedures -> Python source, translated once per procedure.

:func:`translate_unit` turns one :class:`~autodist.ir.Unit` into the source
of a Python function ``def u_<NAME>(_rt, <dummies>)`` that runs it on one
rank against the executor ``_rt`` (see :mod:`autodist.runtime.spmd.executor`):

* scalars are Python locals (``v_<NAME>``) holding the runtime's scalar
  representation of their type (:mod:`autodist.runtime.fortran.intrinsics`);
  expressions are typed statically and every mixed-kind operation converts
  its operands as Fortran does, so REAL arithmetic stays in single precision;
* arrays are :class:`~autodist.runtime.spmd.arrays.RtArray` objects
  (``a_<NAME>``), read and written element by element with bounds checks;
* DO loops are Python ``for`` loops over ``range`` (trip count fixed on
  entry, the variable's final value set on normal exit); GOTO, arithmetic IF
  and computed GOTO become a dispatch loop in each statement list that holds
  a target label (a jump inside that list is a ``continue``, a jump from a
  nested loop an exception the list's dispatcher catches);
* CALL passes arrays by object and scalars by value; the callee returns the
  final values of its scalar dummies, which the caller stores back into
  variables and array elements (call by reference as seen by the caller);
* COMMON scalars live in the executor's block lists and are loaded into
  locals on entry and after every call, stored back before calls and on
  return; SAVE'd and DATA-initialized locals of subprograms the same way;
  EQUIVALENCEd scalars and those of storage-associated COMMON blocks
  (:mod:`.association`) the same way, their storage being typed views of
  one byte buffer; in a unit that EQUIVALENCEs scalars they are also stored
  (when assigned) and loaded after every statement;
* statement functions are expanded inline with their arguments converted
  to the dummies' types;
* a loop phase (:mod:`autodist.analysis.phases`) becomes a call into the
  executor, which runs it vectorized on the rank's part of the data when it
  can, or lets the inline translation run on replicated data.

Anything outside the executable subset raises
:class:`~autodist.errors.UnsupportedError` naming ``file:line`` at
translation time, before anything runs.  Generated lines map back to Fortran
lines (:attr:`Translation.linemap`) so that a fault names ``file:line`` too.

CALL statements and their arguments are written by :mod:`.calls`, READ,
WRITE and PRINT by :mod:`.io_code`, statement lists with their jumps, DO
loops and IF blocks by :mod:`.control`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ... import ir
from ...errors import UnsupportedError
from ...hpf import model as hm
from ...hpf.parse import parse_directive
from . import intrinsic_code as ic
from .calls import Calls
from .control import ControlFlow
from .emitter import Code, Emitter, ExprGen
from ..fortran.extensions import ROUTINES
from .facts import ProgramFacts, unsupported
from .io_code import InputOutput
from .loop_exits import lower_loop_exits
from .procedures import is_dummy_procedure
from .scan import leaving_labels, phase_scalars


@dataclass
class Translation:
    """The source of one unit's function and what the executor needs with it."""

    unit: str
    function: str
    source: str
    linemap: dict[int, tuple[str, int]]
    formats: list  # parsed FORMATs referenced by index from the code
    directives: list  # executable HPF directives (REDISTRIBUTE/REALIGN) by index
    phase_scalars: dict[int, tuple[tuple[str, ...], tuple[str, ...]]]  # phase line -> (ins, outs)
    saved: tuple[str, ...] = ()  # SAVE'd and DATA scalars, in the order of the frame's list


class UnitTranslator(Calls, InputOutput, ControlFlow):
    """Translates one unit (see the module docstring): units, blocks, jumps,
    statements and phases here, CALLs in :class:`~.calls.Calls`, I/O in
    :class:`~.io_code.InputOutput`."""

    def __init__(self, unit: ir.Unit, facts: ProgramFacts, phase_lines: set[int] = frozenset(),
                 instrument: bool = False, call_lines: set[int] = frozenset()):
        self.unit = unit
        self.facts = facts
        self.phase_lines = set(phase_lines)
        self.call_lines = set(call_lines)
        self.instrument = instrument
        self.em = Emitter()
        self.ex = ExprGen(unit, facts, self.em)
        self.formats: list = []
        self._format_index: dict[object, int] = {}
        self.directives: list = []
        self.phase_scalars: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        self.format_text = {s.label: s.text for s in unit.statements()
                            if isinstance(s, ir.Io) and s.kind == "format" and s.label is not None}
        self.dispatch: list[tuple[str, dict[int, int]]] = []  # open dispatchers: (pc name, label -> segment)
        self.loop_depth_at: list[int] = []  # python loop depth when each dispatcher opened
        self.loop_depth = 0
        self.common_scalars: list[tuple[str, str, int]] = []  # (name, block var, slot)
        self.aliased = facts.storage.aliased.get(unit.name, frozenset())  # kept in step after every statement
        self.saved: list[str] = []

    # ---------------------------------------------------------------- helpers

    def at(self, span: ir.Span) -> None:
        self.em.where = (span.file, span.first)
        self.ex.span = span

    def sym(self, name: str) -> ir.Symbol | None:
        return self.unit.symbol(name)

    def is_array(self, name: str) -> bool:
        s = self.sym(name)
        return s is not None and s.is_array

    def scalar_var(self, name: str) -> bool:
        s = self.sym(name)
        return s is not None and not s.is_array and s.kind == "variable"

    def is_result(self, name: str) -> bool:
        """Whether ``name`` is the result variable of the FUNCTION being translated."""
        return self.unit.kind == "function" and name == (self.unit.result or self.unit.name)

    def assignable(self, name: str) -> bool:
        """A scalar variable, or the result variable of the FUNCTION being translated."""
        return self.scalar_var(name) or self.is_result(name)

    # ---------------------------------------------------------------- the unit

    def translate(self) -> Translation:
        u, em = self.unit, self.em
        if u.kind == "blockdata":
            raise UnsupportedError("BLOCK DATA has no executable code", u.span.file, u.span.first)
        self.at(u.span)
        for op in u.opaque_decls:
            self.at(op.span)
            if op.reason and "preprocessor" not in op.reason:
                raise unsupported(f"{op.text.strip()!r} ({op.reason})", op.span)
        params = []
        for d in u.args:
            s = self.sym(d)
            if s is None or s.kind in ("subroutine", "function") and not s.is_array \
                    and not is_dummy_procedure(u, d):
                raise unsupported(f"dummy procedure {d}", u.span)
            params.append(("a_" if s.is_array else "v_") + d)  # a dummy procedure: the routine's name
        fname = f"u_{u.name}"
        em(f"def {fname}(_rt{''.join(', ' + p for p in params)}):")
        with em.indent():
            self.prologue()
            self.block(u.body)
            self.at(ir.Span(u.span.file, u.span.last, u.span.last))
            self.epilogue()
        return Translation(u.name, fname, em.source, em.linemap, self.formats, self.directives,
                           self.phase_scalars, tuple(self.saved))

    def prologue(self) -> None:
        u, em = self.unit, self.em
        arrays = [d for d in u.args if self.is_array(d)]
        scalar_dummies = [d for d in u.args if not self.is_array(d) and not is_dummy_procedure(u, d)]
        int_scalars = [d for d in scalar_dummies if self.sym(d).type.base == "integer"]
        em(f"_f = _rt.enter({u.name!r}, ({''.join(f'({a!r}, a_{a}), ' for a in arrays)}), "
           f"{{{', '.join(f'{d!r}: v_{d}' for d in int_scalars)}}})")
        for sym in u.arrays:
            em(f"a_{sym.name} = _f.a[{sym.name!r}]")
        # COMMON scalars
        for c in u.commons:
            blk = self.em.fresh("cm")
            em(f"{blk} = _f.common({c.name!r})")
            for k, m in enumerate(c.members):
                if self.scalar_var(m):
                    self.common_scalars.append((m, blk, k))
        local_eq = self.facts.storage.local_scalars(u)
        if local_eq:
            em("_eq = _f.equivalenced")
            self.common_scalars.extend((m, "_eq", k) for k, m in enumerate(local_eq))
        self.load_commons()
        common_names = {m for m, _, _ in self.common_scalars}
        # SAVE'd and DATA-initialized scalars persist in the frame (the
        # executor sets their DATA values once)
        persistent = [s.name for s in u.symbols if self.scalar_var(s.name) and not s.dummy
                      and s.name not in common_names and (s.save or s.in_data)]
        self.saved = persistent
        if persistent:
            em("_sv = _f.saved")
            for k, n in enumerate(persistent):
                em(f"v_{n} = _sv[{k}]")
        for s in u.symbols:
            if self.scalar_var(s.name) and not s.dummy and s.name not in common_names and s.name not in persistent:
                if s.name == u.result or s.kind == "variable":
                    em(f"v_{s.name} = {ic.zero_code(s.type)}")
        if u.kind == "function" and u.result and not self.scalar_var(u.result):
            em(f"v_{u.result} = {ic.zero_code(u.result_type or ir.REAL)}")

    def load_commons(self, keep: frozenset[str] = frozenset()) -> None:
        """Load the COMMON (and EQUIVALENCEd) scalars from their storage; those
        in ``keep`` were just assigned: they are stored instead."""
        for m, blk, k in self.common_scalars:
            if m in keep:
                self.em(f"{blk}[{k}] = v_{m}")
            elif m in self.aliased:
                self.em(f"v_{m} = _o_{m} = {blk}[{k}]")
            else:
                self.em(f"v_{m} = {blk}[{k}]")

    def sync_aliased(self) -> None:
        """After a statement of a unit that EQUIVALENCEs scalars: store those
        it assigned (rebound since they were loaded) and load them all, so that
        every name sees what was written through another one."""
        stores = [(m, blk, k) for m, blk, k in self.common_scalars if m in self.aliased]
        for m, blk, k in stores:
            self.em(f"if v_{m} is not _o_{m}:")
            with self.em.indent():
                self.em(f"{blk}[{k}] = v_{m}")
        for m, blk, k in stores:
            self.em(f"v_{m} = _o_{m} = {blk}[{k}]")

    def store_commons(self) -> None:
        for m, blk, k in self.common_scalars:
            self.em(f"{blk}[{k}] = v_{m}")

    def epilogue(self) -> None:
        u, em = self.unit, self.em
        self.store_commons()
        for k, n in enumerate(self.saved):
            em(f"_sv[{k}] = v_{n}")
        em("_rt.leave(_f)")
        outs = [f"v_{d}" if not self.is_array(d) and not is_dummy_procedure(u, d) else "None" for d in u.args]
        if u.kind == "function":
            outs.insert(0, f"v_{u.result or u.name}")
        em(f"return ({', '.join(outs)}{',' if outs else ''})")

    # ---------------------------------------------------------------- statements

    def calls_out(self, exprs) -> bool:
        """Whether evaluating ``exprs`` calls a FUNCTION of the program that may see
        or change this unit's COMMON scalars (they are stored before, loaded after)."""
        return bool(self.common_scalars) and any(
            isinstance(x, ir.FuncRef) and x.kind != "intrinsic" and x.kind != "statement"
            for e in exprs for x in e.walk())

    def evaluated(self, e: ir.Expr, t: ir.Type) -> str:
        """The code of ``e`` as ``t``; when it calls out (:meth:`calls_out`), first
        evaluated into a variable between storing and loading the COMMON scalars."""
        if not self.calls_out((e,)):
            return self.ex.typed(e, t)
        self.store_commons()
        v = self.em.fresh("cv")
        self.em(f"{v} = {self.ex.typed(e, t)}")
        self.load_commons()
        return v

    def stmt(self, s: ir.Stmt) -> None:
        self.at(s.span)
        # a compound statement syncs around the expressions it evaluates itself: around
        # all of it, the loads after it undid what its body assigned to COMMON scalars
        compound = isinstance(s, (ir.If, ir.Do, ir.DoWhile))
        calls_out = not compound and not isinstance(s, ir.Call) and self.calls_out(s.exprs())
        if calls_out:
            self.store_commons()
        self.stmt1(s)
        if calls_out:
            assigned = isinstance(s, ir.Assign) and isinstance(s.target, ir.Name)
            self.load_commons(frozenset((s.target.name,)) if assigned else frozenset())
        if self.aliased:
            self.sync_aliased()

    def stmt1(self, s: ir.Stmt) -> None:
        em = self.em
        if isinstance(s, ir.Do) and s.span.first in self.phase_lines:
            self.phase(s)
        elif isinstance(s, ir.Assign):
            self.assign(s.target, s.value)
        elif isinstance(s, ir.Do):
            self.do(s)
        elif isinstance(s, ir.DoWhile):
            self.do_while(s)
        elif isinstance(s, ir.If):
            self.if_(s)
        elif isinstance(s, ir.Goto):
            self.goto(s.target)
        elif isinstance(s, ir.ArithIf):
            v = em.fresh("ai")
            c, t, _ = self.ex.expr(s.expr)
            em(f"{v} = {c}")
            em(f"if {v} < 0:")
            with em.indent():
                self.goto(s.neg)
            em(f"elif {v} == 0:")
            with em.indent():
                self.goto(s.zero)
            em("else:")
            with em.indent():
                self.goto(s.pos)
        elif isinstance(s, ir.ComputedGoto):
            v = em.fresh("cg")
            em(f"{v} = {self.ex.int_expr(s.expr)}")
            for k, lab in enumerate(s.targets):
                em(f"{'if' if k == 0 else 'elif'} {v} == {k + 1}:")
                with em.indent():
                    self.goto(lab)
        elif isinstance(s, ir.Continue):
            em("pass")
        elif isinstance(s, ir.Call):
            self.call(s)
        elif isinstance(s, ir.Return):
            self.epilogue()
        elif isinstance(s, ir.Stop):
            self.store_commons()
            em(f"raise StopProgram({self.stop_code(s.code)})")
        elif isinstance(s, ir.Io):
            self.io(s)
        elif isinstance(s, ir.Directive):
            self.directive(s)
        elif isinstance(s, ir.Opaque):
            raise unsupported(f"{s.text.strip()!r} ({s.reason})", s.span)
        else:
            raise unsupported(f"statement {type(s).__name__}", s.span)

    def stop_code(self, code: ir.Expr | None) -> str:
        """The code of ``STOP code``: an integer or a character constant."""
        if code is None:
            return "None"
        if isinstance(code, ir.OpaqueExpr):
            text = code.text.strip()
            if text.isdigit():
                return str(int(text))
            if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
                return repr(text[1:-1])
            raise unsupported(f"STOP code {text!r}", self.ex.span)
        return self.ex.expr(code)[0]

    def assign(self, target: ir.Expr, value: ir.Expr) -> None:
        em = self.em
        if isinstance(target, ir.Name):
            if not self.assignable(target.name):
                raise unsupported(f"assignment to {target.name}", self.ex.span)
            t = self.ex.type_of_name(target.name)
            if t.base == "character":  # CHARACTER*(*) keeps the length of its actual
                c, _, _ = self.ex.expr(value)
                em(f"v_{target.name} = _pad({c}, {t.size or f'len(v_{target.name})'})")
            else:
                em(f"v_{target.name} = {self.ex.typed(value, t)}")
            return
        if isinstance(target, ir.Index):
            t = self.ex.type_of_name(target.name)
            subs = ", ".join(self.ex.int_expr(x) for x in target.subscripts)
            em(f"a_{target.name}.s({self.ex.typed(value, t)}, {subs})")
            return
        if isinstance(target, ir.Substring) and isinstance(target.base, (ir.Name, ir.Index)):
            base = target.base
            t = self.ex.type_of_name(base.name)
            old, _, _ = self.ex.expr(base)
            lo = self.ex.int_expr(target.lower) if target.lower is not None else "1"
            hi = self.ex.int_expr(target.upper) if target.upper is not None else f"len({old})"
            c, _, _ = self.ex.expr(value)
            if isinstance(base, ir.Name):
                em(f"v_{base.name} = _subset(v_{base.name}, {lo}, {hi}, {c})")
            else:
                subs = ", ".join(self.ex.int_expr(x) for x in base.subscripts)
                em(f"a_{base.name}.s(_subset({old}, {lo}, {hi}, {c}), {subs})")
            return
        raise unsupported("this assignment target", self.ex.span)

    # ---------------------------------------------------------------- phases

    def phase(self, s: ir.Do) -> None:
        em = self.em
        ins, outs = phase_scalars(s, self.unit, self.facts.modified)
        self.phase_scalars[s.span.first] = (ins, outs)
        p = em.fresh("ph")
        em(f"{p} = _rt.phase(_f, {s.span.first})")
        em(f"if {p}.fast:")
        with em.indent():
            call = f"{p}.run({', '.join('v_' + n for n in ins)})"
            if outs:
                em(f"{', '.join('v_' + n for n in outs)}, = {call}")
            else:
                em(call)
            for label in sorted(leaving_labels(s)):  # a compiled phase left by a GO TO (-1: a RETURN)
                em(f"if {p}.left == {label}:")
                with em.indent():
                    if label == -1:
                        self.epilogue()
                    else:
                        self.goto(label)
        em("else:")
        with em.indent():
            em(f"with {p}:")
            with em.indent():
                self.do(s)

    # ---------------------------------------------------------------- directives

    def directive(self, s: ir.Directive) -> None:
        for d in parse_directive(s):
            if isinstance(d, hm.Independent):
                continue
            if isinstance(d, (hm.Redistribute, hm.Realign)):
                self.directives.append(d)
                self.em(f"_rt.directive(_f, {len(self.directives) - 1})")
            elif isinstance(d, hm.Unsupported):
                continue
            else:
                raise unsupported(f"HPF directive {type(d).__name__.upper()} among executable statements", s.span)

    # ---------------------------------------------------------------- profiling

    def count_loop_entry(self, span: ir.Span, trips: str | None = None) -> None:
        if self.instrument:
            self.em(f"_rt.loop({span.file!r}, {span.first}, {trips if trips is not None else 'None'})")

    def count_trip(self, span: ir.Span) -> None:
        if self.instrument:
            self.em(f"_rt.trip({span.file!r}, {span.first})")


class _SeqExpr(ExprGen):
    """Expressions of sequential code: external functions are called."""

    def __init__(self, tr: "UnitTranslator"):
        super().__init__(tr.unit, tr.facts, tr.em)
        self.tr = tr

    def external(self, e: ir.FuncRef) -> Code:
        if is_dummy_procedure(self.unit, e.name):
            return self.through_dummy(e)
        callee = self.facts.units.get(e.name)
        if callee is None and e.name in ROUTINES and ROUTINES[e.name].function:
            call, writeback = self.tr.extension(e.name, e.args, self.span)  # type: ignore[arg-type]
        elif callee is None and e.name in self.facts.linked:
            call, writeback = self.tr.linked(e.name, self.type_of_name(e.name), e.args, self.span)  # type: ignore[arg-type]
        elif callee is None or callee.kind != "function":
            raise unsupported(f"a reference to function {e.name} (not a FUNCTION of the program)", self.span)
        else:
            args, writeback = self.tr.actuals(e.name, callee, e.args, self.span)  # type: ignore[arg-type]
            call = f"_U[{e.name!r}](_rt{''.join(', ' + a for a in args)})"
        t = self.type_of_name(e.name) if callee is None else callee.result_type or self.type_of_name(e.name)
        if not writeback:
            return (f"{call}[0]", t, False)
        # the arguments it writes are stored in order, inside the expression
        r = self.em.fresh("fr")
        stores = "".join(f", {self.tr.stored_in_expression(f'{r}[{k}]', a)}" for k, a in writeback)
        return (f"(({r} := {call}){stores}, {r}[0])[-1]", t, False)


    def through_dummy(self, e: ir.FuncRef) -> Code:
        """A reference to dummy function ``e.name``: the FUNCTION (or intrinsic) it
        holds, among those that may reach it, its result as the dummy's type."""
        t = self.type_of_name(e.name)
        code = f"_no_routine({self.tr.unbound(e.name)!r})"
        for name, intrinsic in reversed(self.tr.procedure_targets(e.name)):
            callee = self.facts.units.get(name)
            if intrinsic:
                c, ct, v = self.funcref(ir.FuncRef(name, e.args, ir.FuncKind.INTRINSIC))
            elif callee is not None and callee.kind == "function":
                c, ct, v = self.external(ir.FuncRef(name, e.args, ir.FuncKind.EXTERNAL))
            else:
                raise unsupported(f"a reference to {name} through dummy function {e.name} (not a FUNCTION "
                                  f"of the program or an intrinsic)", self.span)
            c = c if t.base == "character" else ic.convert(c, ct, t, v)
            code = f"({c} if v_{e.name} == {name!r} else {code})"
        return (code, t, False)


def translate_unit(unit: ir.Unit, facts: ProgramFacts, phase_lines: set[int] = frozenset(),
                   instrument: bool = False, call_lines: set[int] = frozenset()) -> Translation:
    """The Python translation of ``unit`` (see the module docstring);
    ``phase_lines``/``call_lines``: first lines of its loop and call phases."""
    tr = UnitTranslator(lower_loop_exits(unit), facts, phase_lines, instrument, call_lines)
    tr.ex = _SeqExpr(tr)
    return tr.translate()
