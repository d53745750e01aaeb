"""Scalars in loops: private temporaries and reductions.

A scalar written in a loop body is

* *private* when every iteration assigns it before reading it and its value
  is not used after the loop (HPF ``NEW``);
* a *reduction* when it is only updated by ``S = S op e`` statements of one
  operator (``+`` also for ``S = S - e``, ``*``, ``MAX``/``MIN`` in their
  intrinsic and ``IF (E .GT. S) S = E`` forms) and read nowhere else;
* otherwise it carries a dependence from one iteration to the next.

Array elements with loop-invariant subscripts updated as ``A(K) = A(K) + e``
are recognised as reductions too.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import ir

_MAX = {"MAX", "MAX0", "AMAX1", "DMAX1", "AMAX0", "MAX1"}
_MIN = {"MIN", "MIN0", "AMIN1", "DMIN1", "AMIN0", "MIN1"}


@dataclass(frozen=True)
class Reduction:
    name: str  # scalar name, or array text "A(K)"
    op: str  # "+", "*", "max", "min"
    stmts: tuple[ir.Stmt, ...]


def reads_of_stmt(s: ir.Stmt) -> set[str]:
    """Scalar names a statement reads (subscripts included), nested blocks excluded."""
    out: set[str] = set()
    if isinstance(s, ir.Assign):
        out |= ir.names(s.value)
        if not isinstance(s.target, ir.Name):
            for sub in s.target.children():
                out |= ir.names(sub)
        return out
    if isinstance(s, ir.Io) and s.kind == ir.IoKind.READ:
        for item in s.items:
            if not isinstance(item, ir.Name):
                for sub in item.children():
                    out |= ir.free_names(sub)
        return out
    for e in s.exprs():
        out |= ir.free_names(e)
    return out


def writes_of_stmt(s: ir.Stmt) -> set[str]:
    """Scalar names a statement assigns (nested blocks excluded)."""
    if isinstance(s, ir.Assign) and isinstance(s.target, ir.Name):
        return {s.target.name}
    if isinstance(s, ir.Do):
        return {s.var}
    if isinstance(s, ir.Io):
        return {i.name for i in s.targets() if isinstance(i, ir.Name)}
    return set()


def reduction_form(s: ir.Stmt) -> tuple[str, str, ir.Expr] | None:
    """(target text, op, target expr) if ``s`` is a reduction update, else None."""
    if isinstance(s, ir.If) and s.logical and len(s.branches) == 1:
        cond = s.branches[0].cond
        body = s.branches[0].body
        if len(body) == 1 and isinstance(body[0], ir.Assign) and isinstance(cond, ir.BinOp):
            tgt, val = body[0].target, body[0].value
            c = cond
            if c.op in (ir.Op.GT, ir.Op.GE) and c.left == val and c.right == tgt:
                return _key(tgt), "max", tgt
            if c.op in (ir.Op.LT, ir.Op.LE) and c.left == tgt and c.right == val:
                return _key(tgt), "max", tgt
            if c.op in (ir.Op.LT, ir.Op.LE) and c.left == val and c.right == tgt:
                return _key(tgt), "min", tgt
            if c.op in (ir.Op.GT, ir.Op.GE) and c.left == tgt and c.right == val:
                return _key(tgt), "min", tgt
        return None
    if not isinstance(s, ir.Assign):
        return None
    tgt, val = s.target, s.value
    if not isinstance(tgt, (ir.Name, ir.Index)):
        return None
    if isinstance(val, ir.BinOp) and val.op in (ir.Op.ADD, ir.Op.SUB, ir.Op.MUL):
        op = "*" if val.op == ir.Op.MUL else "+"
        if val.left == tgt and not ir.mentions(val.right, tgt.name):
            return _key(tgt), op, tgt
        if val.op != ir.Op.SUB and val.right == tgt and not ir.mentions(val.left, tgt.name):
            return _key(tgt), op, tgt
        return None
    if isinstance(val, ir.FuncRef) and val.kind == ir.FuncKind.INTRINSIC and (val.name in _MAX or val.name in _MIN):
        hits = [a for a in val.args if a == tgt]
        others = [a for a in val.args if a != tgt]
        if len(hits) == 1 and others and not any(ir.mentions(o, tgt.name) for o in others):
            return _key(tgt), "max" if val.name in _MAX else "min", tgt
    return None


def _key(tgt: ir.Expr) -> str:
    from .text import expr_text

    return expr_text(tgt)


def find_reductions(body: tuple[ir.Stmt, ...], loop_vars: set[str]) -> list[Reduction]:
    """Reductions in a loop body whose loop variables are ``loop_vars``."""
    from .loops import walk_ctx

    by_key: dict[str, list[tuple[ir.Stmt, str, ir.Expr]]] = {}
    covered: set[int] = set()
    for ctx in walk_ctx(body):
        form = reduction_form(ctx.stmt)
        if form is None:
            continue
        key, op, tgt = form
        if isinstance(tgt, ir.Index):
            subs_vars = set().union(*(ir.names(x) for x in tgt.subscripts)) if tgt.subscripts else set()
            if subs_vars & loop_vars:
                continue  # A(I) = A(I) + ... is an ordinary update, not a reduction
        by_key.setdefault(key, []).append((ctx.stmt, op, tgt))
    out = []
    for key, items in by_key.items():
        ops = {op for _, op, _ in items}
        if len(ops) != 1:
            continue
        tgt = items[0][2]
        stmts = tuple(s for s, _, _ in items)
        ids = {id(s) for s in stmts}
        for s in stmts:
            if isinstance(s, ir.If):
                ids.add(id(s.branches[0].body[0]))
        # the target must not be used anywhere else in the body
        if _used_elsewhere(body, tgt, ids):
            continue
        out.append(Reduction(key, ops.pop(), stmts))
        covered |= ids
    return out


def _used_elsewhere(body: tuple[ir.Stmt, ...], tgt: ir.Expr, skip: set[int]) -> bool:
    from .loops import walk_ctx

    name = tgt.name  # type: ignore[attr-defined]
    for ctx in walk_ctx(body):
        s = ctx.stmt
        if id(s) in skip:
            continue
        for e in s.exprs():
            for x in e.walk():
                if isinstance(x, (ir.Name, ir.Index)) and x.name == name:
                    return True
        if isinstance(s, ir.Do) and s.var == name:
            return True
    return False


def first_access(stmts: tuple[ir.Stmt, ...], name: str) -> str | None:
    """'def' when ``name`` is surely assigned before any read in one pass over
    ``stmts``; 'use' when it may be read first; None when not touched."""
    for s in stmts:
        if isinstance(s, ir.If):
            results = [first_access(b.body, name) for b in s.branches]
            if name in ir.stmt_names(s):
                return "use"
            if any(r == "use" for r in results):
                return "use"
            has_else = s.branches[-1].cond is None
            if has_else and all(r == "def" for r in results):
                return "def"
            continue  # a conditional definition does not count
        if isinstance(s, ir.Do):
            if name in ir.stmt_names(s):
                return "use"
            if s.var == name:
                return "def"
            r = first_access(s.body, name)
            if r is not None:
                return r  # assume the loop runs at least once
            continue
        if isinstance(s, ir.DoWhile):
            if name in ir.names(s.cond):
                return "use"
            r = first_access(s.body, name)
            if r == "use":
                return "use"
            continue
        if name in reads_of_stmt(s):
            return "use"
        if name in writes_of_stmt(s):
            return "def"
        if isinstance(s, ir.Call) and any(isinstance(a, ir.Name) and a.name == name for a in s.args):
            return "use"  # may be read by the callee
    return None


def scalar_writes(body: tuple[ir.Stmt, ...]) -> dict[str, int]:
    """Scalars assigned anywhere in ``body`` -> first line assigning them."""
    from .loops import walk_ctx

    out: dict[str, int] = {}
    for ctx in walk_ctx(body):
        for n in writes_of_stmt(ctx.stmt):
            out.setdefault(n, ctx.stmt.span.first)
    return out


def scalars_assigned(stmts: tuple[ir.Stmt, ...]) -> set[str]:
    """Scalars that ``stmts`` (nested statements included) may assign: targets,
    DO variables, READ items, and whole-variable arguments of calls and
    external function references (the callee may write them)."""
    out: set[str] = set()
    for s in ir.walk(stmts):
        out |= writes_of_stmt(s)
        if isinstance(s, ir.Call):
            out |= {a.name for a in s.args if isinstance(a, ir.Name)}
        for e in s.exprs():
            for x in e.walk():
                if isinstance(x, ir.FuncRef) and x.kind == ir.FuncKind.EXTERNAL:
                    out |= {a.name for a in x.args if isinstance(a, ir.Name)}
    return out
