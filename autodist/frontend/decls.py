"""The symbol table of one program unit, built from its specification statements.

:class:`SymbolTable` reads IMPLICIT, type declarations, DIMENSION, PARAMETER,
COMMON, EQUIVALENCE, DATA, SAVE, EXTERNAL and INTRINSIC statements and
statement functions, and resolves the names of every expression of the unit
(it is the :class:`~autodist.frontend.exprs.Scope` of the unit's expressions):
an array name with arguments is an element reference, a PARAMETER name is its
folded value, an intrinsic name not declared otherwise is an intrinsic call.
At the end, :meth:`SymbolTable.symbols` freezes everything into ``ir.Symbol``
records.  The table is a builder local to the reading of one unit.
"""

from __future__ import annotations

from dataclasses import dataclass

from fparser.two import Fortran2003 as F

from .. import ir
from ..errors import FortranError
from ..ir import INTEGER, NOTYPE, REAL, Const, Dim, Expr, Name, Span, Type
from .declare import SpecificationStatements, BlockMembers
from .exprs import ExprConverter
from .fold import convert, evaluate, fold
from .intrinsics import extension_function, is_intrinsic, is_standard, result_type
from .typeof import type_of

_BASES = {
    "INTEGER": ("integer", 4),
    "REAL": ("real", 4),
    "DOUBLE PRECISION": ("real", 8),
    "DOUBLEPRECISION": ("real", 8),
    "COMPLEX": ("complex", 8),
    "DOUBLE COMPLEX": ("complex", 16),
    "DOUBLECOMPLEX": ("complex", 16),
    "LOGICAL": ("logical", 4),
    "CHARACTER": ("character", 1),
    "BYTE": ("integer", 1),
}
_ONE = Const(1, INTEGER)


@dataclass
class _Entry:
    """What is known about one name so far (mutable while the unit is read)."""

    name: str
    span: Span | None = None
    type: Type | None = None
    dims_spec: object = None
    dims: tuple[Dim, ...] | None = None
    value: Const | None = None
    is_param: bool = False
    stmt_function: bool = False
    dummy: bool = False
    common: str | None = None
    common_index: int | None = None
    equivalenced: bool = False
    in_data: bool = False
    save: bool = False
    external: bool = False
    intrinsic: bool = False
    intrinsic_type: Type | None = None
    called: bool = False
    function: bool = False

    @property
    def has_dims(self) -> bool:
        return self.dims_spec is not None or self.dims is not None


class SymbolTable(SpecificationStatements):
    """Declarations and name resolution for one unit (see the module docstring)."""

    def __init__(
        self,
        kind: str,
        name: str,
        args: tuple[str, ...],
        span: Span,
        preprocessed: bool = False,
        program_units: frozenset[str] = frozenset(),
    ):
        self.kind = kind
        # units of the program: one named like an extension intrinsic (a
        # portable DFLOAT, SECOND or GAMMA of its own) is what its name means
        self.program_units = program_units
        # with ``#if`` lines both branches are read: a second declaration of a
        # name is then kept as a note (an Opaque) instead of being an error
        self.preprocessed = preprocessed
        self.conflicts: list[ir.Opaque] = []
        self.unit_name = name
        self.span = span  # the statement being read (for errors and first uses)
        self.implicit: dict[str, Type | None] = {
            chr(c): (INTEGER if "I" <= chr(c) <= "N" else REAL) for c in range(ord("A"), ord("Z") + 1)
        }
        self.entries: dict[str, _Entry] = {}
        self.blocks: dict[str, BlockMembers] = {}
        self.equivalences: list[tuple[Expr, ...]] = []
        self.data: list[ir.Data] = []
        self.stmt_functions: list[ir.StmtFunction] = []
        self.save_all = False
        self.saved_blocks: list[str] = []
        self.shadow: frozenset[str] = frozenset()
        self.convert = ExprConverter(self)
        self.spec_done = False
        for a in args:
            if a != "*":
                self.entry(a).dummy = True
        if kind == "function":
            self.entry(name).function = True

    # -- errors and entries ------------------------------------------------------

    def error(self, message: str) -> FortranError:
        return FortranError(message, self.span.file, self.span.first)

    def conflict(self, name: str, message: str) -> bool:
        """Whether a repeated declaration of ``name`` is tolerated (recorded, not applied)."""
        if not self.preprocessed:
            raise self.error(message)
        reason = f"{message}: the first declaration is kept (preprocessor branches are not expanded)"
        self.conflicts.append(ir.Opaque(self.span, None, name, reason))
        return True

    def entry(self, name: str) -> _Entry:
        e = self.entries.get(name)
        if e is None:
            e = self.entries[name] = _Entry(name, span=self.span)
        return e

    def implicit_type(self, name: str) -> Type | None:
        return self.implicit.get(name[0]) if name[:1].isalpha() else None

    def type_now(self, name: str) -> Type:
        """The type ``name`` has at this point (explicit, else by the IMPLICIT rules)."""
        e = self.entries.get(name)
        if e is not None and e.type is not None:
            return e.type
        if e is not None and e.function and e.intrinsic_type is not None:
            return e.intrinsic_type  # an extension function read as external
        t = self.implicit_type(name)
        if t is None:
            raise self.error(f"{name} has no type (IMPLICIT NONE is in effect)")
        return t

    def _type_or_none(self, name: str) -> Type | None:
        e = self.entries.get(name)
        if e is not None and e.type is not None:
            return e.type
        if e is not None and e.intrinsic_type is not None:
            return e.intrinsic_type
        return self.implicit_type(name)

    # -- Scope: name resolution ----------------------------------------------------

    def name(self, name: str) -> Expr:
        if name in self.shadow:
            return Name(name)
        e = self.entry(name)
        if e.is_param:
            return e.value  # type: ignore[return-value]
        return Name(name)

    def call(self, name: str, args: tuple[Expr, ...]) -> Expr:
        e = self.entry(name)
        if e.has_dims:
            return ir.Index(name, args)
        if e.stmt_function:
            return ir.FuncRef(name, args, "statement")
        declared = e.external or e.dummy or e.function
        own = name in self.program_units and not is_standard(name)
        if not declared and (e.intrinsic or (is_intrinsic(name) and not own)):
            e.intrinsic = True
            if e.intrinsic_type is None:
                e.intrinsic_type = result_type(name, self._arg_types(args))
            return ir.FuncRef(name, args, "intrinsic")
        if not declared and not own and e.type is None and e.intrinsic_type is None:
            e.intrinsic_type = extension_function(name, self._arg_types(args))
        e.function = True
        return ir.FuncRef(name, args, "external")

    def _arg_types(self, args: tuple[Expr, ...]) -> list[Type]:
        return [t for t in (type_of(a, self._type_or_none) for a in args) if t is not None]

    def is_array(self, name: str) -> bool:
        e = self.entries.get(name)
        return e is not None and e.has_dims

    def dims_of(self, name: str) -> tuple[Dim, ...] | None:
        e = self.entries.get(name)
        return None if e is None else e.dims

    def is_own_routine(self, name: str) -> bool:
        return name in self.program_units and not is_standard(name)

    def section_index(self) -> str:
        name = f"_S{sum(n.startswith('_S') for n in self.entries) + 1}"
        self.entry(name).type = ir.INTEGER
        return name

    def is_derived(self, name: str) -> bool:
        t = self._type_or_none(name)
        return t is not None and t.base == "derived"

    def is_character(self, name: str) -> bool:
        t = self._type_or_none(name)
        return t is not None and t.base == "character"

    def called(self, name: str) -> None:
        """``name`` is the target of a CALL."""
        self.entry(name).called = True

    # -- evaluation helpers ------------------------------------------------------

    def constant(self, node, what: str) -> Const:
        value = evaluate(self.convert.convert(node))
        if value is None:
            raise self.error(f"{what} is not a constant expression: {node}")
        return value

    def int_constant(self, node, what: str) -> int:
        c = self.constant(node, what)
        if type(c.value) is not int:
            raise self.error(f"{what} must be an integer constant: {node}")
        return c.value

    def bound(self, node) -> Expr:
        expr = self.convert.convert(node)
        return evaluate(expr) or fold(expr)

    # -- types --------------------------------------------------------------------

    def char_length(self, node) -> int:
        """The length of ``CHARACTER*n`` / ``*(expr)`` / ``*(*)`` / ``(LEN=n)`` (0 for ``*``)."""
        if node is None:
            return 1
        if isinstance(node, F.Type_Param_Value) or str(node).strip() == "*":
            return 0
        if isinstance(node, (F.Char_Length, F.Length_Selector)):
            inner = [i for i in node.items if not isinstance(i, str)]
            if not inner:
                return 0
            return self.char_length(inner[0])
        value = evaluate(self.convert.convert(node))
        return value.value if value is not None and type(value.value) is int else 0

    def type_spec(self, spec) -> Type:
        """An ``Intrinsic_Type_Spec`` as a Type; ``TYPE(name)`` is :data:`ir.DERIVED`
        (its objects are opaque: kept whole, replicated, their components not modelled)."""
        if isinstance(spec, F.Declaration_Type_Spec) and str(spec.items[0]).upper() == "TYPE":
            return ir.DERIVED
        if not isinstance(spec, F.Intrinsic_Type_Spec):
            raise self.error(f"type not supported: {spec}")
        word, selector = spec.items
        base, size = _BASES[word.upper()]
        if base == "character":
            return Type("character", self.char_length(selector) if selector is not None else 1)
        if selector is not None:
            inner = [i for i in selector.items if not isinstance(i, str)]
            if inner:
                size = self.int_constant(inner[0], f"the kind of {word}")
                if base == "complex" and str(selector).startswith("("):
                    size *= 2  # COMPLEX(KIND=8) is 16 bytes; COMPLEX*16 already is
        return Type(base, size)

    def declare_type(self, name: str, t: Type) -> None:
        e = self.entry(name)
        if e.type is not None and not (e.function and name == self.unit_name and e.type == t):
            self.conflict(name, f"{name} is given a type twice")
            return
        e.type = t
        if e.is_param and e.value is not None:
            converted = convert(e.value, t)
            if converted is None:
                raise self.error(f"PARAMETER {name}: its value does not fit {t}")
            e.value = converted
        if e.span is None or not e.has_dims:
            e.span = self.span

    def declare_dims(self, name: str, spec) -> None:
        e = self.entry(name)
        if e.has_dims:
            self.conflict(name, f"{name} is given dimensions twice")
            return
        if e.is_param:
            raise self.error(f"PARAMETER {name} cannot be an array")
        e.dims_spec = spec
        e.span = self.span

    def dims(self, spec) -> tuple[Dim, ...]:
        if isinstance(spec, F.Assumed_Size_Spec):
            explicit, lower = spec.items
            dims = self.dims(explicit) if explicit is not None else ()
            return dims + (Dim(_ONE if lower is None else self.bound(lower), None),)
        if isinstance(spec, F.Explicit_Shape_Spec):
            lower, upper = spec.items
            return (Dim(_ONE if lower is None else self.bound(lower), self.bound(upper)),)
        items = getattr(spec, "items", None)
        if isinstance(spec, F.Explicit_Shape_Spec_List):
            return tuple(d for item in items for d in self.dims(item))
        # assumed or deferred shape (Fortran 90): extents unknown
        return tuple(Dim(_ONE, None) for _ in (items or (spec,)))

    def finish_spec(self) -> None:
        """Convert the array bounds once all PARAMETERs are known."""
        if self.spec_done:
            return
        self.spec_done = True
        for e in list(self.entries.values()):
            if e.dims_spec is not None:
                self.span = e.span or self.span
                e.dims, e.dims_spec = self.dims(e.dims_spec), None
                for k, d in enumerate(e.dims, 1):
                    if d.bounds is not None and d.bounds[1] < d.bounds[0]:
                        lo, hi = d.bounds
                        raise self.error(
                            f"array {e.name}: dimension {k} has upper bound {hi} below its lower bound {lo}"
                            " (Fortran 77 has no zero-sized arrays)"
                        )
        # an EQUIVALENCE item naming an array declared after it was read as a function reference
        self.equivalences = [tuple(self._equivalenced_element(x) for x in g) for g in self.equivalences]

    def _equivalenced_element(self, x: Expr) -> Expr:
        e = self.entries.get(x.name) if isinstance(x, ir.FuncRef) and x.kind == "external" else None
        if e is None or not e.has_dims:
            return x
        e.function, e.equivalenced = False, True
        return ir.Index(x.name, x.args)

    def commons(self) -> tuple[ir.Common, ...]:
        out = []
        for name, b in self.blocks.items():
            first, last = b.spans[0], b.spans[-1]
            span = Span(first.file, first.first, last.last) if first.file == last.file else first
            out.append(ir.Common(name, tuple(b.members), span))
        return tuple(out)

    def _kind(self, e: _Entry) -> str:
        if e.is_param:
            return "parameter"
        if e.stmt_function:
            return "statement_function"
        if e.function and (e.name == self.unit_name or not e.called):
            return "function"
        if e.intrinsic and not e.called:
            return "intrinsic"
        if e.called:
            return "subroutine"
        if e.external:
            return "function" if e.type is not None else "subroutine"
        return "variable"

    def symbols(self) -> tuple[ir.Symbol, ...]:
        self.finish_spec()
        saved_blocks = set(self.saved_blocks)
        out = []
        for e in self.entries.values():
            kind = self._kind(e)
            self.span = e.span or self.span
            if kind == "subroutine":
                t = NOTYPE
            elif kind == "intrinsic":
                t = e.type or e.intrinsic_type or REAL
            else:
                t = self.type_now(e.name)
            save = e.save or (e.common in saved_blocks) or (
                self.save_all and kind == "variable" and not e.dummy and e.common != ""
            )
            out.append(
                ir.Symbol(
                    name=e.name,
                    type=t,
                    kind=kind,
                    dims=e.dims,
                    value=e.value,
                    dummy=e.dummy,
                    common=e.common,
                    common_index=e.common_index,
                    equivalenced=e.equivalenced,
                    in_data=e.in_data,
                    save=save,
                    implicit=e.type is None and kind not in ("subroutine", "intrinsic"),
                    span=e.span,
                )
            )
        return tuple(out)

    def result_type(self) -> Type | None:
        if self.kind != "function":
            return None
        return self.type_now(self.unit_name)
