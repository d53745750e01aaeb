"""What the reductions of a phase move: partial values combined over the ranks.

A parallel loop whose iterations a mapping splits over ranks combines each of
its reductions with an all-reduce: one value for a scalar (``S = S + ...``),
the elements the loops inside it run over for an array every rank holds
(``RMS(M) = RMS(M) + ...`` under ``DO M = 1, 5``: five), as the runtime does
(:mod:`autodist.runtime.spmd.planner`).
"""

from __future__ import annotations

from ..analysis.model import Phase
from ..layout.model import Layout
from ..layout.ownership import ownership
from ..layout.routines import REDUCTION
from ..owner.iterations import Partition


def reduction_moves(phase: Phase, parts: list[Partition], layouts: dict[str, Layout], facts, nranks: int):
    """(routine, name, elements, bytes, messages) of the all-reduces a phase needs."""
    out = []
    seen = set()
    for lp in phase.loops:
        if not lp.parallel or not lp.reductions:
            continue
        # is the reduction loop's work split over ranks?
        split = False
        for pat, part in zip(phase.patterns, parts):
            if lp.line in pat.loop_lines and part.home is not None:
                own = ownership(layouts[part.home], nranks)
                if any(kind == "var" and v == lp.var and own.axes[g].extent > 1 for g, (kind, v) in enumerate(part.axes)):
                    split = True
        if not split:
            continue
        for name, op in lp.reductions:
            if name in seen:
                continue
            seen.add(name)
            count, size = _reduced(phase, lp, name, facts)
            vol = REDUCTION.volume(nranks, count, size)
            out.append((REDUCTION, name, vol.max_received, vol.max_bytes_received, vol.max_messages_received))
    return out


def _reduced(phase: Phase, lp, name: str, facts) -> tuple[int, int]:
    """(values, bytes per value) one reduction of loop ``lp`` combines: one
    scalar, or the elements of an array the loops inside ``lp`` run over
    (``RMS(M) = RMS(M) + ...`` under ``DO M = 1, 5``: five)."""
    array = name.split("(")[0]
    if "(" not in name or array not in facts:
        return 1, 8
    inner = {l.var: l.trip_count for l in phase.loops}
    count = 1
    for pat in phase.patterns:
        if pat.lhs is None or pat.lhs.array != array or lp.line not in pat.loop_lines or pat.reduction is None:
            continue
        for sub in pat.lhs.subscripts:
            for v, _ in (sub.terms if sub is not None else ()):
                trips = inner.get(v)
                if trips and v in pat.loops[pat.loops.index(lp.var) + 1:]:
                    count *= max(1, int(round(trips)))
        break
    return count, facts[array].elem_size
