"""Loop phases as vectorized Python: the runtime's fast path.

A loop phase whose body holds only assignments, DO loops, IFs and CONTINUEs
(no GOTO, CALL or I/O) and whose array subscripts are affine in the loop
variables is translated into one Python function per execution plan:

* a *chain* of perfectly nested parallel loops is vectorized: it is moved
  innermost (always legal: a parallel loop carries no dependence) and every
  statement in it becomes one numpy operation over the chain's local range,
  in source order, so that results match a sequential run bit for bit;
  sequential loops inside the chain become Python loops around those
  operations, the loops outside it Python loops around the whole;
* private scalars of the chain become vectors; reductions over the chain are
  computed in the sequential order (``+`` and ``*`` with
  ``np.<op>.accumulate``, which never reassociates; ``MAX``/``MIN`` with
  ``np.max``/``np.min``);
* IFs inside the chain become masks (every branch's mask is computed before
  any branch runs);
* owner computes: every statement runs on the iterations of its own
  iteration set on this rank (from :mod:`autodist.owner.iterations`), so
  statements with different left-hand-side offsets get different ranges;
* arrays are addressed in their storage (this rank's part with ghost cells,
  or a window of the global index space) with affine offsets; every index is
  checked against the declared bounds once per loop entry.

:func:`shape_of` decides statically (once per phase) whether the fast path
applies and which chain to vectorize; :func:`fast_source` writes the
function for one plan (one layout state on one rank).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator


from ... import ir
from ...analysis.model import LoopInfo, Phase, RefPattern
from ...analysis.scalars import reduction_form
from . import intrinsic_code as ic
from .facts import ProgramFacts
from .scan import scalar_names

# --------------------------------------------------------------------------- the shape of a phase


@dataclass
class StmtNode:
    """An assignment of the phase; ``id`` numbers the assignments in source order."""

    stmt: ir.Assign
    id: int
    loops: tuple[str, ...]  # enclosing loop variables of the phase, outermost first
    pattern: RefPattern | None = None
    path: tuple[int, ...] = ()  # lines of the enclosing DO statements, outermost first
    reduction: str | None = None  # op when this is a scalar reduction update


@dataclass
class LoopNode:
    do: ir.Do
    info: LoopInfo | None
    children: list = field(default_factory=list)

    @property
    def var(self) -> str:
        return self.do.var

    @property
    def line(self) -> int:
        return self.do.span.first


@dataclass
class IfNode:
    stmt: ir.If
    branches: list = field(default_factory=list)  # (cond or None, children)


@dataclass
class PhaseShape:
    """What the fast path needs to know about one phase, independent of layouts."""

    unit: ir.Unit
    phase: Phase
    root: LoopNode | None
    stmts: list[StmtNode]
    reason: str  # why the fast path does not apply ("" when it does)
    chains: tuple[tuple[int, ...], ...] = ()  # vectorized loop nests (DO lines, outermost first)
    privates: frozenset[str] = frozenset()
    reductions: dict[str, str] = field(default_factory=dict)  # scalar -> op
    ins: tuple[str, ...] = ()
    outs: tuple[str, ...] = ()
    live_vars: frozenset[str] = frozenset()  # loop variables read after the phase
    arrays: tuple[str, ...] = ()  # every array the phase references (set by the planner)

    @property
    def fast(self) -> bool:
        return not self.reason

    def loop_at(self, line: int) -> LoopNode:
        return next(lp for lp in self.loops() if lp.line == line)

    @property
    def vectorized(self) -> tuple[tuple[str, ...], ...]:
        """The variables of every vectorized chain (for reports)."""
        return tuple(tuple(self.loop_at(line).var for line in c) for c in self.chains)

    def loops(self) -> Iterator[LoopNode]:
        def walk(nodes):
            for n in nodes:
                if isinstance(n, LoopNode):
                    yield n
                    yield from walk(n.children)
                elif isinstance(n, IfNode):
                    for _, ch in n.branches:
                        yield from walk(ch)
        if self.root is not None:
            yield self.root
            yield from walk(self.root.children)


class _NotFast(Exception):
    pass


def private_ranges(phases) -> dict[str, list[tuple[int, int]]]:
    """Per scalar, the line ranges of the loops (of any phase) where it is
    private: assigned before it is read in every iteration."""
    out: dict[str, list[tuple[int, int]]] = {}
    for ph in phases:
        for lp in ph.loops:
            for name in lp.private:
                out.setdefault(name, []).append((lp.line, lp.last_line))
    return out


def shape_of(unit: ir.Unit, phase: Phase, do: ir.Do, facts: ProgramFacts,
             privates_at: dict[str, list[tuple[int, int]]] | None = None) -> PhaseShape:
    """The static analysis of one loop phase (see the module docstring);
    ``privates_at`` (from :func:`private_ranges`) lets a private scalar that
    other loops also use privately stay private here."""
    stmts: list[StmtNode] = []
    infos = {lp.line: lp for lp in phase.loops}
    patterns: dict[tuple[int, str], list[RefPattern]] = {}
    for p in phase.patterns:
        key = (p.line, p.lhs.array if p.lhs is not None else (p.lhs_scalar or ""))
        patterns.setdefault(key, []).append(p)
    shape = PhaseShape(unit, phase, None, stmts, "")
    read, written = scalar_names((do,), unit)
    shape.ins = tuple(sorted(read | written))
    shape.outs = tuple(sorted(written))
    try:
        shape.root = _build(do, (), unit, infos, patterns, stmts, facts)
        _classify_scalars(shape, written, privates_at or {})
        shape.live_vars = frozenset(v for v in _loop_vars(shape.root) if _live_after(unit, phase.span, v))
        if any(v != shape.root.var for v in shape.live_vars):
            raise _NotFast(f"loop variable {sorted(shape.live_vars)[0]} is used after the phase")
        shape.chains = _choose_chains(shape)
    except _NotFast as exc:
        shape.reason = str(exc)
    return shape


def _loop_vars(root: LoopNode) -> set[str]:
    out = {root.var}
    for n in root.children:
        if isinstance(n, LoopNode):
            out |= _loop_vars(n)
        elif isinstance(n, IfNode):
            for _, ch in n.branches:
                for m in ch:
                    if isinstance(m, LoopNode):
                        out |= _loop_vars(m)
    return out


def _build(do: ir.Do, outer: tuple[str, ...], unit: ir.Unit, infos, patterns, stmts, facts,
           path: tuple[int, ...] = ()) -> LoopNode:
    if do.step is not None and ir.affine(do.step) is None:
        raise _NotFast(f"DO {do.var} has a step that is not an integer constant")
    if do.step is not None and not ir.affine(do.step).is_const:
        raise _NotFast(f"DO {do.var} has a step that is not an integer constant")
    sym = unit.symbol(do.var)
    if sym is None or sym.type.base != "integer":
        raise _NotFast(f"DO {do.var} does not run over an integer")
    for e in (do.start, do.end):
        _check_expr(e, unit, facts)
    node = LoopNode(do, infos.get(do.span.first))
    loops = outer + (do.var,)
    node.children = _build_block(do.body, loops, unit, infos, patterns, stmts, facts, path + (do.span.first,))
    return node


def _build_block(body, loops, unit, infos, patterns, stmts, facts, path) -> list:
    out = []
    for s in body:
        if isinstance(s, (ir.Continue, ir.Directive)):
            continue
        if isinstance(s, ir.Do):
            out.append(_build(s, loops, unit, infos, patterns, stmts, facts, path))
        elif isinstance(s, ir.Assign):
            if not isinstance(s.target, (ir.Name, ir.Index)):
                raise _NotFast(f"line {s.span.first}: assignment to a substring")
            _check_expr(s.value, unit, facts)
            _check_expr(s.target, unit, facts)
            if isinstance(s.target, ir.Index):
                for sub in s.target.subscripts:
                    _check_subscript(sub, unit, facts)
            name = s.target.name
            cands = patterns.get((s.span.first, name), [])
            pat = cands.pop(0) if cands else None
            if pat is None:
                raise _NotFast(f"line {s.span.first}: no reference pattern for this assignment")
            node = StmtNode(s, len(stmts), loops, pat, path)
            red = reduction_form(s)
            if red is not None and isinstance(s.target, ir.Name):
                node.reduction = red[1]
            stmts.append(node)
            out.append(node)
        elif isinstance(s, ir.If):
            node = IfNode(s)
            for b in s.branches:
                if b.cond is not None:
                    _check_expr(b.cond, unit, facts)
                node.branches.append((b.cond, _build_block(b.body, loops, unit, infos, patterns, stmts, facts, path)))
            if _guards_shifted_refs(node, set(loops)):
                raise _NotFast(f"line {s.span.first}: an IF on the loop variables guards a reference shifted "
                               f"along one (checked where the IF lets it through)")
            out.append(node)
        else:
            raise _NotFast(f"line {s.span.first}: {type(s).__name__.upper()} statement in the loop")
    return out


def _check_expr(e: ir.Expr, unit: ir.Unit, facts: ProgramFacts) -> None:
    for x in e.walk():
        if isinstance(x, ir.FuncRef) and x.kind not in ("intrinsic", "statement"):
            raise _NotFast(f"reference to function {x.name}")
        if isinstance(x, ir.FuncRef) and x.kind == "intrinsic" and not ic.vectorizable(x.name):
            raise _NotFast(f"intrinsic {x.name} on scalars only")
        if isinstance(x, ir.FuncRef) and x.kind == "statement":
            sf = next((s for s in unit.stmt_functions if s.name == x.name), None)
            if sf is None:
                raise _NotFast(f"statement function {x.name}")
            _check_expr(sf.expr, unit, facts)
        if isinstance(x, (ir.OpaqueExpr, ir.Substring, ir.ImpliedDo)):
            raise _NotFast("an expression outside the vectorizable subset")
        if isinstance(x, ir.Const) and isinstance(x.value, str):
            raise _NotFast("character data")
        if isinstance(x, ir.Name):
            sym = unit.symbol(x.name)
            if sym is not None and sym.is_array:
                raise _NotFast(f"whole array {x.name}")
            if sym is not None and sym.type.base == "character":
                raise _NotFast("character data")
        if isinstance(x, ir.Index):
            sym = unit.symbol(x.name)
            if sym is not None and sym.type.base == "character":  # numpy would pad a copy with NULs, not blanks
                raise _NotFast("character data")
            for sub in x.subscripts:
                _check_subscript(sub, unit, facts)


def _check_subscript(sub: ir.Expr, unit: ir.Unit, facts: ProgramFacts) -> None:
    a = ir.affine(sub)
    if a is None:
        raise _NotFast("a subscript that is not affine")


def _classify_scalars(shape: PhaseShape, written: set[str], privates_at: dict[str, list[tuple[int, int]]]) -> None:
    """Private scalars (kept only if nothing reads them after the phase) and
    scalar reductions (only updated by their reduction statements).  Other
    scalars the phase assigns must be computed alike on every rank: the
    chain check and the plan see to it."""
    loop_vars = {lp.var for lp in shape.loops()}
    privates: set[str] = set()
    reductions: dict[str, str] = {}
    for lp in shape.loops():
        if lp.info is None:
            continue
        privates |= set(lp.info.private)
        for name, op in lp.info.reductions:
            if "(" not in name:
                reductions[name] = op
    unit = shape.unit
    for n in written - loop_vars:
        if n in reductions:
            for node in shape.stmts:
                if _mentions(node.stmt, n) and node.reduction is None:
                    raise _NotFast(f"reduction variable {n} is used outside its reduction")
        elif n in privates and _live_after(unit, shape.phase.span, n, privates_at.get(n, ())):
            privates.discard(n)  # its last value is needed: not private here
    shape.privates = frozenset(privates & written)
    shape.reductions = {n: op for n, op in reductions.items() if n in written}


def _mentions(s: ir.Assign, name: str) -> bool:
    for e in s.exprs():
        for x in e.walk():
            if isinstance(x, ir.Name) and x.name == name:
                return True
    return False


def _reads(s: ir.Stmt, name: str) -> bool:
    for e in s.exprs():
        if isinstance(s, ir.Assign) and e is s.target and isinstance(e, ir.Name):
            continue
        if name in ir.free_names(e):
            return True
    return False


def _live_after(unit: ir.Unit, span: ir.Span, var: str, private_in=()) -> bool:
    """Might ``var`` be read after the phase at ``span``?  Reads inside DO
    loops over ``var`` (which set it first) and inside loops where it is
    private (``private_in``: line ranges) do not count; dummies, COMMON and
    SAVE'd variables always are live (the caller or a later call may read them)."""
    sym = unit.symbol(var)
    if sym is not None and (sym.dummy or sym.common is not None or sym.save or sym.in_data):
        return True

    def walk(stmts, covered: bool) -> bool:
        for s in stmts:
            if span.first <= s.span.first <= span.last and s.span.file == span.file:
                continue
            if any(a <= s.span.first <= b for a, b in private_in):
                continue
            if not covered and _reads(s, var):
                return True
            inner = covered or (isinstance(s, ir.Do) and s.var == var)
            for b in s.blocks():
                if walk(b, inner):
                    return True
        return False

    return walk(unit.body, False)


# --------------------------------------------------------------------------- the chain


def _inner_nodes(children) -> Iterator:
    for n in children:
        yield n
        if isinstance(n, LoopNode):
            yield from _inner_nodes(n.children)
        elif isinstance(n, IfNode):
            for _, ch in n.branches:
                yield from _inner_nodes(ch)


def _chain_ok(shape: PhaseShape, chain: list[LoopNode]) -> bool:
    names = {lp.var for lp in chain}
    for lp in chain:
        if lp.info is None or not lp.info.parallel:
            return False
        if ir.stmt_names(lp.do) & names:
            return False
        if lp.do.step is not None and ir.affine(lp.do.step).const == 0:
            return False
        for name, op in lp.info.reductions:
            if "(" in name:
                return False
    inner = chain[-1]
    # scalars assigned inside the chain hold one value per iteration (vectors):
    # a subscript that mentions one is not a view of the storage
    varying = {n.stmt.target.name for n in _inner_nodes(inner.children)
               if isinstance(n, StmtNode) and isinstance(n.stmt.target, ir.Name)}
    for n in _inner_nodes(inner.children):
        if isinstance(n, LoopNode) and ir.stmt_names(n.do) & (names | varying):
            return False  # bounds that differ from one iteration of the chain to the next
        if isinstance(n, IfNode):
            for cond, _ in n.branches:
                if cond is not None and not _refs_ok(cond, names, varying):
                    return False
        if isinstance(n, StmtNode):
            s = n.stmt
            if not _refs_ok(s.value, names, varying) or (
                    isinstance(s.target, ir.Index) and not _ref_ok(s.target, names, varying)):
                return False
            if isinstance(s.target, ir.Index):
                used = {v for sub in s.target.subscripts for v in (ir.affine(sub).vars if ir.affine(sub) else ())}
                if not names <= used:
                    return False  # the same element for every iteration of a chain loop
            if isinstance(s.target, ir.Name):
                t = s.target.name
                if t in shape.reductions:
                    if n.reduction is None:
                        return False
                    if n.reduction in ("+", "*") and not _direct_child(inner, n):
                        return False  # the accumulation order would change
                    if not _same_type_reduction(shape.unit, s):
                        return False
                elif t not in shape.privates:
                    return False
    # a reduction statement hidden in an IF form is not vectorizable
    for n in _inner_nodes(inner.children):
        if isinstance(n, IfNode) and reduction_form(n.stmt) is not None:
            return False
    return True


def _guards_shifted_refs(n: IfNode, names: set[str]) -> bool:
    """Whether an IF on the chain's variables (``I .EQ. 1 .OR. I .EQ. NX``) guards a
    reference shifted along one (``U(I-1, J)``): the boundary idiom, where the
    shifted element is outside the array on the iterations the IF excludes.  The
    vectorized path checks every reference over the whole loop range (and a mask
    evaluates it everywhere), so such a phase runs on the scalar paths, which
    evaluate only what the IF lets through."""
    if not any(cond is not None and ir.names(cond) & names for cond, _ in n.branches):
        return False
    for _, children in n.branches:
        for c in _inner_nodes(children):
            exprs = c.stmt.exprs() if isinstance(c, StmtNode) else ()
            if isinstance(c, IfNode):
                exprs = tuple(cond for cond, _ in c.branches if cond is not None)
            for x in (x for e in exprs for x in e.walk() if isinstance(x, ir.Index)):
                for sub in x.subscripts:
                    a = ir.affine(sub)
                    if a is not None and set(a.vars) & names and a.const != 0:
                        return True
    return False


def _direct_child(loop: LoopNode, node: StmtNode) -> bool:
    return any(c is node for c in loop.children)


def _same_type_reduction(unit: ir.Unit, s: ir.Assign) -> bool:
    from ...frontend.typeof import type_of

    def nt(n):
        sym = unit.symbol(n)
        return sym.type if sym else None
    t = type_of(s.value, nt)
    return t is not None and t == nt(s.target.name)  # type: ignore[union-attr]


def _ref_ok(x: ir.Index, names: set[str], varying: set[str]) -> bool:
    """Whether ``x`` is a view of its storage over the chain ``names``: each
    subscript affine, in at most one chain variable, each variable in one
    subscript, and no subscript mentions a scalar in ``varying``."""
    seen: set[str] = set()
    for sub in x.subscripts:
        a = ir.affine(sub)
        if a is None or ir.names(sub) & varying:
            return False
        vs = [v for v in a.vars if v in names]
        if len(vs) > 1:
            return False
        if vs:
            if vs[0] in seen:
                return False
            seen.add(vs[0])
    return True


def _refs_ok(e: ir.Expr, names: set[str], varying: set[str]) -> bool:
    return all(_ref_ok(x, names, varying) for x in e.walk() if isinstance(x, ir.Index))


def _trips(lp: LoopNode) -> float:
    if lp.info is not None and lp.info.trip_count:
        return float(lp.info.trip_count)
    return 100.0


def _choose_chains(shape: PhaseShape) -> tuple[tuple[int, ...], ...]:
    """Disjoint chains that leave the fewest statement executions to Python
    (ties: the longest vectors), by dynamic programming over the loop tree."""

    def best(node, mult: float) -> tuple[float, float, list]:
        if isinstance(node, StmtNode):
            return mult, 0.0, []
        if isinstance(node, IfNode):
            cost = vec = 0.0
            chains: list = []
            for _, ch in node.branches:
                for c in ch:
                    a, b, d = best(c, mult)
                    cost, vec, chains = cost + a, vec + b, chains + d
            return cost, vec, chains
        assert isinstance(node, LoopNode)
        cost = vec = 0.0
        chains = []
        for c in node.children:
            a, b, d = best(c, mult * _trips(node))
            cost, vec, chains = cost + a, vec + b, chains + d
        options = [(cost, -vec, chains)]
        chain = [node]
        while True:
            if _chain_ok(shape, chain):
                size = 1.0
                for lp in chain:
                    size *= _trips(lp)
                work = _python_work(chain[-1], {id(lp) for lp in chain}, mult)
                options.append((work, -size * mult, [tuple(lp.line for lp in chain)]))
            body = chain[-1].children
            if len(body) == 1 and isinstance(body[0], LoopNode):
                chain.append(body[0])
            else:
                break
        c, v, ch = min(options, key=lambda o: (o[0], o[1]))
        return c, -v, ch

    if shape.root is None:
        return ()
    return tuple(best(shape.root, 1.0)[2])


def _python_work(node, chain_ids: set[int], outer: float) -> float:
    """Statement executions left to Python under ``node`` when the loops in
    ``chain_ids`` are vectorized."""
    if isinstance(node, StmtNode):
        return outer
    if isinstance(node, LoopNode):
        mult = outer if id(node) in chain_ids else outer * _trips(node)
        return sum(_python_work(c, chain_ids, mult) for c in node.children)
    if isinstance(node, IfNode):
        return sum(_python_work(c, chain_ids, outer) for _, ch in node.branches for c in ch)
    return 0.0
