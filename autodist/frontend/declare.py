"""The specification statements of a program unit, read into its symbol table.

:class:`SpecificationStatements` is the part of
:class:`~autodist.frontend.decls.SymbolTable` that reads IMPLICIT, type
declarations, DIMENSION, PARAMETER, COMMON, EQUIVALENCE, DATA, SAVE, EXTERNAL
and INTRINSIC statements, INTERFACE blocks and statement functions (one
``_<fparser class>`` method per statement); the table itself keeps the
entries, resolves names and freezes the symbols.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fparser.two import Fortran2003 as F
from fparser.two.utils import walk

from .. import ir
from ..ir import Const, Expr, Name, Span, Type
from .fold import convert
from .intrinsics import INTRINSIC_SUBROUTINES, extension_function, is_intrinsic


@dataclass
class BlockMembers:
    """A COMMON block as its statements list it so far."""

    members: list[str] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)


class SpecificationStatements:
    """Readers of the specification statements (a mixin of the symbol table)."""

    def handle(self, node, span: Span) -> bool:
        """Read a specification statement; False when ``node`` is not one."""
        handler = getattr(self, "_" + type(node).__name__, None)
        if handler is None:
            return False
        self.span = span
        handler(node)
        return True

    def _Implicit_Stmt(self, node) -> None:
        if isinstance(node.items[0], str) and node.items[0].upper() == "NONE":
            self.implicit = {k: None for k in self.implicit}
            return
        for spec in node.items[0].items:
            t = self.type_spec(spec.items[0])
            for letters in spec.items[1].items:
                first, last = letters.items
                last = last or first
                for c in range(ord(first.upper()), ord(last.upper()) + 1):
                    self.implicit[chr(c)] = t

    def _Type_Declaration_Stmt(self, node) -> None:
        spec, attrs, entities = node.items
        base = self.type_spec(spec)
        is_param = False
        attr_dims = None
        for attr in getattr(attrs, "items", ()) or ():
            word = str(attr).upper()
            if isinstance(attr, F.Dimension_Attr_Spec):
                attr_dims = attr.items[1]
            elif word == "PARAMETER":
                is_param = True
            elif word == "EXTERNAL":
                for ent in entities.items:
                    self.entry(str(ent.items[0]).upper()).external = True
        for ent in entities.items:
            name_node, array_spec, length, init = ent.items
            name = str(name_node).upper()
            t = base
            if length is not None and base.base == "character":
                t = Type("character", self.char_length(length))
            elif length is not None:
                t = Type(base.base, self.int_constant(length, f"the size of {name}"))
            self.declare_type(name, t)
            if array_spec is not None or attr_dims is not None:
                self.declare_dims(name, array_spec if array_spec is not None else attr_dims)
            if "SAVE" in str(attrs or "").upper():
                self.entry(name).save = True
            if init is not None:
                value_node = init.items[1]
                if is_param:
                    self.define_parameter(name, value_node)
                else:
                    value = self.convert(value_node)
                    self.data.append(ir.Data((Name(name),), ((1, value),), self.span))
                    self.entry(name).in_data = True

    def _Dimension_Stmt(self, node) -> None:
        for name_node, spec in node.items[0]:
            self.declare_dims(str(name_node).upper(), spec)

    def define_parameter(self, name: str, value_node) -> None:
        t = self.type_now(name)
        value = self.constant(value_node, f"the value of PARAMETER {name}")
        converted = convert(value, t)
        if converted is None:
            raise self.error(f"PARAMETER {name}: a {value.type} value cannot be given to a {t} constant")
        e = self.entry(name)
        if e.is_param:
            raise self.error(f"PARAMETER {name} is defined twice")
        e.is_param, e.value = True, converted
        if t.base == "character" and t.size == 0:  # CHARACTER*(*): the value's length
            e.type = converted.type

    def _Parameter_Stmt(self, node) -> None:
        for definition in node.items[1].items:
            name_node, value_node = definition.items
            self.define_parameter(str(name_node).upper(), value_node)

    def _Common_Stmt(self, node) -> None:
        for block_name, objects in node.items[0]:
            block = "" if block_name is None else str(block_name).upper()
            b = self.blocks.setdefault(block, BlockMembers())
            b.spans.append(self.span)
            for obj in objects.items:
                if isinstance(obj, F.Common_Block_Object):
                    name = str(obj.items[0]).upper()
                    if obj.items[1] is not None:
                        self.declare_dims(name, obj.items[1])
                else:
                    name = str(obj).upper()
                e = self.entry(name)
                if e.common is not None:
                    where = f"/{e.common}/" if e.common else "blank COMMON"
                    raise self.error(f"{name} is already in COMMON {where}")
                if e.dummy:
                    raise self.error(f"dummy argument {name} cannot be in COMMON")
                e.common, e.common_index = block, len(b.members)
                b.members.append(name)

    def _Equivalence_Stmt(self, node) -> None:
        for eq_set in node.items[1].items:
            first, others = eq_set.items
            group = (self.convert(first),) + tuple(self.convert(o) for o in others.items)
            for expr in group:
                for e in expr.walk():
                    if isinstance(e, (Name, ir.Index)):
                        self.entry(e.name).equivalenced = True
                        break
            self.equivalences.append(group)

    def _Data_Stmt(self, node, holleriths: tuple[str, ...] = ()) -> None:
        pending = list(holleriths)
        for data_set in node.items:
            objects, values = data_set.items
            targets = tuple(self.convert.item(o) for o in objects.items)
            for t in targets:
                self._mark_data(t)
            pairs = []
            for v in values.items:
                count, constant = 1, v
                if isinstance(v, F.Data_Stmt_Value):
                    repeat, constant = v.items
                    if repeat is not None:
                        count = self.int_constant(repeat, "a DATA repeat count")
                expr = self.convert(constant)
                if pending and isinstance(expr, Const) and isinstance(expr.value, str) and _hollerith_chars(pending[0]) == expr.value:
                    expr = ir.OpaqueExpr(pending.pop(0), "Hollerith constant")
                pairs.append((count, expr))
            self.data.append(ir.Data(targets, tuple(pairs), self.span))

    def data_statement(self, node, span: Span, holleriths: tuple[str, ...]) -> None:
        self.span = span
        self._Data_Stmt(node, holleriths)

    def _mark_data(self, target: Expr) -> None:
        if isinstance(target, ir.ImpliedDo):
            for item in target.items:
                self._mark_data(item)
            return
        base = target
        while isinstance(base, ir.Substring):
            base = base.base
        if isinstance(base, (Name, ir.Index)):
            self.entry(base.name).in_data = True

    def _Save_Stmt(self, node) -> None:
        saved = node.items[1] if len(node.items) > 1 else None
        if saved is None:
            self.save_all = True
            return
        for item in saved.items:
            if isinstance(item, F.Saved_Entity):
                self.saved_blocks.append(str(item.items[1]).upper())
            else:
                self.entry(str(item).upper()).save = True

    def _Volatile_Stmt(self, node) -> None:
        # VOLATILE (a Fortran 2003 statement legacy codes use to keep a compiler
        # from folding a computation, as in LINPACK's EPSLON) changes nothing for
        # autodist: every reference is evaluated where the program makes it
        for n in node.items[1].items:
            self.entry(str(n).upper())

    def _External_Stmt(self, node) -> None:
        for n in node.items[1].items:
            self.entry(str(n).upper()).external = True

    def _Intrinsic_Stmt(self, node) -> None:
        for n in node.items[1].items:
            name = str(n).upper()
            if extension_function(name, []) is not None or name in INTRINSIC_SUBROUTINES:
                continue  # read as a procedure outside the program, of known type (see ``call``)
            if not is_intrinsic(name):
                raise self.error(f"{name} is not an intrinsic function")
            self.entry(name).intrinsic = True

    def interface_block(self, node) -> None:
        """The procedures an INTERFACE block declares are external; a function's
        result type is its prefix or the declaration of its result in the body
        (the block itself is kept as an opaque declaration)."""
        for body in walk(node, (F.Function_Body, F.Subroutine_Body)):
            prefix, name_node, _args, suffix = body.content[0].items
            e = self.entry(str(name_node).upper())
            e.external = True
            if isinstance(body, F.Subroutine_Body):
                continue
            e.function = True
            result = str(suffix.items[0]).upper() if suffix is not None and suffix.items[0] is not None else e.name
            specs = [p for p in getattr(prefix, "items", ()) if isinstance(p, F.Intrinsic_Type_Spec)]
            for decl in walk(body, F.Type_Declaration_Stmt):
                if any(str(ent.items[0]).upper() == result for ent in decl.items[2].items):
                    specs.append(decl.items[0])
            if specs and e.type is None and isinstance(specs[0], F.Intrinsic_Type_Spec):
                e.type = self.type_spec(specs[0])

    # -- statement functions -----------------------------------------------------

    def statement_function(self, node, span: Span) -> bool:
        """Read ``F(X, Y) = expr`` as a statement function when it is one."""
        if isinstance(node, F.Stmt_Function_Stmt):
            name_node, arg_list, expr_node = node.items
            arg_nodes = list(getattr(arg_list, "items", ()) or ())
        elif isinstance(node, F.Assignment_Stmt):
            lhs, _, expr_node = node.items
            if not isinstance(lhs, (F.Part_Ref, F.Structure_Constructor, F.Intrinsic_Function_Reference, F.Function_Reference)):
                return False
            name_node, arg_list = lhs.items
            arg_nodes = list(getattr(arg_list, "items", (arg_list,)) if arg_list is not None else ())
        else:
            return False
        name = str(name_node).upper()
        e = self.entries.get(name)
        if e is not None and (e.has_dims or e.is_param or e.dummy or e.common is not None):
            return False
        if not all(isinstance(a, F.Name) for a in arg_nodes):
            return False
        args = tuple(str(a).upper() for a in arg_nodes)
        if len(set(args)) != len(args):
            return False
        self.span = span
        self.shadow = frozenset(args)
        try:
            expr = self.convert(expr_node)
        finally:
            self.shadow = frozenset()
        e = self.entry(name)
        e.stmt_function = True
        e.span = e.span if e.type is not None else span
        self.stmt_functions.append(ir.StmtFunction(name, args, expr, span))
        return True

    # -- the end: arrays, COMMON blocks, symbols ---------------------------------


def _hollerith_chars(text: str) -> str:
    """The characters of a Hollerith constant ``nH...``."""
    i = text.upper().index("H")
    return text[i + 1 :]
