"""Calls with more actual arguments than the procedure has dummies.

Fortran 77 requires the numbers to agree; gfortran only warns ("More actual
than formal arguments in procedure call") and the procedure never sees the
extra ones, so legacy programs keep such calls (a function once given an
argument it no longer takes).  The reader drops the extra actuals, with a
note, when evaluating them has no effect (no function reference among
them); otherwise, and when actuals are missing, the analysis refuses the call
(:func:`autodist.analysis.callgraph.check_arguments`).
"""

from __future__ import annotations

import dataclasses

from .. import ir


def drop_extra_actuals(units: tuple[ir.Unit, ...]) -> tuple[tuple[ir.Unit, ...], tuple[tuple[ir.Span, str], ...]]:
    """``units`` with the extra actuals of their calls dropped, and a note per call."""
    procedures = {u.name: u for u in units if u.kind in (ir.UnitKind.SUBROUTINE, ir.UnitKind.FUNCTION)}
    dummies = {name: len(u.args) for name, u in procedures.items()}

    def extra(name: str, args: tuple[ir.Expr, ...]) -> int:
        n = dummies.get(name)
        if n is None or len(args) <= n:
            return 0
        if any(isinstance(x, ir.FuncRef) and x.kind != "intrinsic" for a in args[n:] for x in a.walk()):
            return 0  # evaluating them may do something: refused by the analysis
        return len(args) - n

    notes: list[tuple[ir.Span, str]] = []
    for u in units:
        for s in u.statements():
            refs = [("CALL", s.name, s.args)] if isinstance(s, ir.Call) else []
            refs += [("reference to", x.name, x.args) for e in s.exprs() for x in e.walk()
                     if isinstance(x, ir.FuncRef) and x.kind == "external"]
            for what, name, args in refs:
                k = extra(name, args)
                if k:
                    callee = procedures[name]
                    notes.append((s.span, f"{what} {name} with {len(args)} argument{'s' * (len(args) != 1)}, but {name} "
                                          f"({callee.span.file}:{callee.span.first}) has {dummies[name]}: "
                                          f"the extra {'one is' if k == 1 else f'{k} are'} ignored, as gfortran does"))
    if not notes:
        return units, ()

    def trim(node):
        if isinstance(node, ir.Call) or (isinstance(node, ir.FuncRef) and node.kind == "external"):
            k = extra(node.name, node.args)
            if k:
                return dataclasses.replace(node, args=node.args[:len(node.args) - k])
        return node

    return tuple(ir.map_nodes(u, trim) for u in units), tuple(notes)
