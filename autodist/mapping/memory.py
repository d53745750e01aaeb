"""Memory per processor: what a mapping needs of each processor's memory.

Beyond DDT, a machine profile may bound the bytes one processor holds
(``memory_per_processor``).  A mapping needs, per processor, the most any
processor holds: a distributed array its largest local part, a replicated
one (or one with no layout) the whole array.  A static candidate that needs
more is infeasible; a dynamic solution is kept only when every array at its
largest layout of the solution fits at once (an upper bound of its peak).
"""

from __future__ import annotations

from functools import lru_cache
from math import prod
from typing import Iterable

from ..layout.model import Layout
from ..layout.ownership import ownership
from .arrays import ArrayTable
from .model import Mapping


@lru_cache(maxsize=1 << 14)
def local_elements(layout: Layout, nranks: int) -> int:
    """The most elements of the array any rank holds."""
    own = ownership(layout, nranks)
    most = []
    for dm in own.dims:
        most.append(max(dm.extent(e) for e in range(dm.eff)))
    return prod(most)


def footprint(layouts: dict[str, Layout | Iterable[Layout]], table: ArrayTable, nranks: int) -> int:
    """Bytes per processor of every array of ``table`` under ``layouts``
    (global id -> a layout, or the layouts it takes: the largest counts);
    arrays without a layout are held whole, arrays of unknown size not counted."""
    total = 0
    for a in table.arrays:
        if a.bounds is None:
            continue
        lays = layouts.get(a.id)
        if lays is None:
            n = prod(hi - lo + 1 for lo, hi in a.bounds)
        elif isinstance(lays, Layout):
            n = local_elements(lays, nranks)
        else:
            n = max(local_elements(l, nranks) for l in lays)
        total += n * a.elem_size
    return total


def mapping_footprint(m: Mapping, table: ArrayTable, nranks: int) -> int:
    return footprint(dict(m.layouts), table, nranks)
