"""Running one planned execution of a loop phase on this rank: receive, compute
(the vectorized function), hand off along a pipeline, combine reductions,
record what was received (see :mod:`.planner` for the modes)."""

from __future__ import annotations

import time

import numpy as np

from ... import ir
from ...errors import UnsupportedError
from ...layout.model import replicated
from ...layout.sections import IndexSet
from ...layout.routines import REDUCTION
from ..comm.builders import builder
from ..comm.storage import StorageMap, selector
from ..codegen.generated import _Goto
from ..codegen.scan import arrays_of
from ..comm import pipeline
from .planner import PhasePlan, Planner, Store


class PhaseRun:
    """One execution of a loop phase: ``fast`` runs the planned function
    (:meth:`run`); otherwise the caller runs the inline translation inside
    ``with run:``, on replicated arrays."""

    left = 0  # a planned phase never jumps out (see _CompiledPhase)

    def __init__(self, ex, frame, region: str, plan: PhasePlan | None, names: list[str]):
        self.ex, self.frame, self.region, self.plan, self.names = ex, frame, region, plan, names
        self.fast = plan is not None
        self.line = 0  # the phase's DO line, for an inline run

    @classmethod
    def start(cls, ex, frame, line: int) -> "PhaseRun":
        planner: Planner = ex.planner
        unit = frame.unit
        shape = planner.shape(unit, line)
        region = f"{unit.name}:{shape.phase.id}"
        if not shape.fast or not ex.options.vectorize:
            ex.phase_modes.setdefault(region, ("inline", shape.reason or "vectorization disabled", ()))
            why = ex.jit_off
            if ex.kernels is not None:
                info, why = ex.kernels.phase_info(unit.name, line)
                if info is not None:
                    why = ex.kernels.phase_ready(info, frame, region)
                    if not why:
                        return _CompiledPhase(ex, frame, region, info, line)
            ex.record_path(region, "inline", why)
            do = next(s for s in unit.statements() if isinstance(s, ir.Do) and s.span.first == line)
            run = cls(ex, frame, region, None, list(arrays_of((do,), unit)))
            run.line = line
            return run
        try:
            plan = planner.plan(frame, shape)
        except UnsupportedError as exc:
            # something the vectorized code cannot express (found while
            # writing it, alike on every rank): the phase runs inline from now on
            shape.reason = exc.message
            return cls.start(ex, frame, line)
        return cls(ex, frame, region, plan, shape.arrays)

    # ---------------------------------------------------------------- inline

    def __enter__(self):
        self.data = self.ex.planner.inline_data(self.frame.unit, self.line, self.region)
        # the same on every rank: the exchanges are collective
        self.data.take([(n, self.frame.a[n]) for n in self.names if not self.frame.a[n].everywhere])
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, exc_type, exc, tb):
        stats = self.ex.comms.stats
        stats.region(self.region).compute_time += time.perf_counter() - self.t0
        self.ex.executions[self.region] = self.ex.executions.get(self.region, 0) + 1
        self.data.restore(redistribute=exc_type is None or issubclass(exc_type, _Goto))
        return False

    # ---------------------------------------------------------------- fast

    def run(self, *scalars):
        ex, frame, plan = self.ex, self.frame, self.plan
        stats = ex.comms.stats
        reg = stats.region(self.region)
        ex.executions[self.region] = ex.executions.get(self.region, 0) + 1
        moved = []
        if plan.mode == "replicated":
            for n in self.names:
                arr = frame.a[n]
                if not arr.everywhere:  # the same on every rank: the remap is collective
                    moved.append((arr, arr.layout))
                    arr.remap(replicated(arr.bounds), region=self.region)
            inner = ex.planner.plan(frame, plan.shape, forced="replicated")
        else:
            inner = plan
        if plan.predicted:
            ex.predicted.setdefault(self.region, plan.predicted)
        ctx = Store()
        windows = []
        for name, use in inner.uses.items():
            arr = frame.a[name]
            if use.window is None:
                ctx.store[name] = arr.local
                continue
            if use.buffer is None:
                use.buffer = np.zeros([hi - lo + 1 for lo, hi in use.window], arr.dtype, order="F")
            buf = use.buffer
            if arr.owned and arr.storage_maps() is not None:  # a rank may hold nothing of it
                if use.placed is None or use.placed[0] != arr.owned:
                    wmaps = tuple(StorageMap(IndexSet.interval(lo, hi)) for lo, hi in use.window)
                    use.placed = (arr.owned, selector(wmaps, arr.owned))
                buf[use.placed[1]] = arr.interior
                windows.append((arr, use, name))
            ctx.store[name] = buf
        for name, use in inner.uses.items():
            if use.prefetch is not None:
                use.prefetch.execute(frame.a[name].local, ctx.store[name], stats, self.region)
        if inner.blocks:
            outs = self._blocks(inner, plan, ctx, scalars, stats, reg)
        else:
            outs = self._whole(inner, plan, ctx, scalars, stats, reg)
        for name, owner in inner.lastprivate:
            buf = ctx.store[name]
            t1 = time.perf_counter()
            ex.comms.comm.Bcast(buf.reshape(-1, order="F"), root=owner)
            mine = ex.rank == owner
            stats.record(self.region, elements_sent=buf.size * (ex.nprocs - 1) if mine else 0,
                         elements_received=0 if mine else buf.size, messages_sent=(ex.nprocs - 1) if mine else 0,
                         messages_received=0 if mine else 1, elem_bytes=buf.itemsize,
                         seconds=time.perf_counter() - t1)
        for arr, use, name in windows:  # name: the dummy's (arr.name is its actual's)
            if use.written:
                arr.interior[...] = ctx.store[name][use.placed[1]]
        for name, op in inner.partials:
            buf = ctx.store[name]
            buf[...] = builder(REDUCTION, "allreduce")(ex.comms.comm, buf, _MPI_OP.get(op, op), stats, self.region)
        if inner.combine:
            outs = list(outs)
            names = plan.shape.outs
            for name, op in inner.combine:
                k = names.index(name)
                outs[k] = builder(REDUCTION, "allreduce")(ex.comms.comm, outs[k], op, stats, self.region)
            outs = tuple(outs)
        for arr, layout in reversed(moved):
            arr.remap(layout, region=self.region)
        return outs


    def _whole(self, inner: PhasePlan, plan: PhasePlan, ctx: Store, scalars: tuple, stats, reg) -> tuple:
        """Run the phase's function once on this rank's part (after what the
        predecessors of a pipeline hand on, before handing on to the successors)."""
        ex = self.ex
        prepare = getattr(inner.fn, "prepare", None)
        if prepare is not None:  # a compiled kernel: compiled (once hot) before the timer starts
            prepare(ctx, *scalars)
        self._settle(inner)  # before the hand-offs: every rank reaches it
        for name, use in inner.uses.items():
            if use.pipeline is not None:
                use.pipeline.receive(ctx.store[name], stats)
        path, why = inner.path()
        t0 = time.perf_counter()
        flipped = self._row_major(inner, ctx, path)
        if inner.ordered:
            scalars = self._receive_partials(inner, scalars, ctx, stats)
        for name, op in inner.partials:
            if ex.rank != 0 and op in _IDENTITY:
                ctx.store[name][...] = _IDENTITY[op]  # this rank's part of the reduction, from the identity
        outs = inner.fn(ctx, *scalars)
        ex.phase_modes.setdefault(self.region, (plan.mode, plan.reason,
                                                plan.shape.vectorized if path == "numpy" else ()))
        ex.record_path(self.region, path, why)
        if inner.ordered:
            outs = self._pass_partials(inner, outs, ctx, stats)
        self._column_major(flipped, ctx)
        reg.compute_time += time.perf_counter() - t0
        for name, use in inner.uses.items():
            if use.pipeline is not None:
                use.pipeline.send(ctx.store[name], stats)
        return outs

    def _blocks(self, inner: PhasePlan, plan: PhasePlan, ctx: Store, scalars: tuple, stats, reg) -> tuple:
        """Run a pipelined phase in blocks (:mod:`.blocking`): per block, receive
        what the predecessors computed of it, compute it, hand it on."""
        ex = self.ex
        for fn, _ in inner.blocks:
            prepare = getattr(fn, "prepare", None)
            if prepare is not None:  # compiled kernels: compiled (once hot) before the timer starts
                prepare(ctx, *scalars)
        self._settle(inner)
        path, why = inner.path()
        flipped = self._row_major(inner, ctx, path)
        outs: tuple = ()
        for fn, links in inner.blocks:
            for name, link in links.items():
                link.receive(ctx.store[name], stats)
            t0 = time.perf_counter()
            outs = fn(ctx, *scalars)
            reg.compute_time += time.perf_counter() - t0
            for name, link in links.items():
                link.send(ctx.store[name], stats)
        self._column_major(flipped, ctx)
        ex.phase_modes.setdefault(self.region, (plan.mode, f"in {len(inner.blocks)} blocks of {inner.blocked_by}",
                                                plan.shape.vectorized if path == "numpy" else ()))
        ex.record_path(self.region, path, why)
        return outs

    def _settle(self, inner: PhasePlan) -> None:
        """The first execution of a plan, on every rank at once (control flow is
        replicated): the ranks wait for one another once they have loaded or compiled
        its kernels, so that what one rank's numba took does not show as another's
        waiting for its hand-offs; the wait is numba's time, left out of the run's."""
        if inner.settled:
            return
        inner.settled = True
        ex = self.ex
        if ex.nprocs == 1 or ex.jit is None:
            return
        t0 = time.perf_counter()
        ex.comms.comm.Barrier()
        ex.jit.compile_seconds += time.perf_counter() - t0

    @staticmethod
    def _row_major(inner: PhasePlan, ctx: Store, path: str) -> list:
        """The arrays the numpy function works on in row-major copies (see ``ArrayUse.corder``)."""
        flipped = []
        for name, use in inner.uses.items():
            if use.corder and path == "numpy" and ctx.store[name].size:
                flipped.append((name, use, ctx.store[name]))
                ctx.store[name] = np.ascontiguousarray(ctx.store[name])
        return flipped

    @staticmethod
    def _column_major(flipped: list, ctx: Store) -> None:
        for name, use, orig in flipped:
            if use.written:
                orig[...] = ctx.store[name]
            ctx.store[name] = orig

    def _receive_partials(self, plan: PhasePlan, scalars: tuple, ctx: Store, stats) -> tuple:
        """The running values of the ordered reductions from the predecessor
        (scalars, and arrays every rank holds whole, received into its storage)."""
        comm, rank = self.ex.comms.comm, self.ex.rank
        pos = plan.order.index(rank)
        if pos == 0:
            return scalars
        t0 = time.perf_counter()
        values = comm.recv(source=plan.order[pos - 1], tag=pipeline.TAG + 1)
        stats.record(self.region, elements_received=sum(np.size(v) for v in values), messages_received=1,
                     seconds=time.perf_counter() - t0)
        ins = list(scalars)
        for name, v in zip(plan.ordered, values):
            if name in plan.uses:
                ctx.store[name][...] = v
            else:
                ins[plan.shape.ins.index(name)] = v
        return tuple(ins)

    def _pass_partials(self, plan: PhasePlan, outs: tuple, ctx: Store, stats) -> tuple:
        """Give the running values to the successor; the last rank's are the
        results, which every rank then gets."""
        comm, rank = self.ex.comms.comm, self.ex.rank
        pos = plan.order.index(rank)
        values = [ctx.store[n].copy() if n in plan.uses else outs[plan.shape.outs.index(n)] for n in plan.ordered]
        t0 = time.perf_counter()
        if pos + 1 < len(plan.order):
            comm.send(values, dest=plan.order[pos + 1], tag=pipeline.TAG + 1)
            stats.record(self.region, elements_sent=sum(np.size(v) for v in values), messages_sent=1)
        values = comm.bcast(values, root=plan.order[-1])
        stats.region(self.region).comm_time += time.perf_counter() - t0
        outs = list(outs)
        for name, v in zip(plan.ordered, values):
            if name in plan.uses:
                ctx.store[name][...] = v
            else:
                outs[plan.shape.outs.index(name)] = v
        return tuple(outs)


#: the reductions into whole arrays that ranks start from the identity, and the all-reduce of each
_IDENTITY = {"+": 0, "*": 1}
_MPI_OP = {"+": "sum", "*": "prod"}


class _CompiledPhase:
    """A phase outside the fast path run by its compiled kernel (:mod:`autodist.runtime.jit`),
    on replicated data as the inline translation would run."""

    fast = True

    def __init__(self, ex, frame, region: str, info, line: int):
        self.ex, self.frame, self.region, self.info, self.line = ex, frame, region, info, line
        self.left = 0  # the label a GO TO out of the loop goes to (-1: RETURN), after run()

    def run(self, *scalars):
        ex = self.ex
        ex.executions[self.region] = ex.executions.get(self.region, 0) + 1
        ex.record_path(self.region, "jit", "")
        data = ex.planner.inline_data(self.frame.unit, self.line, self.region)
        outs, self.left = ex.kernels.run_phase(self.info, self.frame, self.region, scalars, data)
        return outs
