"""Coarse-grain pipelines in the cost model (beyond DDT, which serializes).

A sequential loop ``S`` walking a BLOCK-distributed dimension runs the
processors one after the other: each waits for its predecessor's whole part
(:func:`autodist.mapping.cost.handoffs`).  When the phase runs in blocks of a
parallel loop ``P`` instead — what the runtime does with ``--pipeline-blocks``
(:mod:`autodist.runtime.spmd.blocking`), under the same conditions — a
processor starts block ``b`` as soon as its predecessor has handed it on.
With ``E`` processors along the dimension, ``w`` seconds of work per
processor and ``L`` seconds per message, ``nb`` blocks take

    (nb + E - 1) * (w / nb + L)

(the pipeline fills in ``E - 1`` steps, then one block per step), least at
``nb = sqrt((E - 1) * w / L)``, within ``1 .. trips of P`` (every trip of
``P`` its own block when messages cost no latency).  The model takes the
pipeline when it is cheaper than the serialized loop and its hand-offs.

The conditions on ``P`` are the runtime's: around every statement of the
phase, not partitioning a distributed dimension, no private arrays; the
loops around ``S`` parallel; no scalar assigned in the phase; and no
dependence forward along one of ``S``, ``P`` and backward along the other
(:mod:`autodist.owner.blocking`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..analysis.model import Phase, RefPattern
from ..layout.model import Layout
from ..layout.ownership import ownership
from ..machine import MachineProfile
from ..owner.blocking import blocking_forms
from ..owner.iterations import Loop, Partition


@dataclass(frozen=True)
class Pipe:
    """One sequential loop along a distributed dimension that can run as a
    pipeline: its statements' work serialized (as the hand-offs price it) and
    per processor, the processors along the dimension and the blocks ``P``
    can be cut into."""

    array: str
    dim: int  # template dimension, 1-based
    serial_flops: float
    serial_accesses: float
    stage_flops: float  # the most loaded processor's share
    stage_accesses: float
    stages: int
    blocks: float
    handoffs: float  # of the serialized loop, per execution of the phase
    #: latency units of recurrence chains (see analysis.recurrence), serialized and per processor
    serial_chain: float = 0.0
    stage_chain: float = 0.0

    def times(self, machine: MachineProfile) -> tuple[float, float, float, float, int]:
        """(serialized computation, its hand-offs' cost, pipelined computation,
        the pipeline's messages' cost, blocks) in seconds."""
        ser = (self.serial_flops * machine.flop_time + self.serial_accesses * machine.memory_access_time
               + self.serial_chain * machine.recurrence_time)
        w = (self.stage_flops * machine.flop_time + self.stage_accesses * machine.memory_access_time
             + self.stage_chain * machine.recurrence_time)
        latency = machine.message_cost(0, 1)
        nb = best_blocks(w, self.stages, latency, self.blocks)
        steps = nb + self.stages - 1
        return ser, machine.message_cost(0, self.handoffs), w * steps / nb, latency * steps, nb


def best_blocks(work: float, stages: int, latency: float, most: float) -> int:
    """The number of blocks (1 .. ``most``) that minimizes the pipeline's time."""
    top = max(1, int(most))
    if latency <= 0:
        return top
    x = math.sqrt(max(stages - 1, 0) * work / latency)
    cands = {max(1, min(top, int(math.floor(x)))), max(1, min(top, int(math.ceil(x))))}
    return min(cands, key=lambda nb: (nb + stages - 1) * (work / nb + latency))


def pipeline_loop(phase: Phase, pat: RefPattern, part: Partition, layout: Layout, nranks: int,
                  loops: dict[int, Loop], line: int, memo: dict) -> tuple[int, float] | None:
    """(processors along the dimension, blocks) when the statement's sequential
    loop at ``line`` could run as a pipeline (see the module docstring)."""
    if line not in pat.loop_lines:
        return None
    k = pat.loop_lines.index(line)
    if any(not loops[o].parallel for o in pat.loop_lines[:k] if o in loops):
        return None
    own = ownership(layout, nranks)
    s_var = loops[line].var
    spread = [g for g, (kind, v) in enumerate(part.axes) if kind == "var" and own.axes[g].extent > 1]
    serial = [g for g in spread if part.axes[g][1] == s_var]
    if len(serial) != 1 or any(not _parallel_var(pat, part.axes[g][1], loops) for g in spread if g not in serial):
        return None
    term = next(((d, a) for d, v, a, _ in part.terms if v == s_var), None)
    if term is None or not own.dims[term[0]].contiguous:
        return None
    used = {v for g, (kind, v) in enumerate(part.axes) if kind == "var" and own.axes[g].extent > 1}
    for p in pat.loop_lines:
        lp = loops.get(p)
        if p == line or lp is None or lp.var in used or not lp.trips or lp.trips < 2:
            continue
        if not lp.parallel and pat.loop_lines.index(p) < k:
            continue  # a sequential loop outside would be the one the pipeline walks
        info = phase.loop(p)
        if info is not None and info.private_arrays:
            continue
        key = ("blockable", line, p)
        if key not in memo:
            memo[key] = _blockable(phase, p, s_var, lp.var)
        if memo[key]:
            return own.axes[serial[0]].extent, float(lp.trips)
    return None


def _parallel_var(pat: RefPattern, var: str | None, loops: dict[int, Loop]) -> bool:
    return any(loops[l].var == var and loops[l].parallel for l in pat.loop_lines if l in loops)


def _blockable(phase: Phase, line: int, s_var: str, var: str) -> bool:
    """Whether the phase can run in blocks of the loop ``var`` at ``line``: it
    is around every statement, no scalar is assigned, and the reordering keeps
    every dependence (:func:`autodist.owner.blocking.blocking_forms`)."""
    if any(line not in p.loop_lines or p.lhs is None or p.reduction or p.output for p in phase.patterns):
        return False
    refs = [(acc.array, acc.write, acc.subscripts) for p in phase.patterns
            for acc in ((p.lhs,) if p.lhs is not None else ()) + p.rhs]
    return blocking_forms(refs, s_var, var) is not None
