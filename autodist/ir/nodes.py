"""The intermediate representation: frozen dataclasses, built once by the front end.

Conventions
-----------
* Names are upper case (Fortran is case-insensitive; the front end normalizes).
* PARAMETER constants are folded: wherever a PARAMETER name appears in an
  expression (bounds, subscripts, loop limits, right-hand sides) the front end
  substitutes a :class:`Const`.  The symbol table still records the PARAMETER.
* Every statement and declaration carries a :class:`Span` (file, first and last
  line) of the *original* text, so errors name ``file:line`` and the HPF emitter
  can splice directives into the original text.
* Nothing the front end does not understand is dropped: it becomes an
  :class:`Opaque` statement or an :class:`OpaqueExpr` with a reason.
* HPF directives are kept as raw text (:class:`Directive`); the :mod:`autodist.hpf`
  package gives them meaning.  Directives in the specification part of a unit are
  in :attr:`Unit.directives`; directives among executable statements are
  :class:`Directive` statements in the body, in source order (an ``INDEPENDENT``
  is the statement just before the ``DO`` it applies to).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

from .kinds import FuncKind, IoKind, Op, UnaryOp, coerce

__all__ = [
    "Span", "Type", "INTEGER", "REAL", "DOUBLE", "COMPLEX", "LOGICAL", "NOTYPE", "DERIVED",
    "Expr", "Const", "Name", "Index", "FuncRef", "BinOp", "UnOp", "Substring", "ImpliedDo", "OpaqueExpr",
    "Triplet", "SectionActual", "Hollerith",
    "Stmt", "Assign", "Do", "DoWhile", "Branch", "If", "ArithIf", "Goto", "ComputedGoto", "Continue",
    "Call", "Return", "Stop", "Io", "Directive", "Opaque", "ENTRY_REASON", "is_lowered",
]

# --------------------------------------------------------------------------- spans


@dataclass(frozen=True)
class Span:
    """Where something stands in the original source (1-based, inclusive)."""

    file: str
    first: int
    last: int

    def __str__(self) -> str:
        return f"{self.file}:{self.first}"


# --------------------------------------------------------------------------- types


@dataclass(frozen=True)
class Type:
    """A Fortran 77 type.  ``size`` is the storage size in bytes of one element.

    ``REAL`` is ``Type("real", 4)``, ``REAL*8``/``DOUBLE PRECISION`` are
    ``Type("real", 8)``, ``COMPLEX`` is ``Type("complex", 8)``, ``COMPLEX*16``/
    ``DOUBLE COMPLEX`` are ``Type("complex", 16)``, ``CHARACTER*N`` is
    ``Type("character", N)`` (``CHARACTER*(*)`` has size 0).
    """

    base: str  # "integer" | "real" | "complex" | "logical" | "character" | "derived"
    size: int

    def __str__(self) -> str:
        if self.base == "real" and self.size == 8:
            return "DOUBLE PRECISION"
        if self.base == "character":
            return f"CHARACTER*{self.size or '(*)'}"
        if self.base == "none":
            return "NONE"
        if self.base == "derived":
            return "TYPE(...)"
        default = {"integer": 4, "real": 4, "complex": 8, "logical": 4}.get(self.base)
        name = self.base.upper()
        return name if self.size == default else f"{name}*{self.size}"


INTEGER = Type("integer", 4)
#: An object of a Fortran 90 derived type (``TYPE(name)``): opaque, its size and
#: components not modelled.
DERIVED = Type("derived", 0)
REAL = Type("real", 4)
DOUBLE = Type("real", 8)
COMPLEX = Type("complex", 8)
LOGICAL = Type("logical", 4)
#: The "type" of a name that has none: a subroutine (``Symbol.kind == "subroutine"``).
NOTYPE = Type("none", 0)

# --------------------------------------------------------------------------- expressions


class Expr:
    """Base class of expressions."""

    __slots__ = ()

    def children(self) -> tuple["Expr", ...]:
        return ()

    def walk(self) -> Iterator["Expr"]:
        """This expression and all sub-expressions, pre-order."""
        stack = [self]
        while stack:
            e = stack.pop()
            yield e
            stack.extend(reversed(e.children()))


@dataclass(frozen=True)
class Const(Expr):
    """A literal (or a folded PARAMETER).  ``value`` is int, float, complex, bool or str.

    ``type.size`` tells the precision: a ``REAL`` literal like ``0.1`` has size 4
    and must be rounded to single precision by anyone who evaluates it.
    """

    value: object
    type: Type


@dataclass(frozen=True)
class Hollerith(Const):
    """A Hollerith constant ``nH...`` given as an actual argument (a deleted
    feature gfortran -std=legacy accepts: ``CALL XERROR(26HABNORMAL RETURN ...,
    26, IER, LVL)``).  A CHARACTER constant of what gfortran stores and passes
    by address: the n characters blank-padded to a multiple of 4 bytes, which
    a dummy of any type sees byte for byte; no length goes with it, so a
    ``CHARACTER*(*)`` dummy has none.  ``source`` is the constant as written."""

    source: str = ""

    @classmethod
    def of(cls, source: str) -> "Hollerith":
        chars = source[source.upper().index("H") + 1:]
        padded = chars.ljust(-(-len(chars) // 4) * 4)
        return cls(padded, Type("character", len(padded)), source)

    @property
    def chars(self) -> str:
        """The n characters as written (without gfortran's padding)."""
        return self.source[self.source.upper().index("H") + 1:]


@dataclass(frozen=True)
class Name(Expr):
    """A scalar variable, or a whole array used as an actual argument."""

    name: str


@dataclass(frozen=True)
class Index(Expr):
    """An array element reference ``A(s1, ..., sn)`` (declared as an array)."""

    name: str
    subscripts: tuple[Expr, ...]

    def children(self) -> tuple[Expr, ...]:
        return self.subscripts


@dataclass(frozen=True)
class FuncRef(Expr):
    """A function reference.  ``kind`` is "intrinsic", "external" or "statement"
    (a statement function defined in the same unit)."""

    name: str
    args: tuple[Expr, ...]
    kind: FuncKind

    def __post_init__(self) -> None:
        coerce(self, "kind", FuncKind)

    def children(self) -> tuple[Expr, ...]:
        return self.args


@dataclass(frozen=True)
class BinOp(Expr):
    """A binary operation.  ``op`` is one of
    ``+ - * / ** //`` (arithmetic, concatenation),
    ``== /= < <= > >=`` (relational, from ``.EQ.`` etc. too),
    ``and or eqv neqv`` (logical)."""

    op: Op
    left: Expr
    right: Expr

    def __post_init__(self) -> None:
        coerce(self, "op", Op)

    def children(self) -> tuple[Expr, ...]:
        return (self.left, self.right)


@dataclass(frozen=True)
class UnOp(Expr):
    """A unary operation: ``-``, ``+`` or ``not``."""

    op: UnaryOp
    operand: Expr

    def __post_init__(self) -> None:
        coerce(self, "op", UnaryOp)

    def children(self) -> tuple[Expr, ...]:
        return (self.operand,)


@dataclass(frozen=True)
class Substring(Expr):
    """``C(lo:hi)`` or ``A(i)(lo:hi)`` on a CHARACTER variable; bounds may be None."""

    base: Expr
    lower: Expr | None
    upper: Expr | None

    def children(self) -> tuple[Expr, ...]:
        return tuple(e for e in (self.base, self.lower, self.upper) if e is not None)


@dataclass(frozen=True)
class ImpliedDo(Expr):
    """``(items, V = start, end [, step])`` in an I/O list or DATA statement."""

    items: tuple[Expr, ...]
    var: str
    start: Expr
    end: Expr
    step: Expr | None

    def children(self) -> tuple[Expr, ...]:
        rest = (self.start, self.end) + ((self.step,) if self.step is not None else ())
        return self.items + rest


@dataclass(frozen=True)
class OpaqueExpr(Expr):
    """An expression the front end does not model, with the reason; never dropped."""

    text: str
    reason: str


@dataclass(frozen=True)
class Triplet:
    """``lower:upper:step`` of an array section, the bounds filled in from the
    declaration where the source leaves them out."""

    lower: Expr
    upper: Expr
    step: Expr | None

    def exprs(self) -> tuple[Expr, ...]:
        return (self.lower, self.upper) + ((self.step,) if self.step is not None else ())


@dataclass(frozen=True)
class SectionActual(OpaqueExpr):
    """An array section passed to a routine of the program that is not one
    stretch of storage from its first element (``A(1:N:2, J)``, ``A(I, 2:N)``;
    a contiguous one is passed as that element).  Opaque to the analysis (the
    whole array as its only sub-expression, besides the subscripts: every
    element may be read or written); the runtime passes a copy of its elements
    in array element order and stores the copy back after the call
    (copy-in/copy-out, as compilers do)."""

    name: str
    subscripts: tuple["Expr | Triplet", ...]

    def children(self) -> tuple[Expr, ...]:
        out: list[Expr] = [Name(self.name)]
        for s in self.subscripts:
            out.extend(s.exprs() if isinstance(s, Triplet) else (s,))
        return tuple(out)


# --------------------------------------------------------------------------- statements


@dataclass(frozen=True)
class Stmt:
    """Base class of statements.  ``label`` is the statement label, if any."""

    span: Span
    label: int | None

    def blocks(self) -> tuple[tuple["Stmt", ...], ...]:
        """The statement lists nested directly in this statement."""
        return ()

    def exprs(self) -> tuple[Expr, ...]:
        """The expressions appearing directly in this statement (not in nested blocks)."""
        return ()


@dataclass(frozen=True)
class Assign(Stmt):
    """``target = value``; target is a Name, an Index or a Substring."""

    target: Expr
    value: Expr

    def exprs(self) -> tuple[Expr, ...]:
        return (self.target, self.value)


@dataclass(frozen=True)
class Do(Stmt):
    """A counted DO loop, labelled (``DO 10 I = ...``) or block (``DO ... ENDDO``).

    ``term_label`` is the terminating label of a labelled DO (shared by the loops
    of a shared-termination nest).  The terminating statement itself (a CONTINUE
    or an action statement) is the last statement of the innermost loop's body.
    """

    var: str
    start: Expr
    end: Expr
    step: Expr | None
    body: tuple[Stmt, ...]
    term_label: int | None = None

    def blocks(self) -> tuple[tuple[Stmt, ...], ...]:
        return (self.body,)

    def exprs(self) -> tuple[Expr, ...]:
        return (self.start, self.end) + ((self.step,) if self.step is not None else ())

    @property
    def lowered(self) -> bool:
        """A loop the front end made of an array assignment (no DO in the source):
        its variable is one no Fortran name can be."""
        return is_lowered(self.var)


def is_lowered(name: str) -> bool:
    """Is ``name`` a variable the front end made (a leading underscore)?"""
    return name.startswith("_")


@dataclass(frozen=True)
class DoWhile(Stmt):
    cond: Expr
    body: tuple[Stmt, ...]
    term_label: int | None = None

    def blocks(self) -> tuple[tuple[Stmt, ...], ...]:
        return (self.body,)

    def exprs(self) -> tuple[Expr, ...]:
        return (self.cond,)


@dataclass(frozen=True)
class Branch:
    """One arm of an IF: ``cond`` is None for ELSE."""

    cond: Expr | None
    body: tuple[Stmt, ...]
    span: Span


@dataclass(frozen=True)
class If(Stmt):
    """Block IF / ELSE IF / ELSE, and the logical IF (one branch, ``logical=True``)."""

    branches: tuple[Branch, ...]
    logical: bool = False

    def blocks(self) -> tuple[tuple[Stmt, ...], ...]:
        return tuple(b.body for b in self.branches)

    def exprs(self) -> tuple[Expr, ...]:
        return tuple(b.cond for b in self.branches if b.cond is not None)


@dataclass(frozen=True)
class ArithIf(Stmt):
    """``IF (expr) neg, zero, pos``."""

    expr: Expr
    neg: int
    zero: int
    pos: int

    def exprs(self) -> tuple[Expr, ...]:
        return (self.expr,)


@dataclass(frozen=True)
class Goto(Stmt):
    target: int


@dataclass(frozen=True)
class ComputedGoto(Stmt):
    """``GO TO (l1, l2, ...) expr``."""

    targets: tuple[int, ...]
    expr: Expr

    def exprs(self) -> tuple[Expr, ...]:
        return (self.expr,)


@dataclass(frozen=True)
class Continue(Stmt):
    pass


@dataclass(frozen=True)
class Call(Stmt):
    """``CALL name(args)``; whole arrays are passed as Name, array sections as Index."""

    name: str
    args: tuple[Expr, ...]

    def exprs(self) -> tuple[Expr, ...]:
        return self.args


@dataclass(frozen=True)
class Return(Stmt):
    pass


@dataclass(frozen=True)
class Stop(Stmt):
    code: Expr | None = None


@dataclass(frozen=True)
class Io(Stmt):
    """An I/O statement.

    ``kind`` is "print", "write", "read", "format", "open", "close", "rewind",
    "backspace", "endfile" or "inquire".  ``unit`` is None for PRINT and the
    ``*`` unit; ``fmt`` is "*" (list-directed), a label (int), a format string,
    an expression (a format held in a variable), or None (unformatted);
    ``items`` the I/O list; ``text`` the statement's text (for FORMAT, the
    format itself).  ``specs`` holds the other control specifiers in source
    order as ``(KEYWORD, expr)`` pairs, e.g. ``("END", Const(99))`` (a branch
    label), ``("IOSTAT", Name("IOS"))`` (a variable written),
    ``("FILE", Const("x.dat"))``.
    """

    kind: IoKind
    unit: Expr | None
    fmt: object
    items: tuple[Expr, ...]
    text: str = ""
    specs: tuple[tuple[str, Expr], ...] = ()

    def __post_init__(self) -> None:
        coerce(self, "kind", IoKind)

    def exprs(self) -> tuple[Expr, ...]:
        return self.items + ((self.unit,) if self.unit is not None else ())

    def targets(self) -> tuple[Expr, ...]:
        """What the statement assigns: the items of a READ list (through implied
        DO loops), the variable of every implied DO (as a :class:`Name`), the
        IOSTAT= variable, and the inquired properties of an INQUIRE."""
        out: list[Expr] = []
        stack = list(reversed(self.items))
        while stack:
            x = stack.pop()
            if isinstance(x, ImpliedDo):
                out.append(Name(x.var))
                stack.extend(reversed(x.items))
            elif self.kind == "read":
                out.append(x)
        out.extend(e for k, e in self.specs if k == "IOSTAT" or (self.kind == "inquire" and k in INQUIRED))
        return tuple(out)


#: The specifiers of INQUIRE that return a property (they assign their variable).
INQUIRED = frozenset({
    "EXIST", "OPENED", "NUMBER", "NAMED", "NAME", "ACCESS", "SEQUENTIAL", "DIRECT",
    "FORM", "FORMATTED", "UNFORMATTED", "RECL", "NEXTREC", "BLANK",
})


@dataclass(frozen=True)
class Directive(Stmt):
    """An HPF directive line (continuations joined), as written after the sentinel.

    ``text`` has the sentinel (``CHPF$``, ``*HPF$``, ``!HPF$``) removed, e.g.
    ``"DISTRIBUTE T(BLOCK,*) ONTO P"``; ``sentinel`` is the sentinel as written.
    """

    text: str
    sentinel: str = "CHPF$"


@dataclass(frozen=True)
class Opaque(Stmt):
    """A statement the front end does not model (ENTRY, ASSIGN, PAUSE, ...).

    Analysis treats it conservatively (a phase containing it is sequential and
    replicated); ``analyze`` lists it with its reason.
    """

    text: str
    reason: str


#: the reason of an :class:`Opaque` ENTRY statement (a second name for the unit)
ENTRY_REASON = "ENTRY statement"


def walk(stmts: Iterable[Stmt]) -> Iterator[Stmt]:
    """All statements in ``stmts`` and nested in them, pre-order (source order)."""
    stack = [iter(stmts)]
    while stack:
        s = next(stack[-1], None)
        if s is None:
            stack.pop()
            continue
        yield s
        for block in reversed(s.blocks()):
            stack.append(iter(block))
