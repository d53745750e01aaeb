"""Declarations and program units of the intermediate representation:
:class:`Dim`, :class:`Symbol`, :class:`Common`, :class:`Data`,
:class:`StmtFunction`, :class:`Unit` and :class:`Program` (frozen, built once
by the front end; the conventions are those of :mod:`.nodes`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterator

from .kinds import SymbolKind, UnitKind, coerce
from .nodes import Const, Directive, Expr, Opaque, Span, Stmt, Type, walk

__all__ = ["Dim", "Symbol", "Common", "Data", "StmtFunction", "Unit", "Preprocessing", "Program", "is_automatic"]


@dataclass(frozen=True)
class Dim:
    """One declared dimension ``lower:upper``; ``upper`` is None for assumed size ``*``."""

    lower: Expr
    upper: Expr | None

    @property
    def bounds(self) -> tuple[int, int] | None:
        """Numeric (lower, upper) when both are known constants."""
        if (
            isinstance(self.lower, Const)
            and isinstance(self.upper, Const)
            and type(self.lower.value) is int
            and type(self.upper.value) is int
        ):
            return (self.lower.value, self.upper.value)
        return None

    @property
    def extent(self) -> int | None:
        b = self.bounds
        return None if b is None else max(0, b[1] - b[0] + 1)


@dataclass(frozen=True)
class Symbol:
    """A name declared or used in a unit.

    ``kind``: "variable", "parameter", "function" (external function or the unit's
    own result), "statement_function", "intrinsic", "subroutine" (a name used in
    CALL or EXTERNAL; its type is :data:`NOTYPE`), "common_block" is never used
    (blocks live in ``Unit.commons``).
    ``dims`` is None for scalars.  ``common`` is the COMMON block name ("" for blank
    COMMON) and ``common_index`` the position in that block's list of this unit.
    ``implicit`` is True when the type came from implicit typing rules.
    """

    name: str
    type: Type
    kind: SymbolKind = SymbolKind.VARIABLE
    dims: tuple[Dim, ...] | None = None
    value: Expr | None = None  # PARAMETER value (folded Const when foldable)
    dummy: bool = False
    common: str | None = None
    common_index: int | None = None
    equivalenced: bool = False
    in_data: bool = False
    save: bool = False
    implicit: bool = False
    span: Span | None = None

    def __post_init__(self) -> None:
        coerce(self, "kind", SymbolKind)

    @property
    def is_array(self) -> bool:
        return self.dims is not None

    @property
    def rank(self) -> int:
        return 0 if self.dims is None else len(self.dims)

    @property
    def shape(self) -> tuple[int, ...] | None:
        """Numeric extents when every bound is known."""
        if self.dims is None:
            return ()
        ext = tuple(d.extent for d in self.dims)
        return None if any(e is None for e in ext) else ext  # type: ignore[return-value]

    @property
    def bytes(self) -> int | None:
        shape = self.shape
        if shape is None:
            return None
        n = 1
        for e in shape:
            n *= e
        return n * self.type.size


@dataclass(frozen=True)
class Common:
    """A COMMON block as declared in one unit (members in order)."""

    name: str  # "" for blank COMMON
    members: tuple[str, ...]
    span: Span


@dataclass(frozen=True)
class Data:
    """A DATA statement: ``targets`` (Names, Index, ImpliedDo) and ``values``
    with repeat counts expanded into ``(count, Const)`` pairs."""

    targets: tuple[Expr, ...]
    values: tuple[tuple[int, Expr], ...]
    span: Span


@dataclass(frozen=True)
class StmtFunction:
    """A statement function ``F(X, Y) = expr``."""

    name: str
    args: tuple[str, ...]
    expr: Expr
    span: Span


@dataclass(frozen=True)
class Unit:
    """A program unit: PROGRAM, SUBROUTINE, FUNCTION or BLOCK DATA.

    ``prefixes`` records prefixes such as "PURE", "EXTRINSIC(HPF_LOCAL)",
    "RECURSIVE".  ``result`` is the result variable of a FUNCTION (its name by
    default) and ``result_type`` its type.  ``decl_end`` is the last line of the
    specification part (the HPF emitter inserts specification directives after
    it); ``body`` holds the executable statements.  ``opaque_decls`` keeps, in
    source order, what the specification part holds that is not modelled
    (preprocessor lines, NAMELIST, ...), each an :class:`Opaque` with a reason.
    """

    kind: UnitKind
    name: str
    args: tuple[str, ...]
    symbols: tuple[Symbol, ...]
    body: tuple[Stmt, ...]
    span: Span
    decl_end: int
    commons: tuple[Common, ...] = ()
    equivalences: tuple[tuple[Expr, ...], ...] = ()
    data: tuple[Data, ...] = ()
    stmt_functions: tuple[StmtFunction, ...] = ()
    directives: tuple[Directive, ...] = ()
    prefixes: tuple[str, ...] = ()
    result: str | None = None
    result_type: Type | None = None
    opaque_decls: tuple[Opaque, ...] = ()

    def __post_init__(self) -> None:
        coerce(self, "kind", UnitKind)

    @cached_property
    def _by_name(self) -> dict[str, Symbol]:
        return {s.name: s for s in self.symbols}

    def symbol(self, name: str) -> Symbol | None:
        return self._by_name.get(name.upper())

    @property
    def arrays(self) -> tuple[Symbol, ...]:
        return tuple(s for s in self.symbols if s.is_array and s.kind == SymbolKind.VARIABLE)

    def statements(self) -> Iterator[Stmt]:
        """Every statement of the body, nested ones included, in source order."""
        yield from walk(self.body)


@dataclass(frozen=True)
class Preprocessing:
    """How the files run through the C preprocessor were read: ``files`` (the
    top-level ones), ``defines`` (``NAME`` or ``NAME=VALUE``, as ``-D``) and
    ``include_dirs`` (``-I``)."""

    files: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    include_dirs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Program:
    """Everything read from the files given on the command line.

    ``files`` lists the source files read, INCLUDE'd files included, in reading
    order; ``sources`` maps each file to its text lines as written (for the
    emitter: a preprocessed file's own text, before the preprocessor).
    """

    units: tuple[Unit, ...]
    files: tuple[str, ...]
    sources: tuple[tuple[str, tuple[str, ...]], ...] = field(default=(), repr=False)
    preprocessing: Preprocessing = Preprocessing()
    #: (where, what) of what the reader accepted as gfortran does but the
    #: standard does not (extra actual arguments, ignored)
    notes: tuple[tuple[Span, str], ...] = ()

    @cached_property
    def _by_name(self) -> dict[str, Unit]:
        return {u.name: u for u in self.units}

    def unit(self, name: str) -> Unit | None:
        return self._by_name.get(name.upper())

    @property
    def main(self) -> Unit | None:
        for u in self.units:
            if u.kind == UnitKind.PROGRAM:
                return u
        return None

    def source_lines(self, file: str) -> tuple[str, ...]:
        for f, lines in self.sources:
            if f == file:
                return lines
        raise KeyError(file)


def is_automatic(unit: Unit, sym: Symbol) -> bool:
    """Whether local array ``sym`` of subprogram ``unit`` is automatic: bounds that
    are not constants (dummies, COMMON scalars), evaluated on each entry."""
    return unit.kind in ("subroutine", "function") and not sym.dummy and any(
        d.bounds is None and d.upper is not None for d in sym.dims or ())
