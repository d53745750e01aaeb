"""How each execution of a loop phase runs: planned once per layout state.

For a phase and the layouts its arrays have when it starts, :class:`Planner`
builds a :class:`PhasePlan` (cached) in one of four modes:

* ``distributed`` — owner computes: every statement runs on the iterations
  whose left-hand side this rank holds (:func:`statement_partitions` /
  :func:`rank_iterations` of :mod:`autodist.owner.iterations`, the cost
  model's own definition); before it, the rank receives what
  :func:`~autodist.owner.needs.phase_needs` says it reads and does
  not hold — each element once, in one planned point-to-point exchange per
  array, so that measured element counts equal the predicted ones — into
  ghost cells (near its part) or a window of the global index space;
  ``MAX``/``MIN`` reductions are combined after it with an all-reduce;
* ``pipelined`` — the same, when the outermost loop is sequential and walks
  a distributed dimension: ranks run in the order the loop visits them, and
  what a rank needs from its predecessors is sent once, when they are done;
* ``replicated`` — when neither is correct (data written in the phase on
  one rank and read on another, a sum reduction whose order across ranks
  would change its rounding, scalars the ranks would compute differently):
  the phase's arrays are gathered on every rank, every rank runs the whole
  phase, and keeps its part;
* ``inline`` — a phase outside the fast path's subset (GOTO, CALL, I/O in
  the loop) runs as translated inline code on replicated arrays.

The first three run the vectorized function of :mod:`autodist.runtime.codegen.fastgen`.
The report lists each phase's mode and why.  What makes a distributed plan
wrong, and its remedies (run-time guards, rank orders, last-private arrays,
pipelines), are the checks of :mod:`.hazards`; this module builds the plan:
the partitions, the exchanges and where their pieces go, the code.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from ... import ir
from ...layout.model import Layout
from ...layout.ownership import ownership
from ...layout.routines import EXCHANGE, PIPELINE
from ...layout.sections import IndexSet, Section, disjoint_pieces
from ...owner.iterations import phase_loops, rank_iterations, statement_partitions, whole_reductions
from ...owner.needs import phase_needs
from ..comm.builders import builder
from ..comm.plans import ExchangePlan
from ..codegen.fastgen import GenPlan, Storage, fast_source
from ..comm.storage import StorageMap
from ..codegen.vectorize import IfNode, LoopNode, PhaseShape, StmtNode, private_ranges, shape_of
from ..fortran.vectors import FAST_HELPERS
from ..fortran import intrinsics as it
from ..comm.pipeline import PipelineLink
from .blocking import Blocking, block_sets, blocking_loop
from .inline_data import InlineData, lendable
from .hazards import (
    Fallback,
    check_scalars,
    everyone_whole,
    guards_of,
    hazards,
    private_arrays,
    reduction_order,
    walk_loop,
    written_sections,
)

#: blocks per rank a pipelined phase is cut into (``--pipeline-blocks``: the total);
#: measured best of 1, 2 and 4 per rank on ADI at N = 1024 and 2048, 2 ranks
#: (benchmarks/bench_pipeline.py): more blocks cost more per block than they overlap
PIPELINE_BLOCKS_PER_RANK = 2


@dataclass
class ArrayUse:
    """How one array is held during a planned phase on this rank."""

    name: str
    window: tuple[tuple[int, int], ...] | None = None  # global index box of a window, None: the storage
    prefetch: ExchangePlan | None = None
    pipeline: PipelineLink | None = None
    written: bool = False
    buffer: np.ndarray | None = None
    corder: bool = False  # work on a row-major copy (vector accesses run along the last dimension)
    #: where the rank's own elements lie in the window: (the owned section, its selector)
    placed: tuple | None = None


@dataclass
class PhasePlan:
    """One phase under one layout state on this rank (see the module docstring)."""

    mode: str
    reason: str
    region: str
    shape: PhaseShape
    fn: object = None
    uses: dict[str, ArrayUse] = field(default_factory=dict)
    combine: list[tuple[str, str]] = field(default_factory=list)  # (scalar, max|min) all-reduced after
    lastprivate: list[tuple[str, int]] = field(default_factory=list)  # (private array, rank with its last values)
    ordered: list[str] = field(default_factory=list)  # + and * reductions passed from rank to rank
    partials: list[tuple[str, str]] = field(default_factory=list)  # (whole array, op) all-reduced after
    order: list[int] = field(default_factory=list)  # ranks in the order of the sequential iterations
    predicted: list[int] = field(default_factory=list)  # elements each rank receives
    source: str = ""
    path_reason: str = ""  # why the phase has no compiled kernel (see :meth:`path`)
    #: a pipelined phase run in blocks (:mod:`.blocking`): per block, its function and
    #: the hand-offs of its pieces (array -> link); the loop variable cut into blocks
    blocks: list[tuple[object, dict[str, PipelineLink]]] = field(default_factory=list)
    blocked_by: str = ""
    settled: bool = False  # run once: its kernels loaded on every rank (see PhaseRun._settle)

    def path(self) -> tuple[str, str]:
        """What the next execution runs — "jit" (the compiled kernel) or "numpy" (the
        vectorized function) — and why not the compiled kernel."""
        fn = self.blocks[0][0] if self.blocks else self.fn  # the blocks share one kernel
        kernel = getattr(fn, "path", None)
        return kernel if kernel is not None else ("numpy", self.path_reason)


class Store:
    """The ``_c`` of a fast function: storage arrays by name."""

    __slots__ = ("store",)

    def __init__(self):
        self.store: dict[str, np.ndarray] = {}


class Planner:
    """Shapes and plans of the phases of one run."""

    def __init__(self, ex):
        self.ex = ex
        self.shapes: dict[tuple[str, int], PhaseShape] = {}
        self.plans: dict[tuple, PhasePlan] = {}
        self.by_state: dict[tuple, PhasePlan] = {}  # the same, by the arrays' state numbers (cheap to hash)
        self.lendables: dict[tuple[str, int], frozenset[str]] = {}
        self.linemaps = ex.linemaps
        #: seconds spent shaping and planning phases (writing their code, their
        #: exchanges), numba's left out: done once per phase and layout, like compiling
        self.seconds = 0.0
        self._depth = 0

    @contextmanager
    def _timed(self):
        jit = self.ex.jit
        t0, c0 = time.perf_counter(), (jit.compile_seconds if jit is not None else 0.0)
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0:
                self.seconds += time.perf_counter() - t0 - ((jit.compile_seconds - c0) if jit is not None else 0.0)

    def shape(self, unit: ir.Unit, line: int) -> PhaseShape:
        key = (unit.name, line)
        if key not in self.shapes:
            with self._timed():
                return self._shape(unit, line, key)
        return self.shapes[key]

    def _shape(self, unit: ir.Unit, line: int, key: tuple[str, int]) -> PhaseShape:
        phase = self.ex.phases[key]
        do = next(s for s in unit.statements() if isinstance(s, ir.Do) and s.span.first == line)
        privates = private_ranges(self.ex.analysis.procedure(unit.name).phases)
        shape = shape_of(unit, phase, do, self.ex.facts, privates)
        shape.arrays = tuple(sorted(_arrays_of(shape)))
        self.shapes[key] = shape
        return shape

    def inline_data(self, unit: ir.Unit, line: int, region: str) -> InlineData:
        """The arrays of an inline run of the phase at ``line``, to make whole (see :mod:`.inline_data`)."""
        key = (unit.name, line)
        names = self.lendables.get(key)
        phase = self.ex.phases[key]
        if names is None:
            do = next(s for s in unit.statements() if isinstance(s, ir.Do) and s.span.first == line)
            names = self.lendables[key] = lendable(unit, phase, do)
        return InlineData(self.ex, phase, names, region)

    def plan(self, frame, shape: PhaseShape, forced: str | None = None) -> PhasePlan:
        """The plan for the arrays' current layouts (and ghost cells: a plan
        holds positions in the storage, so wider ghosts mean a new plan)."""
        arrays = shape.arrays

        def token() -> tuple:
            return (shape.unit.name, shape.phase.id, forced) + tuple(frame.a[n].state for n in arrays)

        def key() -> tuple:
            state = tuple((n, frame.a[n].layout, frame.a[n].ghosts) for n in arrays)
            return (shape.unit.name, shape.phase.id, forced, state)

        t = token()
        plan = self.by_state.get(t)
        if plan is not None:
            return plan
        k = key()
        plan = self.plans.get(k)
        if plan is None:
            with self._timed():
                plan = self._build(frame, shape, {n: frame.a[n].layout for n in arrays}, forced)
            self.plans[k] = self.plans[key()] = plan
        self.by_state[token()] = plan
        return plan

    # ---------------------------------------------------------------- building

    def _build(self, frame, shape: PhaseShape, layouts: dict[str, Layout], forced: str | None) -> PhasePlan:
        ex = self.ex
        region = f"{shape.unit.name}:{shape.phase.id}"
        nranks = ex.nprocs
        everyone = all(everyone_whole(lay, nranks) for lay in layouts.values())
        if forced is None and not ex.options.distribute and not everyone:
            return PhasePlan("replicated", "owner-computes distribution turned off (--replicated)", region, shape)
        if forced == "replicated" or nranks == 1 or everyone:
            plan = PhasePlan("distributed" if forced is None else "replicated", "", region, shape)
            sets = {node.id: {} for node in shape.stmts}
            self._finish(plan, frame, sets, {n.id: True for n in shape.stmts}, {}, {})
            return plan
        self._predicted: list[int] = []
        try:
            return self._distributed(frame, shape, layouts, region)
        except Fallback as why:
            return PhasePlan("replicated", str(why), region, shape, predicted=self._predicted)

    def _distributed(self, frame, shape: PhaseShape, layouts: dict[str, Layout], region: str) -> PhasePlan:
        ex = self.ex
        nranks, rank = ex.nprocs, ex.rank
        phase = shape.phase
        for name in _bound_arrays(shape):
            if not everyone_whole(layouts[name], nranks):
                # the iterations a rank runs would depend on elements other ranks hold
                raise Fallback(f"loop bounds read {name}, which is distributed")
        # every array, held whole or not: a statement writing an array that
        # every rank holds runs on every rank, over all its iterations
        mapped = dict(layouts)
        parts = statement_partitions(phase, mapped, nranks)
        part_of = {id(p): q for p, q in zip(phase.patterns, parts)}
        loops = phase_loops(phase)
        bounds = {n: frame.a[n].bounds for n in layouts}
        needs = phase_needs(phase, mapped, bounds, nranks)
        pieces: dict[str, list[tuple[Section, ...]]] = {}
        for name, per in needs.items():
            own = ownership(mapped[name], nranks)
            pieces[name] = [disjoint_pieces(per[r], own.owned(r) if own.holds(r) else None) for r in range(nranks)]
        predicted = [sum(p.count() for name in pieces for p in pieces[name][r]) for r in range(nranks)]
        self._predicted = predicted
        # per statement, per rank: the partitioned variables' values (None: runs nothing)
        per_rank: dict[int, list[dict[str, IndexSet] | None]] = {}
        guards: dict[int, list[tuple[int, IndexSet]]] = {}
        for node in shape.stmts:
            part = part_of[id(node.pattern)]
            pvars = {v for _, v, _, _ in part.terms}
            row = []
            for r in range(nranks):
                vals = rank_iterations(node.pattern, part, mapped, nranks, r, loops)
                row.append(None if vals is None else {v: s for v, s in vals.items() if v in pvars})
            per_rank[node.id] = row
            guards[node.id] = guards_of(node, part, mapped, nranks, rank, _chain_vars(shape, node))
        ordered = check_scalars(shape, per_rank, part_of)
        order = reduction_order(shape, ordered, part_of, mapped, nranks) if ordered else []
        ordered, order, partials = self._array_reductions(shape, parts, mapped, part_of, ordered, order)
        lastprivate = private_arrays(shape, part_of, per_rank, mapped, loops, nranks)
        combine = [(n, op) for n, op in shape.reductions.items() if op in ("max", "min")
                   and any(part_of[id(s.pattern)].home is not None for s in shape.stmts
                           if isinstance(s.stmt.target, ir.Name) and s.stmt.target.name == n)]
        written = written_sections(shape, per_rank, part_of, mapped, nranks, loops)
        pipeline_pieces = hazards(shape, pieces, written, mapped, part_of, nranks, combine or ordered)
        mode = "pipelined" if pipeline_pieces else "distributed"
        if ordered:
            mode = "pipelined"
        plan = PhasePlan(mode, "", region, shape, combine=combine, predicted=predicted, lastprivate=lastprivate,
                         ordered=ordered, order=order, partials=partials)
        sets = {node.id: ({} if per_rank[node.id][rank] is None else dict(per_rank[node.id][rank]))
                for node in shape.stmts}
        executes = {node.id: per_rank[node.id][rank] is not None for node in shape.stmts}
        blocked = None
        if pipeline_pieces and not (ordered or partials or combine or lastprivate):
            blocked = self._blocking(shape, part_of)
        self._finish(plan, frame, sets, executes, guards, pieces, pipeline_pieces, blocked)
        return plan

    def _blocking(self, shape: PhaseShape, part_of) -> Blocking | None:
        """How the pipelined phase runs in blocks (:mod:`.blocking`), or None:
        ``--pipeline-blocks 1``, no loop to cut, or scalars the blocks would
        hand on to one another."""
        count = self.ex.options.pipeline_blocks
        if count is None:
            count = PIPELINE_BLOCKS_PER_RANK * self.ex.nprocs
        walk = walk_loop(shape, part_of)
        loop_vars = {lp.var for lp in shape.loops()}
        if count <= 1 or walk is None or shape.reductions or not set(shape.outs) <= loop_vars:
            return None
        partitioned = {v for node in shape.stmts for _, v, _, _ in part_of[id(node.pattern)].terms}
        found = blocking_loop(shape, walk, partitioned)
        if found is None:
            return None
        lp, dims = found
        blocks = block_sets(lp, count)
        return Blocking(lp.var, blocks, dims) if len(blocks) > 1 else None

    def _array_reductions(self, shape: PhaseShape, parts, mapped, part_of, ordered: list[str], order: list[int]):
        """Reductions into arrays every rank holds whole, split over ranks
        (``RMS(M) = RMS(M) + ADD*ADD`` over a distributed grid).  When the ranks
        run their iterations one after the other (the outermost loop along one
        BLOCK axis), the array's running values go from rank to rank like
        those of scalar reductions, adding in the sequential order.  Otherwise,
        when the phase's outermost loop is the reducing one and the phase
        writes the array only by these reductions, each rank adds its own
        iterations to the identity (rank 0 to the values before the phase) and
        an all-reduce combines them: the result may differ from a sequential
        run in the last bits.  Else the phase runs replicated."""
        phase, nranks = shape.phase, self.ex.nprocs
        found: dict[str, tuple[str, set[int]]] = {}
        for i, line in whole_reductions(phase, mapped, nranks).items():
            if parts[i].home is None:
                continue
            pat = phase.patterns[i]
            op, lines = found.setdefault(pat.lhs.array, (pat.reduction, set()))
            if op != pat.reduction:
                raise Fallback(f"{pat.lhs.array} is reduced by several operations")
            lines.add(line)
        if not found:
            return ordered, order, []
        names = list(found)
        try:
            together = reduction_order(shape, ordered + names, part_of, mapped, nranks)
            return ordered + names, together, []
        except Fallback:
            if ordered:
                raise
        partials = []
        for name, (op, lines) in found.items():
            writers = [p for p in phase.patterns if p.lhs is not None and p.lhs.array == name]
            if lines != {shape.root.do.span.first} or any(p.reduction != op for p in writers):
                raise Fallback(f"the reduction into {name} cannot be combined across ranks")
            partials.append((name, op))
        return ordered, order, partials

    # ---------------------------------------------------------------- storage, exchanges, code

    def _finish(self, plan: PhasePlan, frame, sets, executes, guards, pieces, pipeline_pieces=None,
                blocked: Blocking | None = None) -> None:
        ex = self.ex
        shape = plan.shape
        nranks = ex.nprocs
        pipeline_pieces = pipeline_pieces or {}
        store: dict[str, Storage] = {}
        written = {n.stmt.target.name for n in shape.stmts if isinstance(n.stmt.target, ir.Index)}
        row_major = _row_major(shape)
        maps_of = {}  # array -> the storage maps the phase works on
        for name in _arrays_of(shape):
            arr = frame.a[name]
            every = [tuple(pieces[name][r]) if name in pieces else () for r in range(nranks)]
            if name in pipeline_pieces:
                every = [e + tuple(pipeline_pieces[name][r]) for r, e in enumerate(every)]
            use = ArrayUse(name, written=name in written, corder=name in row_major)
            window = self._placement(arr, every)
            if window is not None:
                use.window = window
                slo = tuple(lo for lo, _ in window)
                shi = tuple(hi for _, hi in window)
                dst_maps = tuple(StorageMap(IndexSet.interval(lo, hi)) for lo, hi in window)
                dst_shape = tuple(hi - lo + 1 for lo, hi in window)
            else:
                maps = arr.storage_maps()
                slo = tuple(m.members.lo + m.delta if m.members else 0 for m in maps)
                shi = tuple(m.members.hi + m.delta if m.members else -1 for m in maps)
                dst_maps, dst_shape = maps, arr.local.shape
            maps_of[name] = dst_maps
            store[name] = Storage(slo, shi, arr.bounds)
            if pieces and name in pieces:
                pipe = pipeline_pieces.get(name)
                pre = [tuple(p for p in pieces[name][r] if pipe is None or p not in pipe[r]) for r in range(nranks)]
                if any(pre):
                    use.prefetch = builder(EXCHANGE)(arr.layout, pre, ex.comms.comm, arr.storage_maps(), dst_maps,
                                                     dst_shape, arr.dtype, plan.region)
                if pipe is not None and any(pipe):
                    # both halves work on the phase's storage (the window, when there is one):
                    # what a rank sends is what it computed there
                    use.pipeline = builder(PIPELINE)(arr.layout, pipe, ex.comms.comm, dst_maps, arr.dtype, plan.region)
            plan.uses[name] = use
        plan.fn, plan.source = self._function(plan, GenPlan(sets, executes, guards, store))
        if blocked is not None:
            shared = None  # the kernel of the first block, when every block can run it
            free = blocked.var if all(b.is_interval for b in blocked.blocks) else ""
            for block in blocked.blocks:
                mine = {k: ({**v, blocked.var: block} if executes[k] else v) for k, v in sets.items()}
                gp = GenPlan(mine, executes, guards, store, free=free)
                if shared is not None:
                    # its numpy function only written should the block run it (the kernel not yet hot)
                    fn = shared.for_block(block.lo, block.hi, _Deferred(lambda gp=gp: self._numpy(plan, gp)[0]))
                else:
                    fn, _ = self._function(plan, gp)
                    if free and hasattr(fn, "for_block"):  # a compiled kernel (PhaseKernel)
                        shared = fn
                links = {}
                for name, pipe in pipeline_pieces.items():
                    part = [blocked.restrict(name, pipe[r], block) for r in range(nranks)]
                    if any(part):
                        arr = frame.a[name]
                        links[name] = builder(PIPELINE)(arr.layout, part, ex.comms.comm,
                                                        maps_of[name], arr.dtype, plan.region)
                plan.blocks.append((fn, links))
            plan.blocked_by = blocked.var

    def _function(self, plan: PhasePlan, gp: GenPlan) -> tuple[object, str]:
        """The function of the plan for these plan facts (the compiled kernel
        where it can run) and its Python source."""
        fn, src = self._numpy(plan, gp)
        return self._compiled(plan, gp, f"_phase_{plan.shape.unit.name}_{plan.shape.phase.id}", fn), src

    def _numpy(self, plan: PhasePlan, gp: GenPlan) -> tuple[object, str]:
        """The numpy function of the plan for these plan facts and its Python source."""
        shape = plan.shape
        fname = f"_phase_{shape.unit.name}_{shape.phase.id}"
        src, linemap = fast_source(shape, gp, self.ex.facts, fname)
        filename = f"<autodist {shape.unit.name} phase {shape.phase.id} {plan.mode} {len(self.plans)}>"
        ns = {**it.HELPERS, **FAST_HELPERS, "_K": gp.constants}
        exec(compile(src, filename, "exec"), ns)
        self.linemaps[filename] = linemap
        return ns[fname], src

    def _compiled(self, plan: PhasePlan, gp: GenPlan, fname: str, fn):
        """The compiled kernel of the plan, to run instead of the numpy function
        ``fn``, when it can (else ``fn``, and the plan says why)."""
        ex = self.ex
        if ex.jit is None:
            plan.path_reason = ex.jit_off
            return fn

        stats = ex.comms.stats
        kernel, why = ex.jit.phase_kernel(plan.shape, gp, ex.facts, fname, fn,
                                          lambda: stats.region(plan.region).compute_time)
        if kernel is None:
            plan.path_reason = why
            return fn
        return kernel

    def _placement(self, arr, every: list[tuple[Section, ...]]) -> tuple[tuple[int, int], ...] | None:
        """Where the pieces each rank needs (``every[r]``) go: ghost cells
        (widening the storage) when on every rank they lie close around its
        part along dimensions held as intervals; else, on every rank, a window
        of the global index space (None: the storage).  The choice and the
        ghost widths are the same on every rank, so that remaps and gathers of
        the array, which are planned collectively, agree on its storage."""
        nranks, rank = self.ex.nprocs, self.ex.rank
        own = ownership(arr.layout, nranks)
        limit = self.ex.options.ghost_limit
        widths = [(0, 0)] * len(arr.bounds)
        ghosts = True
        for r in range(nranks):
            if not every[r]:
                continue
            owned = own.owned(r) if own.holds(r) else None
            if owned is None or not all(s.is_interval for s in owned.sets):
                ghosts = False
                break
            for d, s in enumerate(owned.sets):
                lo = min(p.sets[d].lo for p in every[r])
                hi = max(p.sets[d].hi for p in every[r])
                widths[d] = (max(widths[d][0], s.lo - lo), max(widths[d][1], hi - s.hi))
        dims = [d for d in range(len(arr.bounds)) if widths[d] != (0, 0)]
        if dims and ghosts and all(a <= limit and b <= limit for a, b in widths) and all(
                all(own.dims[d].owned(e).is_interval or not own.dims[d].owned(e) for e in range(own.dims[d].eff))
                for d in dims):
            arr.widen(widths)
        # this rank's own choice (nothing collective depends on it)
        maps = arr.storage_maps()
        if maps is not None and all(m.members.is_interval for m in maps):
            box = [(m.members.lo + m.delta, m.members.hi + m.delta) for m in maps]
            if all(all(box[d][0] <= p.sets[d].lo and p.sets[d].hi <= box[d][1] for d in range(len(box)) if p.sets[d])
                   for p in every[rank]):
                return None
        # a window: the hull of what this rank holds and needs
        boxes = list(every[rank])
        if arr.owned is not None and arr.owned:
            boxes.append(arr.owned)
        if not boxes:
            return tuple((lo, lo - 1) for lo, _ in arr.bounds)
        return tuple((min(b.sets[d].lo for b in boxes if b.sets[d]), max(b.sets[d].hi for b in boxes if b.sets[d]))
                     for d in range(len(arr.bounds)))


class _Deferred:
    """A function written when first called (``make()`` returns it)."""

    def __init__(self, make):
        self.make, self.fn = make, None

    def __call__(self, *args):
        if self.fn is None:
            self.fn = self.make()
        return self.fn(*args)


def _row_major(shape: PhaseShape) -> set[str]:
    """Two-dimensional arrays whose every reference lies in a one-loop chain
    that runs along their second dimension (``X(i, J)`` vectorized over J):
    strided in Fortran order, so the phase works on a row-major copy."""
    refs: dict[str, list[tuple[StmtNode, ir.Index]]] = {}
    for node in shape.stmts:
        for e in node.stmt.exprs():
            for x in e.walk():
                if isinstance(x, ir.Index):
                    refs.setdefault(x.name, []).append((node, x))
    out = set()
    for name, uses in refs.items():
        ok = True
        for node, x in uses:
            chain = next((c for c in shape.chains if c[-1] in node.path), None)
            if chain is None or len(chain) != 1 or len(x.subscripts) != 2:
                ok = False
                break
            var = shape.loop_at(chain[0]).var
            a0, a1 = ir.affine(x.subscripts[0]), ir.affine(x.subscripts[1])
            if a0 is None or a1 is None or var in a0.vars or var not in a1.vars or not a0.vars:
                ok = False
                break
        if ok:
            out.add(name)
    return out


def _chain_vars(shape: PhaseShape, node: StmtNode) -> set[str]:
    """The vectorized loop variables around a statement."""
    out: set[str] = set()
    for c in shape.chains:
        if c[-1] in node.path:
            out |= {shape.loop_at(line).var for line in c}
    return out


def _bound_arrays(shape: PhaseShape) -> set[str]:
    """The arrays the phase's inner loop bounds read (``DO K = ROWSTR(J), ...``)."""
    return {x.name for lp in shape.loops() for e in lp.do.exprs() for x in e.walk() if isinstance(x, ir.Index)}


def _arrays_of(shape: PhaseShape) -> list[str]:
    names: dict[str, None] = {}
    for node in shape.stmts:
        for e in node.stmt.exprs():
            for x in e.walk():
                if isinstance(x, ir.Index):
                    names[x.name] = None
    for lp in shape.loops():
        for e in lp.do.exprs():
            for x in e.walk():
                if isinstance(x, ir.Index):
                    names[x.name] = None

    def conds(nodes):
        for n in nodes:
            if isinstance(n, IfNode):
                for c, ch in n.branches:
                    if c is not None:
                        for x in c.walk():
                            if isinstance(x, ir.Index):
                                names[x.name] = None
                    conds(ch)
            elif isinstance(n, LoopNode):
                conds(n.children)
    if shape.root is not None:
        conds([shape.root])
    return list(names)
