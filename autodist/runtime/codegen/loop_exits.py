"""EXIT and CYCLE (Fortran 90 statements that F77 programs with extensions
use) as the jumps they are.

The front end keeps them as opaque statements (the analysis treats a loop
holding one conservatively).  Before translation, :func:`lower_loop_exits`
rewrites each into a GO TO: EXIT to a CONTINUE placed right after its loop,
CYCLE to a CONTINUE placed at the end of its loop's body (after the
terminating statement of a labelled DO, which CYCLE skips too), with labels
no Fortran label can take (above 99999).  The translation of GO TO then does
the rest (a jump out of nested Python loops and dispatchers included); a DO
left by EXIT keeps its variable's value, as a GO TO out of it does.
"""

from __future__ import annotations

from dataclasses import replace

from ... import ir
from .facts import unsupported

_FIRST_LABEL = 1_000_000


def exit_kind(s: ir.Stmt) -> str | None:
    """"EXIT" or "CYCLE" when ``s`` is one (unnamed), else None."""
    if isinstance(s, ir.Opaque):
        words = s.text.split()
        if words and words[0].upper() in ("EXIT", "CYCLE") and s.reason.startswith("not modelled"):
            if len(words) > 1:
                raise unsupported(f"{words[0].upper()} of a named construct ({s.text.strip()!r})", s.span)
            return words[0].upper()
    return None


def lower_loop_exits(unit: ir.Unit) -> ir.Unit:
    """``unit`` with every EXIT and CYCLE a GO TO (the unit itself when it has none);
    one outside any loop is an error naming its line."""
    if not any(exit_kind(s) for s in ir.walk(unit.body)):
        return unit
    counter = [_FIRST_LABEL]

    def fresh() -> int:
        counter[0] += 1
        return counter[0]

    def stmts(body: tuple[ir.Stmt, ...], loop: tuple[int, int] | None) -> tuple[ir.Stmt, ...]:
        out: list[ir.Stmt] = []
        for s in body:
            kind = exit_kind(s)
            if kind is not None:
                if loop is None:
                    raise unsupported(f"{kind} outside a DO loop", s.span)
                out.append(ir.Goto(s.span, s.label, loop[0] if kind == "EXIT" else loop[1]))
            elif isinstance(s, (ir.Do, ir.DoWhile)) and any(exit_kind(x) for x in ir.walk(s.body)):
                after, end = fresh(), fresh()
                end_span = ir.Span(s.span.file, s.span.last, s.span.last)
                new_body = stmts(s.body, (after, end)) + (ir.Continue(end_span, end),)
                out.append(replace(s, body=new_body))
                out.append(ir.Continue(end_span, after))
            elif isinstance(s, (ir.Do, ir.DoWhile)):
                out.append(s)
            elif isinstance(s, ir.If):
                out.append(replace(s, branches=tuple(replace(b, body=stmts(b.body, loop)) for b in s.branches)))
            else:
                out.append(s)
        return tuple(out)

    return replace(unit, body=stmts(unit.body, None))
