"""Values the program fixes: integer variables known when the loops run.

Loop bounds of real applications are rarely literals: a PARAMETER is copied
into COMMON by an initialization routine (``GRID_POINTS(1) = PROBLEM_SIZE``),
a DATA statement sets a size, a count is read from input or else defaulted.
This module finds, over the whole program, integer variables whose value is
one constant wherever it is defined, and substitutes it for their reads, so
trip counts, array shapes and subscripts become known.

The rule (flow-insensitive, interprocedural, optimistic like SCCP):

* A *variable* is an integer COMMON scalar (by block and position, whatever
  its local name), an element of an integer COMMON array with constant
  subscripts, or a local integer scalar or array element of one unit.
  A member of a block declared differently somewhere (storage associated)
  is its byte offset, tracked only where every declaration of the block has
  an integer of the same size there; members of a block any member of which
  is EQUIVALENCEd and EQUIVALENCEd locals are never known.  A scalar dummy
  argument is a variable too, defined on entry by the actual of every call
  (unknown in a unit called otherwise: the main program, a unit no one
  calls, one passed as an argument or with ENTRY points).
* Its *definitions* are every statement of the program that may assign it:
  assignments (their right-hand sides evaluated over the values known so
  far), DATA values, DO and implied-DO control, READ (also through a
  NAMELIST group), IOSTAT= and INQUIRE results, actual arguments a callee
  may write (Effects.writes_args; a procedure outside the program may write
  each argument), an assignment or READ to the array with a subscript that
  is not constant (every element), and any variable an unmodelled statement
  names.  Definitions may read other variables and call the program's
  small integer functions (``M = ILOG2(N)``, run on the arguments' values by
  :func:`.intfunctions.integer_result`): the values are found by
  an optimistic fixpoint (a cycle ``N1 = 2*N1H``, ``N1H = N1/2`` with
  ``N1 = 128`` is consistent), then what stays undecided is unknown.
* The variable is *fixed* at ``v`` when every definition gives ``v``; its
  reads are then replaced by ``v`` (assignment targets, READ items and
  section actuals are left alone).  Values found this way feed other
  definitions (``ISIZE = GRID_POINTS(1) - 1``) and, through
  :func:`.constprop.specialize`, the dummies of calls that pass them.
* A variable whose definitions all give ``v`` except READs (read-or-default:
  ``IF (file exists) THEN READ N ELSE N = 12``) is not known: it is given
  the *default* ``v``, which counts its loops (marked assumed, and said so
  in the reports) but is never substituted.
* ``--trip-count NAME=N`` (:attr:`AnalysisOptions.trip_values`) *states* the
  value of a variable (in every unit that has it; through COMMON also under
  other names): its loops, and those of variables computed from it, count
  as known, without changing the program the other stages see.
* A COMMON scalar the main program sets once from others it has set before
  (``NZ2 = GRID_POINTS(3) - 2`` after reading or defaulting the grid) is
  *related*: in the other units it always equals that expression
  (:func:`.relations.relations` says when).  The kill analysis reads it so
  (:attr:`Propagation.related`), so that a work array written up to
  ``GRID_POINTS(3)-1`` covers reads up to ``NZ2+1``; nothing else changes.

Sound for conforming programs: a fixed variable holds ``v`` whenever it has
a value at all (Fortran 77 leaves a variable without DATA undefined until
assigned).  Two assumptions are made and documented: no variable is read
before it is defined, and procedures outside the program (C routines,
libraries) modify only their arguments, not the program's COMMON blocks.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Iterator

from .. import ir
from ..errors import UsageError
from ..ir.nodes import INQUIRED
from .callgraph import bottom_up, call_graph
from .intfunctions import integer_result
from .loops import variable_key as _key
from .model import AnalysisOptions, Effects, KnownValue
from .parallel import summarize_effects
from .relations import main_name, related_names, relations

# --------------------------------------------------------------------------- variables

Cell = tuple  # ("C", block, index[, subs]) | ("L", unit, name[, subs]) | ("D", unit, name[, subs])

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_$]*")
_CALLED = re.compile(r"([A-Za-z][A-Za-z0-9_$]*)\s*\(")

#: How a value is known, strongest first: the weaker one wins when combined.
STRENGTH = {"fixed": 0, "stated": 1, "default": 2}

_TOP = object()  # optimistic: no definition evaluated yet
_BOTTOM = object()  # not one constant


class _Top(Exception):
    """A definition reads a variable that has no value yet."""


@dataclass(frozen=True)
class _Def:
    kind: str  # "expr" | "const" | "read" | "unknown"
    span: ir.Span
    unit: str = ""
    expr: ir.Expr | None = None
    value: int | None = None


@dataclass(frozen=True)
class UnitValues:
    """What the trip counter of one unit may use besides the IR's constants.

    ``stated`` and ``default`` map a variable as the unit names it (``"NITER"``,
    ``"GRID_POINTS(1)"``) to ``(value, note)``; ``loop_vars`` are the unit's DO
    variables; ``substituted`` maps a DO loop (file, line) to the fixed
    values substituted in its bounds (``"GRID_POINTS(1)=12"``).
    """

    stated: dict[str, tuple[int, str]] = field(default_factory=dict)
    default: dict[str, tuple[int, str]] = field(default_factory=dict)
    loop_vars: frozenset[str] = frozenset()
    substituted: dict[tuple[str, int], tuple[str, ...]] = field(default_factory=dict)


@dataclass
class Propagation:
    """The result of :func:`propagate`: the values found and, per unit, what
    the trip counter uses."""

    values: tuple[KnownValue, ...] = ()
    units: dict[str, UnitValues] = field(default_factory=dict)
    #: per unit, its names of COMMON scalars that always equal an expression of
    #: other variables there (``NZ2`` -> ``GRID_POINTS(3) - 2``, see
    #: :func:`_relations`): for the kill and privatization analysis only
    related: dict[str, dict[str, ir.Expr]] = field(default_factory=dict)

    def for_unit(self, name: str) -> UnitValues | None:
        return self.units.get(name)


def _const_subs(e: ir.Index) -> tuple[int, ...] | None:
    out = []
    for x in e.subscripts:
        v = ir.constant(x)
        if v is None:
            v = ir.int_value(x)
        if v is None:
            return None
        out.append(v)
    return tuple(out)


class _Cells:
    """Which variable a name of a unit is (None: never known).

    A member of a block declared alike everywhere is its (block, position);
    a member of a block declared differently somewhere (storage associated)
    is its (block, byte offset), and only where every unit that declares the
    block has an integer of the same size starting at that offset.
    """

    def __init__(self, program: ir.Program):
        self.commons = ir.common_layouts(program)
        self.excluded: set[str] = set()
        for u in program.units:
            for sym in u.symbols:
                if sym.equivalenced and sym.common is not None:
                    self.excluded.add(sym.common)
        self.units = {u.name: u for u in program.units}
        # storage-associated blocks: per unit, (start, bytes, symbol) of each member
        self.layouts: dict[str, list[list[tuple[int, int, ir.Symbol]]]] = {}
        self.offsets: dict[tuple[str, str], int] = {}
        for u in program.units:
            for c in u.commons:
                if self.commons.block(c.name) is None or c.name in self.excluded:
                    continue
                at, members = 0, []
                for m in c.members:
                    sym = u.symbol(m)
                    size = sym.bytes if sym is not None else None
                    if not size:
                        self.excluded.add(c.name)
                        break
                    members.append((at, size, sym))
                    self.offsets[(u.name, m)] = at
                    at += size
                self.layouts.setdefault(c.name, []).append(members)
        self._trackable: dict[tuple[str, int, int], bool] = {}

    def trackable(self, block: str, offset: int, size: int) -> bool:
        """Is the integer of ``size`` bytes at ``offset`` of associated ``block``
        an integer of that size in every unit that declares the block?"""
        key = (block, offset, size)
        if key not in self._trackable:
            ok = block not in self.excluded
            for members in self.layouts.get(block, []) if ok else ():
                for start, nbytes, sym in members:
                    if start <= offset < start + nbytes or offset <= start < offset + size:
                        if (sym.type.base != "integer" or sym.type.size != size or (offset - start) % size
                                or sym.kind != ir.SymbolKind.VARIABLE):
                            ok = False
                if not ok:
                    break
            self._trackable[key] = ok
        return self._trackable[key]

    def symbol(self, unit: str, name: str) -> ir.Symbol | None:
        u = self.units.get(unit)
        sym = u.symbol(name) if u is not None else None
        if sym is None or sym.kind != ir.SymbolKind.VARIABLE or sym.type.base != "integer":
            return None
        return sym

    def base(self, unit: str, name: str) -> tuple | None:
        """The storage of variable ``name`` of ``unit`` (scalar or whole array):
        ("C", block, position), ("B", block, offset) (a scalar of an associated
        block), ("BA", block, start, end) (an array of one), ("L" | "D", unit, name)."""
        sym = self.symbol(unit, name)
        if sym is None:
            return None
        if sym.common is not None:
            if sym.common in self.excluded:
                return None
            slot = self.commons.slot(sym)
            if slot is None:
                return None
            if slot[1] == ir.WHOLE_BLOCK:
                start = self.offsets.get((unit, name))
                if start is None:
                    return None
                if sym.is_array:
                    return ("BA", sym.common, start, start + (sym.bytes or 0))
                return ("B", sym.common, start) if self.trackable(sym.common, start, sym.type.size) else None
            return ("C", slot[0], slot[1])
        if sym.equivalenced:
            return None
        return ("D" if sym.dummy else "L", unit, name)

    def scalar(self, unit: str, name: str) -> Cell | None:
        sym = self.symbol(unit, name)
        if sym is None or sym.is_array:
            return None
        return self.base(unit, name)

    def element(self, unit: str, e: ir.Index) -> Cell | None:
        sym = self.symbol(unit, e.name)
        if sym is None or not sym.is_array or len(e.subscripts) != sym.rank:
            return None
        base = self.base(unit, e.name)
        subs = _const_subs(e)
        if base is None or subs is None:
            return None
        if base[0] == "BA":
            bounds = [d.bounds for d in sym.dims or ()]
            if any(b is None for b in bounds):
                return None
            linear, stride = 0, 1
            for k, (lo, hi) in zip(subs, bounds):  # type: ignore[misc]
                if not lo <= k <= hi:
                    return None
                linear += (k - lo) * stride
                stride *= hi - lo + 1
            at = base[2] + linear * sym.type.size
            return ("B", base[1], at) if self.trackable(base[1], at, sym.type.size) else None
        return base + (subs,)

    def named(self, unit: str, sym: ir.Symbol, known) -> list[tuple[str, Cell]]:
        """The variables of ``known`` (cells) that ``sym`` of ``unit`` names, as
        ``(name as the unit writes it, cell)``."""
        base = self.base(unit, sym.name) or ("S", unit, sym.name)
        if not sym.is_array:
            return [(sym.name, base)]
        if base[0] != "BA":
            return [(_key(sym.name, c[3]), c) for c in sorted(known.get(base, ()))]
        bounds = [d.bounds for d in sym.dims or ()]
        out = []
        for c in sorted(known.get(("B", base[1]), ())):
            if base[2] <= c[2] < base[3] and self.element_at(sym, bounds, c[2] - base[2]) is not None:
                out.append((_key(sym.name, self.element_at(sym, bounds, c[2] - base[2])), c))  # type: ignore[arg-type]
        return out

    @staticmethod
    def element_at(sym: ir.Symbol, bounds, offset: int) -> tuple[int, ...] | None:
        if offset % sym.type.size or any(b is None for b in bounds):
            return None
        linear, subs = offset // sym.type.size, []
        for lo, hi in bounds:
            n = hi - lo + 1
            subs.append(lo + linear % n)
            linear //= n
        return tuple(subs)

    def is_array(self, unit: str, name: str) -> bool:
        sym = self.symbol(unit, name)
        return sym is not None and sym.is_array


# --------------------------------------------------------------------------- definitions


class _Definitions:
    """Every definition of every variable of the program."""

    def __init__(self, program: ir.Program, cells: _Cells, effects: dict[str, Effects]):
        self.cells = cells
        self.effects = effects
        self.units = {u.name: u for u in program.units}
        self.of: dict[Cell, list[_Def]] = {}
        self.wild: dict[tuple, list[_Def]] = {}  # whole arrays: every element
        self.ranges: dict[str, list[tuple[int, int, _Def]]] = {}  # the same in associated blocks
        for u in program.units:
            self._unit(u)
        self._entries(program)

    def _entries(self, program: ir.Program) -> None:
        """A scalar dummy is defined, on entry, by the actual of every call (its
        value evaluated in the caller); a unit called otherwise too (the main
        program, a unit no one calls, one passed as an argument or with ENTRY
        points) has dummies of unknown value."""
        sites: dict[str, list[tuple[ir.Unit, tuple[ir.Expr, ...], ir.Span]]] = {}
        passed: set[str] = set()
        for u in program.units:
            for s in u.statements():
                if isinstance(s, ir.Call):
                    sites.setdefault(s.name, []).append((u, s.args, s.span))
                for e in s.exprs():
                    for x in e.walk():
                        if isinstance(x, ir.FuncRef) and x.kind == ir.FuncKind.EXTERNAL:
                            sites.setdefault(x.name, []).append((u, x.args, s.span))
                args = s.args if isinstance(s, ir.Call) else ()
                refs = [x for e in s.exprs() for x in e.walk() if isinstance(x, ir.FuncRef)]
                for a in list(args) + [a for f in refs for a in f.args]:
                    if isinstance(a, ir.Name) and a.name in self.units:
                        passed.add(a.name)
        for u in program.units:
            dummies = [(k, a) for k, a in enumerate(u.args) if self.cells.scalar(u.name, a) is not None]
            if not dummies:
                continue
            entry = any(isinstance(s, ir.Opaque) and s.text.upper().lstrip().startswith("ENTRY")
                        for s in u.statements())
            calls = sites.get(u.name, [])
            for k, a in dummies:
                cell = self.cells.scalar(u.name, a)
                if not calls or entry or u.name in passed or u.kind == ir.UnitKind.PROGRAM:
                    self._add(cell, _Def("unknown", u.span))
                    continue
                for caller, args, span in calls:
                    if k < len(args) and isinstance(args[k], ir.Expr):
                        self._add(cell, _Def("expr", span, caller.name, args[k]))
                    else:
                        self._add(cell, _Def("unknown", span))

    # -- recording

    def _add(self, cell: Cell | None, d: _Def) -> None:
        if cell is not None:
            self.of.setdefault(cell, []).append(d)

    def _whole(self, unit: str, name: str, d: _Def) -> None:
        base = self.cells.base(unit, name)
        if base is not None and base[0] == "BA":
            self.ranges.setdefault(base[1], []).append((base[2], base[3], d))
        elif base is not None:
            self.wild.setdefault(base, []).append(d)

    def _target(self, unit: str, t: ir.Expr, d: _Def) -> None:
        """``t`` (a Name, an array element, a whole array) may be assigned as ``d`` says."""
        while isinstance(t, ir.Substring):
            t = t.base
        if isinstance(t, ir.Name):
            if self.cells.is_array(unit, t.name):
                self._whole(unit, t.name, d)
            else:
                self._add(self.cells.scalar(unit, t.name), d)
        elif isinstance(t, ir.Index):
            cell = self.cells.element(unit, t)
            if cell is not None:
                self._add(cell, d)
            else:
                self._whole(unit, t.name, d)

    def _unknown_words(self, unit: ir.Unit, text: str, span: ir.Span, kind: str = "unknown") -> None:
        for w in set(_WORD.findall(text.upper())):
            if unit.symbol(w) is not None:
                self._target(unit.name, ir.Name(w), _Def(kind, span))

    def _opaque(self, unit: ir.Unit, x: ir.OpaqueExpr, span: ir.Span) -> None:
        """An expression the front end does not model may define any name it
        holds, but an array section (``RMSZ(M, 0:GRID_POINTS(3)-1)``, an
        intrinsic's or a routine's argument) only its array: its subscripts are
        read, unless something in them is called (a name before a parenthesis
        that is not an array of the unit)."""
        text = x.text.upper()
        if x.reason == "array section":
            base = _WORD.match(text.lstrip())
            called = [w for w in _CALLED.findall(text)[1:]
                      if (sym := unit.symbol(w)) is None or sym.kind != ir.SymbolKind.VARIABLE or not sym.is_array]
            if base is not None and not called:
                self._target(unit.name, ir.Name(base.group(0)), _Def("unknown", span))
                return
        self._unknown_words(unit, text, span)

    # -- the units

    def _unit(self, u: ir.Unit) -> None:
        for d in u.data:
            self._data(u, d)
        for op in u.opaque_decls:
            text = op.text.upper()
            self._unknown_words(u, text, op.span, "read" if text.lstrip().startswith("NAMELIST") else "unknown")
        for s in u.statements():
            self._stmt(u, s)

    def _stmt(self, u: ir.Unit, s: ir.Stmt) -> None:
        name = u.name
        if isinstance(s, ir.Assign):
            t = s.target
            if isinstance(t, ir.Name) and not self.cells.is_array(name, t.name):
                self._add(self.cells.scalar(name, t.name), _Def("expr", s.span, name, s.value))
            elif isinstance(t, ir.Index) and self.cells.element(name, t) is not None:
                self._add(self.cells.element(name, t), _Def("expr", s.span, name, s.value))
            else:
                self._target(name, t, _Def("unknown", s.span))
        elif isinstance(s, ir.Do):
            self._target(name, ir.Name(s.var), _Def("unknown", s.span))
        elif isinstance(s, ir.Io):
            self._io(u, s)
        elif isinstance(s, ir.Call):
            self._actuals(u, s.name, s.args, s.span)
        elif isinstance(s, ir.Opaque):
            self._unknown_words(u, s.text, s.span)
        for e in s.exprs():
            for x in e.walk():
                if isinstance(x, ir.FuncRef) and x.kind == ir.FuncKind.EXTERNAL:
                    self._actuals(u, x.name, x.args, s.span)
                elif isinstance(x, ir.OpaqueExpr):
                    self._opaque(u, x, s.span)
                elif isinstance(x, ir.ImpliedDo):
                    self._target(name, ir.Name(x.var), _Def("unknown", s.span))

    def _io(self, u: ir.Unit, s: ir.Io) -> None:
        for k, e in s.specs:
            if k == "IOSTAT" or (s.kind == ir.IoKind.INQUIRE and k in INQUIRED):
                self._target(u.name, e, _Def("unknown", s.span))
        if s.kind != ir.IoKind.READ:
            return
        read = _Def("read", s.span)
        stack = list(s.items)
        while stack:
            x = stack.pop()
            if isinstance(x, ir.ImpliedDo):
                for item in x.items:  # elements under an implied DO: the whole array
                    base = item
                    while isinstance(base, ir.Substring):
                        base = base.base
                    if isinstance(base, ir.Index):
                        self._whole(u.name, base.name, read)
                    else:
                        stack.append(item)
            else:
                self._target(u.name, x, read)  # (a NAMELIST group's members: see its statement)

    def _actuals(self, u: ir.Unit, callee: str, args: tuple[ir.Expr, ...], span: ir.Span) -> None:
        eff = self.effects.get(callee)
        target = self.units.get(callee)
        for k, a in enumerate(args):
            if not isinstance(a, (ir.Name, ir.Index)):
                continue
            if eff is not None and k not in eff.writes_args:
                continue
            d = _Def("unknown", span)
            dummy = target.symbol(target.args[k]) if target is not None and k < len(target.args) else None
            if isinstance(a, ir.Index) and (dummy is None or dummy.is_array):
                self._whole(u.name, a.name, d)  # a section: any element
            else:
                self._target(u.name, a, d)

    def _data(self, u: ir.Unit, d: ir.Data) -> None:
        values: list[ir.Expr] = [v for n, v in d.values for _ in range(max(n, 0))]
        pos = 0
        lost = False  # the values no longer line up with the targets
        for t in d.targets:
            cells = None if lost else self._data_cells(u, t)
            if cells is None:
                lost = True
                if isinstance(t, ir.ImpliedDo):
                    for x in t.items:
                        self._target(u.name, x if not isinstance(x, ir.Index) else ir.Name(x.name),
                                     _Def("unknown", d.span))
                else:
                    self._target(u.name, t if not isinstance(t, ir.Index) else ir.Name(t.name),
                                 _Def("unknown", d.span))
                continue
            for cell in cells:
                v = values[pos] if pos < len(values) else None
                pos += 1
                value = v.value if isinstance(v, ir.Const) and type(v.value) is int else None
                if cell is not None:
                    self._add(cell, _Def("const", d.span, value=value) if value is not None
                              else _Def("unknown", d.span))

    def _data_cells(self, u: ir.Unit, t: ir.Expr) -> list[Cell | None] | None:
        """The variables a DATA target sets, in order (None: not known how many)."""
        if isinstance(t, ir.Index):
            return [self.cells.element(u.name, t)] if _const_subs(t) is not None else None
        if isinstance(t, ir.Name):
            sym = u.symbol(t.name)
            if sym is None or not sym.is_array:
                return [self.cells.scalar(u.name, t.name)]
            bounds = [dim.bounds for dim in sym.dims or ()]
            if any(b is None for b in bounds):
                return None
            out: list[Cell | None] = []
            for subs in _column_major(bounds):  # type: ignore[arg-type]
                out.append(self.cells.element(u.name, ir.Index(t.name, tuple(ir.Const(s, ir.INTEGER) for s in subs))))
                if len(out) > 100000:
                    return None
            return out
        return None


def _column_major(bounds: list[tuple[int, int]]) -> Iterator[tuple[int, ...]]:
    if not bounds:
        yield ()
        return
    (lo, hi), rest = bounds[0], bounds[1:]
    for tail in _column_major(rest):
        for i in range(lo, hi + 1):
            yield (i,) + tail


# --------------------------------------------------------------------------- the fixpoint


class _Evaluator(ir.IntEvaluator):
    """A definition's right-hand side over the values known so far."""

    def __init__(self, solver: "_Solver", unit: str):
        super().__init__()
        self.solver = solver
        self.unit = unit
        self.how = "fixed"

    def __call__(self, e: ir.Expr) -> int | None:
        if isinstance(e, ir.Index):
            return self._look(self.solver.cells.element(self.unit, e))
        return super().__call__(e)

    def name(self, name: str) -> int | None:
        return self._look(self.solver.cells.scalar(self.unit, name))

    def function(self, f: ir.FuncRef) -> int | None:
        """An intrinsic, or a small integer function of the program run on
        its arguments' values (``LOG = ILOG2(N2)``)."""
        callee = self.solver.cells.units.get(f.name) if f.kind == ir.FuncKind.EXTERNAL else None
        if callee is None:
            return super().function(f)
        args = tuple(self(a) for a in f.args)
        if any(v is None for v in args):
            return None
        key = (f.name, args)
        if key not in self.solver.results:
            self.solver.results[key] = integer_result(callee, list(args))  # type: ignore[arg-type]
        return self.solver.results[key]

    def _look(self, cell: Cell | None) -> int | None:
        if cell is None:
            return None
        st = self.solver.state_of(cell)
        if st is _TOP:
            raise _Top
        if st is _BOTTOM:
            return None
        v, how = st
        if STRENGTH[how] > STRENGTH[self.how]:
            self.how = how
        return v


class _Solver:
    def __init__(self, cells: _Cells, defs: _Definitions, stated: dict[Cell, int]):
        self.cells = cells
        self.defs = defs
        self.stated = stated
        self.state: dict[Cell, object] = {}
        self.results: dict[tuple, int | None] = {}  # (function, argument values) -> its result

    def state_of(self, cell: Cell) -> object:
        if cell in self.stated:
            return (self.stated[cell], "stated")
        if cell[0] not in ("C", "L", "B", "D") or (cell[0] == "D" and len(cell) == 4):
            return _BOTTOM  # an element of a dummy array (the caller's actual), or a name only stated
        if cell in self.state:
            return self.state[cell]
        if cell not in self.defs.of:
            wild = self.definitions(cell)
            return self._meet(wild) if wild else _BOTTOM
        return _TOP

    def definitions(self, cell: Cell) -> list[_Def]:
        out = list(self.defs.of.get(cell, ()))
        if len(cell) == 4:
            out += self.defs.wild.get(cell[:3], [])
        elif cell[0] == "B":
            out += [d for lo, hi, d in self.defs.ranges.get(cell[1], ()) if lo <= cell[2] < hi]
        return out

    def _meet(self, defs: list[_Def]) -> object:
        values: set[int] = set()
        how = "fixed"
        read = top = False
        for d in defs:
            if d.kind == "unknown":
                return _BOTTOM
            if d.kind == "read":
                read = True
                continue
            if d.kind == "const":
                values.add(d.value)  # type: ignore[arg-type]
                continue
            ev = _Evaluator(self, d.unit)
            try:
                v = ev(d.expr)  # type: ignore[arg-type]
            except _Top:
                top = True
                continue
            if v is None:
                return _BOTTOM
            values.add(v)
            if STRENGTH[ev.how] > STRENGTH[how]:
                how = ev.how
            if len(values) > 1:
                return _BOTTOM
        if len(values) != 1:
            return _TOP if top and not values else _BOTTOM
        return (values.pop(), "default" if read else how)

    def solve(self) -> None:
        cells = [c for c in self.defs.of if c not in self.stated and c[0] in ("C", "L", "B", "D") and
                 not (c[0] == "D" and len(c) == 4)]
        for c in cells:
            self.state[c] = _TOP
        while True:
            for _ in range(len(cells) + 10):
                changed = False
                for c in cells:
                    if self.state[c] is _BOTTOM:
                        continue
                    new = self._meet(self.definitions(c))
                    if new != self.state[c]:
                        self.state[c] = new
                        changed = True
                if not changed:
                    break
            else:  # not settled (cannot happen: the states only descend): give up on what moved
                for c in cells:
                    if self.state[c] is not _BOTTOM and self._meet(self.definitions(c)) != self.state[c]:
                        self.state[c] = _BOTTOM
            tops = [c for c in cells if self.state[c] is _TOP]
            if not tops:
                return
            for c in tops:  # defined only in terms of variables never given a value
                self.state[c] = _BOTTOM


# --------------------------------------------------------------------------- substitution


class _Substituter:
    """Reads of fixed variables of one unit replaced by their values."""

    def __init__(self, unit: ir.Unit, fixed) -> None:
        self.unit = unit
        self.fixed = fixed  # (unit, Name | Index) -> int | None
        self.hits: list[str] = []
        self.skip: frozenset[str] = frozenset()

    def expr(self, e: ir.Expr, actual: bool = False) -> ir.Expr:
        if isinstance(e, ir.Name):
            if e.name in self.skip:
                return e
            v = self.fixed(self.unit.name, e)
            if v is None:
                return e
            self.hits.append(f"{e.name}={v}")
            return ir.Const(v, ir.INTEGER)
        if isinstance(e, ir.Index):
            subs = tuple(self.expr(x) for x in e.subscripts)
            new = e if all(a is b for a, b in zip(subs, e.subscripts)) else ir.Index(e.name, subs)
            if not actual:
                v = self.fixed(self.unit.name, new)
                if v is not None:
                    self.hits.append(f"{_key(e.name, _const_subs(new) or ())}={v}")
                    return ir.Const(v, ir.INTEGER)
            return new
        if isinstance(e, ir.FuncRef):
            ext = e.kind == ir.FuncKind.EXTERNAL
            args = tuple(self.expr(a, actual=ext) for a in e.args)
            if all(a is b for a, b in zip(args, e.args)):
                return e
            return self._fold(dataclasses.replace(e, args=args))
        if isinstance(e, (ir.Const, ir.OpaqueExpr)):
            return e
        changes = {}
        for f in dataclasses.fields(e):
            v = getattr(e, f.name)
            if isinstance(v, ir.Expr):
                nv = self.expr(v)
            elif isinstance(v, tuple) and v and all(isinstance(x, ir.Expr) for x in v):
                nv = tuple(self.expr(x) for x in v)
                nv = v if all(a is b for a, b in zip(nv, v)) else nv
            else:
                continue
            if nv is not v:
                changes[f.name] = nv
        return self._fold(dataclasses.replace(e, **changes)) if changes else e

    @staticmethod
    def _fold(e: ir.Expr) -> ir.Expr:
        if isinstance(e, (ir.BinOp, ir.UnOp, ir.FuncRef)):
            v = ir.int_value(e)
            if v is not None:
                return ir.Const(v, ir.INTEGER)
        return e

    def target(self, t: ir.Expr) -> ir.Expr:
        """An assigned variable: only its subscripts are reads."""
        if isinstance(t, ir.Index):
            subs = tuple(self.expr(x) for x in t.subscripts)
            return t if all(a is b for a, b in zip(subs, t.subscripts)) else ir.Index(t.name, subs)
        if isinstance(t, ir.Substring):
            lo = self.expr(t.lower) if t.lower is not None else None
            hi = self.expr(t.upper) if t.upper is not None else None
            return _rep(t, base=self.target(t.base), lower=lo, upper=hi)
        if isinstance(t, ir.ImpliedDo):
            return _rep(t, items=_same(tuple(self.target(x) for x in t.items), t.items), start=self.expr(t.start),
                        end=self.expr(t.end), step=self.expr(t.step) if t.step is not None else None)
        return t

    def block(self, stmts: tuple[ir.Stmt, ...], substituted: dict) -> tuple[ir.Stmt, ...]:
        out = tuple(self.stmt(s, substituted) for s in stmts)
        return stmts if all(a is b for a, b in zip(out, stmts)) else out

    def stmt(self, s: ir.Stmt, substituted: dict) -> ir.Stmt:
        if isinstance(s, ir.Assign):
            return _rep(s, target=self.target(s.target), value=self.expr(s.value))
        if isinstance(s, ir.Do):
            self.hits = []
            start, end = self.expr(s.start), self.expr(s.end)
            step = self.expr(s.step) if s.step is not None else None
            if self.hits:
                substituted[(s.span.file, s.span.first)] = tuple(dict.fromkeys(self.hits))
            return _rep(s, start=start, end=end, step=step, body=self.block(s.body, substituted))
        if isinstance(s, ir.DoWhile):
            return _rep(s, cond=self.expr(s.cond), body=self.block(s.body, substituted))
        if isinstance(s, ir.If):
            branches = tuple(_rep(b, cond=self.expr(b.cond) if b.cond is not None else None,
                                  body=self.block(b.body, substituted)) for b in s.branches)
            return _rep(s, branches=_same(branches, s.branches))
        if isinstance(s, ir.Call):
            return _rep(s, args=_same(tuple(self.expr(a, actual=True) for a in s.args), s.args))
        if isinstance(s, ir.Io):
            read = s.kind == ir.IoKind.READ
            items = tuple(self.target(x) if read else self.expr(x) for x in s.items)
            specs = tuple(p if p[0] == "IOSTAT" or (s.kind == ir.IoKind.INQUIRE and p[0] in INQUIRED)
                          else _same((p[0], self.expr(p[1])), p) for p in s.specs)
            unit = self.expr(s.unit) if s.unit is not None else None
            return _rep(s, items=_same(items, s.items), specs=_same(specs, s.specs), unit=unit)
        if isinstance(s, (ir.ArithIf, ir.ComputedGoto)):
            return _rep(s, expr=self.expr(s.expr))
        if isinstance(s, ir.Stop) and s.code is not None:
            return _rep(s, code=self.expr(s.code))
        return s

    def unit_(self, substituted: dict) -> ir.Unit:
        u = self.unit
        body = self.block(u.body, substituted)
        symbols = []
        for sym in u.symbols:
            if sym.dims is not None and sym.kind == ir.SymbolKind.VARIABLE:
                dims = tuple(_rep(d, lower=self.expr(d.lower), upper=self.expr(d.upper) if d.upper is not None else None)
                             for d in sym.dims)
                sym = _rep(sym, dims=_same(dims, sym.dims))
            symbols.append(sym)
        sfs = []
        for sf in u.stmt_functions:
            self.skip = frozenset(sf.args)
            sfs.append(_rep(sf, expr=self.expr(sf.expr)))
            self.skip = frozenset()
        return _rep(u, body=body, symbols=_same(tuple(symbols), u.symbols),
                    stmt_functions=_same(tuple(sfs), u.stmt_functions))


def _same(new: tuple, old: tuple) -> tuple:
    """``old`` when ``new`` holds the same objects (so that unchanged parts stay shared)."""
    return old if len(new) == len(old) and all(a is b for a, b in zip(new, old)) else new


def _rep(obj, **changes):
    """``dataclasses.replace`` unless every field given is already that object."""
    if all(getattr(obj, k) is v for k, v in changes.items()):
        return obj
    return dataclasses.replace(obj, **changes)


# --------------------------------------------------------------------------- the driver

_TRIP_NAME = re.compile(r"\s*([A-Za-z][A-Za-z0-9_]*)\s*(?:\(\s*([-+]?\d+(?:\s*,\s*[-+]?\d+)*)\s*\))?\s*\Z")


def parse_name(text: str) -> tuple[str, tuple[int, ...]] | None:
    """``NAME`` or ``NAME(k[,k...])`` as (upper-case name, subscripts), None when not."""
    m = _TRIP_NAME.match(text)
    if m is None:
        return None
    subs = tuple(int(x) for x in m.group(2).split(",")) if m.group(2) else ()
    return m.group(1).upper(), subs


def _stated_cells(program: ir.Program, cells: _Cells, trip_values) -> dict[Cell, int]:
    """The variables ``--trip-count NAME=N`` names, checked: a usage error for a
    name the program has no integer variable of."""
    out: dict[Cell, int] = {}
    for text, value in trip_values:
        parsed = parse_name(text)
        if parsed is None:
            raise UsageError(f"--trip-count {text}={value}: expected NAME=N or ARRAY(k)=N")
        name, subs = parsed
        found = False
        why = f"the program has no integer variable {name}"
        for u in program.units:
            sym = u.symbol(name)
            if sym is None:
                continue
            if sym.kind == ir.SymbolKind.PARAMETER:
                why = f"{name} is a PARAMETER (its value is known)"
                continue
            if sym.kind != ir.SymbolKind.VARIABLE or sym.type.base != "integer":
                why = f"{name} is not an integer variable" if sym.kind == ir.SymbolKind.VARIABLE else why
                continue
            if subs and (not sym.is_array or sym.rank != len(subs)):
                why = (f"{name} is not an array" if not sym.is_array
                       else f"{name} has {sym.rank} subscript{'s' * (sym.rank != 1)}")
                continue
            if not subs and sym.is_array:
                why = f"{name} is an array: name an element, as {name}({','.join('1' * sym.rank)})"
                continue
            if subs:
                cell = cells.element(u.name, ir.Index(name, tuple(ir.Const(k, ir.INTEGER) for k in subs)))
            else:
                cell = cells.scalar(u.name, name)
            if cell is None:  # EQUIVALENCEd, or not tracked in a storage-associated block: this unit only
                cell = ("S", u.name, name) + ((subs,) if subs else ())
            out[cell] = value
            found = True
        if not found:
            raise UsageError(f"--trip-count {text}={value}: {why}")
    return out


def _where(span: ir.Span) -> str:
    return f"{span.file.rsplit('/', 1)[-1]}:{span.first}"


def propagate(program: ir.Program, options: AnalysisOptions | None = None) -> tuple[ir.Program, Propagation]:
    """The program with the reads of fixed variables replaced by their values,
    and the values found (fixed, default, stated)."""
    options = options or AnalysisOptions()
    cells = _Cells(program)
    effects: dict[str, Effects] = {}
    units = {u.name: u for u in program.units}
    for name in bottom_up(call_graph(program)):
        effects[name] = summarize_effects(units[name], effects, cells.commons)
    defs = _Definitions(program, cells, effects)
    stated = _stated_cells(program, cells, options.trip_values)
    solver = _Solver(cells, defs, stated)
    solver.solve()
    related = relations(program, cells, defs, solver)

    def value_of(cell: Cell | None) -> tuple[int, str] | None:
        if cell is None:
            return None
        st = solver.state_of(cell)
        return st if isinstance(st, tuple) else None  # type: ignore[return-value]

    def fixed(unit: str, e: ir.Expr) -> int | None:
        cell = cells.scalar(unit, e.name) if isinstance(e, ir.Name) else cells.element(unit, e)  # type: ignore[arg-type]
        st = value_of(cell)
        return st[0] if st is not None and st[1] == "fixed" else None

    # the variables with a value, as each unit names them
    elements: dict[tuple, list[Cell]] = {}
    for c in set(solver.state) | set(stated):
        if len(c) == 4:
            elements.setdefault(c[:3], []).append(c)
        elif c[0] == "B":
            elements.setdefault(c[:2], []).append(c)
    found: dict[Cell, dict] = {}
    result = Propagation()
    new_units = []
    for u in program.units:
        uv = UnitValues(loop_vars=frozenset(s.var for s in u.statements() if isinstance(s, ir.Do)))
        for sym in u.symbols:
            if sym.kind != ir.SymbolKind.VARIABLE or sym.type.base != "integer":
                continue
            for key, cell in cells.named(u.name, sym, elements):
                st = value_of(cell)
                if st is None:
                    continue
                v, how = st
                info = found.setdefault(cell, {"name": key, "value": v, "how": how, "units": []})
                info["units"].append(u.name)
                if how == "fixed" or sym.name in uv.loop_vars:
                    continue
                note = _note(key, v, how, solver.definitions(cell) if cell not in stated else [])
                (uv.stated if how == "stated" else uv.default)[key] = (v, note)
        sub = _Substituter(u, fixed)
        new = sub.unit_(uv.substituted)
        new_units.append(new)
        result.units[u.name] = uv
        if u.kind != ir.UnitKind.PROGRAM and (names := related_names(u, related, cells, main_name(program))):
            result.related[u.name] = names
    out = []
    for cell, info in found.items():
        ds = solver.definitions(cell) if cell not in stated else []
        out.append(KnownValue(
            name=info["name"], value=info["value"], how=info["how"], units=tuple(info["units"]),
            set_at=tuple(dict.fromkeys(_where(d.span) for d in ds if d.kind in ("expr", "const"))),
            read_at=tuple(dict.fromkeys(_where(d.span) for d in ds if d.kind == "read")),
        ))
    result.values = tuple(sorted(out, key=lambda k: (STRENGTH[k.how], k.units[0], k.name)))
    changed = any(a is not b for a, b in zip(new_units, program.units))
    return (dataclasses.replace(program, units=tuple(new_units)) if changed else program), result


def _note(key: str, v: int, how: str, defs: list[_Def]) -> str:
    if how == "stated":
        return f"--trip-count {key}={v}"
    sets = ", ".join(dict.fromkeys(_where(d.span) for d in defs if d.kind in ("expr", "const"))) or "?"
    reads = ", ".join(dict.fromkeys(_where(d.span) for d in defs if d.kind == "read"))
    if reads:
        return f"the program's default {key} = {v} (set at {sets}; read at {reads})"
    return f"the program's default {key} = {v} (computed at {sets} from defaulted values)"
