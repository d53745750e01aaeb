"""The HPF 1.x mapping-directive language as frozen dataclasses.

One class per directive, holding what was written (names, formats, expressions)
but not yet what it means: :mod:`autodist.hpf.resolve` evaluates the expressions
and turns the directives into :class:`~autodist.layout.model.Layout` values;
:mod:`autodist.hpf.parse` reads them and :mod:`autodist.hpf.emit` writes them.

Expressions (bounds, subscripts, block sizes) are :class:`autodist.ir.Expr`
trees: ``Const``, ``Name``, ``BinOp``, ``UnOp``, ``FuncRef`` (intrinsics such
as ``NUMBER_OF_PROCESSORS()`` or ``SIZE(X,3)``) and ``Index``.  Two markers
complete them: :data:`STAR` (``*``) and :class:`Triplet` (``lo:hi:stride``, a
bare ``:`` being ``Triplet()``).

Statement and attribute forms are both kept (``attribute=True`` for the form
with ``::``) so that the emitter writes back what it read.  Combined
directives (``TEMPLATE, DISTRIBUTE(BLOCK) :: T(100)``) are split by the reader
into one directive per attribute.  Every directive carries the ``span`` it was
read from (``None`` when built in code); spans never take part in equality.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from ..ir import Expr, Span


# --------------------------------------------------------------------------- markers


@dataclass(frozen=True)
class Star:
    """``*``: a collapsed alignee dimension, or replication in an align target."""

    def __str__(self) -> str:
        return "*"


STAR = Star()


@dataclass(frozen=True)
class Triplet(Expr):
    """A subscript triplet ``lower:upper:stride``; ``Triplet()`` is a bare ``:``."""

    lower: Expr | None = None
    upper: Expr | None = None
    stride: Expr | None = None

    def children(self) -> tuple[Expr, ...]:
        return tuple(e for e in (self.lower, self.upper, self.stride) if e is not None)


COLON = Triplet()

#: An alignee dimension: an align-dummy name, ``:`` (COLON) or ``*`` (STAR).
AlignSource = Union[str, Triplet, Star]
#: A template or array dimension in ``WITH``: an expression, a triplet or ``*``.
AlignSubscript = Union[Expr, Star]


@dataclass(frozen=True)
class Extent:
    """One dimension of a TEMPLATE or PROCESSORS shape: ``lower:upper`` or ``upper``."""

    upper: Expr
    lower: Expr | None = None


@dataclass(frozen=True)
class DistFormat:
    """``BLOCK``, ``BLOCK(k)``, ``CYCLIC``, ``CYCLIC(k)`` or ``*`` (kind ``"*"``)."""

    kind: str
    k: Expr | None = None


# --------------------------------------------------------------------------- directives


@dataclass(frozen=True)
class Directive:
    """Base of every directive; ``span`` is where it was read (not compared)."""

    span: Span | None = field(default=None, compare=False, kw_only=True, repr=False)


@dataclass(frozen=True)
class Shape:
    """A named object with a shape: ``P(4,2)``, ``T(0:N+1, M)``, scalar ``P`` (``()``)."""

    name: str
    shape: tuple[Extent, ...] = ()


@dataclass(frozen=True)
class Processors(Directive):
    """``PROCESSORS P(4), Q(2,2), R``: one or more abstract processor arrangements."""

    arrangements: tuple[Shape, ...]


@dataclass(frozen=True)
class Template(Directive):
    """``TEMPLATE T(0:N+1, M), G(SIZE(X,3))``."""

    templates: tuple[Shape, ...]


@dataclass(frozen=True)
class Align(Directive):
    """``ALIGN A(I,J) WITH T(J,I)`` or ``ALIGN (:,:) WITH T :: A, B``.

    ``source`` is the alignee's dimension list (None when omitted: a scalar, or
    ``ALIGN A WITH B`` meaning all ``:``); ``subscripts`` the target's (None for
    ``WITH T``).  ``descriptive`` is ``WITH *T`` (an assertion on a dummy).
    """

    alignees: tuple[str, ...]
    source: tuple[AlignSource, ...] | None
    target: str
    subscripts: tuple[AlignSubscript, ...] | None
    attribute: bool = False
    descriptive: bool = False


@dataclass(frozen=True)
class Realign(Directive):
    """Executable ``REALIGN``: the same fields as :class:`Align` (never descriptive)."""

    alignees: tuple[str, ...]
    source: tuple[AlignSource, ...] | None
    target: str
    subscripts: tuple[AlignSubscript, ...] | None
    attribute: bool = False


@dataclass(frozen=True)
class Distribute(Directive):
    """``DISTRIBUTE T(BLOCK,*) ONTO P`` or ``DISTRIBUTE (BLOCK,*) ONTO P :: T, U``.

    ``formats`` is None for the transcriptive ``DISTRIBUTE A *`` (the mapping
    comes from the actual argument); ``descriptive`` marks ``*(BLOCK)``.
    ``onto`` is the arrangement name, ``"*"`` for a transcriptive ``ONTO *``,
    or None; ``onto_descriptive`` marks ``ONTO *P``.
    """

    distributees: tuple[str, ...]
    formats: tuple[DistFormat, ...] | None
    onto: str | None = None
    attribute: bool = False
    descriptive: bool = False
    onto_descriptive: bool = False

    @property
    def transcriptive(self) -> bool:
        return self.formats is None


@dataclass(frozen=True)
class Redistribute(Directive):
    """Executable ``REDISTRIBUTE T(CYCLIC) ONTO P`` / ``REDISTRIBUTE (CYCLIC) :: T``."""

    distributees: tuple[str, ...]
    formats: tuple[DistFormat, ...]
    onto: str | None = None
    attribute: bool = False


@dataclass(frozen=True)
class Inherit(Directive):
    """``INHERIT A, B`` (or ``INHERIT :: A, B``): dummies keep the actual's mapping."""

    names: tuple[str, ...]
    attribute: bool = False


@dataclass(frozen=True)
class Dynamic(Directive):
    """``DYNAMIC A, T`` (or ``DYNAMIC :: A, T``): may be remapped by REDISTRIBUTE/REALIGN."""

    names: tuple[str, ...]
    attribute: bool = False


@dataclass(frozen=True)
class Independent(Directive):
    """``INDEPENDENT [(I,J)] [, NEW(K,TMP)] [, REDUCTION(S)] [, ON HOME(A(I,J))]``.

    ``loops`` is the older draft form naming the loop variables of the nest.
    """

    loops: tuple[str, ...] = ()
    new: tuple[str, ...] = ()
    reduction: tuple[str, ...] = ()
    home: Expr | None = None


@dataclass(frozen=True)
class Unsupported(Directive):
    """A directive autodist reads but does not model (HPF 2 extensions, SEQUENCE ...)."""

    text: str
    reason: str


SPECIFICATION = (Processors, Template, Align, Distribute, Inherit, Dynamic)
EXECUTABLE = (Redistribute, Realign)


# --------------------------------------------------------------------------- unit prefixes


@dataclass(frozen=True)
class Prefix:
    """A program-unit prefix: ``PURE``, ``EXTRINSIC(HPF)``, ``EXTRINSIC(HPF_LOCAL)``, ...

    ``kind`` is the keyword; ``model`` the EXTRINSIC kind (None otherwise).
    """

    kind: str
    model: str | None = None

    def __str__(self) -> str:
        return self.kind if self.model is None else f"{self.kind}({self.model})"
