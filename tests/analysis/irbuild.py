"""Build small IR loop nests by hand (for tests that must not depend on the front end)."""

from __future__ import annotations

from autodist import ir

SPAN = ir.Span("t.f", 1, 1)


def c(v: int) -> ir.Const:
    return ir.Const(v, ir.INTEGER)


def lin(coefs: dict[str, int], const: int) -> ir.Expr:
    """``const + sum(coef * var)`` as an expression tree."""
    e: ir.Expr = c(const)
    for v, k in coefs.items():
        if k == 0:
            continue
        term: ir.Expr = ir.Name(v) if k == 1 else ir.BinOp("*", c(k), ir.Name(v))
        e = ir.BinOp("+", e, term)
    return e


def span(line: int) -> ir.Span:
    return ir.Span("t.f", line, line)


def do(var: str, lo: int, hi: int, body: tuple, line: int, step: int | None = None) -> ir.Do:
    last = max([line] + [s.span.last for s in body])
    return ir.Do(ir.Span("t.f", line, last + 1), None, var, c(lo), c(hi),
                 c(step) if step is not None else None, tuple(body))


def unit(body: tuple, arrays: dict[str, tuple[int, ...]], scalars: tuple[str, ...] = ()) -> ir.Unit:
    syms = [ir.Symbol(a, ir.DOUBLE, "variable", tuple(ir.Dim(c(1), c(n)) for n in shape))
            for a, shape in arrays.items()]
    syms += [ir.Symbol(s, ir.INTEGER if "I" <= s[0] <= "N" else ir.DOUBLE) for s in scalars]
    last = max(s.span.last for s in body) + 1
    return ir.Unit("program", "T", (), tuple(syms), tuple(body), ir.Span("t.f", 1, last), 1)
