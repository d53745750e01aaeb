"""What a rank needs: the sections each rank reads during a phase and does not hold.

The image of the iterations a rank executes (:mod:`.iterations`) under each
right-hand side reference (:mod:`.images`) is the section the rank reads; what
it does not hold, it receives.  :func:`phase_needs` is the single definition of
"what a rank needs" for the cost model and the runtime, so that predicted and
measured element counts agree.
"""

from __future__ import annotations

from ..analysis.model import Phase
from ..layout.model import Layout
from ..layout.ownership import ownership
from ..layout.sections import Section
from .images import reference_image
from .iterations import (
    REPLICATED_EXECUTION,
    count_iterations,
    phase_loops,
    rank_iterations,
    statement_partitions,
    without_private,
)


def phase_needs(phase: Phase, layouts: dict[str, Layout], bounds: dict[str, tuple[tuple[int, int], ...]],
                nranks: int, everywhere: bool = False) -> dict[str, list[list[Section]]]:
    """What every rank reads during one execution of a loop phase and does not hold.

    Returns, per array with a layout, per rank, the distinct sections (images
    of its references over the iterations the rank executes) that are not
    wholly held by the rank.  This is the one definition shared by the cost
    model (which counts the elements of their union that the rank does not
    hold) and the runtime (which receives exactly those before or, for a
    serialized loop, during the phase).  With ``everywhere``, every rank runs
    every statement of the phase (as the runtime runs a phase inline).
    """
    layouts = without_private(phase, layouts)
    loops = phase_loops(phase)
    if everywhere:
        parts = [REPLICATED_EXECUTION] * len(phase.patterns)
    else:
        parts = statement_partitions(phase, layouts, nranks)
    out: dict[str, list[list[Section]]] = {}
    held: dict[tuple[str, int], Section | None] = {}
    for pat, part in zip(phase.patterns, parts):
        for rank in range(nranks):
            vals = rank_iterations(pat, part, layouts, nranks, rank, loops)
            if vals is None or count_iterations(pat, loops, vals) == 0:
                continue
            for acc in pat.rhs:
                lay = layouts.get(acc.array)
                if lay is None or acc.array not in bounds:
                    continue
                key = (acc.array, rank)
                if key not in held:
                    own = ownership(lay, nranks)
                    held[key] = own.owned(rank) if own.holds(rank) else None
                sec = reference_image(acc, vals, bounds[acc.array])
                if not sec:
                    continue
                h = held[key]
                if h is not None and sec.count_intersection(h) == sec.count():
                    continue
                boxes = out.setdefault(acc.array, [[] for _ in range(nranks)])[rank]
                if sec not in boxes:
                    boxes.append(sec)
    return out
