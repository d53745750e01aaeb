"""Forward substitution of affine scalar definitions (DDT: expression and
subscript substitution).

EISPACK-style loops compute their bounds in scalars: ``I = N + 2 - II``,
``L = I - 1``, ``DO 10 K = 1, L``.  Within a statement list, after an
unconditional ``S = e`` with ``e`` affine, later reads of ``S`` (in loop
bounds, subscripts, conditions, right-hand sides, nested blocks included) are
replaced by ``e`` until ``S`` or a variable of ``e`` may be assigned again.
Trip counts, triangular bounds and subscripts then become affine in loop
variables, which the dependence tests and the cost model can use.  With
``elements`` (the kill analysis's copy only) a value may also read array
elements of constant subscripts (``I = GRID_POINTS(1) - 3``): it then ends
where the array may be written (assigned, read into, passed, or named by a
statement the front end does not model).
A CALL or a reference to an external function may change COMMON variables,
so definitions of COMMON variables, and definitions that read them, end
there; EQUIVALENCEd scalars (another name may change them) are never
substituted.
The rewritten IR is only analyzed; the source text is never changed.
"""

from __future__ import annotations

import dataclasses
import re

from .. import ir
from .boxes import aff, as_name
from .scalars import scalars_assigned

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_$]*")


def _reads(value: ir.Expr) -> set[str]:
    """The scalars, and the arrays of its elements, ``value`` reads."""
    return ir.names(value) | {x.name for x in value.walk() if isinstance(x, ir.Index)}


def _substitutable(value: ir.Expr, elements: bool) -> bool:
    """Affine in scalars (and, with ``elements``, in array elements of
    constant subscripts)."""
    if not elements:
        return ir.affine(value) is not None
    return aff(value) is not None and not any(isinstance(x, ir.Index)
                                              for x in ir.map_exprs(value, as_name).walk())


def _replace(expr: ir.Expr, defs: dict[str, ir.Expr]) -> ir.Expr:
    if not defs:
        return expr
    return ir.map_exprs(expr, lambda e: defs.get(e.name, e) if isinstance(e, ir.Name) else e)


def _subst_stmt(s: ir.Stmt, defs: dict[str, ir.Expr], ints: "_Scalars") -> ir.Stmt:
    """Replace reads of ``defs`` in ``s`` (its own expressions and nested blocks)."""
    if not defs and not s.blocks():
        return s
    if isinstance(s, ir.Assign):
        target = s.target
        if isinstance(target, ir.Index):
            target = ir.Index(target.name, tuple(_replace(x, defs) for x in target.subscripts))
        return dataclasses.replace(s, target=target, value=_replace(s.value, defs))
    if isinstance(s, (ir.Do, ir.DoWhile)):
        # the body runs again and again: nothing it (re)assigns keeps its value
        changed = ints.changed_by(s.body) | ({s.var} if isinstance(s, ir.Do) else set())
        inner = {k: v for k, v in defs.items() if k not in changed and not (_reads(v) & changed)}
    if isinstance(s, ir.Do):
        return dataclasses.replace(
            s,
            start=_replace(s.start, defs),
            end=_replace(s.end, defs),
            step=_replace(s.step, defs) if s.step is not None else None,
            body=_block(s.body, inner, ints),
        )
    if isinstance(s, ir.DoWhile):
        return dataclasses.replace(s, cond=_replace(s.cond, inner), body=_block(s.body, inner, ints))
    if isinstance(s, ir.If):
        branches = tuple(
            dataclasses.replace(b, cond=_replace(b.cond, defs) if b.cond is not None else None,
                                body=_block(b.body, defs, ints))
            for b in s.branches
        )
        return dataclasses.replace(s, branches=branches)
    if isinstance(s, ir.Call):
        # a whole-variable argument may be written by the callee: keep it a variable
        args = tuple(a if isinstance(a, ir.Name) else _replace(a, defs) for a in s.args)
        return dataclasses.replace(s, args=args)
    if isinstance(s, (ir.ArithIf, ir.ComputedGoto, ir.Stop)) or (isinstance(s, ir.Io) and s.kind != ir.IoKind.READ):
        return ir.map_exprs(s, lambda e: defs.get(e.name, e) if isinstance(e, ir.Name) else e)
    return s


def _block(stmts: tuple[ir.Stmt, ...], defs: dict[str, ir.Expr], ints: "_Scalars") -> tuple[ir.Stmt, ...]:
    defs = dict(defs)
    out: list[ir.Stmt] = []
    sources: dict[int, list[int]] = {}
    for i, s in enumerate(stmts):
        for t in ir.jump_targets((s,)):
            sources.setdefault(t, []).append(i)
    after: list[dict[str, ir.Expr]] = []
    for i, s in enumerate(stmts):
        if s.label is not None and s.label in sources:
            # control may also arrive by a jump: keep what holds on every way in
            srcs = sources[s.label]
            if any(j >= i for j in srcs):
                defs = {}  # a backward jump (or one from this very statement)
            else:
                for j in srcs:
                    defs = {k: v for k, v in defs.items() if after[j].get(k) == v}
        new = _subst_stmt(s, defs, ints)
        out.append(new)
        killed = ints.changed_by((s,))
        defs = {k: v for k, v in defs.items() if k not in killed and not (_reads(v) & killed)}
        if isinstance(new, ir.Assign) and isinstance(new.target, ir.Name):
            name = new.target.name
            value = new.value
            if (_substitutable(value, ints.elements) and name in ints.ints and name not in _reads(value)
                    and not ({name} | _reads(value)) & ints.aliased):
                defs[name] = value
        after.append(dict(defs))
    return tuple(out)


@dataclasses.dataclass(frozen=True)
class _Scalars:
    """``ints``: the integer scalars that may be substituted; ``common``: the
    COMMON variables (a call may change them); ``aliased``: the EQUIVALENCEd
    ones (an assignment to another name may change them)."""

    ints: frozenset[str]
    common: frozenset[str]
    aliased: frozenset[str]
    elements: bool = False

    def changed_by(self, stmts: tuple[ir.Stmt, ...]) -> set[str]:
        """The scalars ``stmts`` may change (and, with ``elements``, the arrays)."""
        out = scalars_assigned(stmts)
        if self.elements:
            out |= _arrays_written(stmts)
        if any(_calls(x) for x in ir.walk(stmts)):
            out |= self.common
        return out


def _arrays_written(stmts: tuple[ir.Stmt, ...]) -> set[str]:
    """Names ``stmts`` may write an element of: assigned, read into, passed
    to a procedure (an element, the whole array, a section), or named by a
    statement or expression the front end does not model."""
    out: set[str] = set()
    for s in ir.walk(stmts):
        if isinstance(s, ir.Assign) and (name := ir.assigned_name(s.target)) is not None:
            out.add(name)
        elif isinstance(s, ir.Io):
            out |= {x.name for item in s.targets() for x in item.walk() if isinstance(x, (ir.Index, ir.Name))}
        elif isinstance(s, ir.Opaque):
            out |= set(_WORD.findall(s.text.upper()))
        args = list(s.args) if isinstance(s, ir.Call) else []
        args += [a for e in s.exprs() for f in e.walk() if isinstance(f, ir.FuncRef) and f.kind == ir.FuncKind.EXTERNAL
                 for a in f.args]
        for a in args:
            if isinstance(a, (ir.Index, ir.Name)):
                out.add(a.name)
            elif isinstance(a, ir.OpaqueExpr):
                out |= set(_WORD.findall(a.text.upper()))
    return out


def _calls(s: ir.Stmt) -> bool:
    """Does ``s`` itself (not its nested blocks) call a procedure?"""
    if isinstance(s, ir.Call):
        return True
    return any(isinstance(x, ir.FuncRef) and x.kind == ir.FuncKind.EXTERNAL for e in s.exprs() for x in e.walk())


def forward_substitute(unit: ir.Unit, elements: bool = False) -> ir.Unit:
    """The unit with affine scalar definitions substituted forward (with
    ``elements``, also those reading array elements of constant subscripts)."""
    scalars = _Scalars(
        ints=frozenset(sym.name for sym in unit.symbols if not sym.is_array and sym.type.base == "integer"),
        common=frozenset(sym.name for sym in unit.symbols if sym.common is not None),
        aliased=frozenset(sym.name for sym in unit.symbols if sym.equivalenced),
        elements=elements,
    )
    return dataclasses.replace(unit, body=_block(unit.body, {}, scalars))
