"""Dummy procedures: which routines reach each dummy procedure of each unit.

A FORTRAN 77 program passes a routine named in an EXTERNAL (or INTRINSIC)
statement as an actual argument, ``CALL SOLVE(N, BC)``, and the callee calls
it through its dummy, ``CALL BC(...)`` or ``F(X)`` in an expression.  The
translation calls the routine the dummy holds at run time (its name, a
string), among those that can reach it: :func:`procedure_bindings` follows
the names passed from unit to unit (also a dummy passed on) to a fixed point,
so each call through a dummy is translated once per routine that may arrive
there, each with that routine's own interface.
"""

from __future__ import annotations

from ... import ir

#: A routine that may reach a dummy procedure: its name and whether it is an intrinsic.
Target = tuple[str, bool]


def is_dummy_procedure(unit: ir.Unit, name: str) -> bool:
    """Whether ``name`` is a dummy procedure of ``unit`` (a dummy declared
    EXTERNAL, called, or typed and used as a function)."""
    sym = unit.symbol(name)
    return (sym is not None and sym.dummy and not sym.is_array and sym.kind in ("subroutine", "function")
            and name != (unit.result or unit.name))


def passed_procedure(unit: ir.Unit, e: ir.Expr) -> Target | None:
    """The routine the actual argument ``e`` passes (a name declared EXTERNAL
    or INTRINSIC, or one of the unit's dummy procedures, marked by its own
    name), or None when ``e`` is no procedure."""
    if not isinstance(e, ir.Name):
        return None
    sym = unit.symbol(e.name)
    if sym is None or sym.is_array or sym.kind not in ("subroutine", "function", "intrinsic"):
        return None
    if unit.kind == "function" and e.name == (unit.result or unit.name):
        return None  # the FUNCTION's result variable
    return (e.name, sym.kind == "intrinsic")


def _references(unit: ir.Unit):
    """Every reference of ``unit`` to another routine: (name, arguments)."""
    for s in ir.walk(unit.body):
        if isinstance(s, ir.Call):
            yield s.name, s.args
        for e in s.exprs():
            for x in e.walk():
                if isinstance(x, ir.FuncRef) and x.kind == "external":
                    yield x.name, x.args


def procedure_bindings(program: ir.Program) -> dict[tuple[str, str], tuple[Target, ...]]:
    """For each (unit, dummy procedure), the routines that may be passed to it
    (sorted): the names passed at every reference to the unit, a dummy
    procedure passed on standing for every routine that reaches it (also
    through a call of a dummy procedure)."""
    units = {u.name: u for u in program.units}
    bound: dict[tuple[str, str], set[Target]] = {
        (u.name, d): set() for u in program.units for d in u.args if is_dummy_procedure(u, d)}
    # (caller, name called, position, what is passed): a routine, or the caller's dummy
    passes: list[tuple[str, str, int, Target | None, str | None]] = []
    for u in program.units:
        for name, args in _references(u):
            for k, a in enumerate(args):
                p = passed_procedure(u, a)
                if p is not None:
                    dummy = p[0] if is_dummy_procedure(u, p[0]) else None
                    passes.append((u.name, name, k, None if dummy else p, dummy))
    changed = True
    while changed:
        changed = False
        for caller, name, k, routine, dummy in passes:
            if is_dummy_procedure(units[caller], name):  # called through a dummy: every routine there
                callees = [t for t, intrinsic in bound[(caller, name)] if not intrinsic and t in units]
            else:
                callees = [name] if name in units else []
            given = {routine} if routine is not None else bound[(caller, dummy)]
            for c in callees:
                key = (c, units[c].args[k]) if k < len(units[c].args) else None
                if key in bound and not given <= bound[key]:
                    bound[key] |= given
                    changed = True
    return {k: tuple(sorted(v)) for k, v in bound.items()}
