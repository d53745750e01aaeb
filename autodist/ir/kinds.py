"""The kinds IR nodes carry, as string enums.

Each member *is* its lower-case (or operator) string, so code written against
the strings keeps working while new code names the member: ``Op.ADD == "+"``,
``f"{IoKind.READ}" == "read"``, ``{"variable": 1}[SymbolKind.VARIABLE] == 1``.
The nodes store members (:func:`coerce`), whatever their builder passed.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["Kind", "Op", "UnaryOp", "FuncKind", "IoKind", "SymbolKind", "UnitKind", "coerce"]


class Kind(str, Enum):
    """A kind that compares, hashes, prints, formats and serializes as its string."""

    __str__ = str.__str__
    __format__ = str.__format__
    __repr__ = str.__repr__


class Op(Kind):
    """The operator of a :class:`BinOp`."""

    ADD = "+"
    SUB = "-"
    MUL = "*"
    DIV = "/"
    POW = "**"
    CONCAT = "//"
    EQ = "=="
    NE = "/="
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="
    AND = "and"
    OR = "or"
    EQV = "eqv"
    NEQV = "neqv"


class UnaryOp(Kind):
    """The operator of a :class:`UnOp`."""

    NEG = "-"
    PLUS = "+"
    NOT = "not"


class FuncKind(Kind):
    """What a :class:`FuncRef` names."""

    INTRINSIC = "intrinsic"
    EXTERNAL = "external"
    STATEMENT = "statement"  # a statement function of the same unit


class IoKind(Kind):
    """The statement an :class:`Io` is."""

    PRINT = "print"
    WRITE = "write"
    READ = "read"
    FORMAT = "format"
    OPEN = "open"
    CLOSE = "close"
    REWIND = "rewind"
    BACKSPACE = "backspace"
    ENDFILE = "endfile"
    INQUIRE = "inquire"


class SymbolKind(Kind):
    """What a :class:`Symbol` is."""

    VARIABLE = "variable"
    PARAMETER = "parameter"
    FUNCTION = "function"
    STATEMENT_FUNCTION = "statement_function"
    INTRINSIC = "intrinsic"
    SUBROUTINE = "subroutine"


class UnitKind(Kind):
    """What a :class:`Unit` is."""

    PROGRAM = "program"
    SUBROUTINE = "subroutine"
    FUNCTION = "function"
    BLOCKDATA = "blockdata"


def coerce(node: object, field_name: str, kind: type[Kind]) -> None:
    """Store ``node.field_name`` (a frozen dataclass's field) as a member of ``kind``."""
    object.__setattr__(node, field_name, kind(getattr(node, field_name)))
