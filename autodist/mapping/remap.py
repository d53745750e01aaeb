"""The cost of remapping one array between two layouts (DDT §4.3, made exact).

The volume is the exact redistribution volume of the
:data:`~autodist.layout.routines.REMAP` routine: for every rank the
elements it must receive (what it will hold under the new layout and does not
hold under the old one), and from how many ranks.  The time is that of the
most loaded rank under the machine profile's model.  DDT approximated the
volume by N^2/P elements per processor and noted it over-estimates: for a
256x256 array of reals at P = 16, ``(BLOCK,*)`` -> ``(*,BLOCK)`` moves 3,840
elements per rank (each keeps N^2/P^2 of its block), not 4,096.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..layout.model import Layout
from ..layout.routines import REMAP
from ..machine import MachineProfile


@dataclass(frozen=True)
class RemapVolume:
    """Per remapping: the most loaded rank's received elements, bytes, messages."""

    elements: int
    bytes: int
    messages: int


@lru_cache(maxsize=1 << 14)
def remap_volume(src: Layout, dst: Layout, nranks: int, elem_bytes: int) -> RemapVolume:
    if src == dst:
        return RemapVolume(0, 0, 0)
    vol = REMAP.volume(src, dst, nranks, elem_bytes)
    return RemapVolume(vol.max_received, vol.max_bytes_received, vol.max_messages_received)


def remap_cost(src: Layout, dst: Layout, nranks: int, elem_bytes: int, machine: MachineProfile) -> float:
    v = remap_volume(src, dst, nranks, elem_bytes)
    return REMAP.cost(v.bytes, v.messages, machine) if v.bytes else 0.0
