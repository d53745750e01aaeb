"""Owner computes: which iterations each rank executes.

For one assignment of a phase under a mapping, every rank executes the
iterations whose left-hand side element it holds.  Along each array dimension
of the left-hand side whose subscript is ``a * V + c`` for a loop variable
``V``, this restricts ``V`` to the preimage of the indices the rank holds (an
:class:`~autodist.layout.sections.IndexSet`: an interval under BLOCK, a
periodic set under CYCLIC(k)); a constant subscript selects the ranks that hold
that index.  Statements assigning scalars (temporaries, reductions) or private
work arrays run where the array assignments of their loop run, or where the
first array they read lives.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from .. import ir
from ..analysis.loops import affine_range, eval_affine, step_of, trips
from ..analysis.model import Access, Phase, RefPattern
from ..layout.model import Layout
from ..layout.ownership import ownership
from ..layout.sections import IndexSet
from .images import preimage

#: Outer values enumerated exactly when counting triangular iteration spaces.
ENUMERATE = 1024


@dataclass(frozen=True)
class Loop:
    """A loop of the phase as iteration-set code needs it."""

    var: str
    line: int
    lower: ir.Expr
    upper: ir.Expr
    step: int | None
    parallel: bool
    trips: float | None = None  # average trips per entry (assumed when the bounds are unknown)

    @cached_property
    def forms(self) -> tuple[ir.Affine | None, ir.Affine | None]:
        """The affine forms of the bounds (None: not affine), found once."""
        return ir.affine(self.lower), ir.affine(self.upper)

    @cached_property
    def bound_names(self) -> frozenset[str]:
        """The names the bounds use."""
        return frozenset(ir.names(self.lower) | ir.names(self.upper))

    def bound_values(self, env: dict[str, int]) -> tuple[int | None, int | None]:
        """The bounds' values given ``env`` (None: not known from it)."""
        return tuple(_value(form, expr, env) for form, expr in zip(self.forms, (self.lower, self.upper)))


def _value(form: ir.Affine | None, expr: ir.Expr, env: dict[str, int]) -> int | None:
    """:func:`eval_affine` through an affine form found before."""
    return eval_affine(expr, env) if form is None else form.value(env)


def phase_loops(phase: Phase) -> dict[int, Loop]:
    out = {}
    for lp in phase.loops:
        do = lp.do
        if do is None:
            continue
        out[lp.line] = Loop(lp.var, lp.line, do.start, do.end, step_of(do), lp.parallel, lp.trip_count)
    return out


def loop_hull(loop: Loop, ranges: dict[str, tuple[float, float]]) -> tuple[float, float]:
    """Inclusive range of values of the loop variable, given outer ranges."""
    lo = affine_range(loop.lower, ranges, loop.forms[0])
    hi = affine_range(loop.upper, ranges, loop.forms[1])
    if loop.step is not None and loop.step < 0:
        return (hi[0], lo[1])
    return (lo[0], hi[1])


# --------------------------------------------------------------------------- partitions


@dataclass(frozen=True)
class Partition:
    """How one statement's iterations are split over the ranks.

    ``axes[g]`` says what grid axis ``g`` of the home array's layout does:
    ("var", V) — partitions loop variable V; ("fixed", None) — only the ranks
    holding a constant index execute; ("all", None) — every coordinate
    executes everything (replicated or not partitionable).
    """

    home: str | None  # array whose ownership decides, None: every rank executes all
    terms: tuple[tuple[int, str, int, int], ...]  # (array dim, var, a, c) partitioning terms
    consts: tuple[tuple[int, int], ...]  # (array dim, constant index)
    axes: tuple[tuple[str, str | None], ...]


def _dim_term(sub: ir.Affine | None, loop_vars: set[str]) -> tuple[str, str | None, int, int]:
    if sub is None:
        return ("all", None, 0, 0)
    lv = [(v, k) for v, k in sub.terms if v in loop_vars]
    others = [v for v, _ in sub.terms if v not in loop_vars]
    if others:
        return ("all", None, 0, 0)  # symbolic offset unknown here
    if not lv:
        return ("fixed", None, 0, sub.const)
    if len(lv) == 1:
        return ("var", lv[0][0], lv[0][1], sub.const)
    return ("all", None, 0, 0)


def partition_of(access: Access, layout: Layout, nranks: int, loop_vars: set[str]) -> Partition:
    own = ownership(layout, nranks)
    terms, consts = [], []
    axes = []
    for g, ax in enumerate(own.axes):
        if ax.kind != "dim":
            axes.append(("all" if ax.kind == "replicated" else "fixed", None))
            continue
        kind, var, a, c = _dim_term(access.subscripts[ax.dim], loop_vars)
        if kind == "var":
            terms.append((ax.dim, var, a, c))
            axes.append(("var", var))
        elif kind == "fixed":
            consts.append((ax.dim, c))
            axes.append(("fixed", None))
        else:
            axes.append(("all", None))
    return Partition(access.array, tuple(terms), tuple(consts), tuple(axes))


REPLICATED_EXECUTION = Partition(None, (), (), ())


def without_private(phase: Phase, layouts: dict[str, Layout]) -> dict[str, Layout]:
    """The layouts of the arrays that are not private work arrays of the phase."""
    private = set(phase.private_arrays)
    return {a: l for a, l in layouts.items() if a not in private} if private else layouts


def held_whole(layout: Layout | None, nranks: int) -> bool:
    """Does every rank hold the whole array (no layout, or a replicated one)?"""
    if layout is None:
        return True
    own = ownership(layout, nranks)
    return own.active == nranks and all(a.kind == "replicated" for a in own.axes)


def whole_reductions(phase: Phase, layouts: dict[str, Layout], nranks: int) -> dict[int, int]:
    """The reduction updates into arrays every rank holds whole (``RMS(M) =
    RMS(M) + ADD*ADD`` over a grid): pattern index -> line of the outermost
    parallel loop that reduces into the array.  They run where the loop's
    other statements run, each rank adding its own iterations: partial values
    that are then combined (an all-reduce in the cost model; the runtime
    passes them from rank to rank in the order of the iterations)."""
    out: dict[int, int] = {}
    loops = {lp.line: lp for lp in phase.loops}
    for i, pat in enumerate(phase.patterns):
        if pat.reduction is None or pat.lhs is None or not held_whole(layouts.get(pat.lhs.array), nranks):
            continue
        for line in pat.loop_lines:
            lp = loops.get(line)
            if lp is not None and lp.parallel and any(
                    name.split("(")[0] == pat.lhs.array and op == pat.reduction for name, op in lp.reductions):
                out[i] = line
                break
    return out


def statement_partitions(phase: Phase, layouts: dict[str, Layout], nranks: int) -> list[Partition]:
    """The partition of every reference pattern of the phase (same order).

    Arrays private to the phase's loops (work arrays each iteration writes
    before reading) are local copies: their statements run where the loop's
    array statements run, like those of scalars.  Any other array held whole
    by every rank (no layout, or a replicated one) is written whole by every
    rank: every rank runs all of its statements (as the runtime does), but
    for the reductions into such arrays (:func:`whole_reductions`), which run
    where the statements of their loop run, as scalar reductions do.
    """
    layouts = without_private(phase, layouts)
    reductions = whole_reductions(phase, layouts, nranks)
    out: list[Partition] = []
    by_loop: dict[tuple[int, ...], Partition] = {}
    parts: list[Partition | None] = []
    for i, pat in enumerate(phase.patterns):
        loop_vars = set(pat.loops)
        if pat.lhs is not None and pat.lhs.array in layouts and i not in reductions:
            p = partition_of(pat.lhs, layouts[pat.lhs.array], nranks, loop_vars)
            by_loop.setdefault(pat.loop_lines, p)
            parts.append(p)
        else:
            parts.append(None)
    private = set(phase.private_arrays)
    for i, (pat, p) in enumerate(zip(phase.patterns, parts)):
        if pat.output:
            p = REPLICATED_EXECUTION  # what a loop writes out: every rank runs it on whole arrays
        elif i in reductions:
            p = _reduction_home(phase, i, reductions[i], by_loop, out, layouts, nranks)
        elif p is None and pat.lhs is not None and pat.lhs.array not in private:
            # an array without a layout is held whole by every rank: every rank writes all of it
            p = REPLICATED_EXECUTION
        elif p is None:
            p = _home(pat, by_loop, layouts, nranks) or REPLICATED_EXECUTION
        out.append(p)
    return out


def _home(pat: RefPattern, by_loop: dict[tuple[int, ...], Partition], layouts: dict[str, Layout],
          nranks: int) -> Partition | None:
    """Where a scalar or private assignment runs: where the array statements of
    its loops run, else where the first distributed array it reads lives."""
    home = None
    lines = pat.loop_lines
    while lines and home is None:
        home = next((q for key, q in by_loop.items() if key[: len(lines)] == lines), None)
        lines = lines[:-1]
    if home is None:
        first = next((r for r in pat.rhs if r.array in layouts and not held_whole(layouts[r.array], nranks)), None)
        if first is not None:
            home = partition_of(first, layouts[first.array], nranks, set(pat.loops))
    return home


def _reduction_home(phase: Phase, i: int, line: int, by_loop, done: list[Partition],
                    layouts: dict[str, Layout], nranks: int) -> Partition:
    """Where a reduction into a whole array runs: as a scalar assignment would,
    or where the statement before it in the reduction loop runs (``ADD = ...``
    feeding ``RMS(M) = RMS(M) + ADD*ADD``) -- provided that splits the
    iterations of a loop that reduces (a loop the array's subscripts do not
    follow); else every rank runs all of it."""
    pat = phase.patterns[i]
    reducing = {lp.var for lp in phase.loops if lp.line in pat.loop_lines and lp.parallel
                and any(name.split("(")[0] == pat.lhs.array for name, _ in lp.reductions)}
    if any(s is None for s in pat.lhs.subscripts):
        return REPLICATED_EXECUTION  # which element each iteration updates is not known
    followed = {v for s in pat.lhs.subscripts for v, _ in s.terms}
    candidates = [_home(pat, by_loop, layouts, nranks)]
    candidates += [done[j] for j in range(i - 1, -1, -1) if line in phase.patterns[j].loop_lines]
    for home in candidates:
        if home is None or home.home is None:
            continue
        split = {v for kind, v in home.axes if kind == "var"}
        if split & reducing and not split & followed:
            return home
    return REPLICATED_EXECUTION


@lru_cache(maxsize=1 << 14)
def _rank_var_sets(part: Partition, layout: Layout, nranks: int, rank: int,
                   ranges: tuple[tuple[str, int, int], ...]) -> tuple[tuple[str, IndexSet], ...] | None:
    """Per partitioned loop variable, the values ``rank`` executes; None when the
    rank executes nothing of the statement."""
    own = ownership(layout, nranks)
    owned = own.owned(rank)
    if owned is None:
        return None
    rng = {v: (lo, hi) for v, lo, hi in ranges}
    for d, c in part.consts:
        if c not in owned.sets[d]:
            return None
    out: dict[str, IndexSet] = {}
    for d, v, a, c in part.terms:
        lo, hi = rng.get(v, (-(1 << 40), 1 << 40))
        s = preimage(owned.sets[d], a, c, lo, hi)
        out[v] = s if v not in out else out[v].intersect(s)
        if not out[v]:
            return None
    return tuple(sorted(out.items()))


def _int_range(r: tuple[float, float]) -> tuple[int, int] | None:
    if math.isfinite(r[0]) and math.isfinite(r[1]):
        return int(r[0]), int(r[1])
    return None


def nest_ranges(pat: RefPattern, loops: dict[int, Loop], fixed: dict[str, tuple[float, float]] | None = None,
                memo: dict | None = None) -> dict[str, tuple[float, float]]:
    """Hull ranges of the loop variables around a pattern (outermost first);
    ``memo``: a dict the caller keeps for these ``loops`` (one phase's), not to
    be changed by the caller of what it returns."""
    if memo is not None:
        key = ("nest", pat.loop_lines, tuple(sorted(fixed.items())) if fixed else ())
        got = memo.get(key)
        if got is None:
            got = memo[key] = nest_ranges(pat, loops, fixed)
        return got
    ranges: dict[str, tuple[float, float]] = {}
    for line in pat.loop_lines:
        lp = loops.get(line)
        if lp is None:
            continue
        r = loop_hull(lp, ranges)
        if fixed and lp.var in fixed:
            f = fixed[lp.var]
            r = (max(r[0], f[0]), min(r[1], f[1]))
        ranges[lp.var] = r
    return ranges


def rank_iterations(pat: RefPattern, part: Partition, layouts: dict[str, Layout], nranks: int, rank: int,
                    loops: dict[int, Loop], memo: dict | None = None) -> dict[str, IndexSet] | None:
    """Value sets of the loop variables ``rank`` executes for one statement
    (variables not partitioned: their hull interval); None: nothing.
    ``memo``: see :func:`nest_ranges`."""
    ranges = nest_ranges(pat, loops, memo=memo)
    if part.home is None:
        sets = {}
    else:
        key = tuple((v, *r) for v, r in ((v, _int_range(ranges[v])) for v in ranges) if r is not None)
        got = _rank_var_sets(part, layouts[part.home], nranks, rank, key)
        if got is None:
            return None
        sets = dict(got)
    # inner hulls given the partitioned values
    fixed = {v: (s.lo, s.hi) for v, s in sets.items()}
    ranges = nest_ranges(pat, loops, fixed, memo)
    by_var = {loops[line].var: loops[line] for line in pat.loop_lines if line in loops}
    out: dict[str, IndexSet] = {}
    for v, r in ranges.items():
        ir_ = _int_range(r)
        if v in sets:
            out[v] = sets[v] if ir_ is None else sets[v].clip(*ir_)
        elif ir_ is not None:
            out[v] = _stepped(by_var.get(v), *ir_)
        if v in out and not out[v]:
            return None
    return out


def _stepped(loop: Loop | None, lo: int, hi: int) -> IndexSet:
    """The values within ``lo..hi`` of a loop variable: every step-th from the
    loop's first value when that is a constant (``DO K = 1, 30, 7``)."""
    start = None if loop is None or loop.step in (None, 1, -1) else eval_affine(loop.lower, {})
    if start is None:
        return IndexSet.interval(lo, hi)
    k = abs(loop.step)
    return IndexSet.strided(lo + (start - lo) % k, hi, k)


def count_iterations(pat: RefPattern, loops: dict[int, Loop], values: dict[str, IndexSet]) -> float:
    """Iterations of the pattern's nest whose variables lie in ``values``.

    Where the outer values a loop's bounds use are many (a triangle), at most
    :data:`ENUMERATE` of them, evenly spread, are counted and scaled."""
    nest = [loops[l] for l in pat.loop_lines if l in loops]
    inner_uses = [any(lp.var in q.bound_names for q in nest[k + 1:]) for k, lp in enumerate(nest)]
    got = _count_at_once(nest, inner_uses, values) if any(inner_uses) else None  # a product otherwise
    if got is not None:
        return got

    def rec(k: int, env: dict[str, int]) -> float:
        if k == len(nest):
            return 1.0
        lp = nest[k]
        (lo, hi), st = lp.bound_values(env), lp.step
        allowed = values.get(lp.var)
        if lo is None or hi is None or st is None:
            # unknown bounds: the values this rank was given, else the assumed trips
            n = len(allowed) if allowed is not None else (lp.trips or 0.0)
            return n * rec(k + 1, env)
        n = trips(lo, hi, st)
        if n == 0:
            return 0.0
        first, last = (lo, lo + (n - 1) * st) if st > 0 else (lo + (n - 1) * st, lo)
        if allowed is None:
            allowed = IndexSet.interval(first, last)
        if abs(st) == 1:
            members = allowed.clip(first, last)
        else:
            members = allowed.intersect(IndexSet.strided(first, last, abs(st)))
        if not inner_uses[k]:
            return len(members) * rec(k + 1, env)
        xs = members.to_array()
        if len(xs) > ENUMERATE:
            pick = xs[(len(xs) - 1) * np.arange(ENUMERATE) // (ENUMERATE - 1)]
            scale = len(xs) / ENUMERATE
        else:
            pick, scale = xs, 1.0
        total = 0.0
        for x in pick.tolist():
            env2 = dict(env)
            env2[lp.var] = x
            total += rec(k + 1, env2)
        return total * scale

    return rec(0, {})


#: Rows (combinations of outer values) :func:`_count_at_once` handles at a time.
_ROWS = 1 << 18


def _count_at_once(nest: list[Loop], inner_uses: list[bool], values: dict[str, IndexSet]) -> float | None:
    """:func:`count_iterations` with numpy: every combination of the outer
    values the bounds use is a row, each loop level counted for all rows at
    once (the same values picked, the same count); None when a loop has a
    step other than 1 or -1, or bounds that are not affine in the variables
    of the loops around it, or the rows would be too many."""
    forms = []
    outer: set[str] = set()
    for lp in nest:
        la, ua = lp.forms
        if lp.step not in (1, -1) or la is None or ua is None or not set(la.vars + ua.vars) <= outer:
            return None
        forms.append((la, ua) if lp.step == 1 else (ua, la))
        outer.add(lp.var)
    env: dict[str, np.ndarray] = {}
    weight = np.ones(1)
    for k, lp in enumerate(nest):
        lo, hi = (np.full(len(weight), a.const, dtype=np.int64) + sum((c * env[v] for v, c in a.terms), 0)
                  for a in forms[k])
        allowed = values.get(lp.var)
        if not inner_uses[k]:
            count = np.maximum(hi - lo + 1, 0) if allowed is None else (
                allowed.counts_between(lo, hi) if allowed else np.zeros(len(lo), dtype=np.int64))
            weight = weight * count
            continue
        # a row per (outer row, value of this loop): at most ENUMERATE values of each, evenly spread
        if not len(weight):
            return 0.0
        first, last = int(lo.min()), int(hi.max())
        if last - first >= _ROWS:
            return None
        members = (np.arange(first, last + 1, dtype=np.int64) if allowed is None
                   else allowed.clip(first, last).to_array())
        start = np.searchsorted(members, lo, side="left")
        n = np.maximum(np.searchsorted(members, hi, side="right") - start, 0)
        picks = np.minimum(n, ENUMERATE)
        if int(picks.sum()) > _ROWS:
            return None
        row = np.repeat(np.arange(len(n)), picks)
        j = np.arange(len(row)) - np.repeat(np.cumsum(picks) - picks, picks)
        many = n[row] > ENUMERATE
        idx = start[row] + np.where(many, j * (n[row] - 1) // (ENUMERATE - 1), j)
        env = {v: x[row] for v, x in env.items()}
        env[lp.var] = members[idx]
        weight = weight[row] * np.where(many, n[row] / ENUMERATE, 1.0)
    return float(weight.sum())
