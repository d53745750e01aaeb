"""Helpers of the front-end tests: reading inline snippets and outlining statements."""

from __future__ import annotations

from autodist import ir
from autodist.errors import FortranError
from autodist.frontend import read_text


def snippet(text: str) -> str:
    """A triple-quoted snippet (starting with a newline) without the indentation of the
    test code: the indentation of its closing line is removed from every line (so
    fixed-form columns survive even when no line starts in column 1)."""
    if not text.startswith("\n"):
        return text
    lines = text[1:].split("\n")
    indent = len(lines[-1]) if not lines[-1].strip() else 0
    return "\n".join(line[indent:] if not line[:indent].strip() else line for line in lines[:-1]) + "\n"


def read(text: str, filename: str = "t.f", **kwargs) -> ir.Program:
    """Read a snippet (see :func:`snippet`)."""
    return read_text(snippet(text), filename, **kwargs)


def error_of(text: str, filename: str = "t.f", **kwargs) -> str:
    """The one-line message of the FortranError that reading the snippet raises."""
    try:
        read(text, filename, **kwargs)
    except FortranError as err:
        return str(err)
    raise AssertionError("no FortranError was raised")


def unit(text: str, filename: str = "t.f", **kwargs) -> ir.Unit:
    """The only unit of a snippet."""
    program = read(text, filename, **kwargs)
    assert len(program.units) == 1, [u.name for u in program.units]
    return program.units[0]


def outline(stmts) -> list:
    """A compact, exact picture of a statement tree:
    ``("Do", var, first, last, term_label, [body...])``, ``("If", first, [[arm]...])``,
    ``(ClassName, label, first)`` for the others."""
    out = []
    for s in stmts:
        if isinstance(s, ir.Do):
            out.append(("Do", s.var, s.span.first, s.span.last, s.term_label, outline(s.body)))
        elif isinstance(s, ir.DoWhile):
            out.append(("DoWhile", s.span.first, s.span.last, s.term_label, outline(s.body)))
        elif isinstance(s, ir.If):
            out.append(("If" if not s.logical else "LogicalIf", s.span.first, [outline(b.body) for b in s.branches]))
        else:
            out.append((type(s).__name__, s.label, s.span.first))
    return out


def loops(stmts) -> list:
    """Only the loops: ``(var, first line, [inner loops])``."""
    out = []
    for s in stmts:
        if isinstance(s, ir.Do):
            out.append((s.var, s.span.first, loops(s.body)))
        else:
            for block in s.blocks():
                out.extend(loops(block))
    return out


def sym(u: ir.Unit, name: str) -> ir.Symbol:
    s = u.symbol(name)
    assert s is not None, f"{name} not in {[x.name for x in u.symbols]}"
    return s


def c(value, t: ir.Type = ir.INTEGER) -> ir.Const:
    return ir.Const(value, t)
