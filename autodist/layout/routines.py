"""The communication routines: one type per routine, shared by the cost model
and the runtime.

Every routine is a frozen type (one instance each, :data:`ROUTINES` lists
them by name) carrying

* ``name`` — how the cost report and the DDT tables call it;
* its access pattern — for the routines of DDT Table 3, :meth:`matches` on one
  right-hand-side reference along one template dimension (the patterns are
  exclusive: :func:`classify` finds exactly one); for the others, the
  :mod:`~autodist.layout.schedule` needs pattern its schedule is planned from
  (:meth:`needs`);
* its cost — :meth:`~Routine.messages` (the messages DDT charges per
  execution along a dimension of ``extent`` processors), :meth:`volume` (exact
  elements, bytes and messages per rank, :mod:`~autodist.layout.volume`) and
  :meth:`~Routine.cost` (seconds under either communication model of the
  machine profile: ``linear`` or latency plus bandwidth); ``priced_apart`` says
  whether the cost model prices it on its own rather than as part of a phase's
  exchange;
* ``builders`` — the names of the runtime's plan builders that carry it out
  (:data:`autodist.runtime.comm.builders.BUILDERS`; a test checks both lists
  name the same builders).

In a loop phase the elements of the Table 3 routines move together: the
runtime receives, per array, what owner computes says a rank reads and does
not hold in one :data:`EXCHANGE` (or, along a sequential loop, part of it in a
:data:`PIPELINE` hand-off), and the cost model prices that union once and
reports how it splits among the Table 3 routines.  Between phases an array
moves in a :data:`REMAP`; reductions over distributed iterations are a
:data:`REDUCTION`.

This module imports only :mod:`autodist.ir` and the layout model, so that both
:mod:`autodist.mapping` and :mod:`autodist.runtime` can dispatch on its types.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..ir import Affine
from .model import Layout
from .schedule import Explicit, Halo, OnRank, OwnedBy, SameSection, Schedule, Shift as ShiftNeeds, exchange_schedule
from .schedule import redistribution_schedule
from .sections import Section
from .volume import Volume, exchange_volume, redistribution_volume, reduction_volume


@dataclass(frozen=True)
class Reference:
    """One right-hand-side reference along one template dimension: ``rhs`` its
    subscript there; ``spans`` whether the left-hand side spans the dimension,
    ``lhs`` its subscript there; ``lhs_vars`` the variables of every
    left-hand-side subscript (None subscripts: not affine)."""

    spans: bool
    lhs: Affine | None
    rhs: Affine | None
    lhs_vars: frozenset[str] = frozenset()

    @property
    def both_vary(self) -> bool:
        """The left- and right-hand-side subscripts are both affine and not constant."""
        return (self.spans and self.lhs is not None and self.rhs is not None
                and not self.lhs.is_const and not self.rhs.is_const)

    @property
    def same_walk(self) -> bool:
        """Both subscripts move with the same variables at the same rates."""
        l, r = self.lhs, self.rhs
        return self.both_vary and l.vars == r.vars and all(l.coef(v) == r.coef(v) for v in l.vars)


@dataclass(frozen=True)
class Routine:
    """A communication routine (see the module docstring)."""

    name: ClassVar[str]
    builders: ClassVar[tuple[str, ...]]
    priced_apart: ClassVar[bool] = False

    def messages(self, extent: int) -> int:
        """Messages DDT charges per execution along a dimension of ``extent`` processors."""
        return max(1, extent - 1)

    def cost(self, nbytes: float, messages: float, machine) -> float:
        """Seconds to move ``nbytes`` in ``messages`` messages under ``machine``'s
        communication model (``linear``: bytes times the remote access time;
        otherwise latency per message plus bytes over bandwidth)."""
        return machine.message_cost(nbytes, messages)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class ScheduledRoutine(Routine):
    """A routine planned as a :class:`~autodist.layout.schedule.Schedule` from
    the source layout and a needs pattern."""

    def schedule(self, src: Layout, needs, nranks: int) -> Schedule:
        return exchange_schedule(src, needs, nranks)

    def volume(self, src: Layout, needs, nranks: int, elem_bytes: int = 8) -> Volume:
        return exchange_volume(src, needs, nranks, elem_bytes)


@dataclass(frozen=True)
class SectionsRoutine(ScheduledRoutine):
    """A routine whose needs are any list of sections per rank."""

    def needs(self, per_rank) -> Explicit:
        """``per_rank[r]``: the disjoint sections rank ``r`` needs."""
        return Explicit(tuple(tuple(p) for p in per_rank))


@dataclass(frozen=True)
class TableRoutine(ScheduledRoutine):
    """A routine of DDT Table 3: chosen by the pattern of a reference."""

    def matches(self, ref: Reference) -> bool:
        raise NotImplementedError


# --------------------------------------------------------------------------- DDT Table 3


@dataclass(frozen=True)
class Shift(TableRoutine):
    """``A(i) = B(i + c)``: both sides walk the dimension alike; each rank gets
    the elements near its part from a neighbour (ghost cells, or a shifted
    buffer along CYCLIC dimensions)."""

    name: ClassVar[str] = "Shift"
    builders: ClassVar[tuple[str, ...]] = ("halo_plan", "shift_plan")

    def matches(self, ref: Reference) -> bool:
        return ref.same_walk

    def messages(self, extent: int) -> int:
        return 1

    def needs(self, offsets: tuple[int, ...]) -> ShiftNeeds:
        return ShiftNeeds(tuple(offsets))

    def halo(self, widths: tuple[tuple[int, int], ...], corners: bool = False) -> Halo:
        return Halo(tuple(widths), corners)


@dataclass(frozen=True)
class OneToAll(TableRoutine):
    """``A(i) = B(c)``: one element (or section) read by every rank: a broadcast."""

    name: ClassVar[str] = "One_to_All"
    builders: ClassVar[tuple[str, ...]] = ("broadcast_plan",)

    def matches(self, ref: Reference) -> bool:
        return ref.rhs is not None and ref.rhs.is_const and (not ref.spans or ref.lhs is not None)

    def messages(self, extent: int) -> int:
        return 1

    def needs(self, section: Section) -> SameSection:
        return SameSection(section)


@dataclass(frozen=True)
class AllToOne(TableRoutine):
    """``A(c) = B(i)``: what every rank holds read on one: a gather to it."""

    name: ClassVar[str] = "All_to_One"
    builders: ClassVar[tuple[str, ...]] = ("gather_plan",)

    def matches(self, ref: Reference) -> bool:
        return (ref.spans and ref.lhs is not None and ref.lhs.is_const
                and ref.rhs is not None and not ref.rhs.is_const)

    def messages(self, extent: int) -> int:
        return 1

    def needs(self, rank: int, section: Section) -> OnRank:
        return OnRank(rank, section)


@dataclass(frozen=True)
class AllToAll(TableRoutine):
    """``A(i, j) = B(j, i)`` or a subscript that is not affine: every rank may
    need what every other holds."""

    name: ClassVar[str] = "All_to_All"
    builders: ClassVar[tuple[str, ...]] = ("gather_plan", "redistribute_plan")

    def matches(self, ref: Reference) -> bool:
        if not ref.spans:
            return False
        if ref.lhs is None or ref.rhs is None:
            return True
        return ref.both_vary and not ref.same_walk and bool(set(ref.rhs.vars) & ref.lhs_vars)

    def needs(self, section: Section) -> SameSection:
        return SameSection(section)


@dataclass(frozen=True)
class Copy(TableRoutine, SectionsRoutine):
    """The right-hand side walks a dimension the left-hand side does not use:
    each rank needs sections held by the others, independent of its part."""

    name: ClassVar[str] = "Copy"
    builders: ClassVar[tuple[str, ...]] = ("exchange_plan",)

    def matches(self, ref: Reference) -> bool:
        if not ref.spans:
            return ref.rhs is None or not ref.rhs.is_const
        return ref.both_vary and not ref.same_walk and not set(ref.rhs.vars) & ref.lhs_vars


# --------------------------------------------------------------------------- the runtime's own


@dataclass(frozen=True)
class Exchange(SectionsRoutine):
    """What owner computes says each rank reads in a phase and does not hold
    (:func:`autodist.owner.needs.phase_needs`), received once before the phase
    in one point-to-point exchange per array: the union of the phase's Table 3
    routines, priced once as the phase's data movement."""

    name: ClassVar[str] = "Exchange"
    builders: ClassVar[tuple[str, ...]] = ("exchange_plan",)


@dataclass(frozen=True)
class Pipeline(SectionsRoutine):
    """The part of a phase's exchange written earlier in the same phase by the
    ranks a sequential loop visits first: handed on point to point when they
    are done (a receive before a rank computes, a send after)."""

    name: ClassVar[str] = "Pipeline"
    builders: ClassVar[tuple[str, ...]] = ("pipeline_link",)


@dataclass(frozen=True)
class Remap(Routine):
    """An array moves from one layout to another (REDISTRIBUTE/REALIGN, a
    dynamic mapping between phases, a scatter from one rank)."""

    name: ClassVar[str] = "Remap"
    builders: ClassVar[tuple[str, ...]] = ("redistribute_plan", "scatter_plan")

    def needs(self, dst: Layout) -> OwnedBy:
        return OwnedBy(dst)

    def schedule(self, src: Layout, dst: Layout, nranks: int) -> Schedule:
        return redistribution_schedule(src, dst, nranks)

    def volume(self, src: Layout, dst: Layout, nranks: int, elem_bytes: int = 8) -> Volume:
        return redistribution_volume(src, dst, nranks, elem_bytes)


@dataclass(frozen=True)
class Reduction(Routine):
    """Values combined over ranks (a parallel loop's reduction over
    distributed iterations; ``MAX``/``MIN`` after a distributed phase)."""

    name: ClassVar[str] = "Reduction"
    builders: ClassVar[tuple[str, ...]] = ("allreduce", "reduce")
    priced_apart: ClassVar[bool] = True

    def volume(self, nranks: int, count: int, elem_bytes: int = 8, root: int | None = None) -> Volume:
        return reduction_volume(nranks, count, elem_bytes, root)


SHIFT, ONE_TO_ALL, ALL_TO_ONE, ALL_TO_ALL, COPY = Shift(), OneToAll(), AllToOne(), AllToAll(), Copy()
EXCHANGE, PIPELINE, REMAP, REDUCTION = Exchange(), Pipeline(), Remap(), Reduction()

#: The routines of DDT Table 3, chosen by reference pattern.
TABLE: tuple[TableRoutine, ...] = (SHIFT, COPY, ONE_TO_ALL, ALL_TO_ONE, ALL_TO_ALL)
#: Every routine by name.
ROUTINES: dict[str, Routine] = {r.name: r for r in TABLE + (EXCHANGE, PIPELINE, REMAP, REDUCTION)}


def classify(ref: Reference) -> TableRoutine:
    """DDT Table 3: the routine that moves what one reference needs along one
    template dimension (exactly one pattern matches)."""
    found = [r for r in TABLE if r.matches(ref)]
    if len(found) != 1:
        raise AssertionError(f"{len(found)} routines match {ref}: {[r.name for r in found]}")
    return found[0]
