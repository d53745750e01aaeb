"""Sizes the main program relates: a COMMON scalar it sets once from others
it has set before (NPB's ``NZ2 = GRID_POINTS(3) - 2`` after reading or
defaulting the grid) equals that expression wherever another unit reads it.

:func:`relations` finds them over :mod:`.knownvalues`' variables (``cells``),
definitions and solved values; :func:`related_names` gives a unit's names for
them and the expression in its own names.  The kill analysis uses them
(:attr:`.knownvalues.Propagation.related`): a work array written up to
``GRID_POINTS(3)-1`` then covers reads up to ``NZ2+1``.
"""

from __future__ import annotations

import networkx as nx

from .. import ir
from .callgraph import call_graph

def main_name(program: ir.Program) -> str:
    return next((u.name for u in program.units if u.kind == ir.UnitKind.PROGRAM), "")


def relations(program: ir.Program, cells, defs, solver) -> dict[tuple, ir.Expr]:
    """COMMON scalars that equal an expression of other COMMON variables
    wherever they are defined: ``NZ2 = GRID_POINTS(3) - 2`` in the main
    program, with GRID_POINTS read or defaulted before it.  Such a scalar
    *V* (not fixed) has one definition, an assignment at the top level of
    the main program (run once, in order); every variable *W* its right-hand
    side reads is COMMON and defined only in the main program, before that
    assignment and outside any loop (READ, assignment or DATA); no jump of
    the main program from that assignment or after it goes back to it or
    before it; no unit run before it sees V.  After the assignment V = f(W)
    holds for good, and before it V has no value to read.  Cell -> f(W)."""
    main = program.unit(main_name(program)) if main_name(program) else None
    if main is None:
        return {}
    where: dict[tuple[str, int], tuple[int, bool]] = {}  # (file, line) -> (top-level index, in a loop)
    labels: dict[int, int] = {}
    jumps: list[tuple[int, ir.Stmt]] = []

    def visit(stmts: tuple[ir.Stmt, ...], k: int, loop: bool) -> None:
        for st in stmts:
            inner = loop or isinstance(st, (ir.Do, ir.DoWhile))
            where.setdefault((st.span.file, st.span.first), (k, inner))
            if st.label is not None:
                labels[st.label] = k
            if ir.branch_targets(st) or (isinstance(st, ir.Opaque) and "GO" in st.text.upper().replace(" ", "")):
                jumps.append((k, st))
            for b in st.blocks():
                visit(b, k, inner)

    for k, top in enumerate(main.body):
        visit((top,), k, False)
    loops: list[tuple[int, int]] = []  # (target, source) of the jumps back: what they run again
    for k, st in jumps:
        if isinstance(st, ir.Opaque):  # an assigned GO TO: anywhere
            loops.append((0, len(main.body)))
            continue
        loops += [(labels.get(t, 0), k) for t in ir.branch_targets(st) if labels.get(t, 0) <= k]
    graph = call_graph(program)
    units = {u.name: u for u in program.units}

    def run_before(k: int) -> set[str]:
        """The units the main program may run before its statement ``k``."""
        first = {x.name for st in ir.walk(main.body[:k])
                 for x in ([st] if isinstance(st, ir.Call) else []) + ir.external_calls(st)}
        reach = set(first)
        for c in first:
            if c in graph:
                reach |= nx.descendants(graph, c)
        return reach

    out: dict[tuple, ir.Expr] = {}
    for cell, ds in defs.of.items():
        st = solver.state_of(cell)
        if cell[0] not in ("C", "B") or len(cell) != 3 or (isinstance(st, tuple) and st[1] == "fixed"):
            continue
        if len(solver.definitions(cell)) != 1 or ds[0].kind != "expr" or ds[0].unit != main.name:
            continue
        d = ds[0]
        at = where.get((d.span.file, d.span.first))
        top = main.body[at[0]] if at is not None else None
        if not isinstance(top, ir.Assign) or top.span != d.span or any(t <= at[0] <= k for t, k in loops):
            continue  # not a top-level assignment run once
        # a unit run before the assignment must not see V (the value it has
        # there, zero in most compilers' static storage, is not f(W))
        if any(u.name != main.name and any(cells.base(u.name, sym.name) == cell for sym in u.symbols)
               for n in run_before(at[0]) if (u := units.get(n)) is not None):
            continue
        seen: set[str] = set()
        ok = True
        for x in d.expr.walk():  # type: ignore[union-attr]
            if isinstance(x, ir.FuncRef) or isinstance(x, ir.OpaqueExpr):
                ok = False
            elif isinstance(x, (ir.Name, ir.Index)) and x.name not in seen:
                w = cells.scalar(main.name, x.name) if isinstance(x, ir.Name) else cells.element(main.name, x)
                if w is None or w[0] not in ("C", "B") or w == cell:
                    ok = False
                    break
                for wd in solver.definitions(w):
                    loc = where.get((wd.span.file, wd.span.first))
                    if wd.kind not in ("read", "expr", "const") or loc is None or loc[1] or loc[0] >= at[0] \
                            or (wd.kind != "read" and wd.unit not in ("", main.name)):
                        ok = False
                seen.add(x.name)
            if not ok:
                break
        if ok and seen:
            out[cell] = d.expr  # type: ignore[assignment]
    return out


def related_names(u: ir.Unit, related: dict, cells, main: str) -> dict[str, ir.Expr]:
    """Unit ``u``'s names of the related scalars (:func:`relations`) -> the
    expression they equal in ``u``'s own names (where ``u`` declares every
    variable of it, an array element at the same place of the block)."""
    if not related:
        return {}
    local: dict[tuple, str] = {}  # base cell -> the unit's name for it
    for sym in u.symbols:
        if sym.kind == ir.SymbolKind.VARIABLE and sym.common is not None:
            b = cells.base(u.name, sym.name)
            if b is not None:
                local.setdefault(b, sym.name)
    out: dict[str, ir.Expr] = {}
    for cell, expr in related.items():
        name = local.get(cell)
        if name is None:
            continue
        missing = False

        def to_local(x: ir.Expr) -> ir.Expr:
            nonlocal missing
            if not isinstance(x, (ir.Name, ir.Index)):
                return x
            w = cells.scalar(main, x.name) if isinstance(x, ir.Name) else cells.element(main, x)
            there = local.get(w if w is None or len(w) == 3 else w[:3]) if w is not None else None
            if there is None:
                missing = True
                return x
            y = ir.Name(there) if isinstance(x, ir.Name) else ir.Index(there, x.subscripts)
            if (cells.scalar(u.name, there) if isinstance(y, ir.Name) else cells.element(u.name, y)) != w:
                missing = True
            return y

        new = ir.map_exprs(expr, to_local)
        if not missing:
            out[name] = new
    return out


__all__ = ["main_name", "related_names", "relations"]
