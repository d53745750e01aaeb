"""fparser2 executable statements -> nesting items and IR statements.

Each statement becomes one :class:`~autodist.frontend.nesting.Item`: block
statements (DO, IF ... THEN, ELSE, END IF, END DO) carry a small *head*
record, every other statement carries its ``ir.Stmt``.  :class:`IrBuilder`
then makes the ``ir.Do`` / ``ir.DoWhile`` / ``ir.If`` nodes when
:func:`~autodist.frontend.nesting.nest` closes a block.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from fparser.two import Fortran2003 as F

from .. import ir
from ..errors import FortranError
from ..ir import INTEGER, LOGICAL, Const, Expr, Span
from .arrayassign import NotLowered, lower_array_assignment, lower_forall
from .decls import SymbolTable
from .exprs import DERIVED_COMPONENT, label_of
from .nesting import Item


@dataclass(frozen=True)
class Where:
    """A statement's place: its span and its physical line indices (for joins)."""

    span: Span
    first: int
    last: int


@dataclass(frozen=True)
class DoHead:
    where: Where
    label: int | None
    var: str | None  # None for DO WHILE
    start: Expr | None = None
    end: Expr | None = None
    step: Expr | None = None
    cond: Expr | None = None


@dataclass(frozen=True)
class ArmHead:
    where: Where
    label: int | None
    cond: Expr | None


_IO_KINDS = {
    F.Print_Stmt: "print",
    F.Write_Stmt: "write",
    F.Read_Stmt: "read",
    F.Open_Stmt: "open",
    F.Close_Stmt: "close",
    F.Rewind_Stmt: "rewind",
    F.Backspace_Stmt: "backspace",
    F.Endfile_Stmt: "endfile",
    F.Inquire_Stmt: "inquire",
}
_LABEL_SPECS = ("END", "ERR", "EOR")


class IrBuilder:
    """Builds the IR statements of one unit (a builder local to that unit)."""

    def __init__(self, table: SymbolTable, span_of: Callable[[int, int], Span]):
        self.table = table
        self.expr = table.convert
        self.span_of = span_of
        self.last_line: dict[int, int] = {}  # id(stmt) -> last physical line index

    # -- nesting.Builder ---------------------------------------------------------

    def _end(self, body: list, fallback: int) -> int:
        for stmt in reversed(body):
            if id(stmt) in self.last_line:
                return self.last_line[id(stmt)]
        return fallback

    def _record(self, stmt: ir.Stmt, last: int) -> ir.Stmt:
        self.last_line[id(stmt)] = last
        return stmt

    def do(self, opener: Item, body: list, closer: Item | None) -> ir.Stmt:
        head: DoHead = opener.payload  # type: ignore[assignment]
        last = closer.payload.last if closer is not None else self._end(body, head.where.last)  # type: ignore[union-attr]
        span = self.span_of(head.where.first, last)
        if head.var is None:
            stmt: ir.Stmt = ir.DoWhile(span, head.label, head.cond, tuple(body), opener.term)  # type: ignore[arg-type]
        else:
            _check_do_variable(head.var, body, span)
            stmt = ir.Do(span, head.label, head.var, head.start, head.end, head.step, tuple(body), opener.term)  # type: ignore[arg-type]
        return self._record(stmt, last)

    def if_(self, arms: list[tuple[Item, list]], closer: Item) -> ir.Stmt:
        branches = []
        for k, (item, body) in enumerate(arms):
            head: ArmHead = item.payload  # type: ignore[assignment]
            end = arms[k + 1][0].payload.where.first if k + 1 < len(arms) else closer.payload.last  # type: ignore[union-attr]
            branches.append(ir.Branch(head.cond, tuple(body), self.span_of(head.where.first, end)))
        first: ArmHead = arms[0][0].payload  # type: ignore[assignment]
        last = closer.payload.last  # type: ignore[union-attr]
        return self._record(ir.If(self.span_of(first.where.first, last), first.label, tuple(branches)), last)

    def cont(self, item: Item) -> ir.Stmt:
        where: Where = item.payload  # type: ignore[assignment]
        return self._record(ir.Continue(where.span, item.label), where.last)

    # -- statements ----------------------------------------------------------------

    def item(self, node, where: Where, label: int | None, text: str, opaque: str | None,
             holleriths: tuple[str, ...] = ()) -> Item:
        """The nesting item of one executable fparser2 statement (``holleriths``:
        the Hollerith actual arguments it was given to fparser2 with as strings)."""
        self.table.span = where.span
        file, line = where.span.file, where.span.first
        if isinstance(node, F.Label_Do_Stmt):
            return Item("do", label, file, line, label_of(node.items[1]), self._do_head(node.items[2], where, label))
        if isinstance(node, F.Nonlabel_Do_Stmt):
            return Item("do", label, file, line, None, self._do_head(node.items[1], where, label))
        if isinstance(node, F.If_Then_Stmt):
            return Item("if", label, file, line, payload=ArmHead(where, label, self.expr(node.items[0])))
        if isinstance(node, F.Else_If_Stmt):
            return Item("elseif", label, file, line, payload=ArmHead(where, label, self.expr(node.items[0])))
        if isinstance(node, F.Else_Stmt):
            return Item("else", label, file, line, payload=ArmHead(where, label, None))
        if isinstance(node, F.End_If_Stmt):
            return Item("endif", label, file, line, payload=where)
        if isinstance(node, F.End_Do_Stmt):
            return Item("enddo", label, file, line, payload=where)
        stmt = self.statement(node, where.span, label, text, opaque)
        if holleriths and opaque is None:
            stmt = _with_holleriths(stmt, holleriths, text)
        return Item("stmt", label, file, line, payload=self._record(stmt, where.last))

    def _do_head(self, control, where: Where, label: int | None) -> DoHead:
        if control is None:  # DO ... END DO without control: forever
            return DoHead(where, label, None, cond=Const(True, LOGICAL))
        cond, counter = control.items[0], control.items[1]
        if cond is not None:
            return DoHead(where, label, None, cond=self.expr(cond))
        var_node, bounds = counter
        var = str(var_node).upper()
        self.table.entry(var)
        step = self.expr(bounds[2]) if len(bounds) > 2 and bounds[2] is not None else None
        if isinstance(step, Const) and step.value == 0:
            raise FortranError(f"DO {var}: the step is zero", where.span.file, where.span.first)
        return DoHead(where, label, var, self.expr(bounds[0]), self.expr(bounds[1]), step)

    def statement(self, node, span: Span, label: int | None, text: str, opaque: str | None) -> ir.Stmt:
        """The IR of a non-block statement (also the action of a logical IF)."""
        if opaque is not None:
            return ir.Opaque(span, label, text, opaque)
        if isinstance(node, F.Assignment_Stmt):
            target = self.expr(node.items[0])
            if isinstance(target, ir.OpaqueExpr) and target.reason == DERIVED_COMPONENT:
                return ir.Opaque(span, label, text, "assignment to a derived-type component (not modelled)")
            if isinstance(target, ir.Name) and self.table.is_derived(target.name):
                return ir.Opaque(span, label, text, "derived-type assignment (not modelled)")
            if isinstance(target, ir.OpaqueExpr) or (isinstance(target, ir.Name) and self.table.is_array(target.name)):
                try:
                    return lower_array_assignment(self.table, self.expr, node, span, label)
                except NotLowered as why:
                    return ir.Opaque(span, label, text, f"array assignment (Fortran 90): {why}")
            return ir.Assign(span, label, target, self.expr(node.items[2]))
        if isinstance(node, F.Forall_Stmt):
            try:
                return lower_forall(self.table, node, span, label)
            except NotLowered as why:
                return ir.Opaque(span, label, text, f"FORALL statement: {why}")
        if isinstance(node, F.If_Stmt):
            cond, action = node.items
            inner = self.statement(action, span, None, str(action), None)
            return ir.If(span, label, (ir.Branch(self.expr(cond), (inner,), span),), logical=True)
        if isinstance(node, F.Arithmetic_If_Stmt):
            expr, neg, zero, pos = node.items
            return ir.ArithIf(span, label, self.expr(expr), label_of(neg), label_of(zero), label_of(pos))
        if isinstance(node, F.Goto_Stmt):
            return ir.Goto(span, label, label_of(node.items[0]))
        if isinstance(node, F.Computed_Goto_Stmt):
            targets, expr = node.items
            return ir.ComputedGoto(span, label, tuple(label_of(t) for t in targets.items), self.expr(expr))
        if isinstance(node, F.Continue_Stmt):
            return ir.Continue(span, label)
        if isinstance(node, F.Call_Stmt):
            name = str(node.items[0]).upper()
            self.table.called(name)
            args = node.items[1]
            convert = self.expr.actuals if self.table.is_own_routine(name) else self.expr.args
            return ir.Call(span, label, name, convert(args) if args is not None else ())
        if isinstance(node, F.Return_Stmt):
            if node.items and node.items[0] is not None:
                return ir.Opaque(span, label, text, "alternate RETURN")
            return ir.Return(span, label)
        if isinstance(node, F.Stop_Stmt):
            code = node.items[1] if len(node.items) > 1 else None
            return ir.Stop(span, label, None if code is None else self.expr(code))
        if isinstance(node, F.Format_Stmt):
            return ir.Io(span, label, "format", None, None, (), _format_text(text))
        if _io_kind(node) is not None:
            return self.io(node, span, label, text)
        if isinstance(node, F.Entry_Stmt):
            return ir.Opaque(span, label, text, ir.ENTRY_REASON)
        return ir.Opaque(span, label, text, f"not modelled: {type(node).__name__}")

    # -- I/O --------------------------------------------------------------------------

    def _spec_value(self, keyword: str, value) -> Expr:
        if keyword in _LABEL_SPECS or isinstance(value, F.Label):
            return Const(label_of(value), INTEGER)
        return self.expr(value)

    def io(self, node, span: Span, label: int | None, text: str) -> ir.Io:
        kind = _io_kind(node)
        unit: Expr | None = None
        fmt: object = None
        specs: list[tuple[str, Expr]] = []
        items: tuple[Expr, ...] = ()
        if kind == "print":
            fmt = self._format(node.items[0])
            items = self._items(node.items[1])
        elif kind in ("read", "write"):
            controls = node.items[0]
            if kind == "read" and controls is None:  # READ fmt, list
                fmt = self._format(node.items[1])
            positional = 0
            for spec in getattr(controls, "items", ()) or ():
                keyword, value = spec.items
                keyword = keyword.upper() if isinstance(keyword, str) else None
                if keyword is None:
                    keyword = ("UNIT", "FMT")[min(positional, 1)]
                    positional += 1
                if keyword == "UNIT":
                    unit = None if str(value).strip() == "*" else self.expr(value)
                elif keyword in ("FMT", "NML"):
                    fmt = self._format(value)
                else:
                    specs.append((keyword, self._spec_value(keyword, value)))
            items = self._items(node.items[-1])
        else:
            unit, specs = self._position_specs(node, kind)
        return ir.Io(span, label, kind, unit, fmt, items, text, tuple(specs))

    def _position_specs(self, node, kind: str) -> tuple[Expr | None, list[tuple[str, Expr]]]:
        unit: Expr | None = None
        specs: list[tuple[str, Expr]] = []
        if kind in ("rewind", "backspace", "endfile") and node.items[0] is not None:
            return self.expr(node.items[0]), specs
        spec_list = next((i for i in node.items if i is not None and not isinstance(i, str)), None)
        for spec in getattr(spec_list, "items", ()) or ():
            keyword, value = spec.items
            keyword = keyword.upper() if isinstance(keyword, str) else "UNIT"
            if keyword == "UNIT":
                unit = None if str(value).strip() == "*" else self.expr(value)
            else:
                specs.append((keyword, self._spec_value(keyword, value)))
        return unit, specs

    def _format(self, value) -> object:
        if value is None:
            return None
        if str(value).strip() == "*":
            return "*"
        if isinstance(value, F.Label) or isinstance(value, F.Int_Literal_Constant):
            return label_of(value)
        expr = self.expr(value)
        if isinstance(expr, Const) and isinstance(expr.value, str):
            return expr.value
        return expr

    def _items(self, item_list) -> tuple[Expr, ...]:
        if item_list is None or isinstance(item_list, str):
            return ()
        return tuple(self.expr.item(i) for i in getattr(item_list, "items", (item_list,)))


def _check_do_variable(var: str, body: list, span: Span) -> None:
    """A DO variable may not be redefined inside its loop (Fortran 77, 11.10.5):
    not by an inner DO, an assignment or a READ."""
    for s in ir.walk(body):
        at = f"line {s.span.first}" if s.span.file == span.file else str(s.span)
        if isinstance(s, ir.Do) and s.var == var:
            what = f"by the DO loop at {at}"
        elif isinstance(s, ir.Assign) and isinstance(s.target, ir.Name) and s.target.name == var:
            what = f"by the assignment at {at}"
        elif isinstance(s, ir.Io) and any(isinstance(t, ir.Name) and t.name == var for t in s.targets()):
            what = f"by the {s.kind.upper()} at {at}"
        else:
            continue
        raise FortranError(f"the DO variable {var} is redefined inside its loop ({what})", span.file, span.first)


def _io_kind(node) -> str | None:
    for cls, kind in _IO_KINDS.items():
        if isinstance(node, cls):
            return kind
    return None


def _format_text(text: str) -> str:
    """The format of a FORMAT statement's text: from its first parenthesis."""
    i = text.find("(")
    return text[i:].strip() if i >= 0 else text


#: Why a statement with a Hollerith constant is opaque (``ir.Opaque``).
HOLLERITH = "Hollerith constant outside FORMAT (deleted feature)"


def _with_holleriths(stmt: ir.Stmt, sources: tuple[str, ...], text: str) -> ir.Stmt:
    """``stmt`` with the strings standing for the Hollerith constants ``sources``
    made :class:`ir.Hollerith` where they are actual arguments of a CALL or of an
    external function; an opaque statement when one is not found there (an
    intrinsic's argument, say)."""
    pending = [ir.Hollerith.of(x) for x in sources]

    def actual(a: Expr) -> Expr:
        if isinstance(a, ir.FuncRef) and a.kind == "external":
            return ir.FuncRef(a.name, tuple(actual(x) for x in a.args), a.kind)
        if type(a) is Const and isinstance(a.value, str):
            k = next((k for k, h in enumerate(pending) if h.chars == a.value), None)
            if k is not None:
                return pending.pop(k)
        return a

    def marked(e: Expr) -> Expr:
        return actual(e) if isinstance(e, ir.FuncRef) else e

    def statement(s: ir.Stmt) -> ir.Stmt:
        if isinstance(s, ir.Call):
            return ir.Call(s.span, s.label, s.name, tuple(actual(a) for a in s.args))
        if isinstance(s, ir.If):  # IF (cond) CALL ...
            return replace(s, branches=tuple(
                replace(b, cond=None if b.cond is None else ir.map_exprs(b.cond, marked),
                        body=tuple(statement(x) for x in b.body)) for b in s.branches))
        return ir.map_exprs(s, marked)

    out = statement(stmt)
    return ir.Opaque(stmt.span, stmt.label, text, HOLLERITH) if pending else out
