"""Loops: walking statements with their enclosing loops, bounds, trip counts.

Trip counts follow Fortran 77: ``max(0, (end - start + step) / step)`` with the
division truncating (:func:`autodist.ir.trips`; bounds are evaluated by
:func:`autodist.ir.eval_affine`).  Bounds that depend on outer loop variables (triangular
nests) are counted exactly by enumerating the outer values (sampled evenly
beyond :data:`ENUMERATION_LIMIT` values).  Bounds that are not known constants
take the measured average from a profile run when there is one, else the
``default_trip_count`` of the options; :class:`TripCounter` records which.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from .. import ir
from ..ir.evaluate import eval_affine, trips
from .model import AnalysisOptions

#: Outer-loop values enumerated exactly when counting triangular nests.
ENUMERATION_LIMIT = 2048


@dataclass(frozen=True)
class Ctx:
    """A statement with the DO loops (outermost first) and IF conditions around it."""

    stmt: ir.Stmt
    loops: tuple[ir.Do, ...]
    conds: tuple[ir.Expr, ...]
    in_while: bool = False
    conditional: bool = False


def walk_ctx(
    stmts: tuple[ir.Stmt, ...],
    loops: tuple[ir.Do, ...] = (),
    conds: tuple[ir.Expr, ...] = (),
    in_while: bool = False,
    conditional: bool = False,
) -> Iterator[Ctx]:
    """Every statement in ``stmts`` (nested ones too) with its context, in source order."""
    for s in stmts:
        yield Ctx(s, loops, conds, in_while, conditional)
        if isinstance(s, ir.Do):
            yield from walk_ctx(s.body, loops + (s,), conds, in_while, conditional)
        elif isinstance(s, ir.DoWhile):
            yield from walk_ctx(s.body, loops, conds + (s.cond,), True, True)
        elif isinstance(s, ir.If):
            all_conds = tuple(b.cond for b in s.branches if b.cond is not None)
            for b in s.branches:
                yield from walk_ctx(b.body, loops, conds + all_conds, in_while, True)


def step_of(do: ir.Do) -> int | None:
    """The loop step as an integer (1 when omitted), None when not a constant."""
    if do.step is None:
        return 1
    step = ir.constant(do.step)
    return None if step == 0 else step


def length_of(r: range) -> int:
    """``len(r)``, also beyond the machine's integers (a loop of 10**20 trips)."""
    return max(0, -((r.start - r.stop) // r.step))


def loop_values(do: ir.Do, env: dict[str, int]) -> range | None:
    """The values the loop variable takes, given outer variable values."""
    lo, hi, st = eval_affine(do.start, env), eval_affine(do.end, env), step_of(do)
    if lo is None or hi is None or st is None:
        return None
    n = trips(lo, hi, st)
    return range(lo, lo + n * st, st) if n else range(0)


def bounds_text(do: ir.Do) -> str:
    """``start, end[, step]`` as analyzed (affine bounds in normal form)."""
    from .text import expr_text

    def one(e: ir.Expr) -> str:
        a = ir.affine(e)
        return str(a) if a is not None else expr_text(e)

    parts = [one(do.start), one(do.end)]
    if do.step is not None:
        parts.append(one(do.step))
    return ", ".join(parts)


class TripCounter:
    """Counts loop iterations, remembering which counts were assumed."""

    def __init__(self, options: AnalysisOptions):
        self.options = options
        self.assumed: dict[tuple[str, int], str] = {}

    def _unknown_trips(self, do: ir.Do) -> float:
        prof = self.options.profile
        key = f"{do.span.file}:{do.span.first}"
        if prof is not None and key in prof.loops:
            self.assumed[(do.span.file, do.span.first)] = f"measured {prof.loops[key].trips:g}"
            return prof.loops[key].trips
        n = self.options.default_trip_count
        self.assumed[(do.span.file, do.span.first)] = f"assumed {n}"
        return float(n)

    def known(self, do: ir.Do) -> bool:
        return (do.span.file, do.span.first) not in self.assumed

    def count(self, loops: tuple[ir.Do, ...], env: dict[str, int] | None = None) -> float:
        """Executions of the body of ``loops[-1]`` per execution of ``loops[0]``'s
        DO statement (1 for no loops), given values of enclosing variables."""
        env = dict(env or {})
        if not loops:
            return 1.0
        do, rest = loops[0], loops[1:]
        values = loop_values(do, env)
        if values is None:
            return self._unknown_trips(do) * self.count(rest, env)
        if not rest:
            return float(length_of(values))
        if not any(do.var in ir.stmt_names(inner) for inner in rest):
            # rectangular with respect to this variable
            n = length_of(values)
            return n * self.count(rest, env) if n else 0.0
        n = length_of(values)
        if n <= ENUMERATION_LIMIT:
            total = 0.0
            for v in values:
                env[do.var] = v
                total += self.count(rest, env)
            return total
        sample = [values.start + values.step * ((k * (n - 1)) // (ENUMERATION_LIMIT - 1))
                  for k in range(ENUMERATION_LIMIT)]
        total = 0.0
        for v in sample:
            env[do.var] = v
            total += self.count(rest, env)
        return total * n / len(sample)

    def average_trips(self, outer: tuple[ir.Do, ...], do: ir.Do, env: dict[str, int] | None = None) -> float:
        """Average trips of ``do`` per entry, inside the loops ``outer``."""
        entries = self.count(outer, env)
        if entries == 0:
            return 0.0
        return self.count(outer + (do,), env) / entries


def affine_range(expr: ir.Expr, ranges: dict[str, tuple[float, float]]) -> tuple[float, float]:
    """Interval of values of an integer expression when each variable lies in
    its range (unbounded for unknown variables or non-affine expressions)."""
    inf = float("inf")
    a = ir.affine(expr)
    if a is None:
        v = eval_affine(expr, {})
        return (v, v) if v is not None else (-inf, inf)
    lo = hi = float(a.const)
    for v, k in a.terms:
        r = ranges.get(v, (-inf, inf))
        x, y = k * r[0], k * r[1]
        lo += min(x, y) if x == x and y == y else -inf  # NaN from 0 * inf
        hi += max(x, y) if x == x and y == y else inf
    return (lo, hi)
