"""The call graph over all program units (networkx); recursion is an error."""

from __future__ import annotations

import networkx as nx

from .. import ir
from ..errors import FortranError, RecursionInProgram


def call_sites(unit: ir.Unit) -> list[tuple[str, ir.Span]]:
    """(callee, where) for every CALL and external function reference in ``unit``."""
    out: list[tuple[str, ir.Span]] = []
    for s in unit.statements():
        if isinstance(s, ir.Call):
            out.append((s.name, s.span))
        for e in s.exprs():
            for x in e.walk():
                if isinstance(x, ir.FuncRef) and x.kind == "external":
                    out.append((x.name, s.span))
    for sf in unit.stmt_functions:
        for x in sf.expr.walk():
            if isinstance(x, ir.FuncRef) and x.kind == "external":
                out.append((x.name, sf.span))
    return out


def call_graph(program: ir.Program) -> nx.DiGraph:
    """Nodes: unit names (and external names called but not defined, with
    ``defined=False``); edges caller -> callee with the call sites."""
    g = nx.DiGraph()
    for u in program.units:
        g.add_node(u.name, defined=True, kind=u.kind)
    for u in program.units:
        for callee, span in call_sites(u):
            if callee not in g:
                g.add_node(callee, defined=False, kind="external")
            if g.has_edge(u.name, callee):
                g.edges[u.name, callee]["sites"].append(span)
            else:
                g.add_edge(u.name, callee, sites=[span])
    return g


def check_arguments(program: ir.Program) -> None:
    """Raise FortranError at the first reference to a unit of the program with another
    number of actual arguments than the unit has dummies (Fortran 77 requires them to
    agree; the runtime and the interprocedural analysis pair them by position)."""
    units = {u.name: u for u in program.units if u.kind in ("subroutine", "function")}

    def check(name: str, n: int, span: ir.Span, what: str) -> None:
        callee = units.get(name)
        if callee is not None and len(callee.args) != n:
            raise FortranError(
                f"{what} {name} with {n} argument{'s' * (n != 1)}, but {name} "
                f"({callee.span.file}:{callee.span.first}) has {len(callee.args)}",
                span.file,
                span.first,
            )

    for u in program.units:
        for s in u.statements():
            if isinstance(s, ir.Call):
                check(s.name, len(s.args), s.span, "CALL")
            for e in s.exprs():
                for x in e.walk():
                    if isinstance(x, ir.FuncRef) and x.kind == "external":
                        check(x.name, len(x.args), s.span, "reference to")


def check_recursion(program: ir.Program, g: nx.DiGraph) -> None:
    """Raise RecursionInProgram naming the cycle and where it starts."""
    try:
        cycle = nx.find_cycle(g)
    except nx.NetworkXNoCycle:
        return
    names = [a for a, _ in cycle] + [cycle[0][0]]
    first = cycle[0]
    span = g.edges[first]["sites"][0]
    raise RecursionInProgram(
        f"recursion is not allowed in Fortran 77: {' -> '.join(names)}", span.file, span.first
    )


def bottom_up(g: nx.DiGraph) -> list[str]:
    """Defined units, callees before callers (the order DDT analyzes them)."""
    order = list(reversed(list(nx.topological_sort(g))))
    return [n for n in order if g.nodes[n].get("defined")]
