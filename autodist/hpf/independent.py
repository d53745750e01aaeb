"""Which DO loops the ``INDEPENDENT`` directives of a unit name: the DO
right after each one (``INDEPENDENT(I, J)`` also the loops it names nested
inside it); one before a FORALL names nothing (a FORALL is parallel as it
stands); a specification directive among executable statements is an
error (used by :mod:`.resolve`)."""

from __future__ import annotations

from .. import ir
from . import model as m
from .parse import parse_directive
from .values import hpf_error


def independent_loops(unit: ir.Unit) -> tuple[dict[int, m.Independent], tuple[m.Unsupported, ...]]:
    found: dict[int, m.Independent] = {}
    unsupported: list[m.Unsupported] = []

    def block(stmts: tuple[ir.Stmt, ...]) -> None:
        for i, s in enumerate(stmts):
            if isinstance(s, ir.Directive):
                for d in parse_directive(s):
                    if isinstance(d, m.Unsupported):
                        unsupported.append(d)
                    elif isinstance(d, m.SPECIFICATION):
                        raise hpf_error(f"{type(d).__name__.upper()} is a specification directive and cannot stand among executable statements", d.span)
                    elif isinstance(d, m.Independent):
                        nxt = next((t for t in stmts[i + 1 :] if not isinstance(t, ir.Directive)), None)
                        if _is_forall(nxt):
                            continue  # a FORALL: its elements are independent as it stands
                        if not isinstance(nxt, ir.Do):
                            raise hpf_error("INDEPENDENT must be followed by a DO loop or a FORALL", d.span)
                        _attach(d, nxt, found)
            for b in s.blocks():
                block(b)

    # a front end may keep an INDEPENDENT that precedes the first executable
    # statement among the specification directives
    first = next((t for t in unit.body if not isinstance(t, ir.Directive)), None)
    for raw in unit.directives:
        for d in parse_directive(raw):
            if isinstance(d, m.Independent):
                if _is_forall(first) and unit.decl_end < raw.span.first < first.span.first:
                    continue
                if not isinstance(first, ir.Do) or not unit.decl_end < raw.span.first < first.span.first:
                    raise hpf_error("INDEPENDENT must stand right before a DO loop, not in the specification part", d.span)
                _attach(d, first, found)
    block(unit.body)
    return found, tuple(unsupported)


def _is_forall(stmt: ir.Stmt | None) -> bool:
    """A FORALL statement: the loop the front end made of it, or the opaque statement."""
    if isinstance(stmt, ir.Do) and stmt.lowered:
        return True
    return isinstance(stmt, ir.Opaque) and stmt.reason.startswith("FORALL")


def _attach(d: m.Independent, do: ir.Do, found: dict[int, m.Independent]) -> None:
    if not d.loops:
        found[do.span.first] = d
        return
    if do.var not in d.loops:
        raise hpf_error(f"INDEPENDENT({', '.join(d.loops)}) names {', '.join(d.loops)} but the DO loop that follows runs over {do.var}", d.span)
    nest = do
    remaining = [v for v in d.loops if v != do.var]
    found[do.span.first] = d
    while remaining:
        # the named loop may follow other statements of the body (Hpfc's
        # imperfect nests: ``ICOLOR = ...`` before ``DO J``); it must be the one DO there
        loops = [t for t in nest.body if isinstance(t, ir.Do)]
        inner = loops[0] if len(loops) == 1 else None
        if inner is None or inner.var not in remaining:
            raise hpf_error(f"INDEPENDENT({', '.join(d.loops)}): no DO {remaining[0]} nested right inside DO {nest.var}", d.span)
        found[inner.span.first] = d
        remaining.remove(inner.var)
        nest = inner
