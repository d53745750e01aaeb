"""Program units of one source, and the text fparser2 reads for each of them.

Units are found here, from the statements, before fparser2 sees anything:
fparser2 silently drops every unit after a main program without a PROGRAM
statement, so such a main program is given a ``PROGRAM MAIN`` line, and each
unit is parsed on its own.  The text fparser2 reads is the unit's code lines
without comments, directives or preprocessor lines; a few statements are given
in another form (a header without its HPF prefixes, deleted features as
CONTINUE, Holleriths in DATA and as actual arguments as strings).  :attr:`UnitSource.line_map` maps
every line of that text back to the statement it stands for.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import FortranError
from . import classify
from .classify import Header
from .lines import Scan, Statement, code_line
from .source import FIXED, Source


@dataclass(frozen=True)
class UnitText:
    """The statements of one program unit (``header_stmt`` is None for a main
    program without a PROGRAM statement)."""

    header: Header
    header_stmt: Statement | None
    statements: tuple[Statement, ...]  # between the header and END, both excluded
    end: Statement

    @property
    def first(self) -> int:
        return (self.header_stmt or (self.statements[0] if self.statements else self.end)).first


@dataclass(frozen=True)
class Note:
    """How fparser2 reads a statement differently from its text: ``opaque`` is the
    reason it was given as CONTINUE; ``holleriths`` the Hollerith constants of a
    DATA statement, or the actual arguments of a statement, given as strings, in order."""

    opaque: str | None = None
    holleriths: tuple[str, ...] = ()


HEADER = -1
END = -2


@dataclass(frozen=True)
class LineRef:
    """What one line of the fparser2 text stands for: a statement of the unit
    (index into :attr:`UnitText.statements`, or :data:`HEADER` / :data:`END`)."""

    stmt: int
    first: int  # physical line indices in Source.lines
    last: int


@dataclass(frozen=True)
class UnitSource:
    unit: UnitText
    lines: tuple[str, ...]
    line_map: tuple[LineRef, ...]
    notes: tuple[Note | None, ...]  # per statement

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    def statement_at(self, fparser_line: int) -> LineRef:
        index = min(max(fparser_line, 1), len(self.line_map)) - 1
        return self.line_map[index]


def split_units(scan: Scan, source: Source) -> tuple[UnitText, ...]:
    """The program units of ``scan``, in order; an unterminated unit is an error."""
    units: list[UnitText] = []
    pending: list[Statement] = []
    contains = False  # the unit has a CONTAINS: headers open internal subprograms
    interfaces = 0  # open INTERFACE blocks: headers open interface bodies
    nested = 0  # open internal subprograms and interface bodies
    for st in scan.statements:
        key = st.key
        if not pending and classify.is_module(st):
            o = source.origins[st.first]
            raise FortranError(f"Fortran 90 modules are not supported: {st.text}", o.file, o.line)
        if key == "CONTAINS":
            contains = True
        elif key.startswith("INTERFACE") or key.startswith("ABSTRACTINTERFACE"):
            interfaces += 1
        elif key.startswith("ENDINTERFACE"):
            interfaces = max(0, interfaces - 1)
        elif (contains or interfaces) and pending and classify.header(st) is not None:
            nested += 1
        if classify.is_end(st) and nested:
            nested -= 1
            pending.append(st)
            continue
        if classify.is_end(st):
            contains = False
            if not pending:
                o = source.origins[st.first]
                raise FortranError("END statement without a program unit before it", o.file, o.line)
            units.append(_unit(pending, st))
            pending = []
        else:
            pending.append(st)
    if pending:
        unit_header = classify.header(pending[0])
        o = source.origins[pending[0].first]
        what = f"{unit_header.kind} {unit_header.name}" if unit_header else "main program"
        raise FortranError(f"{what} has no END statement", o.file, o.line)
    return tuple(units)


def _unit(statements: list[Statement], end: Statement) -> UnitText:
    if statements:
        h = classify.header(statements[0])
        if h is not None:
            return UnitText(h, statements[0], tuple(statements[1:]), end)
    return UnitText(Header("program", "MAIN", (), "PROGRAM MAIN"), None, tuple(statements), end)


def unit_source(unit: UnitText, form: str) -> UnitSource:
    """The text fparser2 reads for ``unit``, with its line map and notes."""
    fixed = form == FIXED
    lines: list[str] = []
    refs: list[LineRef] = []
    notes: list[Note | None] = []

    def emit(text: str, stmt: int, first: int, last: int) -> None:
        lines.append(text)
        refs.append(LineRef(stmt, first, last))

    hs = unit.header_stmt
    first = hs.first if hs else unit.first
    emit(code_line(None, unit.header.text, fixed), HEADER, first, hs.last if hs else first)
    for k, st in enumerate(unit.statements):
        note = None
        reason = classify.deleted_feature(st, fixed)
        actuals = classify.actual_rewrite(st, fixed) if reason is not None else None
        if actuals is not None:  # Holleriths as actual arguments: as strings, marked by the IR builder
            note = Note(holleriths=actuals[1])
            emit(code_line(st.label, actuals[0], fixed), k, st.first, st.last)
        elif reason is not None:
            note = Note(opaque=reason)
            emit(code_line(st.label, "CONTINUE", fixed), k, st.first, st.last)
        elif (data := classify.data_rewrite(st, fixed)) is not None:
            note = Note(holleriths=data[1])
            emit(code_line(st.label, data[0], fixed), k, st.first, st.last)
        elif (canon := classify.canonical(st)) is not None:
            emit(code_line(st.label, canon, fixed), k, st.first, st.last)
        elif (power := classify.power_rewrite(st, fixed)) is not None:
            emit(code_line(st.label, power, fixed), k, st.first, st.last)
        elif (inner := classify.header(st)) is not None and inner.prefixes:
            # an interface body or internal subprogram with HPF prefixes fparser2 does not know
            emit(code_line(st.label, inner.text, fixed), k, st.first, st.last)
        else:
            for code, index in zip(st.code, st.lines):
                emit(code, k, index, index)
        notes.append(note)
    emit(code_line(None, "END", fixed), END, unit.end.first, unit.end.last)
    return UnitSource(unit, tuple(lines), tuple(refs), tuple(notes))
