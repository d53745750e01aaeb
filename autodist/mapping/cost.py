"""The cost of one execution of a phase under a mapping (DDT §3.4, made exact).

Computation: every statement runs on the ranks that own its left-hand side
(:mod:`autodist.owner`); its time is the work of the most loaded rank, where
work along a processor axis that is walked by a loop carrying a dependence is
serialized (DDT: a distributed dimension walked by a sequential loop runs
sequentially).  Each operation costs ``flop_time`` and each array access
``memory_access_time``; each latency unit of the chain of dependent
operations an innermost loop carries from one iteration to the next
(:mod:`autodist.analysis.recurrence`) costs ``recurrence_time`` on top;
every start of a loop run in parallel costs ``parallel_overhead``.

Data movement: every rank receives, once, each element its statements read
and it does not hold (the union of the images of all references to an array:
a repeated reference such as ``B(I-1,J)`` read by two statements counts once).
The most loaded rank's bytes and messages are priced by the profile's model.
The elements are attributed to DDT's routines per array and template
dimension (``Shift``, ``Copy``, ``One_to_All``, ``All_to_One``, ``All_to_All``)
by the reference pattern that needs them; reductions add an all-reduce
(:mod:`.reductions`).  The
routines are the types of :mod:`autodist.layout.routines`, the ones the
runtime builds its plans from; what a rank receives and from whom is
:mod:`.receives`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..analysis.model import Access, Phase, RefPattern
from ..ir import eval_affine
from ..layout.model import Layout
from ..layout import routines
from ..layout.ownership import ownership
from ..layout.routines import EXCHANGE, Routine as CommRoutine, TableRoutine
from ..layout.sections import IndexSet, Section
from ..machine import MachineProfile
from ..owner.images import reference_image
from ..owner.iterations import (
    Loop,
    Partition,
    REPLICATED_EXECUTION,
    count_iterations,
    phase_loops,
    rank_iterations,
    statement_partitions,
    without_private,
)
from .model import PhaseCost, Routine
from .pipelines import Pipe, pipeline_loop
from .rankclasses import rank_classes
from .receives import attributed, receives
from .reductions import reduction_moves

@dataclass(frozen=True)
class ArrayFacts:
    """What the cost model needs to know about an array besides its layout."""

    bounds: tuple[tuple[int, int], ...]
    elem_size: int


# --------------------------------------------------------------------------- the cost


def handoffs(phase: Phase, pat: RefPattern, part: Partition, layout: Layout, nranks: int,
             loops: dict[int, Loop]) -> tuple[tuple[int, int, float], ...]:
    """(loop line, template dim, hand-offs per execution of the phase) for every
    sequential loop of the statement walking a distributed axis of its home
    array: each time consecutive iterations belong to different processors the
    work is handed on (under BLOCK once per block boundary, under CYCLIC at
    every step)."""
    own = ownership(layout, nranks)
    out = []
    for g, (kind, v) in enumerate(part.axes):
        if kind != "var" or own.axes[g].extent <= 1:
            continue
        lp = next((loops[l] for l in pat.loop_lines if l in loops and loops[l].var == v), None)
        if lp is None or lp.parallel:
            continue
        term = next(((d, a, c) for d, var, a, c in part.terms if var == v), None)
        if term is None:
            continue
        d, a, c = term
        dm = own.dims[d]
        lo, hi = eval_affine(lp.lower, {}), eval_affine(lp.upper, {})
        step = lp.step or 1
        if lo is not None and hi is not None:
            values = np.arange(lo, hi + (1 if step > 0 else -1), step, dtype=np.int64)
            coords = dm.coord_array(a * values + c)
            changes = float(np.count_nonzero(np.diff(coords))) if len(coords) > 1 else 0.0
        else:  # bounds from outer loops: every step under CYCLIC, every block under BLOCK
            n = lp.trips or 0.0
            changes = max(n - 1, 0.0) if not dm.contiguous else float(min(dm.eff, n) - 1 if n else 0)
        if changes:
            out.append((lp.line, layout.tdim_of(d), changes * _walks(phase, pat, lp, loops)))
    return tuple(out)


def _walks(phase: Phase, pat: RefPattern, lp: Loop, loops: dict[int, Loop]) -> float:
    """How many times a sequential loop's hand-offs happen per execution of the
    phase: its entries, except that the iterations of enclosing parallel loops
    travel in one message (each processor runs all of them for its part
    before handing on: message vectorization)."""
    walks = _starts(phase, lp.line, loops)
    for line in pat.loop_lines:
        if line == lp.line:
            break
        outer = loops.get(line)
        info = phase.loop(line)
        if outer is not None and outer.parallel and info is not None and info.trip_count:
            walks /= info.trip_count
    return max(walks, 1.0)


def _statement_time(pat: RefPattern, part: Partition, counts: list[float], layouts: dict[str, Layout],
                    nranks: int, loops: dict[int, Loop], memo: dict | None = None) -> tuple[float, bool]:
    """Iterations on the critical path (work of the most loaded rank, serialized
    along axes walked by sequential loops) and whether anything ran in parallel."""
    if part.home is None:
        return max(counts) if counts else 0.0, False
    layout = layouts[part.home]
    own = ownership(layout, nranks)
    parallel_vars = {loops[l].var for l in pat.loop_lines if l in loops and loops[l].parallel}
    serial_axes = tuple(g for g, (kind, v) in enumerate(part.axes) if kind == "var" and v not in parallel_vars)
    key = ("serial groups", layout, serial_axes)
    got = memo.get(key) if memo is not None else None
    if got is None:
        got = _serial_groups(own, nranks, serial_axes)
        if memo is not None:
            memo[key] = got
    ranks, group = got
    par = any(kind == "var" and v in parallel_vars and own.axes[g].extent > 1
              for g, (kind, v) in enumerate(part.axes))
    if not len(ranks):
        return 0.0, par
    sums = np.bincount(group, weights=np.asarray(counts, dtype=np.float64)[ranks])
    return float(sums.max()), par


def _serial_groups(own, nranks: int, serial_axes: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The ranks holding a part of an array and, per such rank, its group: the
    ranks whose coordinates differ only along ``serial_axes`` (their work runs
    one after another)."""
    ranks, group, seen = [], [], {}
    for rank in range(nranks):
        c = own.coords(rank)
        if c is None:
            continue
        ranks.append(rank)
        group.append(seen.setdefault(tuple(x for g, x in enumerate(c) if g not in serial_axes), len(seen)))
    return np.asarray(ranks, dtype=np.intp), np.asarray(group, dtype=np.intp)


@dataclass(frozen=True)
class PhaseWork:
    """What one execution of a phase does under a mapping, independent of the
    machine's speeds: operations on the critical path, parallel loop starts,
    and the data the most loaded rank receives, per routine."""

    flops: float  # operations on the critical path
    accesses: float  # array accesses on the critical path
    seq_flops: float  # operations of the whole phase (sequential)
    seq_accesses: float
    starts: float  # parallel loop starts
    routines: tuple[tuple[CommRoutine, str, int | None, int, int, int], ...]  # routine, array, dim, elements, bytes, msgs
    movement_bytes: int
    movement_messages: int
    parallel_loops: tuple[int, ...]
    serialized_loops: tuple[int, ...]
    replicated: tuple[str, ...]
    elements_per_array: tuple[tuple[str, int], ...]
    #: (array, template dim, hand-offs): per sequential loop walking a
    #: distributed dimension, the times the work passes from one processor to
    #: the next (a message each, on the critical path)
    handoffs: tuple[tuple[str, int, float], ...] = ()
    #: such loops that can run as coarse-grain pipelines instead (their
    #: serialized work is in ``flops``/``accesses``, their hand-offs here)
    pipes: tuple[Pipe, ...] = ()
    #: latency units of the recurrence chains innermost loops carry (see
    #: analysis.recurrence), on the critical path and in the whole phase
    chain: float = 0.0
    seq_chain: float = 0.0


def price(work: PhaseWork, machine: MachineProfile, measured: float | None = None) -> PhaseCost:
    """Seconds for one execution of a phase on ``machine``.

    ``measured``: the phase's sequential time from a profile run; the
    computation is then that time, scaled by ``compute_scale``, times the
    share of the work on the critical path.
    """
    crit = (work.flops * machine.flop_time + work.accesses * machine.memory_access_time
            + work.chain * machine.recurrence_time)
    # the hand-offs of serialized loops: their bytes are in the exchange, their
    # latencies follow one another; or the loop runs as a pipeline (see .pipelines)
    handoffs = list(work.handoffs)
    for pipe in work.pipes:
        ser, ser_msgs, piped, piped_msgs, nb = pipe.times(machine)
        if machine.pipeline and piped + piped_msgs < ser + ser_msgs:
            crit += piped - ser
            handoffs.append((pipe.array, pipe.dim, float(nb + pipe.stages - 1)))
        else:
            handoffs.append((pipe.array, pipe.dim, pipe.handoffs))
    if measured is not None and work.seq_flops + work.seq_accesses > 0:
        seq = (work.seq_flops * machine.flop_time + work.seq_accesses * machine.memory_access_time
               + work.seq_chain * machine.recurrence_time)
        share = crit / seq if seq > 0 else 1.0
        computation = measured * machine.compute_scale * share
    else:
        computation = crit
    computation += work.starts * machine.parallel_overhead
    rows = tuple(Routine(r.name, a, d, n, b, m, r.cost(b, m, machine)) for r, a, d, n, b, m in work.routines)
    movement = EXCHANGE.cost(work.movement_bytes, work.movement_messages, machine)
    movement += sum(r.cost(b, m, machine) for r, a, d, n, b, m in work.routines if r.priced_apart)
    for array, dim, n in handoffs:
        cost = machine.message_cost(0, n)
        if cost > 0:  # nothing under the linear model: DDT's messages have no latency
            rows += (Routine(routines.PIPELINE.name, array, dim, 0, 0, round(n), cost),)
            movement += cost
    return PhaseCost(
        computation=computation,
        movement=movement,
        movement_bytes=work.movement_bytes + sum(b for r, a, d, n, b, m in work.routines if r.priced_apart),
        movement_messages=work.movement_messages,
        routines=rows,
        parallel_loops=work.parallel_loops,
        serialized_loops=work.serialized_loops,
        replicated=work.replicated,
        elements_per_array=work.elements_per_array,
    )


def phase_cost(phase: Phase, layouts: dict[str, Layout], facts: dict[str, ArrayFacts],
               machine: MachineProfile, nranks: int) -> PhaseCost:
    """Predicted cost of one execution of a loop phase (see :func:`phase_work`)."""
    return price(phase_work(phase, layouts, facts, nranks), machine)


def phase_work(phase: Phase, layouts: dict[str, Layout], facts: dict[str, ArrayFacts], nranks: int,
               memo: dict | None = None) -> PhaseWork:
    """What one execution of a loop phase does under a mapping.

    ``layouts`` and ``facts`` are keyed by the array names used in the phase;
    arrays without a layout are held whole by every rank.  ``memo``: a dict
    kept by the caller for this phase (same facts and rank count) across
    mappings: what a rank executes of a statement depends only on the layout
    of the statement's home array, and what it receives of an array only on
    that array's layout and the sections it reads.
    """
    if memo is None:
        memo = {}
    layouts = without_private(phase, {a: l for a, l in layouts.items() if a in facts})
    loops = memo.get(("loops",))
    if loops is None:
        loops = memo[("loops",)] = phase_loops(phase)
    parts = statement_partitions(phase, layouts, nranks)
    crit_flops = crit_acc = seq_flops = seq_acc = crit_chain = seq_chain = 0.0
    parallel_lines: set[int] = set()
    serialized: set[int] = set()
    replicated_notes: list[str] = []
    # per rank: array -> list of sections read
    needs: list[dict[str, list[tuple[Section, RefPattern, Access]]]] = [dict() for _ in range(nranks)]
    any_distributed = any(l.nprocs > 1 for l in layouts.values())
    rep = rank_classes(phase, layouts, loops, nranks, memo)
    reps = sorted(set(rep))
    chains: dict[tuple[int, str, int | None], float] = {}
    pipes: dict[tuple[int, str, int | None], list] = {}  # chain -> serial and stage work, stages, blocks
    serial_only: set[tuple[int, str, int | None]] = set()  # chains some statement of which cannot pipeline
    for i, (pat, part) in enumerate(zip(phase.patterns, parts)):
        counts = [0.0] * nranks
        home = layouts.get(part.home) if part.home is not None else None
        executed = memo.setdefault(("exec", i, part, home), {})  # rank -> what it executes (keyed once)
        for rank in reps:
            got = executed.get(rank)
            if got is None:
                got = executed[rank] = _executes(i, pat, part, layouts, facts, nranks, rank, loops, memo)
            n, reads = got
            counts[rank] = n
            for j, array, sec in reads:
                needs[rank].setdefault(array, []).append((sec, i, j))
        counts = [counts[rep[r]] for r in range(nranks)]
        full = memo.get(("full", i))
        if full is None:
            full_vals = rank_iterations(pat, REPLICATED_EXECUTION, layouts, nranks, 0, loops) or {}
            full = memo[("full", i)] = count_iterations(pat, loops, full_vals)
        weight = pat.count / full if full else 0.0
        crit, par = _statement_time(pat, part, counts, layouts, nranks, loops, memo)
        if part.home is not None and crit > 0:
            key = ("handoffs", i, part, home)
            hs = memo.get(key)
            if hs is None:
                hs = memo[key] = handoffs(phase, pat, part, home, nranks, loops)
            for line, tdim, n in hs:
                # statements of one loop share its hand-offs
                k = (line, part.home, tdim)
                chains[k] = max(chains.get(k, 0.0), n)
                key = ("pipe", i, part, home, line)
                if key not in memo:
                    memo[key] = pipeline_loop(phase, pat, part, home, nranks, loops, line, memo) \
                        if len(hs) == 1 else None
                shape = memo[key]
                if shape is None:
                    serial_only.add(k)
                    continue
                stage = max(counts) * weight
                got = pipes.setdefault(k, [0.0, 0.0, 0.0, 0.0, shape[0], shape[1], 0.0, 0.0])
                got[0] += crit * weight * pat.flops
                got[1] += crit * weight * pat.accesses
                got[2] += stage * pat.flops
                got[3] += stage * pat.accesses
                got[6] += crit * weight * pat.chain
                got[7] += stage * pat.chain
                got[5] = min(got[5], shape[1])
        crit_flops += crit * weight * pat.flops
        crit_acc += crit * weight * pat.accesses
        seq_flops += pat.count * pat.flops
        seq_acc += pat.count * pat.accesses
        crit_chain += crit * weight * pat.chain
        seq_chain += pat.count * pat.chain
        if part.home is not None:
            for g, (kind, v) in enumerate(part.axes):
                if kind != "var":
                    continue
                lp = next((loops[l] for l in pat.loop_lines if l in loops and loops[l].var == v), None)
                if lp is None:
                    continue
                ext = ownership(layouts[part.home], nranks).axes[g].extent
                if ext <= 1:
                    continue
                (parallel_lines if lp.parallel else serialized).add(lp.line)
        elif any_distributed and pat.lhs is not None:
            replicated_notes.append(f"line {pat.line}: {pat.lhs.array} is held by every processor; "
                                    "the statement runs on all of them")
    starts = sum(_starts(phase, line, loops) for line in parallel_lines)

    # data movement: per rank, per array, the union of what it reads minus what it holds
    per_rank_bytes = [0] * nranks
    per_rank_msgs = [0] * nranks
    received = {array: memo.setdefault(("recv", array, lay), {}) for array, lay in layouts.items()}
    for rank in reps:
        for array, items in needs[rank].items():
            lay = layouts.get(array)
            if lay is None:
                continue  # held whole by every rank
            key = (rank, tuple(items))
            got = received[array].get(key)
            if got is None:
                got = received[array][key] = receives(phase, lay, items, facts[array].elem_size, nranks, rank)
            nbytes, msgs = got
            per_rank_bytes[rank] += nbytes
            per_rank_msgs[rank] += msgs
    per_rank_bytes = [per_rank_bytes[rep[r]] for r in range(nranks)]
    per_rank_msgs = [per_rank_msgs[rep[r]] for r in range(nranks)]
    # reductions over distributed iterations: an all-reduce of each reduced value
    red_routines = reduction_moves(phase, parts, layouts, facts, nranks)
    worst = max(range(nranks), key=lambda r: (per_rank_bytes[r], per_rank_msgs[r])) if nranks else 0
    # what the worst rank receives, by routine (the other ranks' split is never priced)
    attribution: dict[tuple[TableRoutine, str, int | None], int] = {}
    if nranks:
        wr = rep[worst]
        for array, items in needs[wr].items():
            lay = layouts.get(array)
            if lay is None:
                continue
            key = ("attr", array, lay, wr, tuple(items))
            got = memo.get(key)
            if got is None:
                got = memo[key] = attributed(phase, lay, items, nranks, wr)
            for (routine, dim), n in got:
                k = (routine, array, dim)
                attribution[k] = attribution.get(k, 0) + n
    moves = []
    for (routine, array, dim), n in sorted(attribution.items(), key=lambda kv: (kv[0][1], kv[0][2] or 0)):
        moves.append((routine, array, dim, n, n * facts[array].elem_size, routine.messages(layouts[array].nprocs)))
    for r in red_routines:
        moves.append((r[0], r[1], None, r[2], r[3], r[4]))
    per_array: dict[str, int] = {}
    for (routine, array, dim), n in attribution.items():
        per_array[array] = per_array.get(array, 0) + n
    return PhaseWork(
        flops=crit_flops, accesses=crit_acc, seq_flops=seq_flops, seq_accesses=seq_acc, starts=starts,
        chain=crit_chain, seq_chain=seq_chain, routines=tuple(moves),
        movement_bytes=per_rank_bytes[worst] if nranks else 0,
        movement_messages=per_rank_msgs[worst] if nranks else 0,
        parallel_loops=tuple(sorted(parallel_lines)),
        serialized_loops=tuple(sorted(serialized - parallel_lines)),
        replicated=tuple(dict.fromkeys(replicated_notes)),
        elements_per_array=tuple(sorted(per_array.items())),
        handoffs=_chains({k: n for k, n in chains.items() if k not in pipes or k in serial_only}),
        pipes=tuple(Pipe(home, (tdim or 0) + 1, sf, sa, pf, pa, stages, blocks, chains[(line, home, tdim)], sc, pc)
                    for (line, home, tdim), (sf, sa, pf, pa, stages, blocks, sc, pc)
                    in sorted(pipes.items(), key=str)
                    if (line, home, tdim) not in serial_only),
    )


def _chains(chains: dict[tuple[int, str, int | None], float]) -> tuple[tuple[str, int, float], ...]:
    """Hand-offs per loop, once per loop (the statements of a loop body hand on
    together), summed per (array, template dim) for the report (1-based dim)."""
    by_loop: dict[int, tuple[str, int | None, float]] = {}
    for (line, array, tdim), n in sorted(chains.items()):
        if line not in by_loop or n > by_loop[line][2]:
            by_loop[line] = (array, tdim, n)
    out: dict[tuple[str, int], float] = {}
    for array, tdim, n in by_loop.values():
        k = (array, (tdim or 0) + 1)
        out[k] = out.get(k, 0.0) + n
    return tuple((a, d, n) for (a, d), n in sorted(out.items()))


def _executes(i: int, pat: RefPattern, part: Partition, layouts: dict[str, Layout], facts: dict[str, ArrayFacts],
              nranks: int, rank: int, loops: dict[int, Loop], memo: dict
              ) -> tuple[float, tuple[tuple[int, str, Section], ...]]:
    """How many times ``rank`` executes statement ``i`` (``pat``), and the
    sections its references read there (reference index, array, section).
    Statements of one loop nest share their iterations, and references their
    images (``memo``: the rank's values depend on the nest and the partition
    only, the sections on those values only)."""
    home = layouts.get(part.home) if part.home is not None else None
    key = ("iter", pat.loop_lines, part, home, rank)
    got = memo.get(key)
    if got is None:
        vals = rank_iterations(pat, part, layouts, nranks, rank, loops, memo)
        if vals is None:
            got = memo[key] = (None, None, 0.0)
        else:
            # the values by a number, so that the keys below hash quickly
            values = ("values", tuple(sorted(vals.items())))
            vkey = memo.get(values)
            if vkey is None:
                vkey = memo[values] = memo[("values",)] = memo.get(("values",), 0) + 1
            ckey = ("count", pat.loop_lines, vkey)  # layouts giving ranks the same values count once
            n = memo.get(ckey)
            if n is None:
                n = memo[ckey] = count_iterations(pat, loops, vals)
            got = memo[key] = (vals, vkey, n)
    vals, vkey, n = got
    if vals is None:
        return 0.0, ()
    if n == 0:
        return n, ()
    rkey = ("reads", i, vkey)
    reads = memo.get(rkey)
    if reads is None:
        out = []
        ids = _reference_ids(memo, i, pat)
        for j, acc in enumerate(pat.rhs):
            if acc.array not in facts:
                continue
            ikey = ("image", ids[j], vkey)
            sec = memo.get(ikey)
            if sec is None:
                sec = memo[ikey] = _image(acc, vals, facts[acc.array].bounds, memo)
            if sec:
                out.append((j, acc.array, sec))
        reads = memo[rkey] = tuple(out)
    return n, reads


def _reference_ids(memo: dict, i: int, pat: RefPattern) -> list[int]:
    """A number per reference read by statement ``i``, the same for the same
    reference (array, subscripts, implied loops) anywhere in the phase."""
    got = memo.get(("refs", i))
    if got is None:
        known = memo.setdefault(("refs",), {})
        got = memo[("refs", i)] = [known.setdefault((a.array, a.subscripts, a.implied), len(known))
                                   for a in pat.rhs]
    return got


class _OneDimension(NamedTuple):
    """One subscript of a reference, as :func:`reference_image` reads it."""

    subscripts: tuple
    implied: tuple = ()


def _image(acc: Access, vals: dict[str, IndexSet], bounds: tuple[tuple[int, int], ...], memo: dict) -> Section:
    """:func:`reference_image`, one dimension at a time through ``memo``: the
    references of a statement share most of their subscripts (``U(1,I,J,K)``
    ... ``U(5,I,J,K)``) and so their images along those dimensions."""
    if acc.implied:
        return reference_image(acc, vals, bounds)
    sets = []
    for sub, b in zip(acc.subscripts, bounds):
        key = ("dim", sub, b, None if sub is None else tuple(vals.get(v) for v, _ in sub.terms))
        got = memo.get(key)
        if got is None:
            got = memo[key] = reference_image(_OneDimension((sub,)), vals, (b,)).sets[0]
        sets.append(got)
    return Section(tuple(sets))


def _starts(phase: Phase, line: int, loops: dict[int, Loop]) -> float:
    """How many times the loop at ``line`` is entered per execution of the phase."""
    info = phase.loop(line)
    if info is None or info.trip_count in (None, 0):
        return 1.0
    return info.iterations / info.trip_count if info.trip_count else 1.0
