"""Walking and transforming the IR, and the small questions every stage asks of it.

:func:`walk` visits statements (nested blocks included) and :func:`stmt_exprs`
the expressions of one statement (sub-expressions included); the queries below
are built on the two, so that "which names does this read" or "which labels
does this jump to" has one answer everywhere.  :func:`map_exprs` rebuilds any
node with a function applied to its expressions (:func:`map_nodes`: to its
statements too).
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Iterable, Iterator

from .nodes import walk  # noqa: F401  (the statement walker is the nodes' own)
from .kinds import FuncKind
from .nodes import (ArithIf, ComputedGoto, Const, Expr, FuncRef, Goto, ImpliedDo, Index, Io, Name, Span, Stmt,
                    Substring)


def stmt_exprs(stmt: Stmt) -> Iterator[Expr]:
    """Every expression (and sub-expression) appearing directly in ``stmt``."""
    for e in stmt.exprs():
        yield from e.walk()


def map_nodes(node, fn: Callable):
    """A copy of an IR node (unit, statement, expression, tuple of them) with
    ``fn`` applied to every node in it (statements and expressions, nested
    ones first, ``node`` itself last); unchanged parts are shared."""
    if isinstance(node, tuple):
        items = tuple(map_nodes(x, fn) for x in node)
        return node if all(a is b for a, b in zip(items, node)) else items
    if isinstance(node, (type, Span)) or not dataclasses.is_dataclass(node):
        return node
    changes = {}
    for f in dataclasses.fields(node):
        v = getattr(node, f.name)
        nv = map_nodes(v, fn)
        if nv is not v:
            changes[f.name] = nv
    return fn(dataclasses.replace(node, **changes) if changes else node)


def map_exprs(node, fn: Callable[[Expr], Expr]):
    """A copy of an IR node (statement, unit, expression, tuple of them) with ``fn``
    applied to every expression in it, bottom-up; unchanged parts are shared."""
    return map_nodes(node, lambda x: fn(x) if isinstance(x, Expr) else x)


def array_refs(expr: Expr) -> Iterator[Index]:
    """Every array element reference inside ``expr`` (itself included)."""
    for e in expr.walk():
        if isinstance(e, Index):
            yield e


def assigned_name(target: Expr) -> str | None:
    """The variable an assignment to ``target`` defines (part of): a name,
    an array element's or a substring's array or variable; None otherwise."""
    while isinstance(target, Substring):
        target = target.base
    return target.name if isinstance(target, (Name, Index)) else None


def external_calls(stmt: Stmt) -> list[FuncRef]:
    """The references to external functions in ``stmt`` itself, in order (one
    per reference: each is a call when the statement runs)."""
    return [x for x in stmt_exprs(stmt) if isinstance(x, FuncRef) and x.kind == FuncKind.EXTERNAL]


def names(expr: Expr) -> set[str]:
    """The names used as :class:`Name` (scalars, whole arrays) inside ``expr``."""
    return {x.name for x in expr.walk() if isinstance(x, Name)}


def free_names(expr: Expr) -> set[str]:
    """The names ``expr`` reads: those of :func:`names` but for the variables of
    the implied DO loops inside it, which set them before their items read them
    (``(A(I), I = 1, N)`` reads ``N``, not ``I``)."""
    if isinstance(expr, ImpliedDo):
        inner = set().union(*(free_names(x) for x in expr.items)) - {expr.var}
        bounds = (expr.start, expr.end) + ((expr.step,) if expr.step is not None else ())
        return inner.union(*(free_names(x) for x in bounds))
    if isinstance(expr, Name):
        return {expr.name}
    return set().union(*(free_names(x) for x in expr.children()))


def stmt_names(stmt: Stmt) -> set[str]:
    """The :class:`Name` names in the expressions appearing directly in ``stmt``."""
    return {x.name for x in stmt_exprs(stmt) if isinstance(x, Name)}


def mentions(expr: Expr, name: str) -> bool:
    """Does ``name`` appear in ``expr``, as a :class:`Name` or an array reference?"""
    return any(isinstance(x, (Name, Index)) and x.name == name for x in expr.walk())


def stmts_mention(stmts: Iterable[Stmt], name: str) -> bool:
    """Does ``name`` appear in an expression of ``stmts`` (nested ones included)?"""
    return any(
        isinstance(x, (Name, Index)) and x.name == name for s in walk(stmts) for x in stmt_exprs(s)
    )


def labels(stmts: Iterable[Stmt]) -> set[int]:
    """The labels of ``stmts`` and of the statements nested in them."""
    return {s.label for s in walk(stmts) if s.label is not None}


def branch_targets(stmt: Stmt) -> tuple[int, ...]:
    """The labels ``stmt`` itself may jump to: a GO TO's, a computed GO TO's, an arithmetic IF's,
    an I/O statement's END=, ERR= and EOR= labels."""
    if isinstance(stmt, Io):
        return tuple(e.value for k, e in stmt.specs if k in ("END", "ERR", "EOR") and isinstance(e, Const))
    if isinstance(stmt, Goto):
        return (stmt.target,)
    if isinstance(stmt, ComputedGoto):
        return stmt.targets
    if isinstance(stmt, ArithIf):
        return (stmt.neg, stmt.zero, stmt.pos)
    return ()


def jump_targets(stmts: Iterable[Stmt]) -> set[int]:
    """The labels that GO TOs and arithmetic IFs in ``stmts`` (nested ones included) jump to."""
    return {t for s in walk(stmts) for t in branch_targets(s)}
