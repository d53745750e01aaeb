"""Running fparser2 on one program unit, checking it read everything, and
locating the offending statement when it did not.

fparser2 reports a syntax error where the *unit* stopped matching (often its
END line) and sometimes returns a truncated tree with no error at all.  So
after a parse the reader must be exhausted and the tree must hold exactly the
unit, from its header to its END.  Otherwise the unit is checked statement by
statement (each one parsed alone), then its block structure; the first
statement that fails is the one reported.  This re-parsing only happens on
the error path: a valid unit is parsed once.
"""

from __future__ import annotations

import re

from fparser.common.readfortran import FortranStringReader
from fparser.common.sourceinfo import FortranFormat
from fparser.two import Fortran2003 as F
from fparser.two.parser import ParserFactory
from fparser.two.utils import StmtBase

from ..errors import FortranError
from . import classify
from .nesting import Item, nest
from .source import FIXED, FREE, Source
from .units import END, HEADER, UnitSource

_HEADERS = (F.Program_Stmt, F.Subroutine_Stmt, F.Function_Stmt, F.Block_Data_Stmt)
_ENDS = (F.End_Program_Stmt, F.End_Subroutine_Stmt, F.End_Function_Stmt, F.End_Block_Data_Stmt)
_LINE = re.compile(r"at line (\d+)")
_CHECK_UNIT = "AUTODIST_CHECK"

#: Block statements checked alone with their own fparser2 class.
_ROLE_CLASSES = {
    "do": (F.Label_Do_Stmt, F.Nonlabel_Do_Stmt),
    "if": (F.If_Then_Stmt,),
    "elseif": (F.Else_If_Stmt,),
    "else": (F.Else_Stmt,),
    "endif": (F.End_If_Stmt,),
    "enddo": (F.End_Do_Stmt,),
}


def make_parser():
    """An fparser2 parser for Fortran 2008 (a superset of what F77 code needs)."""
    return ParserFactory().create(std="f2008")


def _reader(text: str, form: str) -> FortranStringReader:
    reader = FortranStringReader(text, ignore_comments=True)
    reader.set_format(FortranFormat(form == FREE, False))
    return reader


def _run(parser, text: str, form: str):
    """(tree, leftover reader item or None, error message or None)."""
    reader = _reader(text, form)
    try:
        tree = parser(reader)
    except RecursionError:
        return None, None, "the parser's recursion limit was reached"
    except Exception as exc:  # fparser2 raises several unrelated classes
        return None, None, str(exc) or type(exc).__name__
    try:
        leftover = reader.next()
    except StopIteration:
        leftover = None
    return tree, leftover, None


def parse_unit(parser, us: UnitSource, source: Source):
    """The fparser2 node of the unit (Main_Program, Subroutine_Subprogram, ...)."""
    tree, leftover, message = _run(parser, us.text, source.form)
    if message is None and leftover is None and tree is not None:
        units = list(getattr(tree, "content", None) or ())
        if len(units) == 1:
            content = getattr(units[0], "content", None) or ()
            if content and isinstance(content[0], _HEADERS) and isinstance(content[-1], _ENDS):
                return units[0]
    hint = None
    if message is not None:
        m = _LINE.search(message)
        hint = int(m.group(1)) if m else None
    elif leftover is not None:
        hint = leftover.span[0]
    raise locate(parser, us, source, hint, message)


def _location(source: Source, first: int) -> tuple[str, int]:
    o = source.origins[first]
    return o.file, o.line


def _statement_parses(parser, role: str, text: str, code: tuple[str, ...], form: str) -> bool:
    if role in _ROLE_CLASSES:
        for cls in _ROLE_CLASSES[role]:
            try:
                if cls(text) is not None:
                    return True
            except Exception:
                continue
        return False
    if form == FIXED:
        snippet = [f"      SUBROUTINE {_CHECK_UNIT}", *code, "      END"]
    else:
        snippet = [f"SUBROUTINE {_CHECK_UNIT}", *code, "END"]
    tree, leftover, message = _run(parser, "\n".join(snippet) + "\n", form)
    if message is not None or leftover is not None or tree is None:
        return False
    unit = tree.content[0] if getattr(tree, "content", None) else None
    return unit is not None and len(list(_statements(unit))) >= 3  # header, the statement, END


def _statements(node):
    for child in getattr(node, "content", None) or ():
        if isinstance(child, StmtBase):
            yield child
        else:
            yield from _statements(child)


def locate(parser, us: UnitSource, source: Source, hint: int | None, message: str | None) -> FortranError:
    """The error for a unit fparser2 did not read: the first statement that does not
    parse alone, else the first block-structure mismatch, else fparser2's own line."""
    unit = us.unit
    code: dict[int, list[str]] = {}
    for line, ref in zip(us.lines, us.line_map):
        code.setdefault(ref.stmt, []).append(line)
    if unit.header_stmt is not None:
        _tree, leftover, msg = _run(parser, "\n".join(code.get(HEADER, []) + code.get(END, [])) + "\n", source.form)
        if msg is not None or leftover is not None:
            file, line = _location(source, unit.header_stmt.first)
            return FortranError(f"invalid program unit header: {unit.header_stmt.text}", file, line)
    items = []
    for k, st in enumerate(unit.statements):
        role, term = classify.structure(st.key)
        file, line = _location(source, st.first)
        note = us.notes[k]
        if note is None or note.opaque is None:
            if not _statement_parses(parser, role, st.text, tuple(code.get(k, ())), source.form):
                return FortranError(f"invalid statement: {st.text}", file, line)
        items.append(Item(role, st.label, file, line, term))
    nest(items, _NoBuild())  # raises on a block-structure mismatch
    ref = us.statement_at(hint) if hint is not None else us.line_map[-1]
    file, line = _location(source, ref.first)
    detail = (message or "").splitlines()[0] if message else "it stopped before the END statement"
    return FortranError(f"fparser2 cannot read this program unit here ({detail})", file, line)


class _NoBuild:
    """A nesting builder that builds nothing: used to check structure only."""

    def do(self, opener, body, closer):
        return None

    def if_(self, arms, closer):
        return None

    def cont(self, item):
        return None
