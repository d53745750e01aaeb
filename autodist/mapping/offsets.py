"""Intra-dimensional alignment: the offset of every aligned dimension, by retiming.

After the inter-dimensional step (:mod:`.align`) every DAG node sits in one
template dimension.  For each template dimension, the affinity edges between
its nodes form a directed multigraph: an edge ``rhs -> lhs`` with offset ``w``
(``const(rhs subscript) - const(lhs subscript)``, see :mod:`.dag`).  A node's
*shift* ``r`` is its alignment offset (array index ``i`` lies at template index
``i + r``); an edge is aligned when ``r(lhs) - r(rhs) = w``.

DDT §3.3 (after Peir's statement alignment and Leiserson-Saxe retiming):

1. mark the template column's node (shift 0);
2. pick an unmarked node connected to a marked node (the first in DAG order),
   else the first unmarked node;
3. its shift ``S`` is the value voted by the most edges between it and marked
   nodes (each edge votes the shift that would align it, weighted by its
   pattern count); among tied values zero wins when it is one of them, else
   the smallest; a node with no such edge gets 0;
4. retime: subtract ``S`` from its incoming edges, add it to its outgoing
   edges; mark it; repeat.

The edges whose retimed weight is not zero, and those without an offset
(stride or reflection), stay non-aligned: those references need data movement
(a ``Shift`` of ``|residual|`` elements when the residual is known).  When the
graph of one template dimension is a forest (no cycle, directions ignored,
one edge per node pair), every edge ends aligned.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Mapping

from .align import Partition
from .dag import Affinity, Dag, Node, node_name


@dataclass(frozen=True)
class Misaligned:
    """An affinity edge left non-aligned inside one template dimension.

    ``residual`` is ``offset - (r(lhs) - r(rhs))``, the distance the reference
    is off (None when the edge has no offset: no shift can align it).
    """

    edge: Affinity
    tdim: int
    residual: int | None

    def describe(self) -> str:
        amount = "no shift aligns it" if self.residual is None else f"off by {self.residual}"
        return f"{node_name(self.edge.lhs)} <- {node_name(self.edge.rhs)}: {amount}"


@dataclass(frozen=True)
class Offsets:
    """Shifts of every node (``t = i + shift``) and the edges left non-aligned.

    ``order`` is the order in which nodes were marked (template nodes first in
    each template dimension), kept for reports and tests.
    """

    shifts: tuple[tuple[Node, int], ...]
    misaligned: tuple[Misaligned, ...]
    order: tuple[Node, ...]

    def __getitem__(self, node: Node) -> int:
        return dict(self.shifts)[node]

    @property
    def perfect(self) -> bool:
        return not self.misaligned


def choose_shift(votes: Mapping[int, float]) -> int:
    """DDT's Find_Shift on ``{candidate shift: votes}``: the most voted; among
    tied values zero when it is one of them, else the smallest; 0 without votes."""
    if not votes:
        return 0
    top = max(votes.values())
    tied = [s for s, v in votes.items() if v >= top - 1e-12 * max(1.0, abs(top))]
    return 0 if 0 in tied else min(tied)


def align_offsets(dag: Dag, partition: Partition) -> Offsets:
    """Shifts for every node of ``dag`` by retiming, one template dimension at a
    time (see the module docstring)."""
    classes = partition.as_dict()
    shifts: dict[Node, int] = {}
    misaligned: list[Misaligned] = []
    order: list[Node] = []
    template = partition.template
    width = 1 + max(classes.values(), default=-1)
    for tdim in range(width):
        members = [n for n in dag.nodes if classes[n] == tdim]
        edges = [
            a for a in dag.affinities if classes[a.lhs] == tdim and classes[a.rhs] == tdim
        ]
        dim_shifts, dim_order = _retime(members, edges, template)
        shifts.update(dim_shifts)
        order.extend(dim_order)
        for a in edges:
            if a.offset is None:
                misaligned.append(Misaligned(a, tdim, None))
            else:
                residual = a.offset - (dim_shifts[a.lhs] - dim_shifts[a.rhs])
                if residual:
                    misaligned.append(Misaligned(a, tdim, residual))
    return Offsets(
        shifts=tuple((n, shifts[n]) for n in dag.nodes),
        misaligned=tuple(misaligned),
        order=tuple(order),
    )


def _retime(
    members: list[Node], edges: list[Affinity], template: str | None
) -> tuple[dict[Node, int], list[Node]]:
    """Retiming on one template dimension's graph; returns shifts and marking order."""
    # Current (retimed) weight of each edge with an offset, by index.
    weight = {i: a.offset for i, a in enumerate(edges) if a.offset is not None}
    incident: dict[Node, list[int]] = defaultdict(list)
    for i in weight:
        a = edges[i]
        incident[a.lhs].append(i)
        incident[a.rhs].append(i)
    shifts: dict[Node, int] = {}
    order: list[Node] = []
    unmarked = list(members)

    def mark(node: Node, shift: int) -> None:
        for i in incident[node]:  # retime: -S on incoming (node is lhs), +S on outgoing
            if edges[i].lhs == node:
                weight[i] -= shift
            if edges[i].rhs == node:
                weight[i] += shift
        shifts[node] = shift
        order.append(node)
        unmarked.remove(node)

    first = next((n for n in unmarked if n[0] == template), None)
    if first is not None:
        mark(first, 0)
    while unmarked:
        node = next(
            (n for n in unmarked if any(_other(edges[i], n) in shifts for i in incident[n])),
            unmarked[0],
        )
        votes: dict[int, float] = defaultdict(float)
        for i in incident[node]:
            a = edges[i]
            if _other(a, node) not in shifts:
                continue
            # Incoming (node is lhs): S = w aligns it; outgoing: S = -w.
            votes[weight[i] if a.lhs == node else -weight[i]] += a.count
        mark(node, choose_shift(votes))
    return shifts, order


def _other(edge: Affinity, node: Node) -> Node:
    return edge.rhs if edge.lhs == node else edge.lhs


__all__ = ["Misaligned", "Offsets", "align_offsets", "choose_shift"]
