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
