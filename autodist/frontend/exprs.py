"""fparser2 expressions -> IR expressions.

fparser2 guesses what ``F(X)`` is (array element, structure constructor,
intrinsic call) without knowing the declarations; here that decision is left to
a :class:`Scope` (the unit's symbol table), which knows the arrays, PARAMETERs,
statement functions and EXTERNAL names.  Constructs that are not modelled
(array sections, keyword arguments, derived types) become ``OpaqueExpr``.
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np

from fparser.two import Fortran2003 as F
from fparser.two.utils import BinaryOpBase, UnaryOpBase

from ..errors import FortranError
from ..ir import constant as ir_constant
from ..ir import (LOGICAL, BinOp, Const, Expr, FuncRef, ImpliedDo, Index, Name, OpaqueExpr, SectionActual,
                  Substring, Triplet, Type, UnOp)
from .fold import fold, make, rounded

_OPS = {
    "+": "+", "-": "-", "*": "*", "/": "/", "**": "**", "//": "//",
    ".EQ.": "==", "==": "==", ".NE.": "/=", "/=": "/=", ".LT.": "<", "<": "<",
    ".LE.": "<=", "<=": "<=", ".GT.": ">", ">": ">", ".GE.": ">=", ">=": ">=",
    ".AND.": "and", ".OR.": "or", ".EQV.": "eqv", ".NEQV.": "neqv", ".NOT.": "not",
}


#: The reason of a derived-type component reference (``LC%FIRST``).
DERIVED_COMPONENT = "derived-type component (not modelled: its object stays whole and replicated)"


class Scope(Protocol):
    """Name resolution for the expressions of one unit."""

    def name(self, name: str) -> Expr:
        """A bare name: its folded value for a PARAMETER, else ``Name``."""

    def call(self, name: str, args: tuple[Expr, ...]) -> Expr:
        """``name(args)``: ``Index``, ``FuncRef`` (intrinsic/external/statement)."""

    def is_array(self, name: str) -> bool: ...

    def is_character(self, name: str) -> bool: ...

    def dims_of(self, name: str) -> tuple | None:
        """The declared dimensions (``ir.Dim``) of array ``name``, None when not yet known."""

    def is_own_routine(self, name: str) -> bool:
        """Is ``name`` a routine of the program (not an intrinsic or outside routine)?"""

    def section_index(self) -> str:
        """A new INTEGER variable for the implied DO of a lowered array section,
        named so that no Fortran name can be the same (a leading underscore)."""


def label_of(node) -> int:
    return int(str(node))


def _kind_size(kind, default: int) -> int:
    if kind is None:
        return default
    text = str(kind)
    return int(text) if text.isdigit() else default


def literal(node) -> Const | None:
    """The value of an fparser2 literal constant node, or None when it is not one."""
    if isinstance(node, (F.Int_Literal_Constant, F.Signed_Int_Literal_Constant)):
        value, size = int(node.items[0]), _kind_size(node.items[1], 4)
        largest = 2 ** (8 * min(max(size, 1), 8) - 1) - 1
        if abs(value) > largest:  # gfortran: "Integer too big for its kind"
            raise FortranError(f"the integer constant {node.items[0]} is too big for INTEGER*{size} "
                               f"(at most {largest})")
        return Const(value, Type("integer", size))
    if isinstance(node, (F.Real_Literal_Constant, F.Signed_Real_Literal_Constant)):
        text = node.items[0].upper()
        size = 8 if "D" in text else _kind_size(node.items[1], 4)
        value = float(text.replace("D", "E").replace("Q", "E"))
        if not math.isfinite(rounded(value, size)):  # gfortran: "Real constant overflows its kind"
            largest = float(np.finfo(np.float32 if size == 4 else np.float64).max)
            raise FortranError(f"the real constant {node.items[0]} overflows REAL*{size} (at most {largest:.7g})")
        return Const(value, Type("real", size))
    if isinstance(node, F.Char_Literal_Constant):
        raw = node.items[0]
        quote = raw[0]
        value = raw[1:-1].replace(quote * 2, quote)
        return Const(value, Type("character", len(value)))
    if isinstance(node, F.Logical_Literal_Constant):
        return Const(node.items[0].upper().startswith(".T"), LOGICAL)
    if isinstance(node, F.Boz_Literal_Constant):
        text = str(node)
        base = {"B": 2, "O": 8, "Z": 16, "X": 16}[text[0].upper()]
        return Const(int(text[2:-1], base), Type("integer", 4))
    return None


class ExprConverter:
    """Converts the expressions of one unit, resolving names through ``scope``."""

    def __init__(self, scope: Scope):
        self.scope = scope

    def __call__(self, node) -> Expr:
        """The IR of ``node``, integer constant parts folded."""
        return fold(self.convert(node))

    def convert(self, node) -> Expr:
        c = literal(node)
        if c is not None:
            return c
        handler = getattr(self, "_" + type(node).__name__, None)
        if handler is not None:
            return handler(node)
        if isinstance(node, BinaryOpBase):
            return self._binary(node)
        if isinstance(node, UnaryOpBase):
            return self._unary(node)
        return OpaqueExpr(str(node), f"not modelled: {type(node).__name__}")

    # -- operators -----------------------------------------------------------------

    def _binary(self, node) -> Expr:
        left, op, right = node.items
        mapped = _OPS.get(op.upper())
        if mapped is None:
            return OpaqueExpr(str(node), f"defined operator {op}")
        return BinOp(mapped, self.convert(left), self.convert(right))

    def _unary(self, node) -> Expr:
        op, operand = node.items
        mapped = _OPS.get(op.upper())
        if mapped not in ("+", "-", "not"):
            return OpaqueExpr(str(node), f"defined operator {op}")
        return UnOp(mapped, self.convert(operand))

    def _Parenthesis(self, node) -> Expr:
        return self.convert(node.items[1])

    # -- names and references ---------------------------------------------------

    def _Name(self, node) -> Expr:
        return self.scope.name(str(node).upper())

    def args(self, arg_list) -> tuple[Expr, ...]:
        if arg_list is None:
            return ()
        return tuple(self.convert(a) for a in getattr(arg_list, "items", (arg_list,)))

    def actuals(self, arg_list) -> tuple[Expr, ...]:
        """The actual arguments of a call to one of the program's own routines:
        a contiguous array section (``X(L:U)``, ``A(:, J)``: a stride-1 range in
        the first dimension, scalar subscripts after it) is its first element,
        from which sequence association passes the same storage (what compilers
        pass for it); anything else as :meth:`args` converts it."""
        if arg_list is None:
            return ()
        return tuple(self._actual(a) for a in getattr(arg_list, "items", (arg_list,)))

    def _actual(self, node) -> Expr:
        if isinstance(node, F.Part_Ref) and node.items[1] is not None:
            name = str(node.items[0]).upper()
            items = getattr(node.items[1], "items", (node.items[1],))
            dims = self.scope.dims_of(name) if self.scope.is_array(name) else None
            if dims and len(items) == len(dims) and isinstance(items[0], F.Subscript_Triplet) \
                    and not any(isinstance(x, F.Subscript_Triplet) for x in items[1:]):
                lo, _, stride = items[0].items
                if stride is None or ir_constant(self.convert(stride)) == 1:
                    first = self.convert(lo) if lo is not None else dims[0].lower
                    return Index(name, (first, *(self.convert(x) for x in items[1:])))
            if dims and len(items) == len(dims) and any(isinstance(x, F.Subscript_Triplet) for x in items) \
                    and not any(isinstance(x, F.Subscript_Triplet) and x.items[1] is None and d.upper is None
                                for x, d in zip(items, dims)):
                return SectionActual(str(node), "array section", name, tuple(
                    self._triplet(x, d) if isinstance(x, F.Subscript_Triplet) else self.convert(x)
                    for x, d in zip(items, dims)))
        return self.convert(node)

    def _triplet(self, node, dim) -> Triplet:
        lo, hi, stride = node.items
        return Triplet(dim.lower if lo is None else self.convert(lo),
                       dim.upper if hi is None else self.convert(hi),
                       None if stride is None else self.convert(stride))

    def _reference(self, name_node, arg_list, node) -> Expr:
        name = str(name_node).upper()
        items = getattr(arg_list, "items", (arg_list,)) if arg_list is not None else ()
        triplets = [a for a in items if isinstance(a, F.Subscript_Triplet)]
        if triplets:
            if len(items) == 1 and not self.scope.is_array(name) and self.scope.is_character(name):
                lo, hi, stride = items[0].items
                if stride is None:
                    return Substring(
                        self.scope.name(name),
                        None if lo is None else self.convert(lo),
                        None if hi is None else self.convert(hi),
                    )
            return OpaqueExpr(str(node), "array section")
        out = self.scope.call(name, self.args(arg_list))
        if isinstance(out, FuncRef) and out.kind == "external" and self.scope.is_own_routine(name):
            return FuncRef(name, self.actuals(arg_list), out.kind)
        return out

    def _Part_Ref(self, node) -> Expr:
        return self._reference(node.items[0], node.items[1], node)

    def _Structure_Constructor(self, node) -> Expr:
        return self._reference(node.items[0], node.items[1], node)

    def _Intrinsic_Function_Reference(self, node) -> Expr:
        return self._reference(node.items[0], node.items[1], node)

    def _Function_Reference(self, node) -> Expr:
        return self._reference(node.items[0], node.items[1], node)

    def _Array_Section(self, node) -> Expr:
        base, rng = node.items
        if not isinstance(rng, F.Substring_Range):
            return OpaqueExpr(str(node), "array section")
        lo, hi = rng.items
        return Substring(
            self.convert(base),
            None if lo is None else self.convert(lo),
            None if hi is None else self.convert(hi),
        )

    def _Array_Constructor(self, node) -> Expr:
        return OpaqueExpr(str(node), "array constructor (Fortran 90: read only as the right side of an array "
                                     "assignment)")

    def _Data_Ref(self, node) -> Expr:
        return OpaqueExpr(str(node), DERIVED_COMPONENT)

    def _Actual_Arg_Spec(self, node) -> Expr:
        return OpaqueExpr(str(node), "keyword argument")

    def _Alt_Return_Spec(self, node) -> Expr:
        return OpaqueExpr(str(node), "alternate return label")

    # -- literals that need the scope -------------------------------------------

    def _Complex_Literal_Constant(self, node) -> Expr:
        parts = [self.convert(p) for p in node.items]
        if all(isinstance(p, Const) for p in parts):
            size = max(8, *(2 * p.type.size for p in parts if p.type.base == "real"))  # type: ignore[union-attr]
            c = make(complex(parts[0].value, parts[1].value), Type("complex", size))  # type: ignore[union-attr, arg-type]
            if c is not None:
                return c
        return OpaqueExpr(str(node), "complex constant with non-constant parts")

    # -- implied DO (I/O lists, DATA) ---------------------------------------------

    def implied_do(self, objects, var, start, end, step) -> ImpliedDo:
        items = tuple(self.item(o) for o in getattr(objects, "items", (objects,)))
        return ImpliedDo(
            items,
            str(var).upper(),
            self(start),
            self(end),
            None if step is None else self(step),
        )

    def implied(self, node) -> Expr:
        """An ``Io_Implied_Do`` or ``Data_Implied_Do`` node."""
        if isinstance(node, F.Io_Implied_Do):
            objects, control = node.items
            var, start, end, step = control.items
            return self.implied_do(objects, var, start, end, step)
        objects, var, start, end, step = node.items
        return self.implied_do(objects, var, start, end, step)

    def item(self, node) -> Expr:
        """An element of an I/O list or DATA object list."""
        if _is_implied(node):
            return self.implied(node)
        return self.section(node) or self(node)

    def section(self, node) -> Expr | None:
        """An array section ``A(l:u:s, J)`` in an I/O list or DATA object list as
        what it stands for there: its elements in array element order, that is
        implied DO loops over the triplets, the first one innermost
        (``(A(_S1, J), _S1 = l, u, s)``).  None when ``node`` is not a section
        of an array whose bounds are known where a triplet omits them."""
        if not isinstance(node, F.Part_Ref) or node.items[1] is None:
            return None
        name = str(node.items[0]).upper()
        subs = getattr(node.items[1], "items", (node.items[1],))
        if not any(isinstance(x, F.Subscript_Triplet) for x in subs) or not self.scope.is_array(name):
            return None
        dims = self.scope.dims_of(name)
        if dims is None or len(dims) != len(subs):
            return None
        loops: list[tuple[str, Expr, Expr, Expr | None]] = []
        index: list[Expr] = []
        for x, dim in zip(subs, dims):
            if not isinstance(x, F.Subscript_Triplet):
                index.append(self(x))
                continue
            lo, hi, step = x.items
            if hi is None and dim.upper is None:
                return None  # the whole of an assumed-size dimension: refused as the section it is
            var = self.scope.section_index()
            loops.append((var, dim.lower if lo is None else self(lo), dim.upper if hi is None else self(hi),
                          None if step is None else self(step)))
            index.append(Name(var))
        out: Expr = Index(name, tuple(index))
        for var, lo, hi, step in loops:
            out = ImpliedDo((out,), var, lo, hi, step)
        return out


def _is_implied(node) -> bool:
    return isinstance(node, (F.Io_Implied_Do, F.Data_Implied_Do))
