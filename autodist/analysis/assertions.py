"""INDEPENDENT assertions of the source, checked against the analysis.

autodist trusts no assertion: a loop runs in parallel when the dependence
analysis proves it can.  An ``INDEPENDENT`` directive applies to the DO loop
that follows it in the same statement list; when the analysis finds that loop
sequential, the assertion is not trusted, and the user is told why (the
analysis's own reason) instead of seeing the loop quietly run in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from .. import ir
from ..errors import HpfError
from ..hpf import model as hm
from ..hpf.parse import parse_directive
from .model import LoopInfo, ProgramAnalysis


@dataclass(frozen=True)
class Assertion:
    """One INDEPENDENT directive and the verdict on the loop it asserts."""

    span: ir.Span  # the directive
    procedure: str
    loop: LoopInfo

    @property
    def trusted(self) -> bool:
        return self.loop.parallel

    def note(self) -> str:
        """One line for the user, ``file:line: ...``."""
        verdict = "confirmed" if self.trusted else f"not trusted: {self.loop.reason}; the loop runs in order"
        return f"{self.span.file}:{self.span.first}: INDEPENDENT (DO {self.loop.var}, line {self.loop.line}) {verdict}"


def _lists(body: tuple[ir.Stmt, ...]) -> Iterator[tuple[ir.Stmt, ...]]:
    stack = [body]
    while stack:
        stmts = stack.pop()
        yield stmts
        for s in stmts:
            stack.extend(s.blocks())


def _asserts_independent(s: ir.Directive) -> bool:
    try:
        return any(isinstance(d, hm.Independent) for d in parse_directive(s))
    except HpfError:
        return False


def independent_assertions(analysis: ProgramAnalysis) -> tuple[Assertion, ...]:
    """Every INDEPENDENT directive of the program that precedes an analyzed DO loop."""
    loops = {(p.name, lp.line): lp for p in analysis.procedures for ph in p.phases for lp in ph.loops}
    out = []
    for unit in analysis.program.units:
        for stmts in _lists(unit.body):
            pending = None
            for s in stmts:
                if isinstance(s, ir.Directive):
                    if _asserts_independent(s):
                        pending = s
                    continue
                if pending is not None and isinstance(s, ir.Do):
                    lp = loops.get((unit.name, s.span.first))
                    if lp is not None:
                        out.append(Assertion(pending.span, unit.name, lp))
                pending = None
    return tuple(sorted(out, key=lambda a: (a.span.file, a.span.first)))
