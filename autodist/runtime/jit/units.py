"""Procedures and loop phases as compiled kernels: the translator of units, for numba.

:class:`KernelTranslator` is the Python path's translator
(:class:`~autodist.runtime.codegen.units.UnitTranslator`) writing for numba
instead of the executor.  Statements, expressions, DO loops, IFs, COMMON
loads and stores around calls, statement functions come out as the Python
path writes them; what changes:

* arrays are flat storage in Fortran order: an element's position is the
  column-major sum of its checked subscripts (:func:`~.helpers.at` faults at
  a site, :mod:`.faults`), so that an element passed where the callee
  expects an array (sequence association) is the same storage at an offset,
  and a dummy of another shape is the same storage seen with its bounds.  A
  dummy array comes as ``(storage, offset, label, shape key)``: its bounds are
  computed on entry from its declaration as the executor does (assumed size
  takes what the actual holds), it is named as the actual where the executor
  would bind the actual itself (same bounds: the shape keys agree), and an
  element past the end of the actual reads 0 and faults when written non-zero
  (what the executor's copy does on return);
* a GO TO out of nested loops sets ``_gl`` and breaks out of each loop to the
  statement list holding its label, which continues there (numba has no
  exceptions to catch); loops poll ``_N[2]`` (the run's timeout, set by
  :mod:`.engine`) on entry and on every backward jump;
* CALLs and FUNCTION references call the callee's kernel, passing on its
  static storage (:mod:`.statics`); STOP raises :class:`~.helpers.JitStop`;
* loop phases inside a compiled procedure count their executions and time
  (``_N``, ``_T``: the region's index from :class:`~.kernelmodule.KernelModule`).

A unit's kernel is ``k_<UNIT>(<dummies>, <static storage>, _N, _T)``
returning ``(result?, dummy values...)`` (0 in an array dummy's place); a
phase's kernel ``p_<UNIT>_<line>(<arrays>, <static storage>, <scalars>, _N,
_T)`` returns the phase's scalars, each array passed as ``(storage, lo1, hi1,
..., label)``.  Anything that needs Python raises :class:`NotCompiled`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ... import ir
from ..codegen import intrinsic_code as ic
from ..comm.storage import numpy_dtype
from ..codegen.emitter import Code, ExprGen
from ..codegen.ranges import interval
from ..codegen.scan import phase_scalars
from ..codegen.units import UnitTranslator
from .expr import JitExpr
from .kernelmodule import KernelModule, NotCompiled
from .outside import call_linked, write_output
from .positions import KArray, const_bounds, int_literal, plus, times, unsigned
from .statics import shape_key_code

class _KernelExpr(JitExpr, ExprGen):
    def __init__(self, tr: "KernelTranslator"):
        super().__init__(tr.unit, tr.facts, tr.em)
        self.tr = tr
        self.sites = tr.mod.sites
        self.chains = tr.mod.chains

    def element(self, e: ir.Index) -> Code:
        return self.tr.read(e), self.type_of_name(e.name), False

    def external(self, e: ir.FuncRef) -> Code:
        callee = self.facts.units.get(e.name)
        if callee is None and e.name in self.facts.linked:
            if not self.hoisting:  # called before the statement, as a FUNCTION writing its arguments is
                raise NotCompiled(f"--link function {e.name} inside .AND., .OR. or an intrinsic's arguments")
            t = self.type_of_name(e.name)
            return self.tr.linked_call(e.name, t, e.args, self.span), t, False
        if callee is None or callee.kind != "function" or e.name not in self.tr.mod.statics.compiled:
            raise NotCompiled(f"a reference to function {e.name}, which is not compiled")
        args, writeback = self.tr.actuals(e.name, callee, e.args, self.span)
        t = callee.result_type or self.type_of_name(e.name)
        call = self.tr.kernel_call(e.name, args)
        if not writeback:
            return f"{call}[0]", t, False
        if not self.hoisting:
            raise NotCompiled(f"FUNCTION {e.name} writes its arguments where its call cannot come first")
        return self.tr.hoisted(call, writeback), t, False

    #: Whether a FUNCTION that writes its arguments may be called before the
    #: statement (see :meth:`KernelTranslator.hoisted`): in an assignment's value,
    #: outside the operands of .AND., .OR. and intrinsics (which may not evaluate them).
    hoisting = False

    def binop(self, e: ir.BinOp) -> Code:
        return self._unhoisted(super().binop, e) if e.op in ("and", "or") else super().binop(e)

    def funcref(self, e: ir.FuncRef) -> Code:
        if e.kind not in ("intrinsic", "statement") and (e.name in self.facts.units or e.name in self.facts.linked):
            return super().funcref(e)
        return self._unhoisted(super().funcref, e)

    def _unhoisted(self, write, e: ir.Expr) -> Code:
        saved, self.hoisting = self.hoisting, False
        try:
            return write(e)
        finally:
            self.hoisting = saved


class KernelTranslator(UnitTranslator):
    """Writes the kernel of a unit or of one of its loop phases (see the module docstring)."""

    def __init__(self, unit: ir.Unit, mod: KernelModule, phase_lines=frozenset(), call_lines=frozenset(),
                 fast_lines=frozenset()):
        super().__init__(unit, mod.facts, phase_lines, False, call_lines)
        self.fast_lines = fast_lines  # phases the Python path runs vectorized: their faults name arrays bare
        self.bare = False
        self.mod = mod
        self.ex = _KernelExpr(self)
        self.frames: list[_Frame] = []
        self.arrays: dict[str, KArray] = {}
        self.padded: list[str] = []  # dummies that may work on a padded copy (see _dummy_array)
        self.in_phase = False

    def stretches(self, name: str) -> bool:
        """Whether dummy ``name``'s last dimension reaches as far as its actual
        does (as the executor binds it: see dummy_bounds)."""
        return self.mod.facts.stretches(self.unit.name, name)

    # ---------------------------------------------------------------- kernels

    def translate_unit(self) -> str:
        u, em = self.unit, self.em
        params = []
        for d in u.args:
            sym = self.sym(d)
            if sym is None or sym.kind != "variable":
                raise NotCompiled(f"dummy procedure {d}")
            params += [f"a_{d}", f"o_{d}", f"lb_{d}", f"ks_{d}"] if sym.is_array else [f"v_{d}"]
        params += [self.mod.static(k) for k in self.mod.statics.of(u.name)] + ["_N", "_T"]
        self.at(u.span)
        em("@njit")
        em(f"def k_{u.name}({', '.join(params)}):")
        with em.indent():
            em(f"_N[{3 + self.mod.unit_counter(u.name)}] += 1")
            self.prologue()
            self.block(u.body)
            self.at(ir.Span(u.span.file, u.span.last, u.span.last))
            self.epilogue()
        return self.em.source

    def translate_phase(self, do: ir.Do, names: list[str]) -> tuple[str, tuple[str, ...], tuple[str, ...], tuple]:
        """The kernel of the loop phase ``do`` (its arrays ``names``); returns the
        source, the scalars it takes and returns, and the static storage it takes."""
        u, em = self.unit, self.em
        self.in_phase = True
        ins, outs = phase_scalars(do, u, self.facts.modified)
        calls = bool(self.mod.statics.callees((do,)))
        statics = set(self.mod.statics.of_statements(u, (do,)))
        if calls:
            statics |= {k for k in self.mod.statics.own(u) if k[0] == "S"}
        statics = tuple(sorted(statics, key=repr))
        params = []
        for n in names:
            rank = self.sym(n).rank
            params += [f"a_{n}"] + [f"{b}{d}_{n}" for d in range(rank) for b in ("L", "H")] + [f"lb_{n}"]
        params += [self.mod.static(k) for k in statics] + [f"v_{n}" for n in ins] + ["_N", "_T"]
        self.at(do.span)
        em("@njit")
        em(f"def p_{u.name}_{do.span.first}({', '.join(params)}):")
        with em.indent():
            em("_gl = 0")
            for n in names:
                rank = self.sym(n).rank
                ext = [f"E{d}_{n}" for d in range(rank)]
                for d in range(rank):
                    em(f"{ext[d]} = H{d}_{n} - L{d}_{n} + 1")
                lo, hi = [f"L{d}_{n}" for d in range(rank)], [f"H{d}_{n}" for d in range(rank)]
                key = self._key(n, lo, hi)
                dims = self.sym(n).dims
                fixed = {d: b for d, dim in enumerate(dims)
                         if (b := const_bounds(dim, d == rank - 1, self.stretches(n))) is not None}
                if fixed:  # declared constant: written as numbers (subscripts fold), checked once here
                    site = self.mod.sites.message(f"internal error: the bounds of {n} in a kernel are not "
                                                  "its declared ones", em.where)
                    cond = " or ".join(f"L{d}_{n} != {b[0]} or H{d}_{n} != {b[1]}" for d, b in fixed.items())
                    em(f"if {cond}:")
                    em(f"    raise JitFault({site}, 0, 0, 0, -1)")
                    lo, hi = list(lo), list(hi)
                    for d, b in fixed.items():
                        lo[d], hi[d], ext[d] = str(b[0]), str(b[1]), str(b[1] - b[0] + 1)
                self.arrays[n] = KArray(f"a_{n}", lo, hi, ext, f"lb_{n}", key)
            if calls:
                self._common_slots()
            self.do(do)
            em(f"return ({''.join(f'v_{n}, ' for n in outs)}_gl)")
        return self.em.source, ins, outs, statics

    def kernel_call(self, name: str, args: list[str]) -> str:
        statics = [self.mod.static(k) for k in self.mod.statics.of(name)]
        return f"k_{name}({', '.join(args + statics + ['_N', '_T'])})"

    # ---------------------------------------------------------------- entry and exit

    def _key(self, name: str, lo: list[str], hi: list[str]) -> str:
        var = f"K_{name}"
        self.em(f"{var} = {shape_key_code(lo, hi)}")
        return var

    def _common_slots(self) -> None:
        for c in self.unit.commons:
            slots = self.mod.statics.block_slots(c.name)
            for k, m in enumerate(c.members):
                if self.scalar_var(m):
                    kind, j = slots[k]
                    self.common_scalars.append((m, self.mod.static(("S", c.name, kind)), j))

    def prologue(self) -> None:
        u, em = self.unit, self.em
        em("_gl = 0")
        slot = {m: (c.name, k) for c in u.commons for k, m in enumerate(c.members)}
        for sym in u.arrays:
            if sym.dummy or ir.is_automatic(u, sym):
                continue
            key = ("C", *slot[sym.name]) if sym.name in slot else ("L", u.name, sym.name)
            self._static_array(sym, key)
        self._common_slots()
        self.load_commons()
        common = {m for m, _, _ in self.common_scalars}
        self.saved = list(self.mod.statics.saved.get(u.name, ()))
        for n, (kind, j) in zip(self.saved, self.mod.statics.saved_slots(u.name)):
            em(f"v_{n} = {self.mod.static(('V', u.name, kind))}[{j}]")
        for s in u.symbols:
            if self.scalar_var(s.name) and not s.dummy and s.name not in common and s.name not in self.saved:
                em(f"v_{s.name} = {ic.zero_code(s.type)}")
        if u.kind == "function" and u.result and not self.scalar_var(u.result):
            em(f"v_{u.result} = {ic.zero_code(u.result_type or ir.REAL)}")
        for d in u.args:
            if self.is_array(d):
                self._dummy_array(self.sym(d))
        for sym in u.arrays:
            if ir.is_automatic(u, sym):
                self._automatic_array(sym)

    def _automatic_array(self, sym: ir.Symbol) -> None:
        """A local array whose bounds are known on entry: allocated here, zeros (as
        the Python path allocates it), after the dummies its bounds may read."""
        em, n = self.em, sym.name
        lo, hi, ext = [], [], []
        for k, dim in enumerate(sym.dims):
            lo.append(f"L{k}_{n}")
            hi.append(f"H{k}_{n}")
            ext.append(f"E{k}_{n}")
            em(f"{lo[k]} = {self.ex.int_expr(dim.lower)}")
            em(f"{hi[k]} = {self.ex.int_expr(dim.upper)}")
            em(f"{ext[k]} = max({hi[k]} - {lo[k]} + 1, 0)")
        key = self._key(n, lo, hi)
        dtype = numpy_dtype(sym.type).name
        em(f"a_{n} = np.zeros({' * '.join(ext) or '1'}, np.{'bool_' if dtype == 'bool' else dtype})")
        label = str(self.mod.label(f"{self.unit.name}.{n}"))
        self.arrays[n] = KArray(f"a_{n}", lo, hi, ext, label, key, base_label=label)

    def _static_array(self, sym: ir.Symbol, key) -> None:
        bounds = [d.bounds for d in sym.dims]
        if any(b is None for b in bounds):
            raise NotCompiled(f"array {sym.name} without constant bounds")
        lo, hi = [str(b[0]) for b in bounds], [str(b[1]) for b in bounds]
        ext = [str(b[1] - b[0] + 1) for b in bounds]
        label = self._static_label(sym.name, key)
        self.arrays[sym.name] = KArray(self.mod.static(key), lo, hi, ext, label, shape_key_code(lo, hi), base_label=label)

    def _static_label(self, name: str, key) -> str:
        """The label number of a static array: ``UNIT.NAME`` of the unit the executor
        first declares it in (the main program first for COMMON)."""
        if key[0] == "L":
            return str(self.mod.label(f"{self.unit.name}.{name}"))
        return str(self.mod.label(self.mod.statics.common_label(key[1], key[2])))

    def _dummy_array(self, sym: ir.Symbol) -> None:
        em, d = self.em, sym.name
        em(f"n_{d} = len(a_{d})")
        em(f"h_{d} = n_{d} - o_{d}")
        lo, hi, ext = [], [], []
        lits: dict[int, tuple[str, str, str]] = {}
        for k, dim in enumerate(sym.dims):
            lo.append(f"L{k}_{d}")
            hi.append(f"H{k}_{d}")
            ext.append(f"E{k}_{d}")
            em(f"{lo[k]} = {self.ex.int_expr(dim.lower)}")
            rest = " * ".join(ext[:k]) or "1"
            last = k == len(sym.dims) - 1
            assumed = f"{lo[k]} + max(h_{d} // max({rest}, 1), 0) - 1"
            if dim.upper is None:
                em(f"{hi[k]} = {assumed}")
            else:
                em(f"{hi[k]} = {self.ex.int_expr(dim.upper)}")
                if last and self.stretches(d):  # indexed as far as the actual holds, when that is further
                    em(f"if h_{d} > ({rest}) * max({hi[k]} - {lo[k]} + 1, 0):")
                    em(f"    {hi[k]} = {assumed}")
                elif last and isinstance(dim.upper, ir.Const):  # X(1): "any size" when the actual holds more
                    em(f"if {hi[k]} == {lo[k]} and h_{d} > {rest}:")
                    em(f"    {hi[k]} = {assumed}")
            em(f"{ext[k]} = {hi[k]} - {lo[k]} + 1")
            fixed = const_bounds(dim, last, self.stretches(d))
            if fixed is not None:  # constant bounds: written as numbers, so that subscripts fold (see position)
                lits[k] = (str(fixed[0]), str(fixed[1]), str(fixed[1] - fixed[0] + 1))
        key = self._key(d, lo, hi)  # from the variables: int64 arithmetic, as the executor's key wraps
        for k, (lo_k, hi_k, ext_k) in lits.items():
            lo[k], hi[k], ext[k] = lo_k, hi_k, ext_k
        own = self.mod.label(f"{self.unit.name}.{d}")
        em(f"lab_{d} = lb_{d} if ks_{d} == {key} else {own}")
        # A dummy declared larger than what its actual holds works on a copy padded with
        # zeros (reads past the actual give 0, as on the Python path), put back at every
        # exit (see release_padded): every element the subscripts reach is then in
        # storage, so reads index it directly, and writes past the actual (m_) still fault.
        size = " * ".join(f"{ext[k]}" for k in range(len(sym.dims))) or "1"
        em(f"S_{d} = max({size}, 0)")
        em(f"r_{d} = a_{d}")
        em(f"q_{d} = o_{d}")
        em(f"m_{d} = n_{d}")
        em(f"pd_{d} = h_{d} < S_{d}")
        em(f"if pd_{d}:")
        with em.indent():
            em(f"g_{d} = max(h_{d}, 0)")
            em(f"a_{d} = np.zeros(S_{d}, r_{d}.dtype)")
            em(f"a_{d}[:g_{d}] = r_{d}[q_{d}:q_{d} + g_{d}]")
            em(f"o_{d} = 0")
            em(f"n_{d} = S_{d}")
            em(f"m_{d} = g_{d}")
        self.padded.append(d)
        self.arrays[d] = KArray(f"a_{d}", lo, hi, ext, f"lab_{d}", key, f"o_{d}", f"m_{d}", f"lb_{d}",
                                tuple(dim.bounds for dim in sym.dims))

    def release_padded(self) -> None:
        """Before leaving the unit: the padded copies of dummies back into their actuals;
        a value other than zero written past an actual (by a callee) is the fault a write
        there is."""
        em = self.em
        for d in self.padded:
            site = self.mod.sites.message(
                f"{self.unit.name} wrote into dummy {d} past the end of its actual argument {{label}} "
                "({value} element(s) from there on)", em.where)
            em(f"if pd_{d}:")
            with em.indent():
                em(f"r_{d}[q_{d}:q_{d} + m_{d}] = a_{d}[:m_{d}]")
                # any bit set past the actual (-0.0 too), as the Python path compares bytes
                negzero = f" or np.copysign(1.0, a_{d}[_t]) < 0" if ic.kind(self.sym(d).type) in ("r4", "r8") else ""
                em(f"for _t in range(m_{d}, S_{d}):")
                with em.indent():
                    em(f"if a_{d}[_t] != 0{negzero}:")
                    em(f"    raise JitFault({site}, m_{d}, 0, 0, lb_{d})")

    def epilogue(self) -> None:
        u, em = self.unit, self.em
        self.release_padded()
        self.store_commons()
        for n, (kind, j) in zip(self.saved, self.mod.statics.saved_slots(u.name)):
            em(f"{self.mod.static(('V', u.name, kind))}[{j}] = v_{n}")
        outs = [f"v_{d}" if not self.is_array(d) else "0" for d in u.args]
        if u.kind == "function":
            outs.insert(0, f"v_{u.result or u.name}")
        em(f"return ({', '.join(outs)}{',' if outs else ''})")

    # ---------------------------------------------------------------- array elements

    def position(self, e: ir.Index) -> tuple[KArray, str]:
        ka = self.arrays.get(e.name)
        if ka is None:
            raise NotCompiled(f"array {e.name} is not reachable here")
        if len(e.subscripts) != len(ka.lo):
            raise NotCompiled(f"{e.name} referenced with {len(e.subscripts)} subscript(s)")
        terms: list[str | int] = []
        for d, sub in enumerate(e.subscripts):
            code = self.ex.int_expr(sub)
            v, lo, hi = int_literal(code), int_literal(ka.lo[d]), int_literal(ka.hi[d])
            if v is not None and lo is not None and hi is not None and lo <= v <= hi:
                terms.append(v - lo)  # a constant subscript inside constant bounds: no check, no arithmetic
                continue
            box = (lo, hi) if lo is not None and hi is not None else (ka.safe[d] if ka.safe else None)
            values = interval(code, self.loop_ranges) if box is not None else None
            if values is not None and box[0] <= values[0] and values[1] <= box[1]:
                terms.append(f"({code} - {ka.lo[d]})")  # inside the bounds on every trip of the loops around
                continue
            site = self.mod.sites.index(f"{e.name if self.bare else '{label}'} dimension {d + 1}", self.em.where)
            terms.append(f"(at({site}, {code}, {ka.lo[d]}, {ka.hi[d]}, {ka.label}) - {ka.lo[d]})")
        pos = terms[-1]
        for d in range(len(terms) - 2, -1, -1):
            pos = plus(terms[d], times(ka.ext[d], pos))
        return ka, str(plus(ka.off, pos))

    def read(self, e: ir.Index) -> str:
        ka, pos = self.position(e)
        t = self.ex.type_of_name(e.name)
        code = f"{ka.buf}[{unsigned(pos)}]"  # in storage: subscripts checked, dummies padded (see _dummy_array)
        k = ic.kind(t)
        return f"int({code})" if k == "i" else (f"bool({code})" if k == "l" else code)

    def write(self, target: ir.Index, value: str) -> None:
        # in storage (subscripts checked, dummies padded): a write past a dummy's actual
        # lands in its padded copy and faults when the unit leaves, as on the Python path
        ka, pos = self.position(target)
        self.em(f"{ka.buf}[{unsigned(pos)}] = {value}")

    def hoisted(self, call: str, writeback) -> str:
        """A FUNCTION that writes its arguments, called before the statement whose
        value it is part of (Fortran forbids a function to change what the rest of
        its statement uses, so the order does not matter), its arguments stored
        back; the code of its result."""
        r = self.em.fresh("fr")
        self.em(f"{r} = {call}")
        for k, target in writeback:
            self.store_result(f"{r}[{k}]", target)
        if any(isinstance(t, ir.Name) and t.name in {m for m, _, _ in self.common_scalars} for _, t in writeback):
            self.store_commons()
        return f"{r}[0]"

    def assign(self, target: ir.Expr, value: ir.Expr) -> None:
        self.ex.hoisting = True
        try:
            self._assign(target, value)
        finally:
            self.ex.hoisting = False

    def _assign(self, target: ir.Expr, value: ir.Expr) -> None:
        if isinstance(target, ir.Index):
            self.write(target, self.ex.typed(value, self.ex.type_of_name(target.name)))
        elif isinstance(target, ir.Name):
            super().assign(target, value)
        else:
            raise NotCompiled("assignment to a substring")

    def store_result(self, code: str, target: ir.Expr) -> None:
        if isinstance(target, ir.Index):
            self.write(target, code)
        else:
            super().store_result(code, target)

    # ---------------------------------------------------------------- statements

    def stmt1(self, s: ir.Stmt) -> None:
        if isinstance(s, ir.Stop):
            self.release_padded()
            self.store_commons()
            self.em(f"raise JitStop({self.mod.stop(_stop_value(s.code))})")
        elif isinstance(s, ir.Return) and self.in_phase:
            self.leave(-1)
        elif isinstance(s, ir.Io):
            self.output(s)
        else:
            super().stmt1(s)

    def output(self, s: ir.Io) -> None:
        write_output(self, s)

    def phase(self, s: ir.Do) -> None:
        p = self.mod.region(self.unit.name, s.span.first)
        t = self.em.fresh("t")
        self.em(f"{t} = clock(_N)")
        self.bare = s.span.first in self.fast_lines
        self.do(s)
        self.bare = False
        self.em(f"_T[{p}] += clock(_N) - {t}")
        self.em(f"_N[{3 + p}] += 1")

    def call(self, s: ir.Call) -> None:
        em = self.em
        callee = self.facts.units.get(s.name)
        if callee is None and s.name in self.facts.linked:
            self.linked_call(s.name, None, s.args, s.span)
            return
        if callee is None or callee.kind != "subroutine" or s.name not in self.mod.statics.compiled:
            raise NotCompiled(f"CALL {s.name}, which is not compiled")
        args, writeback = self.actuals(s.name, callee, s.args, s.span)
        self.store_commons()
        r = em.fresh("res")
        timed = s.span.first in self.call_lines
        if timed:
            p = self.mod.region(self.unit.name, s.span.first, "call")
            t = em.fresh("t")
            em(f"{t} = clock(_N)")
        em(f"{r} = {self.kernel_call(s.name, args)}")
        if timed:
            em(f"_T[{p}] += clock(_N) - {t}")
            em(f"_N[{3 + p}] += 1")
        self.load_commons()
        for k, target in writeback:
            self.store_result(f"{r}[{k}]", target)
        if any(isinstance(t, ir.Name) and t.name in {m for m, _, _ in self.common_scalars} for _, t in writeback):
            self.store_commons()

    def linked_call(self, name: str, result: ir.Type | None, args: tuple[ir.Expr, ...], span: ir.Span) -> str:
        return call_linked(self, name, result, args, span)

    def array_actual(self, a: ir.Name | ir.Index, dummy: ir.Symbol, callee: str) -> str:
        sym = self.sym(a.name)
        if (sym.type.base, sym.type.size) != (dummy.type.base, dummy.type.size):
            raise NotCompiled(f"passes {a.name} ({sym.type}) to dummy {dummy.name} ({dummy.type}) of {callee}")
        if isinstance(a, ir.Name):
            ka = self.arrays.get(a.name)
            if ka is None:
                raise NotCompiled(f"array {a.name} is not reachable here")
            return f"{ka.buf}, {ka.off}, {ka.label}, {ka.key}"
        ka, pos = self.position(a)
        return f"{ka.buf}, {pos}, {ka.label}, 0"

    def section_actual(self, a: ir.SectionActual, dummy: ir.Symbol, callee: str, span: ir.Span,
                       modified: bool) -> str:
        raise NotCompiled(f"passes array section {a.text} to {callee} (copied in and out in Python)")

    def scalar_actual(self, a: ir.Expr, dummy: ir.Symbol, callee: str, span: ir.Span, modified: bool) -> str:
        raise NotCompiled(f"passes a scalar to array dummy {dummy.name} of {callee} (copied in and out in Python)")

    def fault_code(self, message: str) -> str:
        return f"JitFault({self.mod.sites.message(message, self.em.where)}, 0, 0, 0, -1)"

    def directive(self, s: ir.Directive) -> None:
        super().directive(s)
        if self.directives:
            raise NotCompiled("REDISTRIBUTE or REALIGN (communication)")

    # ---------------------------------------------------------------- control flow

    def poll(self) -> None:
        """Leave the kernel when the run's time is up (see :mod:`.engine`)."""
        self.em("if timeup(_N):")
        self.em("    raise JitFault(-1, 0, 0, 0, -1)")

    def count_loop_entry(self, span: ir.Span, trips: str | None = None) -> None:
        self.poll()

    def count_trip(self, span: ir.Span) -> None:
        self.poll()

    def loop(self) -> "_KernelLoop":
        return _KernelLoop(self)

    def dispatch_loop(self, pc: str, segments, seg_of: dict[int, int]) -> None:
        frame = _Frame(pc, seg_of)
        self.frames.append(frame)
        self.em("while True:")
        with self.em.indent():
            self.poll()
            self.segments(pc, segments, seg_of)
        self.frames.pop()
        self.escapes(frame)

    def goto(self, label: int) -> None:
        for k in range(len(self.frames) - 1, -1, -1):
            f = self.frames[k]
            if f.pc is not None and label in f.seg_of:
                if k == len(self.frames) - 1:
                    self.em(f"{f.pc} = {f.seg_of[label]}")
                    self.em("continue")
                else:
                    self.em(f"_gl = {label}")
                    self.em("break")
                    self.frames[-1].escaping.add(label)
                return
        if not self.in_phase:
            raise NotCompiled(f"GO TO {label}: no label to go to")
        self.leave(label)

    def leave(self, label: int) -> None:
        """Out of the phase's loop to ``label`` (-1: RETURN): the kernel returns it."""
        self.em(f"_gl = {label}")
        self.em("break")
        self.frames[-1].escaping.add(label)

    def escapes(self, frame: "_Frame") -> None:
        """After a loop that jumps left: go on in the statement list holding the
        label, or leave the loop around too."""
        for label in sorted(frame.escaping):
            self.em(f"if _gl == {label}:")
            with self.em.indent():
                top = self.frames[-1] if self.frames else None
                if top is None:  # out of the phase's loop: the kernel returns the label
                    self.em("pass")
                elif top.pc is not None and label in top.seg_of:
                    self.em("_gl = 0")
                    self.em(f"{top.pc} = {top.seg_of[label]}")
                    self.em("continue")
                else:
                    self.em("break")
                    top.escaping.add(label)


@dataclass
class _Frame:
    """A loop of the kernel: a dispatch loop (``pc``, its labels) or a DO (``pc`` None)."""

    pc: str | None
    seg_of: dict[int, int]
    escaping: set[int] = field(default_factory=set)


class _KernelLoop:
    def __init__(self, tr: KernelTranslator) -> None:
        self.tr = tr
        self.frame = _Frame(None, {})

    def __enter__(self) -> None:
        self.tr.loop_depth += 1
        self.tr.frames.append(self.frame)

    def __exit__(self, *exc) -> None:
        self.tr.loop_depth -= 1
        self.tr.frames.pop()
        if exc[0] is None:
            self.tr.escapes(self.frame)


def _stop_value(code: ir.Expr | None):
    """The value of ``STOP code``: None, an integer or a string."""
    if code is None:
        return None
    if isinstance(code, ir.Const) and type(code.value) is int:
        return code.value
    if isinstance(code, ir.OpaqueExpr):
        text = code.text.strip()
        if text.isdigit():
            return int(text)
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
            return text[1:-1]
    raise NotCompiled("a STOP code that is not a constant")
