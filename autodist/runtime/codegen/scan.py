"""What a statement list holds that code generation needs: its labels, the
labels its jumps go to, and the scalar variables it reads and writes."""

from __future__ import annotations

from typing import Iterable

from ... import ir


def labels_in(stmts: tuple[ir.Stmt, ...]) -> set[int]:
    return {s.label for s in stmts if s.label is not None}


def scalar_names(stmts: Iterable[ir.Stmt], unit: ir.Unit) -> tuple[set[str], set[str]]:
    """Scalar variables read and written in ``stmts`` (locals, dummies, COMMON)."""
    read: set[str] = set()
    written: set[str] = set()

    result = unit.result or unit.name if unit.kind == "function" else None

    def scalar(n: str) -> bool:
        sym = unit.symbol(n)
        return sym is not None and not sym.is_array and (sym.kind == "variable" or n == result)

    def reads(e: ir.Expr) -> None:
        for x in e.walk():
            if isinstance(x, ir.Name) and scalar(x.name):
                read.add(x.name)
            if isinstance(x, ir.FuncRef) and x.kind == "statement":
                sf = next((s for s in unit.stmt_functions if s.name == x.name), None)
                if sf is not None:
                    for y in sf.expr.walk():
                        if isinstance(y, ir.Name) and scalar(y.name) and y.name not in sf.args:
                            read.add(y.name)

    for s in ir.walk(tuple(stmts)):
        if isinstance(s, ir.Assign):
            t = s.target
            while isinstance(t, ir.Substring):
                if t.lower is not None:
                    reads(t.lower)
                if t.upper is not None:
                    reads(t.upper)
                t = t.base
            if isinstance(t, ir.Name):
                if scalar(t.name):
                    written.add(t.name)
            else:
                for sub in t.subscripts:  # type: ignore[union-attr]
                    reads(sub)
            reads(s.value)
        elif isinstance(s, ir.Do):
            written.add(s.var)
            for e in s.exprs():
                reads(e)
        else:
            if isinstance(s, ir.Io):  # READ items, implied-DO variables, IOSTAT= are assigned
                written.update(t.name for t in s.targets() if isinstance(t, ir.Name) and scalar(t.name))
            for e in s.exprs():
                reads(e)  # conservatively also the targets: a READ may leave one unchanged
    return read, written


def phase_scalars(do: ir.Do, unit: ir.Unit, modified: dict[str, frozenset[int]]
                  ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The scalars a loop phase takes and gives back when it runs apart from its
    unit's code (the fast path, a compiled kernel): those it reads and writes (an
    argument of a procedure that may modify it, ``modified``, is written), and
    when it calls out, every COMMON scalar of the unit too (what it calls may read
    or write them, from the unit's current values)."""
    read, written = scalar_names((do,), unit)
    calls = False
    for s in ir.walk((do,)):
        refs = [(s.name, s.args)] if isinstance(s, ir.Call) else []
        refs += [(x.name, x.args) for e in s.exprs() for x in e.walk()
                 if isinstance(x, ir.FuncRef) and x.kind not in ("intrinsic", "statement")]
        for name, args in refs:
            calls = True
            for k, a in enumerate(args):
                if isinstance(a, ir.Name) and a.name in read | written | _scalars(unit, a.name) \
                        and k in modified.get(name, frozenset(range(len(args)))):
                    written.add(a.name)
    if calls:
        commons = {m for c in unit.commons for m in c.members
                   if unit.symbol(m) is not None and not unit.symbol(m).is_array}
        read |= commons
        written |= commons
    return tuple(sorted(read | written)), tuple(sorted(written))


def leaving_labels(do: ir.Do) -> set[int]:
    """The labels outside ``do`` that jumps inside it go to, and -1 when a RETURN
    inside leaves the procedure."""
    inside = {s.label for s in ir.walk((do,)) if s.label is not None}
    out = {t for t in ir.jump_targets((do,)) if t not in inside}
    if any(isinstance(s, ir.Return) for s in ir.walk((do,))):
        out.add(-1)
    return out


def _scalars(unit: ir.Unit, name: str) -> set[str]:
    """``{name}`` when it is a scalar variable of ``unit`` (or its FUNCTION's result)."""
    sym = unit.symbol(name)
    result = (unit.result or unit.name) if unit.kind == "function" else None
    ok = sym is not None and not sym.is_array and (sym.kind == "variable" or name == result)
    return {name} if ok else set()


def arrays_of(stmts: tuple[ir.Stmt, ...], unit: ir.Unit) -> tuple[str, ...]:
    """The arrays of ``unit`` that ``stmts`` reference, in order of appearance."""
    names: dict[str, None] = {}
    for s in ir.walk(stmts):
        for e in s.exprs():
            for x in e.walk():
                if isinstance(x, (ir.Index, ir.Name)):
                    sym = unit.symbol(x.name)
                    if sym is not None and sym.is_array:
                        names[x.name] = None
    return tuple(names)
