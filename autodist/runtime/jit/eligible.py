"""Which procedures and loop phases compiled code can run, and why not the others.

Compiled code runs statements on numbers in local storage; it returns to
Python for everything else.  A statement list needs Python when it holds

* I/O (any READ, WRITE, PRINT, OPEN, ...; FORMAT is no statement that runs),
* REDISTRIBUTE or REALIGN (communication),
* CHARACTER or COMPLEX data, substrings,
* a call of a gfortran extension routine or of a procedure of the program
  that is not compiled itself (``--link`` routines are called from compiled
  code);

and a unit needs it also when its storage is associated (EQUIVALENCE, COMMON
blocks declared unlike).  :func:`unit_reasons` answers for every unit, a
callee's reason making its callers' (calls between compiled procedures stay
compiled); :func:`statements_reason` for one list (a phase's loop).
"""

from __future__ import annotations

from ... import ir
from ...hpf import model as hm
from ...hpf.parse import parse_directive
from ..codegen.facts import ProgramFacts
from ..fortran.extensions import ROUTINES

_TYPES = {"character": "CHARACTER data", "complex": "COMPLEX data"}


def _expr_reason(e: ir.Expr, unit: ir.Unit, facts: ProgramFacts, reasons: dict[str, str], seen=()) -> str | None:
    for x in e.walk():
        if isinstance(x, ir.Const) and (isinstance(x.value, (str, complex)) or x.type.base in _TYPES):
            return _TYPES.get(x.type.base, "CHARACTER data")
        if isinstance(x, ir.Substring):
            return "CHARACTER data"
        if isinstance(x, (ir.Name, ir.Index, ir.FuncRef)):
            sym = unit.symbol(x.name)
            if sym is not None and sym.type.base in _TYPES and sym.kind != "subroutine":
                return _TYPES[sym.type.base]
        if isinstance(x, ir.FuncRef) and x.kind == "statement" and x.name not in seen:
            sf = next((s for s in unit.stmt_functions if s.name == x.name), None)
            if sf is not None:
                why = _expr_reason(sf.expr, unit, facts, reasons, seen + (x.name,))
                if why:
                    return why
        if isinstance(x, ir.FuncRef) and x.kind not in ("intrinsic", "statement"):
            why = _callee_reason(x.name, facts, reasons)
            if why:
                return why
    return None


def _callee_reason(name: str, facts: ProgramFacts, reasons: dict[str, str]) -> str | None:
    if name not in facts.units:
        if name in ROUTINES:
            return f"calls {name} (a gfortran extension routine, run in Python)"
        if name in facts.linked:
            return None  # called through its function pointer (see .units.KernelTranslator.linked_call)
        return f"calls {name}, which is not a procedure of the program"
    why = reasons.get(name)
    if why is None:
        return f"calls {name}, which calls back (recursion)"
    return f"calls {name}, which is not compiled" if why else None


def statements_reason(stmts: tuple[ir.Stmt, ...], unit: ir.Unit, facts: ProgramFacts,
                      reasons: dict[str, str]) -> str:
    """Why the statements need Python (``""``: they do not); ``reasons`` are the
    units' own (:func:`unit_reasons`, "" for a compiled one)."""
    for s in ir.walk(stmts):
        line = f"line {s.span.first}: "
        if isinstance(s, ir.Io):
            why = io_reason(s, unit)
            if why:
                return line + why
            for item in s.items:
                if not _text(item):
                    why = _expr_reason(item, unit, facts, reasons)
                    if why:
                        return line + why
            continue
        if isinstance(s, ir.Opaque):
            return f"{line}{s.text.strip()!r}"
        if isinstance(s, ir.Directive):
            if any(isinstance(d, (hm.Redistribute, hm.Realign)) for d in parse_directive(s)):
                return f"{line}REDISTRIBUTE or REALIGN (communication)"
            continue
        if isinstance(s, ir.Call):
            why = _callee_reason(s.name, facts, reasons)
            if why:
                return line + why
        if isinstance(s, ir.Assign) and isinstance(s.target, ir.Substring):
            return f"{line}CHARACTER data"
        for e in s.exprs():
            why = _expr_reason(e, unit, facts, reasons)
            if why:
                return line + why
    return ""


def _text(e: ir.Expr) -> bool:
    return isinstance(e, ir.Const) and isinstance(e.value, str)


def io_reason(s: ir.Io, unit: ir.Unit) -> str:
    """Why a kernel cannot run the I/O statement ``s`` ("" when it can: FORMAT,
    and PRINT or WRITE of numbers and text constants to a unit, which the kernel
    hands to the executor's output, see :mod:`.units`)."""
    if s.kind == "format":
        return ""
    if s.kind not in ("print", "write"):
        return f"{str(s.kind).upper()} (I/O runs in Python)"
    if s.specs or s.fmt is None or not (s.fmt == "*" or isinstance(s.fmt, int) or _text(s.fmt)
                                        or isinstance(s.fmt, str)):
        return f"this {str(s.kind).upper()} (I/O runs in Python)"
    for item in s.items:
        if isinstance(item, ir.ImpliedDo) or (isinstance(item, ir.Name) and (unit.symbol(item.name) is not None
                                                                               and unit.symbol(item.name).is_array)):
            return f"{str(s.kind).upper()} of arrays (I/O runs in Python)"
    return ""


def own_reason(u: ir.Unit, facts: ProgramFacts) -> str:
    """Why the unit itself (not its statements) needs Python."""
    if u.kind == "blockdata":
        return "BLOCK DATA"
    st = facts.storage
    if st.aliased.get(u.name) or st.local_scalars(u) or st.places.get(u.name) or any(
            st.associated(c.name) for c in u.commons):
        return "storage association (EQUIVALENCE or COMMON blocks declared unlike)"
    for sym in u.arrays:
        if ir.is_automatic(u, sym) and sym.type.base in _TYPES:
            return f"automatic array {sym.name}: {_TYPES[sym.type.base]}"
    for d in u.args:
        sym = u.symbol(d)
        if sym is not None and sym.dummy and not sym.is_array and sym.kind in ("subroutine", "function"):
            return f"dummy procedure {d}"
        if sym is not None and sym.type.base in _TYPES:
            return f"dummy {d}: {_TYPES[sym.type.base]}"
    if u.kind == "function" and (u.result_type or ir.REAL).base in _TYPES:
        return f"a {_TYPES[(u.result_type or ir.REAL).base]} result"
    return ""


def unit_reasons(program: ir.Program, facts: ProgramFacts, failed: dict[str, str] | None = None) -> dict[str, str]:
    """Per unit, why it is not compiled ("" when it is); ``failed``: units whose
    kernel could not be written, and why."""
    failed = failed or {}
    reasons: dict[str, str] = {}
    state: dict[str, int] = {}

    def visit(u: ir.Unit) -> str:
        if state.get(u.name) == 2:
            return reasons[u.name]
        state[u.name] = 1
        for s in ir.walk(u.body):
            names = [s.name] if isinstance(s, ir.Call) else []
            names += [x.name for e in s.exprs() for x in e.walk()
                      if isinstance(x, ir.FuncRef) and x.kind not in ("intrinsic", "statement")]
            for n in names:
                callee = facts.units.get(n)
                if callee is not None and state.get(n) != 1:
                    visit(callee)
        why = failed.get(u.name) or own_reason(u, facts) or statements_reason(u.body, u, facts, reasons)
        reasons[u.name] = why
        state[u.name] = 2
        return why

    for u in program.units:
        visit(u)
    return reasons
