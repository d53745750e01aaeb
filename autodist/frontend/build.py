"""One program unit: its fparser2 tree, statements and directives -> ``ir.Unit``.

The tree is flattened into its statements (whatever nesting fparser2 chose),
the specification part is read into the symbol table, the HPF directives and
preprocessor lines are put back among the statements by line number, and the
block structure is rebuilt by :func:`~autodist.frontend.nesting.nest`.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator, Sequence

from fparser.two import Fortran2003 as F
from fparser.two.utils import BlockBase, StmtBase

from .. import ir
from ..errors import FortranError
from ..ir import Span
from .decls import SymbolTable
from .lines import DirectiveText, PreprocLine
from .nesting import Item, nest
from .source import Source
from .stmts import IrBuilder, Where
from .units import END, HEADER, Note, UnitSource

#: Containers whose statements are read one by one; any other construct
#: (SELECT CASE, WHERE, CONTAINS, ...) is kept whole as one Opaque statement.
_TRANSPARENT = frozenset(
    {
        "Specification_Part",
        "Implicit_Part",
        "Execution_Part",
        "Block_Label_Do_Construct",
        "Block_Nonlabel_Do_Construct",
        "Action_Term_Do_Construct",
        "Outer_Shared_Do_Construct",
        "Inner_Shared_Do_Construct",
        "Shared_Term_Do_Construct",
        "Nonblock_Do_Construct",
        "If_Construct",
    }
)
#: Statements allowed anywhere after the header (not only in the specification part).
_ANYWHERE = (F.Format_Stmt, F.Entry_Stmt, F.Data_Stmt)
#: Specification statements read by the symbol table.
_SPEC = (
    F.Implicit_Stmt,
    F.Type_Declaration_Stmt,
    F.Dimension_Stmt,
    F.Parameter_Stmt,
    F.Common_Stmt,
    F.Equivalence_Stmt,
    F.Save_Stmt,
    F.Volatile_Stmt,
    F.External_Stmt,
    F.Intrinsic_Stmt,
)


def flatten(node, in_spec: bool = False) -> Iterator[tuple[object, bool, bool]]:
    """The statements inside ``node`` in order, as (node, is a whole construct,
    is inside fparser2's specification part)."""
    for child in getattr(node, "content", None) or ():
        if isinstance(child, StmtBase):
            yield child, False, in_spec
        elif isinstance(child, BlockBase) and type(child).__name__ in _TRANSPARENT:
            yield from flatten(child, in_spec or type(child).__name__ == "Specification_Part")
        elif isinstance(child, BlockBase):
            yield child, True, in_spec


@contextmanager
def _located(span: ir.Span):
    """Errors raised while converting one statement without a place (a
    literal out of range, say) get that statement's place."""
    try:
        yield
    except FortranError as exc:
        if exc.file is None:
            raise type(exc)(exc.message, span.file, span.first) from None
        raise


def _node_lines(node) -> tuple[int, int]:
    """First and last fparser2 lines of a statement or construct."""
    item = getattr(node, "item", None)
    if item is not None:
        return item.span
    lines = [_node_lines(c) for c in getattr(node, "content", None) or () if hasattr(c, "item") or hasattr(c, "content")]
    return (lines[0][0], lines[-1][1]) if lines else (1, 1)


@dataclass(frozen=True)
class Extras:
    """Lines of a unit that are not statements: HPF directives and ``#`` lines."""

    directives: tuple[DirectiveText, ...] = ()
    preprocs: tuple[PreprocLine, ...] = ()


class UnitReader:
    """Reads one unit (a builder local to that unit)."""

    def __init__(self, us: UnitSource, source: Source, program_units: frozenset[str] = frozenset()):
        self.us = us
        self.source = source
        self.program_units = program_units
        self.header = us.unit.header
        self.file = self.span_of(us.line_map[0].first, us.line_map[0].first).file

    def span_of(self, first: int, last: int) -> Span:
        a, b = self.source.origins[first], self.source.origins[last]
        if a.file == b.file and b.line >= a.line:
            return Span(a.file, a.line, b.line)
        top = self.source.file
        return Span(top, a.top_line, max(a.top_line, b.top_line))

    def top_line(self, index: int) -> int:
        return self.source.origins[index].top_line

    # -- pieces ---------------------------------------------------------------------

    def _header_parts(self, node) -> tuple[tuple[str, ...], object]:
        header = node.content[0]
        args: tuple[str, ...] = ()
        type_spec = None
        if isinstance(header, (F.Subroutine_Stmt, F.Function_Stmt)):
            prefix, _name, arg_list = header.items[0], header.items[1], header.items[2]
            args = tuple(str(a).upper() for a in getattr(arg_list, "items", ()) or ())
            for p in getattr(prefix, "items", (prefix,)) if prefix is not None else ():
                if isinstance(p, F.Intrinsic_Type_Spec):
                    type_spec = p
        return args, type_spec

    def read(self, node, extras: Extras) -> ir.Unit:
        us, h = self.us, self.header
        unit_span = self.span_of(us.line_map[0].first, us.line_map[-1].last)
        args, type_spec = self._header_parts(node)
        table = SymbolTable(h.kind, h.name, args, unit_span, preprocessed=bool(extras.preprocs),
                            program_units=self.program_units)
        if type_spec is not None:
            table.entry(h.name).type = table.type_spec(type_spec)
        builder = IrBuilder(table, self.span_of)
        parts = self._statements(node, table, builder)
        directives = self._place_extras(extras, parts)
        end = us.unit.end
        if end.label is not None:  # a GO TO the END line: a CONTINUE closing the body
            cont = ir.Continue(self.span_of(end.first, end.last), end.label)
            parts.body.append((end.first, Item("stmt", end.label, cont.span.file, cont.span.first, payload=cont)))
        body = tuple(nest([item for _, item in sorted(parts.body, key=lambda pair: pair[0])], builder))
        check_labels(body, h.kind, h.name)
        return ir.Unit(
            kind=h.kind,
            name=h.name,
            args=args,
            symbols=table.symbols(),
            body=body,
            span=unit_span,
            decl_end=parts.decl_end,
            commons=table.commons(),
            equivalences=tuple(table.equivalences),
            data=tuple(table.data),
            stmt_functions=tuple(table.stmt_functions),
            directives=directives,
            prefixes=h.prefixes,
            result=h.name if h.kind == "function" else None,
            result_type=table.result_type(),
            opaque_decls=tuple(o for _, o in sorted(parts.opaque_decls, key=lambda pair: pair[0])),
        )

    def _statements(self, node, table: SymbolTable, builder: IrBuilder) -> "_Parts":
        """Read the specification statements into ``table``; the others become items."""
        us = self.us
        parts = _Parts(decl_end=self.top_line(us.line_map[0].last) if us.unit.header_stmt else self.top_line(us.unit.first) - 1)
        first_exec: int | None = None  # line of the first executable statement
        for child, whole, spec_section in flatten(node):
            a, b = _node_lines(child)
            ref, ref_last = us.statement_at(a), us.statement_at(b)
            if ref.stmt in (HEADER, END):
                continue
            record = us.unit.statements[ref.stmt]
            note = us.notes[ref.stmt] or Note()
            first, last = ref.first, ref_last.last
            where = Where(self.span_of(first, last), first, last)
            with _located(where.span):
                opaque, text = note.opaque, record.text
                if whole:
                    opaque = f"not modelled: {type(child).__name__}"
                    if ref_last.stmt >= 0 and ref_last.stmt != ref.stmt:
                        text = f"{record.text} ... {us.unit.statements[ref_last.stmt].text}"
                in_spec = first_exec is None
                if opaque is None and isinstance(child, _SPEC):
                    if not in_spec:
                        raise FortranError(
                            f"specification statement after the first executable statement (line {first_exec}): {text}",
                            where.span.file,
                            where.span.first,
                        )
                    known = len(table.conflicts)
                    table.handle(child, where.span)
                    parts.opaque_decls.extend((first, c) for c in table.conflicts[known:])
                elif opaque is None and isinstance(child, F.Data_Stmt):
                    table.data_statement(child, where.span, note.holleriths)
                    if not in_spec:
                        continue
                elif in_spec and opaque is None and table.statement_function(child, where.span):
                    pass
                elif in_spec and spec_section and not isinstance(child, (F.Assignment_Stmt, *_ANYWHERE)):
                    reason = opaque or f"not modelled: {type(child).__name__}"
                    if isinstance(child, F.Interface_Block) and note.opaque is None:
                        table.interface_block(child)
                        parts.interfaces.append((first, last))
                        reason = "interface block: the procedures it names are external, its bodies and their directives are not read"
                    elif isinstance(child, F.Derived_Type_Def) and note.opaque is None:
                        reason = ("derived type definition: objects of the type are opaque (kept whole and replicated,"
                                  " their components not modelled)")
                    parts.opaque_decls.append((first, ir.Opaque(where.span, record.label, text, reason)))
                else:
                    if in_spec and not isinstance(child, _ANYWHERE):
                        first_exec, parts.first_exec = where.span.first, first
                        table.finish_spec()
                    parts.body.append((first, builder.item(child, where, record.label, text, opaque, note.holleriths)))
                    if first_exec is not None:
                        continue
            parts.decl_end = max(parts.decl_end, self.top_line(last))
        table.finish_spec()
        return parts

    def _place_extras(self, extras: Extras, parts: "_Parts") -> tuple[ir.Directive, ...]:
        """Directives and ``#`` lines before the first executable statement belong to the
        specification part (returned / ``opaque_decls``); later ones are body items."""
        limit = parts.first_exec
        directives = []
        placed: list[tuple[int, ir.Stmt]] = []
        for d in extras.directives:
            if any(a <= d.first <= b for a, b in parts.interfaces):
                continue  # an interface body's own directives (its dummies' mapping): not read
            placed.append((d.first, ir.Directive(self.span_of(d.lines[0], d.lines[-1]), None, d.text, d.sentinel)))
        for p in extras.preprocs:
            placed.append((p.line, ir.Opaque(self.span_of(p.line, p.line), None, p.text, "preprocessor line (not expanded)")))
        for index, stmt in placed:
            if limit is not None and index > limit:
                parts.body.append((index, Item("stmt", None, stmt.span.file, stmt.span.first, payload=stmt)))
            elif isinstance(stmt, ir.Directive):
                directives.append(stmt)
            else:
                parts.opaque_decls.append((index, stmt))
        return tuple(directives)


@dataclass
class _Parts:
    """What :meth:`UnitReader._statements` found (a builder, local to one unit)."""

    decl_end: int
    first_exec: int | None = None  # physical line index of the first executable statement
    body: list[tuple[int, Item]] = field(default_factory=list)  # (physical line, item)
    opaque_decls: list[tuple[int, ir.Opaque]] = field(default_factory=list)
    interfaces: list[tuple[int, int]] = field(default_factory=list)  # physical lines of interface blocks


def _references(stmt: ir.Stmt) -> list[int]:
    if isinstance(stmt, ir.Goto):
        return [stmt.target]
    if isinstance(stmt, ir.ComputedGoto):
        return list(stmt.targets)
    if isinstance(stmt, ir.ArithIf):
        return [stmt.neg, stmt.zero, stmt.pos]
    if isinstance(stmt, ir.Io):
        refs = [stmt.fmt] if isinstance(stmt.fmt, int) else []
        refs += [e.value for k, e in stmt.specs if k in ("END", "ERR", "EOR") and isinstance(e, ir.Const)]
        return refs  # type: ignore[return-value]
    return []


def check_labels(body: Sequence[ir.Stmt], kind: str, name: str) -> None:
    """Labels defined twice, and branches to labels that do not exist, are errors."""
    defined: dict[int, ir.Stmt] = {}
    uses: list[tuple[int, ir.Stmt]] = []
    opaque_construct = False
    for stmt in ir.walk(tuple(body)):
        if stmt.label is not None and not isinstance(stmt, ir.Directive):
            if stmt.label in defined and defined[stmt.label].span != stmt.span:
                other = defined[stmt.label].span
                raise FortranError(f"label {stmt.label} is defined twice (also at line {other.first})", stmt.span.file, stmt.span.first)
            defined[stmt.label] = stmt
        if isinstance(stmt, ir.Opaque) and stmt.reason.startswith("not modelled"):
            opaque_construct = True
        uses.extend((label, stmt) for label in _references(stmt))
    if opaque_construct:
        return  # labels inside an opaque construct are not known
    for label, stmt in uses:
        if label not in defined:
            raise FortranError(f"label {label} is not defined in {kind.upper()} {name}", stmt.span.file, stmt.span.first)
