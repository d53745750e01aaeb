"""Fortran 90 array assignments -> DO nests over their elements.

``A(2:N-1, J) = B(1:N-2, J) + B(3:N, J)`` and ``X = 0.0`` (``X`` a vector) stand
for one assignment per element of the target section.  A rank-1 one becomes a
DO loop over a new INTEGER variable (named with a leading underscore, so that no
Fortran name is the same), every section and whole array of the right side read
at the element in the same position of its own triplet, scalars as they are::

    DO _S2 = 2, N - 1
      A(_S2, J) = B(_S2 - 1, J) + B(_S2 + 1, J)

Elemental intrinsics apply element by element; other functions (``SUM(A)``,
user functions) take their arguments as written.  Fortran evaluates the whole
right side before it assigns: where the right side reads the target array at
other elements, the loops run in the direction that reads every element before
it is written (``A(2:N) = A(1:N-1)`` backwards); when no direction does, or an
overlap cannot be told, the statement stays opaque with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from fparser.two import Fortran2003 as F

from .. import ir
from ..ir import INTEGER, Affine, BinOp, Const, Expr, Index, Name, affine
from .exprs import ExprConverter, Scope
from .fold import fold
from .intrinsics import INQUIRIES


class NotLowered(Exception):
    """The assignment is not one this module lowers; the message says why."""


@dataclass(frozen=True)
class _Triplet:
    lo: Expr
    hi: Expr
    step: Expr | None


@dataclass(frozen=True)
class _Loop:
    """One loop of the nest: ``var`` runs from ``start`` to ``end``; ``position``
    is the 0-based position in the section as an expression of ``var``."""

    var: str
    start: Expr
    end: Expr
    position: Expr
    unit: bool  # the target's triplet has step 1: var runs over the target's own subscripts


def _int(v: int) -> Const:
    return Const(v, INTEGER)


def _expr_of(a: Affine) -> Expr:
    out: Expr | None = None
    for var, c in a.terms:
        term: Expr = Name(var) if c == 1 else BinOp("*", _int(c), Name(var))
        out = term if out is None else BinOp("+", out, term)
    if out is None:
        return _int(a.const)
    if a.const > 0:
        return BinOp("+", out, _int(a.const))
    if a.const < 0:
        return BinOp("-", out, _int(-a.const))
    return out


def _simplified(e: Expr) -> Expr:
    a = affine(e)
    return _expr_of(a) if a is not None else fold(e)


def _add(a: Expr, b: Expr) -> Expr:
    return _simplified(BinOp("+", a, b))


def _sub(a: Expr, b: Expr) -> Expr:
    return _simplified(BinOp("-", a, b))


def _mul(a: Expr, b: Expr) -> Expr:
    return _simplified(BinOp("*", a, b))


def _is_one(e: Expr | None) -> bool:
    return e is None or ir.constant(e) == 1


def _subscripts(scope: Scope, convert, name: str, items) -> list[Expr | _Triplet]:
    """The subscripts of a reference to array ``name``: scalars converted, triplets
    with their omitted bounds taken from the declaration."""
    dims = scope.dims_of(name)
    if dims is None or len(dims) != len(items):
        raise NotLowered(f"{name} is referenced with {len(items)} subscripts")
    out: list[Expr | _Triplet] = []
    for x, dim in zip(items, dims):
        if isinstance(x, F.Subscript_Triplet):
            lo, hi, step = x.items
            if hi is None and dim.upper is None:
                raise NotLowered(f"the whole last dimension of assumed-size {name}")
            out.append(_Triplet(dim.lower if lo is None else convert(lo), dim.upper if hi is None else convert(hi),
                                None if step is None else convert(step)))
        else:
            out.append(convert(x))
    return out


def _whole(scope: Scope, name: str) -> list[Expr | _Triplet]:
    dims = scope.dims_of(name) or ()
    if any(d.upper is None for d in dims):
        raise NotLowered(f"the whole of assumed-size array {name}")
    return [_Triplet(d.lower, d.upper, None) for d in dims]


class _ElementConverter(ExprConverter):
    """Converts the right side of an array assignment: every array section and
    whole array becomes its element at the positions of ``loops``."""

    def __init__(self, scope: Scope, loops: list[_Loop]):
        super().__init__(scope)
        self.loops = loops
        self.plain = ExprConverter(scope)
        self.elements: list[Index] = []  # the section elements made, in order

    def _element(self, name: str, subs: list[Expr | _Triplet]) -> Index:
        triplets = [s for s in subs if isinstance(s, _Triplet)]
        if len(triplets) != len(self.loops):
            raise NotLowered(f"a section of {name} of rank {len(triplets)} in an assignment to rank {len(self.loops)}")
        positions = iter(self.loops)
        index: list[Expr] = []
        for s in subs:
            if isinstance(s, _Triplet):
                pos = next(positions).position
                index.append(_add(s.lo, pos if _is_one(s.step) else _mul(s.step, pos)))  # type: ignore[arg-type]
            else:
                index.append(s)
        out = Index(name, tuple(index))
        self.elements.append(out)
        return out

    def _Name(self, node) -> Expr:
        name = str(node).upper()
        if self.scope.is_array(name):
            return self._element(name, _whole(self.scope, name))
        return super()._Name(node)

    def _reference(self, name_node, arg_list, node) -> Expr:
        name = str(name_node).upper()
        items = getattr(arg_list, "items", (arg_list,)) if arg_list is not None else ()
        if self.scope.is_array(name):
            if any(isinstance(x, F.Subscript_Triplet) for x in items):
                return self._element(name, _subscripts(self.scope, self.plain, name, items))
            return self.plain._reference(name_node, arg_list, node)  # an element: a scalar
        made = len(self.elements)
        out = super()._reference(name_node, arg_list, node)
        if isinstance(out, ir.FuncRef) and out.kind == "intrinsic" and out.name not in INQUIRIES:
            return out  # elemental: element by element
        if len(self.elements) > made:
            del self.elements[made:]
            out = self.plain._reference(name_node, arg_list, node)  # takes its arguments as written
        return out


def _target(scope: Scope, convert, node) -> tuple[str, list[Expr | _Triplet]]:
    if isinstance(node, F.Name):
        name = str(node).upper()
        return name, _whole(scope, name)
    if isinstance(node, F.Part_Ref) and node.items[1] is not None:
        name = str(node.items[0]).upper()
        items = getattr(node.items[1], "items", (node.items[1],))
        if scope.is_array(name) and any(isinstance(x, F.Subscript_Triplet) for x in items):
            return name, _subscripts(scope, convert, name, items)
    raise NotLowered("the target is not an array or an array section")


def _loops(scope: Scope, subs: list[Expr | _Triplet]) -> list[_Loop]:
    out = []
    for s in subs:
        if not isinstance(s, _Triplet):
            continue
        var = scope.section_index()
        if _is_one(s.step):
            out.append(_Loop(var, s.lo, s.hi, _sub(Name(var), s.lo), True))
        else:  # count the positions: 0 .. (hi - lo + step) / step - 1
            assert s.step is not None
            count = fold(BinOp("/", _add(_sub(s.hi, s.lo), s.step), s.step))
            out.append(_Loop(var, _int(0), _sub(count, _int(1)), Name(var), False))
    return out


def _distance(target: Index, read: Index, loop_vars: list[str]) -> tuple[int, ...] | None:
    """How many iterations of each loop (``loop_vars`` outermost first) after
    the one that writes ``target`` the element ``read`` is written: None when
    this statement never writes it; NotLowered when that cannot be told."""
    dist: dict[str, int] = {}
    for t, r in zip(target.subscripts, read.subscripts):
        at, ar = affine(t), affine(r)
        if at is None or ar is None:
            raise NotLowered(f"the right side reads {read.name}, the target, where its overlap cannot be told")
        d = ar - at
        if d.terms:
            raise NotLowered(f"the right side reads {read.name}, the target, in another order")
        moving = [(v, c) for v, c in at.terms if v in loop_vars]
        if not moving:
            if d.const != 0:
                return None  # another row or column: never written here
            continue
        (v, c), = moving
        if d.const % c:
            return None  # between the elements written
        dist[v] = d.const // c
    return tuple(dist.get(v, 0) for v in loop_vars)


def _forwards(target: Index, reads: list[Index], loop_vars: list[str]) -> bool:
    """True to run the loops forwards, False backwards: the direction in which
    every element the right side reads is read before it is written."""
    signs = set()
    for r in reads:
        d = _distance(target, r, loop_vars)
        if d is None:
            continue
        first = next((x for x in d if x), 0)
        if first:
            signs.add(first > 0)
    if len(signs) > 1:
        raise NotLowered(f"the right side reads {target.name}, the target, both before and after the element "
                         "it assigns")
    return signs != {False}


def lower_array_assignment(scope: Scope, convert: ExprConverter, node, span: ir.Span,
                           label: int | None) -> ir.Stmt:
    """The DO nest of the array assignment ``node`` (an ``Assignment_Stmt``);
    NotLowered when it is not one this module lowers."""
    target_node, _, value_node = node.items
    name, subs = _target(scope, convert, target_node)
    if scope.is_character(name):
        raise NotLowered("a CHARACTER array")
    rank = sum(isinstance(s, _Triplet) for s in subs)
    if rank > 1:  # its loops would share one line, and the analysis knows a loop by its line
        raise NotLowered(f"of rank {rank} (only rank-1 sections are lowered to a loop)")
    loops = _loops(scope, subs)
    positions = iter(loops)
    index: list[Expr] = []
    for s in subs:
        if isinstance(s, _Triplet):
            lp = next(positions)
            index.append(Name(lp.var) if lp.unit else _add(s.lo, _mul(s.step, Name(lp.var))))  # type: ignore[arg-type]
        else:
            index.append(s)
    target = Index(name, tuple(index))
    rhs = _ElementConverter(scope, loops)
    value = fold(rhs.convert(value_node))
    reads = [e for e in ir.array_refs(value) if e.name == name]
    if any(ir.mentions(x, name) for x in target.subscripts):
        raise NotLowered(f"{name} is read in the subscripts of its own target")
    forwards = _forwards(target, reads, [lp.var for lp in reversed(loops)])
    stmt: ir.Stmt = ir.Assign(span, None, target, value)
    for k, lp in enumerate(loops):
        start, end, step = (lp.start, lp.end, None) if forwards else (lp.end, lp.start, _int(-1))
        stmt = ir.Do(span, label if k == len(loops) - 1 else None, lp.var, start, end, step, (stmt,))
    return stmt


class _Renamed(ExprConverter):
    """Converts with the index of a FORALL renamed to the loop variable that
    stands for it (FORALL indices are local to the statement)."""

    def __init__(self, scope: Scope, names: dict[str, str]):
        super().__init__(scope)
        self.names = names

    def _Name(self, node) -> Expr:
        name = str(node).upper()
        if name in self.names:
            return Name(self.names[name])
        return super()._Name(node)


def lower_forall(scope: Scope, node, span: ir.Span, label: int | None) -> ir.Stmt:
    """The DO loop of the one-index FORALL statement ``node`` (``Forall_Stmt``):
    ``FORALL (I = L:U:S, MASK) A(f(I)) = E`` is ``DO _Sk = L, U, S`` around
    ``IF (MASK) A(f(_Sk)) = E``, in the direction that reads every element of
    A before it is written; NotLowered when it is not one this module lowers."""
    header, assignment = node.items
    specs = header.items[0].items
    if len(specs) != 1:
        raise NotLowered(f"with {len(specs)} indices (only one-index FORALL statements are lowered to a loop)")
    if not isinstance(assignment, F.Assignment_Stmt):
        raise NotLowered("not an assignment")
    index, lo_node, hi_node, step_node = specs[0].items
    var = scope.section_index()
    conv = _Renamed(scope, {str(index).upper(): var})
    target = fold(conv.convert(assignment.items[0]))
    if not isinstance(target, Index) or not scope.is_array(target.name) or scope.is_character(target.name):
        raise NotLowered("its target is not an element of a numeric array")
    value = fold(conv.convert(assignment.items[2]))
    mask = None if header.items[1] is None else fold(conv.convert(header.items[1]))
    if any(isinstance(x, ir.OpaqueExpr) for e in (target, value, mask) if e is not None for x in e.walk()):
        raise NotLowered("it uses an array section or a construct not modelled")
    if any(ir.mentions(x, target.name) for x in target.subscripts):
        raise NotLowered(f"{target.name} is read in the subscripts of its own target")
    reads = [e for x in (value, mask) if x is not None for e in ir.array_refs(x) if e.name == target.name]
    lo, hi = fold(conv.convert(lo_node)), fold(conv.convert(hi_node))
    step = None if step_node is None else fold(conv.convert(step_node))
    if ir.mentions(lo, var) or ir.mentions(hi, var) or (step is not None and ir.mentions(step, var)):
        raise NotLowered("its bounds use its own index")
    body: ir.Stmt = ir.Assign(span, None, target, value)
    if mask is not None:
        body = ir.If(span, None, (ir.Branch(mask, (body,), span),), logical=True)
    if _forwards(target, reads, [var]):
        return ir.Do(span, label, var, lo, hi, step, (body,))
    st = _int(1) if step is None else step
    last = _add(lo, _mul(fold(BinOp("/", _sub(hi, lo), st)), st))
    return ir.Do(span, label, var, last, lo, _simplified(BinOp("-", _int(0), st)), (body,))
