"""Fortran 90 array assignments -> DO loops over their elements.

``A(2:N-1, J) = B(1:N-2, J) + B(3:N, J)`` and ``X = 0.0`` (``X`` a vector) stand
for one assignment per element of the target section.  A rank-1 one becomes a
DO loop over a new INTEGER variable (named with a leading underscore, so that no
Fortran name is the same), every section and whole array of the right side read
at the element in the same position of its own triplet, scalars as they are::

    DO _S2 = 2, N - 1
      A(_S2, J) = B(_S2 - 1, J) + B(_S2 + 1, J)

One of rank 2 and more becomes ONE loop over all the elements of the section in
array element order (a collapsed nest, as OpenMP's ``collapse`` makes): the
analysis knows a loop by its line, and a nest written on one line would give it
several loops there.  ``_Sk`` runs from 0 to n1*n2*...-1 and the position in
dimension d is ``MOD(_Sk / (n1*...*n(d-1)), nd)``::

    DO _S3 = 0, N*M - 1
      A(1 + MOD(_S3, N), 1 + _S3 / N) = B(1 + MOD(_S3, N), 1 + _S3 / N) + 1

Those subscripts are not affine: the analysis treats such a loop
conservatively, as it should (it is not where a program spends its time).

Elemental intrinsics apply element by element; other functions (``SUM(A)``,
user functions) take their arguments as written.  Fortran evaluates the whole
right side before it assigns: where the right side reads the target array at
other elements, the loops run in the direction that reads every element before
it is written (``A(2:N) = A(1:N-1)`` backwards); when no direction does, or an
overlap cannot be told, the statement stays opaque with the reason.

Array constructors on the right side of a rank-1 assignment: ``(/ (f(I),
I = L, U, S) /)`` is read at position p as ``f(L + S*p)`` (the implied-DO
variable is local to the constructor), so it is a loop like any section; a list
of values ``(/ a, b, c /)`` has no element at a position that varies, so the
assignment becomes one element assignment per value, in a block IF (.TRUE.),
one statement at its line.  A constructor whose size differs from the target's,
both known when reading, is an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from fparser.two import Fortran2003 as F

from .. import ir
from ..errors import FortranError
from ..ir import INTEGER, LOGICAL, Affine, BinOp, Const, Expr, Index, Name, affine
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


class _Renamed(ExprConverter):
    """Converts with some names standing for other expressions: the index of a
    FORALL for the loop variable of its loop, the variable of an implied DO in
    an array constructor for its value at a position (both are local to their
    statement or constructor, so the program's own variable is not touched)."""

    def __init__(self, scope: Scope, names: dict[str, Expr]):
        super().__init__(scope)
        self.names = names

    def _Name(self, node) -> Expr:
        name = str(node).upper()
        if name in self.names:
            return self.names[name]
        return super()._Name(node)


class _ElementConverter(_Renamed):
    """Converts the right side of an array assignment: every array section and
    whole array becomes its element at the positions of ``loops``, an array
    constructor its element at the position of the one loop (``constructed``
    records, for a list of values, the values and the name standing for them)."""

    def __init__(self, scope: Scope, loops: list[_Loop], names: dict[str, Expr] | None = None):
        super().__init__(scope, dict(names or {}))
        self.loops = loops
        self.plain = _Renamed(scope, self.names)
        self.elements: list[Index] = []  # the section elements made, in order
        self.constructed: list[tuple[str, tuple[Expr, ...]]] = []  # (placeholder name, values)
        self.sizes: list[Expr] = []  # the number of elements of each array constructor

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
        if name not in self.names and self.scope.is_array(name):
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

    def _scalar(self, node, names: dict[str, Expr]) -> Expr:
        """A value of an array constructor, which must be a scalar."""
        conv = _ElementConverter(self.scope, [], {**self.names, **names})
        try:
            out = conv.convert(node)
        except NotLowered:
            raise NotLowered("an array inside an array constructor (only scalar values are lowered)") from None
        return out

    def _Array_Constructor(self, node) -> Expr:
        if len(self.loops) != 1:
            raise NotLowered(f"an array constructor (rank 1) in an assignment to rank {len(self.loops)}")
        values = node.items[1]
        items = getattr(values, "items", (values,)) if values is not None else ()
        implied = [x for x in items if isinstance(x, F.Ac_Implied_Do)]
        if not implied:
            placeholder = f"_C{len(self.constructed) + 1}"
            self.constructed.append((placeholder, tuple(self._scalar(x, {}) for x in items)))
            self.sizes.append(_int(len(items)))
            return Name(placeholder)
        if len(items) != 1:
            raise NotLowered("an array constructor mixing values and implied DOs")
        objects, control = implied[0].items
        objects = getattr(objects, "items", (objects,))
        if len(objects) != 1:
            raise NotLowered("an implied DO of several values in an array constructor")
        var, bounds = control.items
        lo, hi = fold(self.plain.convert(bounds[0])), fold(self.plain.convert(bounds[1]))
        step = fold(self.plain.convert(bounds[2])) if len(bounds) > 2 and bounds[2] is not None else None
        pos = self.loops[0].position
        self.sizes.append(_count(lo, hi, step))
        return self._scalar(objects[0], {str(var).upper(): _add(lo, pos if _is_one(step) else _mul(step, pos))})


def _count(lo: Expr, hi: Expr, step: Expr | None) -> Expr:
    """The number of values of ``lo:hi:step`` (not below zero when constant)."""
    n = _add(_sub(hi, lo), _int(1)) if _is_one(step) else fold(BinOp("/", _add(_sub(hi, lo), step), step))  # type: ignore[arg-type]
    c = ir.constant(n)
    return _int(max(c, 0)) if c is not None else n


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
    """The loop (or, for a list of values, the block of element assignments)
    of the array assignment ``node`` (an ``Assignment_Stmt``); NotLowered when
    it is not one this module lowers, FortranError when the sizes of its target
    and of an array constructor differ."""
    target_node, _, value_node = node.items
    name, subs = _target(scope, convert, target_node)
    triplets = [s for s in subs if isinstance(s, _Triplet)]
    counts = [_count(t.lo, t.hi, t.step) for t in triplets]
    # positions first: 0-based, one name per dimension (no Fortran name), replaced at the end
    loops = [_Loop(f"_P{k + 1}", _int(0), _sub(n, _int(1)), Name(f"_P{k + 1}"), False) for k, n in enumerate(counts)]
    positions = iter(loops)
    index = [_add(s.lo, _position(s, next(positions).position)) if isinstance(s, _Triplet) else s for s in subs]
    target = Index(name, tuple(index))
    if any(ir.mentions(x, name) for x in target.subscripts):
        raise NotLowered(f"{name} is read in the subscripts of its own target")
    rhs = _ElementConverter(scope, loops)
    value = fold(rhs.convert(value_node))
    _check_sizes(counts, rhs.sizes, span)
    if rhs.constructed:
        return _unrolled(target, value, counts[0], loops[0].var, rhs.constructed, span, label)
    reads = [e for e in ir.array_refs(value) if e.name == name]
    forwards = _forwards(target, reads, [lp.var for lp in reversed(loops)])
    var = scope.section_index()
    if len(loops) == 1 and _is_one(triplets[0].step):  # var runs over the target's own subscripts
        lo, hi = triplets[0].lo, triplets[0].hi
        at: dict[str, Expr] = {loops[0].var: _sub(Name(var), lo)}
    else:
        lo, hi = _int(0), _sub(_total(counts), _int(1))
        at = _collapsed(Name(var), counts, [lp.var for lp in loops])
    stmt: ir.Stmt = ir.Assign(span, None, _substituted(target, at), _substituted(value, at))  # type: ignore[arg-type]
    start, end, step = (lo, hi, None) if forwards else (hi, lo, _int(-1))
    return ir.Do(span, label, var, start, end, step, (stmt,))


def _position(t: _Triplet, pos: Expr) -> Expr:
    return pos if _is_one(t.step) else _mul(t.step, pos)  # type: ignore[arg-type]


def _check_sizes(counts: list[Expr], sizes: list[Expr], span: ir.Span) -> None:
    """Every array constructor has as many elements as the target, where both are known."""
    target = ir.constant(counts[0]) if len(counts) == 1 else None
    known = [c for c in (ir.constant(n) for n in sizes) if c is not None]
    expected = target if target is not None else (known[0] if known else None)
    for c in known:
        if c != expected:
            what = "the target has" if target is not None else "another array constructor has"
            raise FortranError(f"array assignment: an array constructor of {c} elements where {what} {expected}",
                               span.file, span.first)


def _total(counts: list[Expr]) -> Expr:
    """The number of elements of a section of ``counts`` elements per dimension:
    a negative count is none (MAX(n, 0) where two or more are not constants)."""
    unknown = sum(ir.constant(n) is None for n in counts)
    out: Expr | None = None
    for n in counts:
        c = ir.constant(n)
        term = _int(max(c, 0)) if c is not None else (
            ir.FuncRef("MAX", (n, _int(0)), "intrinsic") if unknown > 1 else n)
        out = term if out is None else _mul(out, term)
    assert out is not None
    return out


def _collapsed(var: Expr, counts: list[Expr], names: list[str]) -> dict[str, Expr]:
    """The position in each dimension of the element numbered ``var`` (from 0, in
    array element order) of a section of ``counts`` elements per dimension."""
    out: dict[str, Expr] = {}
    stride: Expr = _int(1)
    for k, (n, name) in enumerate(zip(counts, names)):
        scaled = var if ir.constant(stride) == 1 else fold(BinOp("/", var, stride))
        out[name] = scaled if k == len(counts) - 1 else ir.FuncRef("MOD", (scaled, n), "intrinsic")
        stride = _mul(stride, n)
    return out


def _substituted(e: Expr, at: dict[str, Expr]) -> Expr:
    """``e`` with the names of ``at`` replaced by their expressions, subscripts simplified."""
    def replace(x: Expr) -> Expr:
        if isinstance(x, Name) and x.name in at:
            return at[x.name]
        if isinstance(x, Index):
            return Index(x.name, tuple(_simplified(s) for s in x.subscripts))
        if isinstance(x, (BinOp, ir.UnOp)) and affine(x) is not None:  # an integer position: (_S1 - 1) + 1
            return _simplified(x)
        return x
    return fold(ir.map_exprs(e, replace))


def _unrolled(target: Index, value: Expr, count: Expr, pos: str, constructed, span: ir.Span,
              label: int | None) -> ir.Stmt:
    """One element assignment per value of the array constructors of ``value``
    (a list of values has no element at a position that varies), run in the
    order that reads every element of the target before it is written, in a
    block IF (.TRUE.): one statement at the line of the assignment."""
    n = len(constructed[0][1])
    stmts = []
    for p in range(n):
        at: dict[str, Expr] = {pos: _int(p), **{ph: values[p] for ph, values in constructed}}
        stmts.append(ir.Assign(span, None, _substituted(target, at), _substituted(value, at)))
    order = _safe_order(stmts, target.name)
    body = tuple(stmts[k] for k in order)
    return ir.If(span, label, (ir.Branch(Const(True, LOGICAL), body, span),))


def _safe_order(stmts: list[ir.Assign], name: str) -> list[int]:
    """Forwards or backwards: the order of ``stmts`` in which none reads an
    element of ``name`` an earlier one wrote."""
    def clash(first: ir.Assign, later: ir.Assign) -> bool:
        for r in ir.array_refs(later.value):
            if r.name != name:
                continue
            diffs = [(affine(a), affine(b)) for a, b in zip(first.target.subscripts, r.subscripts)]  # type: ignore[union-attr]
            if any(x is None or y is None for x, y in diffs):
                raise NotLowered(f"the right side reads {name}, the target, where its overlap cannot be told")
            d = [y - x for x, y in diffs]  # type: ignore[operator]
            if any(not t.is_const for t in d):
                raise NotLowered(f"the right side reads {name}, the target, where its overlap cannot be told")
            if all(t.const == 0 for t in d):
                return True
        return False
    n = len(stmts)
    for order in (list(range(n)), list(range(n - 1, -1, -1))):
        if not any(clash(stmts[order[i]], stmts[order[j]]) for j in range(n) for i in range(j)):
            return order
    raise NotLowered(f"the right side reads {name}, the target, both before and after the element it assigns")


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
    conv = _Renamed(scope, {str(index).upper(): Name(var)})
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
