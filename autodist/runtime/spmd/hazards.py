"""What can make owner computes wrong in one loop phase, and the remedies.

The planner (:mod:`.planner`) runs a phase distributed when every rank can
compute its statements' iterations on its own part of the data with what it
received before the phase.  These pure functions check that, and find what
else the plan needs:

* :func:`guards_of` — left-hand-side dimensions whose owner the partition does
  not decide: tested at run time;
* :func:`check_scalars` — scalars must mean the same on every rank where they
  are used; ``+`` and ``*`` reductions split over ranks must add in the
  sequential order (:func:`reduction_order`: ranks in the order of the
  iterations);
* :func:`private_arrays` — privatized work arrays, and which rank holds their
  last values (last-private);
* :func:`written_sections` and :func:`hazards` — needed pieces that the phase
  itself writes: handed on through a pipeline when a sequential loop walks
  the ranks in order (:func:`walk_order`, :func:`order_along`).

A check that fails raises :class:`Fallback` with the reason; the phase then
runs replicated.
"""

from __future__ import annotations

import numpy as np

from ... import ir
from ...layout.model import Layout
from ...layout.ownership import ownership
from ...layout.sections import IndexSet, Section, box_minus
from ...owner.images import reference_image
from ...owner.iterations import loop_hull, rank_iterations
from ..codegen.vectorize import LoopNode, PhaseShape, StmtNode


class Fallback(Exception):
    """The distributed plan is not correct here; run replicated (the reason)."""


def guards_of(node: StmtNode, part, mapped, nranks: int, rank: int, chain) -> list[tuple[int, IndexSet]]:
    """Left-hand-side dimensions along distributed axes that the partition
    does not decide (a subscript with other scalars): checked at run time."""
    t = node.stmt.target
    if not isinstance(t, ir.Index) or t.name not in mapped:
        return []
    own = ownership(mapped[t.name], nranks)
    decided = {d for d, _, _, _ in part.terms} | {d for d, _ in part.consts}
    out = []
    owned = own.owned(rank)
    for ax in own.axes:
        if ax.kind != "dim" or ax.extent <= 1 or ax.dim in decided:
            continue
        sub = t.subscripts[ax.dim]
        a = ir.affine(sub)
        if a is None or set(a.vars) & set(chain):
            raise Fallback(f"line {node.stmt.span.first}: the owner of {t.name}'s element changes along a vectorized loop")
        out.append((ax.dim, owned.sets[ax.dim] if owned is not None else IndexSet.empty()))
    return out

def check_scalars(shape: PhaseShape, per_rank, part_of) -> list[str]:
    """Scalars must mean the same thing on every rank where they are used.
    Returns the ``+`` and ``*`` reductions whose iterations run on several
    ranks: they must accumulate in the sequential order (see
    :func:`reduction_order`)."""
    ordered = []
    for node in shape.stmts:
        t = node.stmt.target
        if not isinstance(t, ir.Name):
            continue
        name = t.name
        home = part_of[id(node.pattern)].home
        if name in shape.reductions:
            if home is not None and shape.reductions[name] in ("+", "*") and name not in ordered:
                ordered.append(name)
            continue
        if name in shape.privates:
            users = [s for s in shape.stmts if s is not node and _uses(s, name, shape)]
            for u in users:
                if per_rank[u.id] != per_rank[node.id]:
                    raise Fallback(f"private {name} is computed on other iterations than where it is used")
            continue
        if home is not None:
            raise Fallback(f"scalar {name} would differ between ranks")
    return ordered

def reduction_order(shape: PhaseShape, names: list[str], part_of, mapped, nranks) -> list[int]:
    """The ranks in the order of the sequential iterations when every
    statement is partitioned by the outermost loop along one BLOCK axis:
    then each rank's iterations follow its predecessor's, and passing the
    partial sums from rank to rank adds in the sequential order exactly."""
    order = order_along(shape, shape.root, part_of, mapped, nranks)
    if order is None:
        name = names[0]
        raise Fallback(f"the {shape.reductions.get(name, 'array')} reduction of {name} would add in another order "
                        "across ranks")
    return order

def private_arrays(shape, part_of, per_rank, mapped, loops, nranks) -> list[tuple[str, int]]:
    """Work arrays the analysis privatized (each iteration of the loops
    around them writes them before reading): every rank computes them in
    its own copy for the iterations it runs.  That is right when their
    statements run on the same iterations of the same loops as the
    statements that use them; afterwards the rank that ran the last
    iteration holds the values a sequential run leaves, and sends them to
    the others (last-private)."""
    private = set(shape.phase.private_arrays)
    out: dict[str, int] = {}
    for node in shape.stmts:
        t = node.stmt.target
        if not isinstance(t, ir.Index) or t.name not in private:
            continue
        part = part_of[id(node.pattern)]
        if part.home is None:
            continue
        if t.name in mapped and not everyone_whole(mapped[t.name], nranks):
            raise Fallback(f"private work array {t.name} is distributed")
        ref = next((s for s in shape.stmts if part_of[id(s.pattern)] is part and isinstance(s.stmt.target, ir.Index)
                    and s.stmt.target.name == part.home), None)
        for _, v, _, _ in part.terms:
            if ref is None or _line_of(node, v) != _line_of(ref, v):
                raise Fallback(f"private work array {t.name} is computed on other iterations than where it is used")
        last = {}
        for _, v, _, _ in part.terms:
            lp = loops.get(_line_of(node, v))
            lo, hi = loop_hull(lp, {}) if lp is not None else (None, None)
            if lp is None or not (np.isfinite(lo) and np.isfinite(hi)):
                raise Fallback(f"cannot tell which rank runs the last iteration over {v}")
            last[v] = int(hi if (lp.step or 1) > 0 else lo)
        owners = [r for r in range(nranks) if per_rank[node.id][r] is not None and
                  all(last[v] in per_rank[node.id][r].get(v, IndexSet.interval(last[v], last[v])) for v in last)]
        if not owners:
            raise Fallback(f"cannot tell which rank runs the last iteration for {t.name}")
        if out.setdefault(t.name, owners[0]) != owners[0]:
            raise Fallback(f"private work array {t.name} is last written on several ranks")
    return sorted(out.items())

def written_sections(shape, per_rank, part_of, mapped, nranks, loops) -> dict[str, list[Section]]:
    """Per array, the sections each statement writes over all ranks."""
    out: dict[str, list[Section]] = {}
    for node in shape.stmts:
        t = node.stmt.target
        if not isinstance(t, ir.Index) or t.name not in mapped:
            continue
        pat = node.pattern
        part = part_of[id(pat)]
        for r in range(nranks):
            vals = rank_iterations(pat, part, mapped, nranks, r, loops)
            if vals is None:
                continue
            sec = reference_image(pat.lhs, vals, mapped[t.name].bounds)
            if sec:
                out.setdefault(t.name, []).append(sec)
    return out

def hazards(shape, pieces, written, mapped, part_of, nranks, combine) -> dict[str, list[list[Section]]]:
    """Needed pieces that the phase itself writes.  Prefetching them would
    read stale values: when the outermost loop walks the ranks in order,
    the pieces owned by ranks it visits earlier come through the pipeline
    (and leave ``pieces``); those owned by later ranks are read before
    they are written, so prefetching them is right.  Otherwise the phase
    cannot run distributed."""
    hazards: dict[str, list[list[Section]]] = {}
    for name, per in pieces.items():
        for r, ps in enumerate(per):
            for p in ps:
                if any(p.count_intersection(w) for w in written.get(name, [])):
                    hazards.setdefault(name, [[] for _ in range(nranks)])[r].append(p)
    if not hazards:
        return {}
    name = next(iter(hazards))
    order = None if combine else walk_order(shape, part_of, mapped, nranks)
    if order is None:
        raise Fallback(f"{name} is written on one rank and read on another in the same phase")
    position = {r: k for k, r in enumerate(order)}
    out: dict[str, list[list[Section]]] = {}
    for name, per in hazards.items():
        own = ownership(mapped[name], nranks)
        piped: list[list[Section]] = [[] for _ in range(nranks)]
        for r, ps in enumerate(per):
            for p in ps:
                for q in range(nranks):
                    if q == r or not own.is_primary(q):
                        continue
                    part = p.intersect(own.owned(q))
                    if not part:
                        continue
                    if position[q] < position[r]:
                        piped[r].append(part)
        for r in range(nranks):
            if piped[r]:
                keep = []
                for p in pieces[name][r]:
                    rest = [p]
                    for q in piped[r]:
                        rest = [x for y in rest for x in box_minus(y, q)]
                    keep.extend(x for x in rest if x)
                pieces[name][r] = tuple(keep)
        if any(piped):
            out[name] = piped
    return out

def walk_order(shape: PhaseShape, part_of, mapped, nranks) -> list[int] | None:
    """Ranks in the order a sequential loop visits them, when every
    statement is partitioned by that loop along the one BLOCK axis of a
    one-dimensional arrangement and every loop around it is parallel
    (those can move inside it: a rank then runs all its iterations at
    once, after its predecessors) -- a single pipeline."""
    lp = walk_loop(shape, part_of)
    return None if lp is None else order_along(shape, lp, part_of, mapped, nranks)


def walk_loop(shape: PhaseShape, part_of) -> LoopNode | None:
    """The outermost sequential loop around every statement, when the loops
    around it are parallel and every statement has a home array (the loop a
    pipeline runs along, see :func:`walk_order`)."""
    lines = {lp.line: lp for lp in shape.loops()}
    for node in shape.stmts:
        part = part_of[id(node.pattern)]
        if part.home is None:
            return None
    candidates = set(shape.stmts[0].path) if shape.stmts else set()
    for node in shape.stmts[1:]:
        candidates &= set(node.path)
    for line in sorted(candidates, key=lambda ln: shape.stmts[0].path.index(ln)):
        lp = lines[line]
        if lp.info is None or lp.info.parallel:
            continue
        outer = shape.stmts[0].path[:shape.stmts[0].path.index(line)]
        if any(lines[o].info is None or not lines[o].info.parallel for o in outer):
            return None
        return lp
    return None

def order_along(shape: PhaseShape, lp: LoopNode, part_of, mapped, nranks) -> list[int] | None:
    grids = set()
    sign = None
    for node in shape.stmts:
        part = part_of[id(node.pattern)]
        term = next(((d, a) for d, v, a, _ in part.terms if v == lp.var), None)
        if term is None or _line_of(node, lp.var) != lp.line:
            return None
        d, a = term
        own = ownership(mapped[part.home], nranks)
        x = own.dim_axis[d]
        if x is None or not own.dims[d].contiguous or len(own.grid) != 1:
            return None
        s = 1 if a * own.dims[d].stride > 0 else -1
        if sign not in (None, s):
            return None
        sign = s
        grids.add(own.grid)
    if len(grids) != 1:
        return None
    (grid,) = grids
    step = ir.affine(lp.do.step).const if lp.do.step is not None else 1
    ranks = list(range(grid[0]))
    if sign * step < 0:
        ranks.reverse()
    return ranks + [r for r in range(nranks) if r not in ranks]


def _line_of(node: StmtNode, var: str) -> int | None:
    """The DO line of loop variable ``var`` around a statement."""
    return node.path[node.loops.index(var)] if var in node.loops else None


def _uses(node: StmtNode, name: str, shape: PhaseShape) -> bool:
    s = node.stmt
    for e in s.exprs():
        if isinstance(e, ir.Name) and e is s.target:
            continue
        if any(isinstance(x, ir.Name) and x.name == name for x in e.walk()):
            return True
    return False


def everyone_whole(layout: Layout, nranks: int) -> bool:
    own = ownership(layout, nranks)
    return own.active == nranks and all(a.kind == "replicated" for a in own.axes)
