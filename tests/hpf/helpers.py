"""Helpers for the HPF tests: units built by hand (the front end is not needed)."""

from __future__ import annotations

from autodist import ir

FILE = "prog.f"


def span(line: int, last: int | None = None) -> ir.Span:
    return ir.Span(FILE, line, line if last is None else last)


def const(v: int) -> ir.Const:
    return ir.Const(v, ir.INTEGER)


def array(name: str, *bounds, dummy: bool = False) -> ir.Symbol:
    """``array("A", 10, (0, 11))``: extents or (lower, upper) pairs; None for ``*``."""
    dims = []
    for b in bounds:
        if b is None:
            dims.append(ir.Dim(const(1), None))
        elif isinstance(b, tuple):
            lo, hi = b
            dims.append(ir.Dim(const(lo) if isinstance(lo, int) else lo, const(hi) if isinstance(hi, int) else hi))
        elif isinstance(b, ir.Expr):
            dims.append(ir.Dim(const(1), b))
        else:
            dims.append(ir.Dim(const(1), const(b)))
    return ir.Symbol(name, ir.REAL, dims=tuple(dims), dummy=dummy, span=span(1))


def scalar(name: str, dummy: bool = False) -> ir.Symbol:
    return ir.Symbol(name, ir.INTEGER, dummy=dummy, span=span(1))


def parameter(name: str, value: int) -> ir.Symbol:
    return ir.Symbol(name, ir.INTEGER, kind="parameter", value=const(value), span=span(1))


def directive(text: str, line: int) -> ir.Directive:
    return ir.Directive(span(line), None, text, "CHPF$")


def make_unit(symbols, directives=(), body=(), kind="subroutine", prefixes=(), first_line=2) -> ir.Unit:
    """A unit whose specification directives stand on lines first_line, first_line+1, ..."""
    ds = tuple(directive(t, first_line + i) for i, t in enumerate(directives))
    args = tuple(s.name for s in symbols if s.dummy)
    return ir.Unit(
        kind=kind,
        name="SUB",
        args=args,
        symbols=tuple(symbols),
        body=tuple(body),
        span=span(1, 100),
        decl_end=first_line - 1,
        directives=ds,
        prefixes=tuple(prefixes),
    )


def do(var: str, line: int, body=(), last: int | None = None) -> ir.Do:
    return ir.Do(span(line, last or line + 1 + len(body)), None, var, const(1), const(10), None, tuple(body))
