"""Data dependence tests for affine array subscripts.

A loop *carries* a dependence when two references to the same array (at least
one a write) can touch the same element in two different iterations of the
loop, with every loop outside it at the same iteration.  For each pair of
references and each subscript position we build the dependence equation

    sum(a_v * v) - sum(b_w * w') = c2 - c1

over the iteration numbers of the loops involved (:class:`Equation`), and
try the tests of :data:`TESTS` in order; the first that decides gives the
verdict, and an independence carries the test's name (the ``analyze``
report's "independent by GCD"):

* ZIV: no loop variable in the position, the constants differ;
* GCD: the gcd of the coefficients does not divide the constant;
* strong SIV: only the tested loop's variable, with the same coefficient on
  both sides (exact; gives the distance);
* weak-zero SIV: the tested loop's variable on one side only;
* Banerjee's bounds test under the direction ``<`` (or ``>``) on the tested
  loop and any direction on the loops inside it;
* Fourier-Motzkin (:mod:`.polyhedra`): when no position rules the dependence
  out and the loop bounds are known, the whole system -- every position at
  once, with the loop bounds and the direction -- which combines coupled
  subscripts such as ``M(I,J)``/``M(J,I)`` and triangular bounds.

A new test is one more :class:`DependenceTest` in :data:`TESTS`, at the
place in the order where it should be tried.  The answer is conservative:
"independent" is always right, "dependent" may be a false alarm.
Non-affine subscripts give no information (the position is assumed to allow
a dependence, and the coupled system is not built).  Loop variables are
normalized to iteration numbers ``t`` (``v = lower + step * t``) when the
lower bound is a constant, so strided loops are tested exactly.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Callable

from .. import ir
from .loops import affine_range, eval_affine, step_of, trips

INF = math.inf


@dataclass(frozen=True)
class LoopVar:
    """What the tests know about one loop variable."""

    name: str
    lower: int | None  # constant lower bound (for normalization)
    step: int
    range: tuple[float, float]  # inclusive range of the variable's values
    count: float  # trips (INF when unknown)


@dataclass(frozen=True)
class Bound:
    """A loop's bounds as affine forms (None where not affine) and its step."""

    var: str
    lower: ir.Affine | None
    upper: ir.Affine | None
    step: int | None


def bound_of(do: ir.Do) -> Bound:
    return Bound(do.var, ir.affine(do.start), ir.affine(do.end), step_of(do))


@dataclass(frozen=True)
class Ref:
    """One reference as the tests see it."""

    array: str
    subscripts: tuple[ir.Affine | None, ...]
    write: bool
    line: int
    inner: tuple[str, ...]  # loop variables inside the tested loop enclosing this ref
    inner_bounds: tuple[Bound, ...] = ()  # the same loops' bounds


@dataclass(frozen=True)
class Outcome:
    dependent: bool
    distance: int | None  # iterations of the tested loop (in its own order), when exact
    test: str | None = None  # the test of TESTS that decided (for an independence: proved it)


def loop_var(do: ir.Do, outer_ranges: dict[str, tuple[float, float]]) -> LoopVar:
    """Bounds of a loop variable, given the ranges of the variables outside it."""
    st = step_of(do)
    lo_r = affine_range(do.start, outer_ranges)
    hi_r = affine_range(do.end, outer_ranges)
    lo_c = eval_affine(do.start, {})
    hi_c = eval_affine(do.end, {})
    if st is None:
        return LoopVar(do.var, None, 1, (-INF, INF), INF)
    if lo_c is not None and hi_c is not None:
        n = trips(lo_c, hi_c, st)
        last = lo_c + (n - 1) * st
        rng = (min(lo_c, last), max(lo_c, last)) if n else (0.0, -1.0)
        return LoopVar(do.var, lo_c, st, rng, float(n))
    if st > 0:
        rng = (lo_r[0], hi_r[1])
    else:
        rng = (hi_r[0], lo_r[1])
    count = rng[1] - rng[0] + 1 if math.isfinite(rng[0]) and math.isfinite(rng[1]) else INF
    return LoopVar(do.var, lo_c, st, rng, max(count, 0.0))


# ---------------------------------------------------------------------- one equation


@dataclass(frozen=True)
class _Term:
    coef: int
    lo: float
    hi: float


def _banerjee(terms: list[_Term], pair: tuple[int, int], span: tuple[float, float], direction: str, rhs: int) -> bool:
    """Can ``sum(terms) + a*t1 - b*t2 == rhs`` hold, with t1 (dir) t2 in ``span``?

    ``pair`` = (a, b): coefficients of the tested loop's iteration number for
    the first and second reference (the second already negated: the term is
    ``-b * t2``).  Direction ``<`` means t1 < t2.
    """
    lo = hi = 0.0
    for t in terms:
        x, y = t.coef * t.lo, t.coef * t.hi
        if t.coef == 0:
            continue
        lo += min(x, y)
        hi += max(x, y)
    a, b = pair
    L, U = span
    if U - L < 1:
        return False  # fewer than two iterations: nothing is carried
    if not (math.isfinite(L) and math.isfinite(U)):
        if a == 0 and b == 0:
            return lo <= rhs <= hi
        return True  # unbounded iteration space: the term can take any value
    # vertices of {L <= t1 < t2 <= U} (or t1 > t2)
    if direction == "<":
        verts = [(L, L + 1), (L, U), (U - 1, U)]
    else:
        verts = [(L + 1, L), (U, L), (U, U - 1)]
    vals = [a * t1 - b * t2 for t1, t2 in verts]
    return lo + min(vals) <= rhs <= hi + max(vals)


@dataclass(frozen=True)
class Equation:
    """One subscript position's dependence equation, normalized to iteration
    numbers: ``sum(terms) + a*t1 - b*t2 == const`` with ``t1 (direction) t2``,
    both in ``span``.  ``terms`` hold the inner loops' variables and the
    symbols that do not cancel; ``a``/``b`` are the tested loop's coefficients
    for the first and the second reference."""

    terms: tuple[_Term, ...]
    a: int
    b: int
    const: int
    span: tuple[float, float]
    direction: str

    @property
    def coefs(self) -> list[int]:
        return [t.coef for t in self.terms if t.coef] + [c for c in (self.a, self.b) if c]

    @property
    def single_loop(self) -> bool:
        """Only the tested loop's variable appears."""
        return not any(t.coef for t in self.terms)


def equation(s1: ir.Affine, s2: ir.Affine, tested: LoopVar, inner1: dict[str, LoopVar],
             inner2: dict[str, LoopVar], direction: str) -> Equation:
    """The equation of one position for a dependence carried by ``tested``.

    Variables that are neither the tested loop's nor inner loops' are symbolic
    (loop-invariant) and equal on both sides.
    """
    # normalize loop variables to iteration numbers where possible
    const = s2.const - s1.const  # moves to the right-hand side
    a = b = 0  # coefficients of tested iteration numbers t1, t2 (term a*t1 - b*t2)
    terms: list[_Term] = []
    sym: dict[str, int] = {}

    def add_side(s: ir.Affine, inner: dict[str, LoopVar], sign: int) -> None:
        nonlocal const, a, b
        for v, c in s.terms:
            if v == tested.name:
                if tested.lower is not None:
                    const -= sign * c * tested.lower
                    k = c * tested.step
                else:
                    k = c
                if sign > 0:
                    a += k
                else:
                    b += k
            elif v in inner:
                lv = inner[v]
                if lv.lower is not None and math.isfinite(lv.count):
                    const -= sign * c * lv.lower
                    terms.append(_Term(sign * c * lv.step, 0, max(lv.count - 1, 0)))
                else:
                    terms.append(_Term(sign * c, lv.range[0], lv.range[1]))
            else:
                sym[v] = sym.get(v, 0) + sign * c

    add_side(s1, inner1, +1)
    add_side(s2, inner2, -1)
    for v, c in sym.items():
        if c != 0:  # a symbol that does not cancel: any value
            terms.append(_Term(c, -INF, INF))
    if tested.lower is not None and math.isfinite(tested.count):
        span = (0.0, tested.count - 1)
    else:
        span = tested.range
        if tested.lower is None and tested.step < 0:
            direction = ">" if direction == "<" else "<"
    return Equation(tuple(terms), a, b, const, span, direction)


# ---------------------------------------------------------------------- the tests
#
# A test answers with an Outcome when it decides, or None to leave the
# question to the next test of the registry.


def _ziv(eq: Equation) -> Outcome | None:
    if eq.coefs:
        return None
    if eq.const != 0:
        return Outcome(False, None)
    return Outcome(eq.span[1] - eq.span[0] >= 1, None)


def _gcd(eq: Equation) -> Outcome | None:
    g = 0
    for c in eq.coefs:
        g = math.gcd(g, abs(c))
    return Outcome(False, None) if eq.const % g != 0 else None


def _strong_siv(eq: Equation) -> Outcome | None:
    if not (eq.single_loop and eq.a == eq.b and eq.a != 0):
        return None
    # a*t1 - a*t2 = const  ->  t2 - t1 = -const / a
    if eq.const % eq.a != 0:
        return Outcome(False, None)
    d = -eq.const // eq.a
    if eq.direction == ">":
        d = -d
    width = eq.span[1] - eq.span[0]
    return Outcome(1 <= d <= width, d if 1 <= d <= width else None)


def _weak_zero_siv(eq: Equation) -> Outcome | None:
    if not (eq.single_loop and (eq.a == 0) != (eq.b == 0)):
        return None
    k = eq.a or eq.b
    if eq.const % k != 0:
        return Outcome(False, None)
    t = eq.const // k if eq.a else -eq.const // k
    if not eq.span[0] <= t <= eq.span[1]:
        return Outcome(False, None)
    return None


def _banerjee_test(eq: Equation) -> Outcome | None:
    return Outcome(_banerjee(list(eq.terms), (eq.a, eq.b), eq.span, eq.direction, eq.const), None)


def _fourier_motzkin(r1: Ref, r2: Ref, nest: tuple[Bound, ...], direction: str) -> Outcome | None:
    return Outcome(False, None) if _coupled_infeasible(r1, r2, nest, direction) else None


@dataclass(frozen=True)
class DependenceTest:
    """One named test.  ``scope`` ``"position"``: ``decide(equation)`` on one
    subscript position; ``"system"``: ``decide(r1, r2, nest, direction)`` on
    every position at once with the loop bounds, asked only when no position
    ruled the dependence out."""

    name: str
    scope: str
    decide: Callable[..., Outcome | None]
    what: str


#: The tests in the order they are tried; the first to decide gives the
#: verdict, and an independence carries the name of the test that proved it.
TESTS: tuple[DependenceTest, ...] = (
    DependenceTest("ZIV", "position", _ziv,
                   "no loop variable in the position: independent when the constants differ"),
    DependenceTest("GCD", "position", _gcd,
                   "independent when the gcd of the coefficients does not divide the constant"),
    DependenceTest("strong SIV", "position", _strong_siv,
                   "only the tested loop, the same coefficient on both sides: the exact distance"),
    DependenceTest("weak-zero SIV", "position", _weak_zero_siv,
                   "the tested loop on one side only: independent when its iteration is outside the loop"),
    DependenceTest("Banerjee", "position", _banerjee_test,
                   "bounds of the equation under the direction on the tested loop, any direction inside"),
    DependenceTest("Fourier-Motzkin", "system", _fourier_motzkin,
                   "all positions, loop bounds and the direction as one system of constraints (coupled "
                   "subscripts, triangular bounds): independent when it has no solution"),
)


def _decide(scope: str, *args) -> Outcome | None:
    for t in TESTS:
        if t.scope == scope:
            out = t.decide(*args)
            if out is not None:
                return dataclasses.replace(out, test=t.name)
    return None


def test_position(
    s1: ir.Affine,
    s2: ir.Affine,
    tested: LoopVar,
    inner1: dict[str, LoopVar],
    inner2: dict[str, LoopVar],
    direction: str,
) -> Outcome:
    """Test one subscript position for a dependence carried by ``tested``
    with the position tests of :data:`TESTS`, in order."""
    return _decide("position", equation(s1, s2, tested, inner1, inner2, direction)) or Outcome(True, None)


def carried(
    r1: Ref,
    r2: Ref,
    tested: LoopVar,
    inner: dict[str, LoopVar],
    direction: str,
    nest: tuple[Bound, ...] = (),
) -> Outcome:
    """Can ``r1`` at iteration t1 and ``r2`` at t2 touch one element, t1 (dir) t2?

    ``nest`` holds the bounds of the loops outside the tested one and of the
    tested loop itself (last); with it, a dependence the per-position tests
    cannot rule out goes to the system tests (see :mod:`.polyhedra`).
    """
    out = _carried_positions(r1, r2, tested, inner, direction)
    if out.dependent and nest:
        return _decide("system", r1, r2, nest, direction) or out
    return out


def _carried_positions(r1: Ref, r2: Ref, tested: LoopVar, inner: dict[str, LoopVar], direction: str) -> Outcome:
    if r1.array != r2.array or len(r1.subscripts) != len(r2.subscripts):
        return Outcome(r1.array == r2.array, None)  # rank mismatch (EQUIVALENCE-like): assume yes
    in1 = {v: inner[v] for v in r1.inner if v in inner}
    in2 = {v: inner[v] for v in r2.inner if v in inner}
    distance: int | None = None
    for s1, s2 in zip(r1.subscripts, r2.subscripts):
        if s1 is None or s2 is None:
            continue
        out = test_position(s1, s2, tested, in1, in2, direction)
        if not out.dependent:
            return out
        if out.distance is not None:
            if distance is not None and distance != out.distance:
                return Outcome(False, None, out.test)  # two exact distances that disagree
            distance = out.distance
    return Outcome(True, distance)


def _rename(a: ir.Affine, side: dict[str, str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for v, c in a.terms:
        n = side.get(v, v)
        out[n] = out.get(n, 0) + c
    return out


def _bounds_constraints(b: Bound, side: dict[str, str], out: list) -> None:
    v = side.get(b.var, b.var)
    if b.step is None:
        return
    lo, hi = (b.lower, b.upper) if b.step > 0 else (b.upper, b.lower)
    if lo is not None:  # v - lo >= 0
        c = {v: 1}
        for n, k in _rename(lo, side).items():
            c[n] = c.get(n, 0) - k
        out.append((c, -lo.const))
    if hi is not None:  # hi - v >= 0
        c = _rename(hi, side)
        c[v] = c.get(v, 0) - 1
        out.append((c, hi.const))


def _coupled_infeasible(r1: Ref, r2: Ref, nest: tuple[Bound, ...], direction: str) -> bool:
    """True when the whole system (all positions, all bounds) has no solution."""
    from .polyhedra import feasible

    if any(s is None for s in r1.subscripts + r2.subscripts) or len(r1.subscripts) != len(r2.subscripts):
        return False
    tested = nest[-1]
    if tested.step is None:
        return False
    side1 = {tested.var: tested.var + "#1", **{b.var: b.var + "#1" for b in r1.inner_bounds}}
    side2 = {tested.var: tested.var + "#2", **{b.var: b.var + "#2" for b in r2.inner_bounds}}
    ineqs: list = []
    for b in nest[:-1]:
        _bounds_constraints(b, {}, ineqs)
    _bounds_constraints(tested, side1, ineqs)
    _bounds_constraints(tested, side2, ineqs)
    for b in r1.inner_bounds:
        _bounds_constraints(b, side1, ineqs)
    for b in r2.inner_bounds:
        _bounds_constraints(b, side2, ineqs)
    t1, t2 = side1[tested.var], side2[tested.var]
    earlier, later = (t1, t2) if direction == "<" else (t2, t1)
    if tested.step > 0:  # later - earlier - 1 >= 0
        ineqs.append(({later: 1, earlier: -1}, -1))
    else:
        ineqs.append(({earlier: 1, later: -1}, -1))
    eqs = []
    for s1, s2 in zip(r1.subscripts, r2.subscripts):
        c = _rename(s1, side1)  # type: ignore[arg-type]
        for n, k in _rename(s2, side2).items():  # type: ignore[arg-type]
            c[n] = c.get(n, 0) - k
        eqs.append((c, s1.const - s2.const))  # type: ignore[union-attr]
    return not feasible(eqs, ineqs)
