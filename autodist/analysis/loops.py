"""Loops: walking statements with their enclosing loops, bounds, trip counts.

Trip counts follow Fortran 77: ``max(0, (end - start + step) / step)`` with the
division truncating (:func:`autodist.ir.trips`; bounds are evaluated by
:func:`autodist.ir.eval_affine`).  Bounds that depend on outer loop variables (triangular
nests) are counted exactly by enumerating the outer values (sampled evenly
beyond :data:`ENUMERATION_LIMIT` values).  Bounds that are not known constants
(after :mod:`.knownvalues` substituted the values the program fixes) are
counted, in this order, with the values ``--trip-count NAME=N`` states (the
loop counts as known), with the measured average from a profile run, with the
program's default values (read-or-default: assumed), else with the
``default_trip_count`` of the options; :class:`TripCounter` records which,
and which variables the bounds use.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterator

from .. import ir
from ..ir.evaluate import eval_affine, trips
from .model import AnalysisOptions, TripAssumption

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


def bound_names(do: ir.Do, loop_vars=frozenset()) -> tuple[str, ...]:
    """The variables the bounds of ``do`` use (``N``, ``GRID_POINTS(1)``,
    ``ROWSTR(J)``), loop variables excluded, in order of appearance."""
    from .text import expr_text

    out: list[str] = []

    def visit(e: ir.Expr) -> None:
        if isinstance(e, ir.Name):
            if e.name not in loop_vars:
                out.append(e.name)
        elif isinstance(e, ir.Index):
            out.append(expr_text(e))  # an element: its subscripts are not bounds
        else:
            for c in e.children():
                visit(c)

    for e in do.exprs():
        visit(e)
    return tuple(dict.fromkeys(out))


def _evaluated_names(do: ir.Do) -> set[str]:
    """The names the bounds of ``do`` use where a value of them could change
    its trip count: not those inside subscripts (``ROWSTR(J)`` is not known for
    any value of ``J``)."""
    out: set[str] = set()

    def visit(e: ir.Expr) -> None:
        if isinstance(e, ir.Name):
            out.add(e.name)
        elif not isinstance(e, ir.Index):
            for c in e.children():
                visit(c)

    for e in do.exprs():
        visit(e)
    return out


def variable_key(name: str, subs: tuple[int, ...] = ()) -> str:
    """A variable as ``--trip-count NAME=N`` names it: ``N``, ``GRID_POINTS(1)``, ``A(1,2)``."""
    return f"{name}({','.join(str(s) for s in subs)})" if subs else name


def _bind(do: ir.Do, values: dict[str, tuple[int, str]], env: dict[str, int]) -> tuple[ir.Do, list[str]]:
    """``do`` with the variables of ``values`` (keys as the unit names them)
    replaced in its bounds, except those ``env`` gives; and the keys used."""
    used: list[str] = []

    def fn(e: ir.Expr) -> ir.Expr:
        key = None
        if isinstance(e, ir.Name) and e.name not in env:
            key = e.name
        elif isinstance(e, ir.Index):
            subs = tuple(ir.constant(x) for x in e.subscripts)
            if all(v is not None for v in subs):
                key = variable_key(e.name, subs)  # type: ignore[arg-type]
        if key is not None and key in values:
            used.append(key)
            return ir.Const(values[key][0], ir.INTEGER)
        return e

    new = replace(do, start=ir.map_exprs(do.start, fn), end=ir.map_exprs(do.end, fn),
                  step=ir.map_exprs(do.step, fn) if do.step is not None else None)
    return new, list(dict.fromkeys(used))


class TripCounter:
    """Counts loop iterations, remembering which counts were assumed.

    ``values`` (:class:`.knownvalues.UnitValues`) gives the values stated with
    ``--trip-count NAME=N`` and the program's default values for the unit.
    """

    def __init__(self, options: AnalysisOptions, values=None):
        self.options = options
        self.values = values
        self.assumed: dict[tuple[str, int], str] = {}
        self.stated: dict[tuple[str, int], str] = {}
        self.records: dict[tuple[str, int], tuple[ir.Do, str, float, str]] = {}  # do, source, trips, note
        self._unknown: dict[tuple[str, int], tuple[float, str, tuple | None]] = {}

    def _names(self, do: ir.Do) -> tuple[str, ...]:
        return bound_names(do, self.values.loop_vars if self.values is not None else frozenset())

    def _unknown_trips(self, do: ir.Do) -> float:
        where = (do.span.file, do.span.first)
        got = self._unknown.get(where)
        if got is None:  # the same answer every time (an inner loop is counted per outer value)
            got = self._unknown[where] = self._assumption(do)
        trips, text, record = got
        self.assumed[where] = text
        if record is None:
            self.records.pop(where, None)
        else:
            self.records[where] = record
        return trips

    def _assumption(self, do: ir.Do) -> tuple[float, str, tuple | None]:
        """Trips of a loop whose bounds are not known: measured by the profile or
        the default; the note and the record of the assumption."""
        prof = self.options.profile
        key = f"{do.span.file}:{do.span.first}"
        if prof is not None and key in prof.loops:
            return prof.loops[key].trips, f"measured {prof.loops[key].trips:g}", None
        n = self.options.default_trip_count
        names = self._names(do)
        note = f"bounds use {', '.join(names)}" if names else ""
        return float(n), f"assumed {n}" + (f" ({note})" if note else ""), (do, "assumed", float(n), note)

    def _from_values(self, do: ir.Do, env: dict[str, int]) -> range | None:
        """The loop's values with the stated values (known), else, unless a
        profile measured the loop, with the program's defaults (assumed)."""
        uv = self.values
        where = (do.span.file, do.span.first)
        if uv.stated:
            bound, used = _bind(do, uv.stated, env)
            r = loop_values(bound, env) if used else None
            if r is not None:
                self.stated[where] = ", ".join(uv.stated[k][1] for k in used)
                self.assumed.pop(where, None)
                self.records.pop(where, None)
                return r
        prof = self.options.profile
        if not uv.default or (prof is not None and f"{do.span.file}:{do.span.first}" in prof.loops):
            return None
        both = {**uv.default, **uv.stated}
        bound, used = _bind(do, both, env)
        r = loop_values(bound, env) if used else None
        if r is not None:
            n = length_of(r)
            note = "; ".join(both[k][1] for k in used)
            self.assumed[where] = f"assumed {n} from {note}"
            self.records[where] = (do, "default", float(n), note)
        return r

    def known(self, do: ir.Do) -> bool:
        return (do.span.file, do.span.first) not in self.assumed

    def describe(self, do: ir.Do) -> dict:
        """Where the trip count of ``do`` comes from, as :class:`.model.LoopInfo` fields."""
        where = (do.span.file, do.span.first)
        if where in self.stated and where not in self.assumed:
            return {"trip_source": "stated", "trip_names": (), "trip_note": self.stated[where]}
        if where in self.assumed:
            text = self.assumed[where]
            rec = self.records.get(where)
            source = "measured" if text.startswith("measured") else rec[1] if rec else "assumed"
            return {"trip_source": source, "trip_names": self._names(do), "trip_note": rec[3] if rec else ""}
        subst = self.values.substituted.get(where, ()) if self.values is not None else ()
        return {"trip_source": "program", "trip_names": (), "trip_note": ", ".join(subst)}

    def assumptions(self, procedure: str) -> tuple[TripAssumption, ...]:
        """The loops counted so far whose trip counts are not known (measured ones excepted)."""
        out = []
        for where, (do, source, n, note) in sorted(self.records.items(), key=lambda kv: kv[0][1]):
            if where in self.assumed:
                out.append(TripAssumption(procedure, where[0], where[1], do.var, bounds_text(do), n, source,
                                          self._names(do), note))
        return tuple(out)

    def count(self, loops: tuple[ir.Do, ...], env: dict[str, int] | None = None) -> float:
        """Executions of the body of ``loops[-1]`` per execution of ``loops[0]``'s
        DO statement (1 for no loops), given values of enclosing variables."""
        env = dict(env or {})
        if not loops:
            return 1.0
        do, rest = loops[0], loops[1:]
        values = loop_values(do, env)
        if values is None and self.values is not None:
            values = self._from_values(do, env)
        if values is None:
            return self._unknown_trips(do) * self.count(rest, env)
        if not rest:
            return float(length_of(values))
        if not any(do.var in _evaluated_names(inner) for inner in rest):
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


def affine_range(expr: ir.Expr, ranges: dict[str, tuple[float, float]],
                 form: ir.Affine | None = None) -> tuple[float, float]:
    """Interval of values of an integer expression when each variable lies in
    its range (unbounded for unknown variables or non-affine expressions);
    ``form``: the expression's affine form when the caller has it."""
    inf = float("inf")
    a = form if form is not None else ir.affine(expr)
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
