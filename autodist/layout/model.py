"""Layouts: where every element of one array lives.

A :class:`Layout` is the resolved meaning of an array's HPF mapping
directives (TEMPLATE, ALIGN, DISTRIBUTE, PROCESSORS), independent of how they
were written:

* the array's declared bounds;
* the template's bounds;
* for every template dimension, what of the array lies along it
  (:class:`Axis`: array dimension ``dim`` with ``t = stride * i + offset``;
  :class:`Replicated`: a copy on every processor along it; :class:`Fixed`:
  the array sits at one template index);
* for every template dimension, its distribution :class:`Format` (the format
  types, their ownership maps, texts and candidates: :mod:`.formats`);
* the processor arrangement shape (one extent per distributed template
  dimension, in template order).

Array dimensions that no :class:`Axis` names are *collapsed*: held whole.
Dimensions are 0-based in this model; indices are the program's own (so with
the declared lower bound, usually 1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod
from typing import Union

from ..keys import cached_hash

from .formats import Format


BLOCK = Format("BLOCK")
CYCLIC = Format("CYCLIC")
COLLAPSED = Format("*")


@dataclass(frozen=True)
class Axis:
    """Template index ``t = stride * i + offset`` for array index ``i`` of dimension ``dim``.

    ``stride`` -1 is a reflection (``T(N-I+1)``: stride -1, offset N+1).
    """

    dim: int
    stride: int = 1
    offset: int = 0

    def __post_init__(self) -> None:
        if self.stride == 0:
            raise ValueError("alignment stride must not be zero")

    def __call__(self, i: int) -> int:
        return self.stride * i + self.offset


@dataclass(frozen=True)
class Replicated:
    """The array is replicated along this template dimension (``*`` in the ALIGN target)."""


@dataclass(frozen=True)
class Fixed:
    """The array lies at a single index of this template dimension (``T(I, 3)``)."""

    index: int


Target = Union[Axis, Replicated, Fixed]
REPLICATED = Replicated()


@cached_hash
@dataclass(frozen=True)
class Layout:
    """Where every element of one array lives.  See the module docstring."""

    bounds: tuple[tuple[int, int], ...]
    template: tuple[tuple[int, int], ...]
    align: tuple[Target, ...]
    formats: tuple[Format, ...]
    grid: tuple[int, ...]
    # Names for emission and reports only; they do not change the meaning.
    template_name: str = field(default="", compare=False)
    procs_name: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        nt = len(self.template)
        if len(self.align) != nt or len(self.formats) != nt:
            raise ValueError("align and formats need one entry per template dimension")
        if len(self.grid) != sum(f.distributed for f in self.formats):
            raise ValueError("grid needs one extent per distributed template dimension")
        if any(g < 1 for g in self.grid):
            raise ValueError("processor extents must be positive")
        seen = [a.dim for a in self.align if isinstance(a, Axis)]
        if len(seen) != len(set(seen)) or any(not 0 <= d < len(self.bounds) for d in seen):
            raise ValueError("each array dimension may follow at most one template dimension")

    # ---------------------------------------------------------------- helpers

    @property
    def rank(self) -> int:
        return len(self.bounds)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(hi - lo + 1 for lo, hi in self.bounds)

    @property
    def nprocs(self) -> int:
        """Processors in the arrangement (1 when nothing is distributed)."""
        return prod(self.grid) if self.grid else 1

    def grid_axis(self, tdim: int) -> int | None:
        """The processor-arrangement dimension that template dimension ``tdim`` is
        distributed onto, or None when it is not distributed."""
        if not self.formats[tdim].distributed:
            return None
        return sum(f.distributed for f in self.formats[:tdim])

    def tdim_of(self, dim: int) -> int | None:
        """The template dimension array dimension ``dim`` follows, or None (collapsed)."""
        for t, a in enumerate(self.align):
            if isinstance(a, Axis) and a.dim == dim:
                return t
        return None

    @property
    def distributed_dims(self) -> tuple[int, ...]:
        """Array dimensions that lie along a distributed template dimension."""
        out = []
        for d in range(self.rank):
            t = self.tdim_of(d)
            if t is not None and self.formats[t].distributed:
                out.append(d)
        return tuple(out)

    @property
    def is_replicated_everywhere(self) -> bool:
        """True when every processor holds the whole array."""
        return not self.distributed_dims and all(
            not f.distributed or isinstance(a, Replicated) for a, f in zip(self.align, self.formats)
        )

    def distribute_str(self) -> str:
        """The template's distribution in HPF syntax without blanks, e.g. ``(BLOCK,*)``."""
        return "(" + ",".join(str(f) for f in self.formats) + ")"


def replicated(bounds: tuple[tuple[int, int], ...]) -> Layout:
    """A layout that keeps the whole array on every processor."""
    return Layout(
        bounds=bounds,
        template=bounds,
        align=tuple(Axis(d) for d in range(len(bounds))),
        formats=tuple(COLLAPSED for _ in bounds),
        grid=(),
    )


def simple(bounds: tuple[tuple[int, int], ...], formats: tuple[Format, ...], grid: tuple[int, ...]) -> Layout:
    """Identity alignment on a template of the array's own shape (``A(I,J) WITH T(I,J)``)."""
    return Layout(
        bounds=bounds,
        template=bounds,
        align=tuple(Axis(d) for d in range(len(bounds))),
        formats=formats,
        grid=grid,
    )


def on_rank(bounds: tuple[tuple[int, int], ...], rank: int) -> Layout:
    """A layout that keeps the whole array on one rank (the source of a
    scatter, the target of a gather): a template with one extra dimension of
    ``rank + 1`` cells distributed BLOCK over ``rank + 1`` processors, the
    array fixed at cell ``rank``."""
    if rank < 0:
        raise ValueError("rank must be non-negative")
    return Layout(
        bounds=bounds,
        template=tuple(bounds) + ((0, rank),),
        align=tuple(Axis(d) for d in range(len(bounds))) + (Fixed(rank),),
        formats=tuple(COLLAPSED for _ in bounds) + (BLOCK,),
        grid=(rank + 1,),
    )
