"""The mapping model: candidate mappings of phases and their costs.

A :class:`Mapping` gives a :class:`~autodist.layout.model.Layout` to every
(global) array a phase or a procedure uses.  A :class:`PhaseCost` is the
predicted cost of one execution of a phase under one mapping, broken down
into computation and data movement routines (DDT Table 3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable

from ..keys import cached_hash
from ..layout.model import Layout

#: Told how far a long step of the mapping stage is: (what, done, of how many).
Progress = Callable[[str, int, int], None]


@cached_hash
@dataclass(frozen=True)
class Mapping:
    """Layouts of arrays (global ids), sorted by array id."""

    layouts: tuple[tuple[str, Layout], ...]

    @staticmethod
    def of(d: dict[str, Layout]) -> "Mapping":
        return Mapping(tuple(sorted(d.items())))

    @cached_property
    def _d(self) -> dict[str, Layout]:
        return dict(self.layouts)

    def layout(self, array: str) -> Layout | None:
        return self._d.get(array)

    def layouts_of(self, arrays) -> tuple[Layout | None, ...]:
        """The layouts of ``arrays``, in order (None for an array it does not map)."""
        return tuple(map(self._d.get, arrays))

    def __contains__(self, array: str) -> bool:
        return array in self._d

    def restrict(self, arrays) -> "Mapping":
        d = self._d
        return Mapping(tuple(sorted((a, d[a]) for a in set(arrays) if a in d)))

    @property
    def arrays(self) -> tuple[str, ...]:
        return tuple(a for a, _ in self.layouts)

    def describe(self) -> str:
        """Short text such as ``X,A,B:(BLOCK,*)``."""
        groups: dict[str, list[str]] = {}
        for a, lay in self.layouts:
            groups.setdefault(lay.distribute_str() + _align_note(lay), []).append(a)
        return " ".join(f"{','.join(v)}:{k}" for k, v in groups.items())


def _align_note(lay: Layout) -> str:
    from ..layout.model import Axis

    perm = [a.dim if isinstance(a, Axis) else None for a in lay.align]
    ident = all(isinstance(a, Axis) and a.dim == t and a.stride == 1 and a.offset == 0 for t, a in enumerate(lay.align))
    if ident and len(lay.align) == lay.rank:
        return ""
    return "@" + "".join("*" if p is None else str(p + 1) for p in perm)


@dataclass(frozen=True)
class Routine:
    """One data movement routine of a phase (per execution of the phase).

    ``bytes`` and ``messages`` are those received by the most loaded processor
    (DDT's per-processor volume); ``cost`` in seconds under the machine profile.
    """

    routine: str  # the name of a routine of autodist.layout.routines: Shift | Copy | One_to_All | All_to_One | All_to_All | Reduction
    array: str
    dim: int | None  # template dimension (1-based) along which data moves
    elements: int
    bytes: int
    messages: int
    cost: float


@dataclass(frozen=True)
class PhaseCost:
    """Predicted cost of one execution of a phase under a mapping."""

    computation: float
    movement: float
    movement_bytes: int
    movement_messages: int
    routines: tuple[Routine, ...]
    parallel_loops: tuple[int, ...]  # lines of the loops run in parallel
    serialized_loops: tuple[int, ...] = ()  # parallel-looking work serialized by a dependence
    replicated: tuple[str, ...] = ()  # notes: statements executed by every processor
    elements_per_array: tuple[tuple[str, int], ...] = field(default=())

    @property
    def total(self) -> float:
        return self.computation + self.movement
