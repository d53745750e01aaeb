"""The storage compiled procedures share without passing it: Fortran's static storage.

A compiled procedure reaches, besides its arguments, the storage of the
program that lives for the whole run: its local arrays, the arrays and scalars
of its COMMON blocks, its SAVE'd (and DATA) scalars.  A kernel takes each as
a parameter, and so does every kernel that calls it, transitively, so that a
call between compiled procedures passes them on (a numba function sees no
mutable globals).  Each piece has a key and one parameter name in the whole
module:

* ``("L", unit, array)``: a local array (the executor's storage of it);
* ``("C", block, slot)``: an array of a COMMON block;
* ``("S", block, kind)``: the scalars of a COMMON block of one kind (``i``,
  ``r4``, ``r8``, ``l``), one typed array per kind (:meth:`Statics.slot` maps
  a member to its place);
* ``("V", unit, kind)``: the saved scalars of a unit, the same way;
* ``("O", "", 0)``: the executor's output, a ctypes callback the kernels of
  units and phases with a PRINT or WRITE call with their values (no object
  mode, which numba compiles anew in every run);
* ``("X", routine, (result, count))``: a routine of the ``--link`` libraries
  called with ``count`` arguments (every one by reference), a FUNCTION
  returning ABI code ``result`` (None: a subroutine), passed as a ctypes
  function pointer (numba calls it directly).
"""

from __future__ import annotations

from ... import ir
from ..codegen import intrinsic_code as ic
from ..codegen.facts import ProgramFacts
from ..fortran.foreign import abi_code
from .positions import int_literal

Key = tuple[str, str, object]

#: The key of the output callback.
OUTPUT: Key = ("O", "", 0)

#: numpy dtype names of the typed arrays of scalars, by kind.
SCALAR_DTYPES = {"i": "int64", "r4": "float32", "r8": "float64", "l": "bool"}


class Statics:
    """The static storage of a program's compiled units (see the module docstring)."""

    def __init__(self, program: ir.Program, facts: ProgramFacts, saved: dict[str, tuple[str, ...]],
                 compiled: set[str]):
        self.facts = facts
        self.program = program
        self.saved = saved
        self.units = {u.name: u for u in program.units}
        self.compiled = compiled
        self._own: dict[str, list[Key]] = {u: self.own(self.units[u]) for u in compiled}
        self._of: dict[str, tuple[Key, ...]] = {}
        self.names: dict[Key, str] = {}

    def name(self, key: Key) -> str:
        """The parameter name of a piece of static storage (numbered as first asked for)."""
        return self.names.setdefault(key, f"g{len(self.names)}")

    # ---------------------------------------------------------------- keys

    def own(self, u: ir.Unit) -> list[Key]:
        """The static storage ``u`` itself reaches."""
        out: list[Key] = []
        in_common = {m for c in u.commons for m in c.members}
        for sym in u.arrays:
            if not sym.dummy and sym.name not in in_common and not ir.is_automatic(u, sym):
                out.append(("L", u.name, sym.name))  # (an automatic array is allocated on each entry)
        for c in u.commons:
            for k, m in enumerate(c.members):
                sym = u.symbol(m)
                if sym is not None and sym.is_array:
                    out.append(("C", c.name, k))
                elif sym is not None:
                    out.append(("S", c.name, ic.kind(sym.type)))
        for n in self.saved.get(u.name, ()):
            out.append(("V", u.name, ic.kind(u.symbol(n).type)))
        out += self.outside(u, u.body)
        return list(dict.fromkeys(out))

    def outside(self, u: ir.Unit, stmts: tuple[ir.Stmt, ...]) -> list[Key]:
        """The routines outside compiled code ``stmts`` of ``u`` call — the
        ``--link`` ones, the output callback — as keys of static storage."""
        linked = self.facts.linked
        out: list[Key] = []
        for s in ir.walk(stmts):
            if isinstance(s, ir.Io) and s.kind in ("print", "write"):
                out.append(OUTPUT)
            if isinstance(s, ir.Call) and s.name in linked and s.name not in self.facts.units:
                out.append(("X", s.name, (None, len(s.args))))
            for e in s.exprs():
                for x in e.walk():
                    if (isinstance(x, ir.FuncRef) and x.name in linked and x.name not in self.facts.units
                            and x.kind not in ("intrinsic", "statement")):
                        sym = u.symbol(x.name)
                        out.append(("X", x.name, (abi_code(sym.type) if sym is not None else None, len(x.args))))
        return out

    def of(self, unit: str) -> tuple[Key, ...]:
        """What a kernel of ``unit`` takes: its own static storage and its compiled callees'."""
        if unit not in self._of:
            self._of[unit] = ()  # no recursion among compiled units; guards a cycle anyway
            keys = list(self._own[unit])
            for callee in self.callees(self.units[unit].body):
                keys += self.of(callee)
            self._of[unit] = tuple(sorted(set(keys), key=repr))
        return self._of[unit]

    def of_statements(self, u: ir.Unit, stmts: tuple[ir.Stmt, ...]) -> tuple[Key, ...]:
        """What the compiled callees called by ``stmts`` (of ``u``) take, and the
        ``--link`` routines they call."""
        keys: set[Key] = set(self.outside(u, stmts))
        for callee in self.callees(stmts):
            keys |= set(self.of(callee))
        return tuple(sorted(keys, key=repr))

    def callees(self, stmts: tuple[ir.Stmt, ...]) -> list[str]:
        out: dict[str, None] = {}
        for s in ir.walk(stmts):
            if isinstance(s, ir.Call) and s.name in self.compiled:
                out[s.name] = None
            for e in s.exprs():
                for x in e.walk():
                    if isinstance(x, ir.FuncRef) and x.name in self.compiled and x.kind not in ("intrinsic", "statement"):
                        out[x.name] = None
        return list(out)

    # ---------------------------------------------------------------- places of scalars

    def block_slots(self, block: str) -> dict[int, tuple[str, int]]:
        """Slot of each scalar member of a COMMON block -> (kind, position in its kind's array)."""
        out: dict[int, tuple[str, int]] = {}
        count: dict[str, int] = {}
        for k, (_, t, shape) in enumerate(self.facts.commons[block]):
            if shape is None:
                kind = ic.kind(t)
                out[k] = (kind, count.get(kind, 0))
                count[kind] = count.get(kind, 0) + 1
        return out

    def saved_slots(self, unit: str) -> list[tuple[str, int]]:
        """(kind, position) of each saved scalar of ``unit``, in the order of its frame's list."""
        u = self.units[unit]
        count: dict[str, int] = {}
        out = []
        for n in self.saved.get(unit, ()):
            kind = ic.kind(u.symbol(n).type)
            out.append((kind, count.get(kind, 0)))
            count[kind] = count.get(kind, 0) + 1
        return out


    def common_label(self, block: str, slot: int) -> str:
        """How the executor names the array at ``slot`` of a COMMON block: as the
        first unit declaring the block names it (the main program first)."""
        main = self.program.main
        for u in [main] + [u for u in self.program.units if u is not main]:
            for c in u.commons:
                if c.name == block:
                    return f"{u.name}.{c.members[slot]}"
        raise KeyError(block)


_KEY = 1000003


def shape_key_code(lo: list[str], hi: list[str]) -> str:
    """Code of a number that tells the bounds of an array apart (int64
    arithmetic, wrapping); :func:`shape_key` computes it in Python.  The
    constant bounds from the first on are folded here, wrapped to int64 as
    the kernel's arithmetic wraps: left to Python, a 4-D array's constant
    key is a literal beyond int64, which numba cannot type."""
    acc: int | None = len(lo)
    code = ""
    for a, b in zip(lo, hi):
        x, y = int_literal(a), int_literal(b)
        if acc is not None and x is not None and y is not None:
            acc = _wrapped((acc * _KEY + x) * _KEY + y)
            continue
        if acc is not None:
            code, acc = str(acc), None
        code = f"(({code}) * {_KEY} + {a}) * {_KEY} + {b}"
    return str(acc) if acc is not None else code


def shape_key(bounds) -> int:
    key = len(bounds)
    for a, b in bounds:
        key = (key * _KEY + a) * _KEY + b
    return _wrapped(key)


def _wrapped(key: int) -> int:
    """``key`` as int64 arithmetic leaves it (two's complement, 64 bits)."""
    key &= (1 << 64) - 1
    return key - (1 << 64) if key >> 63 else key
