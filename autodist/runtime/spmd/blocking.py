"""Coarse-grain pipelining: a pipelined phase run in blocks of another loop.

A pipelined phase (:mod:`.planner`) walks a distributed BLOCK dimension with a
sequential loop ``S``: rank ``r`` computes after rank ``r - 1`` has handed on
what it wrote.  Run whole, that serializes the ranks.  With another loop ``P``
around every statement, the phase can instead run in blocks of ``P``'s
values: rank ``r`` computes block ``b`` (its part of ``S``, the values of ``P``
in the block) as soon as rank ``r - 1`` has handed on block ``b``, while rank
``r - 1`` goes on with block ``b + 1`` — a wavefront, the ranks overlapping
after ``nranks - 1`` blocks.

Running the iterations block by block reorders them: it is legal when no
dependence goes forward along one of the two loops and backward along the
other, what :func:`autodist.owner.blocking.blocking_forms` checks (it also
says, per written array, the dimension ``P`` indexes in its writes: what a
rank hands on per block is its pieces restricted to that block's image
there).  ``P`` need not be parallel: the SSOR wavefront, sequential along
both loops, runs in blocks.

Values a rank reads before its successors write them are fetched once before
the first block, as in the unblocked phase (they stay the old values: a
successor writes them only after this rank's block).
"""

from __future__ import annotations

from dataclasses import dataclass

from ... import ir
from ...layout.sections import IndexSet, Section
from ...owner.blocking import blocking_forms
from ..codegen.vectorize import LoopNode, PhaseShape


@dataclass(frozen=True)
class Blocking:
    """How a pipelined phase runs in blocks: the loop variable ``var``, its
    values per block, and per written array the dimension ``var`` indexes as
    ``scale * var + shift``."""

    var: str
    blocks: tuple[IndexSet, ...]
    dims: dict[str, tuple[int, int, int]]  # array -> (dimension, scale, shift)

    def image(self, name: str, block: IndexSet) -> tuple[int, IndexSet]:
        """The dimension of ``name`` and the indices block ``block`` touches along it."""
        d, a, c = self.dims[name]
        lo, hi = a * block.lo + c, a * block.hi + c
        return d, IndexSet.interval(min(lo, hi), max(lo, hi))

    def restrict(self, name: str, pieces: list[Section], block: IndexSet) -> list[Section]:
        """The parts of ``pieces`` (sections of ``name``) block ``block`` writes or reads."""
        d, along = self.image(name, block)
        out = []
        for p in pieces:
            sets = list(p.sets)
            sets[d] = sets[d].intersect(along)
            if sets[d]:
                out.append(Section.of(*sets))
        return out


def blocking_loop(shape: PhaseShape, walk: LoopNode, partitioned: set[str]) -> tuple[LoopNode, dict] | None:
    """The loop of the phase to run in blocks, and the dimensions it indexes
    in the writes of each array (see the module docstring), or None.
    ``walk``: the sequential loop the ranks are ordered along;
    ``partitioned``: the loop variables that partition statements over ranks."""
    if not shape.stmts or any(not isinstance(n.stmt.target, ir.Index) for n in shape.stmts):
        return None  # a scalar assigned in the phase could carry values from block to block
    common = set(shape.stmts[0].path)
    for node in shape.stmts[1:]:
        common &= set(node.path)
    refs = [(x.name, x is node.stmt.target, tuple(ir.affine(s) for s in x.subscripts))
            for node in shape.stmts for e in node.stmt.exprs() for x in e.walk() if isinstance(x, ir.Index)]
    for line in shape.stmts[0].path:
        if line not in common or line == walk.line:
            continue
        lp = shape.loop_at(line)
        if lp.info is None or lp.var in partitioned or lp.info.private_arrays or _constant_bounds(lp) is None:
            continue
        dims = blocking_forms(refs, walk.var, lp.var)
        if dims is not None:
            return lp, dims
    return None


def _constant_bounds(lp: LoopNode) -> range | None:
    lo, hi = ir.eval_affine(lp.do.start, {}), ir.eval_affine(lp.do.end, {})
    step = 1 if lp.do.step is None else ir.eval_affine(lp.do.step, {})
    if lo is None or hi is None or not step:
        return None
    r = range(lo, hi + (1 if step > 0 else -1), step)
    return r if len(r) else None


def block_sets(lp: LoopNode, count: int) -> tuple[IndexSet, ...]:
    """The values of ``lp``'s variable cut into ``count`` (at most one per
    value) consecutive blocks of nearly equal size, in the loop's order."""
    values = _constant_bounds(lp)
    n = len(values)
    count = max(1, min(count, n))
    out = []
    for b in range(count):
        part = values[b * n // count:(b + 1) * n // count]
        out.append(IndexSet.interval(min(part[0], part[-1]), max(part[0], part[-1])) if abs(values.step) == 1
                   else IndexSet.from_members(sorted(part)))
    return tuple(out)
