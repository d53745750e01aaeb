"""Interprocedural constant propagation of scalar dummy arguments.

EISPACK-style routines receive their sizes as arguments (``TRED2(NM, N, A, D,
E, Z)``).  When every call of a unit passes the same integer constant for a
scalar dummy that the unit never modifies, the dummy is that constant: it is
substituted everywhere in the unit (array bounds, loop limits, conditions),
so trip counts and array shapes become known.  Callers are specialized before
their callees, so constants flow down call chains.  A unit whose name is
passed as an actual argument (a procedure argument, called under another
name) is not specialized.
"""

from __future__ import annotations

import dataclasses

from .. import ir
from .callgraph import bottom_up, call_graph
from .scalars import scalars_assigned


def _fold(e: ir.Expr) -> ir.Expr:
    """Fold integer +, -, * and negation of constants (bounds like N+1 after substitution)."""
    if (isinstance(e, ir.BinOp) and e.op in (ir.Op.ADD, ir.Op.SUB, ir.Op.MUL)
            and isinstance(e.left, ir.Const) and isinstance(e.right, ir.Const)) or (
            isinstance(e, ir.UnOp) and e.op == ir.UnaryOp.NEG and isinstance(e.operand, ir.Const)):
        v = ir.int_value(e)
        if v is not None:
            return ir.Const(v, ir.INTEGER)
    return e


def _passed(program: ir.Program) -> set[str]:
    """The units whose names are actual arguments somewhere."""
    names = {u.name for u in program.units}
    out: set[str] = set()
    for u in program.units:
        for s in u.statements():
            args = list(s.args) if isinstance(s, ir.Call) else []
            args += [a for e in s.exprs() for x in e.walk() if isinstance(x, ir.FuncRef) for a in x.args]
            out |= {a.name for a in args if isinstance(a, ir.Name) and a.name in names}
    return out


def specialize(program: ir.Program) -> tuple[ir.Program, dict[str, dict[str, int]]]:
    """The program with constant scalar dummies substituted; also returns
    ``{unit: {dummy: value}}`` for reports."""
    g = call_graph(program)
    order = list(reversed(bottom_up(g)))  # callers first
    units = {u.name: u for u in program.units}
    passed = _passed(program)
    found: dict[str, dict[str, int]] = {}
    for name in order:
        unit = units[name]
        if not unit.args or g.in_degree(name) == 0 or name in passed:
            continue
        values: dict[int, set[int | None]] = {}
        for caller in g.predecessors(name):
            cu = units.get(caller)
            if cu is None:
                continue
            for s in cu.statements():
                if isinstance(s, ir.Call) and s.name == name:
                    for k in range(len(unit.args)):
                        a = s.args[k] if k < len(s.args) else None
                        values.setdefault(k, set()).add(ir.constant(a) if a is not None else None)
        modified = scalars_assigned(unit.body)
        subst: dict[str, int] = {}
        for k, dummy in enumerate(unit.args):
            sym = unit.symbol(dummy)
            vals = values.get(k, {None})
            if sym is None or sym.is_array or sym.type.base != "integer" or dummy in modified:
                continue
            if len(vals) == 1 and None not in vals:
                subst[dummy] = next(iter(vals))  # type: ignore[assignment]
        if not subst:
            continue
        found[name] = subst

        def fn(e: ir.Expr) -> ir.Expr:
            if isinstance(e, ir.Name) and e.name in subst:
                return ir.Const(subst[e.name], ir.INTEGER)
            return _fold(e)

        units[name] = ir.map_exprs(unit, fn)
    if not found:
        return program, {}
    new = dataclasses.replace(program, units=tuple(units[u.name] for u in program.units))
    return new, found
