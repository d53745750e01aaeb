"""The Dimension Alignment Graph (DAG) of DDT §3.1–3.2.

Nodes are array dimensions ``(array, dim)`` (``dim`` 0-based, as in
:mod:`autodist.layout.model`), grouped in *columns*, one column per array.
Edges record preferences to align two dimensions:

Affinity edges (:class:`Affinity`)
    From a cross reference pattern ``A(i1, ..., in) = ... B(j1, ..., jm) ...``
    (``A`` on the left, ``B`` on the right, ``A != B``; self-reference patterns
    are not recorded): dimension ``A_p`` is *affine* with ``B_q`` when ``i_p``
    and ``j_q`` are both linear functions of the same loop variable and of no
    other loop variable.  Two edges of one pattern that meet at one node are
    *competing* (``A(I,I) = B(I)``: ``B_1`` cannot follow both ``A_1`` and
    ``A_2``).  Each edge carries its inter-dimensional weight (``competing`` or
    ``noncompeting`` times the pattern's ``weight``) and, kept apart for the
    intra-dimensional step, its *offset*: ``const(j_q) - const(i_p)`` when both
    subscripts have the same coefficient (``A(I) = B(I-1)`` gives -1; the
    offsets ``o`` of ``t = i + o`` then align the reference when
    ``o_A - o_B = offset``), None otherwise (stride or reflection: no shift
    aligns it).  Several edges between one pair of nodes are never merged.

Parallelization edges (:class:`ParallelEdge`)
    For a loop that may run in parallel, the dimensions of left-hand-side
    arrays subscripted by its variable are linked pairwise with a weight large
    enough that the partitioning aligns them: by default one more than the sum
    of all affinity weights, so that cutting one of them costs more than
    cutting every affinity edge.

Build a DAG with :class:`DagBuilder` (one call per reference pattern and per
parallel loop), then :meth:`DagBuilder.build` returns the frozen :class:`Dag`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Collection, Iterable, Mapping

import networkx as nx

from ..ir import Affine

Node = tuple[str, int]
"""An array dimension: (array name, 0-based dimension)."""


def node_name(node: Node) -> str:
    """``("D", 0)`` -> ``"D1"`` (1-based, as the DDT paper writes dimensions)."""
    return f"{node[0]}{node[1] + 1}"


@dataclass(frozen=True)
class Affinity:
    """One affinity edge from a reference pattern: ``rhs`` is read where ``lhs`` is written.

    ``weight`` is the inter-dimensional weight; ``count`` the pattern's weight
    (how many times the pattern counts when offsets are voted on); ``offset``
    is ``const(rhs subscript) - const(lhs subscript)`` or None when no shift
    can align the two (different coefficients or a symbolic difference).
    """

    lhs: Node
    rhs: Node
    var: str
    weight: float
    count: float
    offset: int | None
    competing: bool
    pattern: int


@dataclass(frozen=True)
class ParallelEdge:
    """Two left-hand-side dimensions subscripted by the variable of a parallel loop."""

    a: Node
    b: Node
    var: str


@dataclass(frozen=True)
class Dag:
    """A frozen Dimension Alignment Graph; see the module docstring.

    ``columns`` lists ``(array, rank)`` in the order arrays were first seen.
    """

    columns: tuple[tuple[str, int], ...]
    affinities: tuple[Affinity, ...] = ()
    parallel: tuple[ParallelEdge, ...] = ()
    parallel_weight: float = 1.0

    def __post_init__(self) -> None:
        ranks = dict(self.columns)
        if len(ranks) != len(self.columns):
            raise ValueError("an array appears twice in the DAG's columns")
        for a in self.affinities:
            for node in (a.lhs, a.rhs):
                _check_node(node, ranks)
            if a.lhs[0] == a.rhs[0]:
                raise ValueError(f"affinity edge inside one column: {node_name(a.lhs)}")
        for p in self.parallel:
            for node in (p.a, p.b):
                _check_node(node, ranks)

    # ---------------------------------------------------------------- nodes

    @property
    def width(self) -> int:
        """Dimensions of the template: the size of the largest column (0 when empty)."""
        return max((r for _, r in self.columns), default=0)

    @property
    def arrays(self) -> tuple[str, ...]:
        return tuple(a for a, _ in self.columns)

    def rank(self, array: str) -> int:
        return self._ranks[array]

    def column(self, array: str) -> tuple[Node, ...]:
        return tuple((array, d) for d in range(self._ranks[array]))

    @property
    def nodes(self) -> tuple[Node, ...]:
        return tuple((a, d) for a, r in self.columns for d in range(r))

    @cached_property
    def _ranks(self) -> dict[str, int]:
        return dict(self.columns)

    # ---------------------------------------------------------------- edges

    @cached_property
    def weights(self) -> Mapping[tuple[Node, Node], float]:
        """Inter-dimensional weight per node pair ``(u, v)`` with ``u < v``:
        affinity weights and parallelization weights summed (DDT's merged edges)."""
        acc: dict[tuple[Node, Node], float] = defaultdict(float)
        for a in self.affinities:
            acc[_pair(a.lhs, a.rhs)] += a.weight
        for p in self.parallel:
            acc[_pair(p.a, p.b)] += self.parallel_weight
        return dict(acc)

    @cached_property
    def graph(self) -> nx.Graph:
        """An undirected, frozen networkx graph of :attr:`weights` (attribute ``weight``);
        every node is present, each with its ``array`` and ``dim``."""
        g = nx.Graph()
        for node in self.nodes:
            g.add_node(node, array=node[0], dim=node[1])
        for (u, v), w in self.weights.items():
            g.add_edge(u, v, weight=w)
        return nx.freeze(g)

    def offset_graph(self, nodes: Collection[Node] | None = None) -> nx.MultiDiGraph:
        """A directed multigraph of affinity edges ``rhs -> lhs`` with attributes
        ``offset`` and ``count`` (one edge per :class:`Affinity`, never merged),
        restricted to ``nodes`` when given."""
        keep = set(self.nodes if nodes is None else nodes)
        g = nx.MultiDiGraph()
        g.add_nodes_from(n for n in self.nodes if n in keep)
        for i, a in enumerate(self.affinities):
            if a.lhs in keep and a.rhs in keep:
                g.add_edge(a.rhs, a.lhs, key=i, offset=a.offset, count=a.count, affinity=a)
        return nx.freeze(g)

    def cut_weight(self, classes: Mapping[Node, int]) -> float:
        """Total weight of the edges whose ends fall in different classes."""
        return sum(w for (u, v), w in self.weights.items() if classes[u] != classes[v])


def _pair(u: Node, v: Node) -> tuple[Node, Node]:
    return (u, v) if u <= v else (v, u)


def _check_node(node: Node, ranks: Mapping[str, int]) -> None:
    array, dim = node
    if array not in ranks:
        raise ValueError(f"edge on array {array} which has no column")
    if not 0 <= dim < ranks[array]:
        raise ValueError(f"dimension {dim} out of range for {array} of rank {ranks[array]}")


# --------------------------------------------------------------------------- building


def loop_variable(subscript: Affine, loop_vars: Collection[str] | None) -> str | None:
    """The single loop variable a subscript is a linear function of, or None.

    With ``loop_vars`` None every variable of the affine form counts as a loop
    variable; otherwise other names are symbolic constants.
    """
    found = [v for v in subscript.vars if loop_vars is None or v in loop_vars]
    return found[0] if len(found) == 1 else None


def subscript_offset(lhs: Affine, rhs: Affine, var: str) -> int | None:
    """``const(rhs) - const(lhs)`` when both have the same coefficient on ``var``
    and differ by an integer constant; None otherwise."""
    if lhs.coef(var) != rhs.coef(var):
        return None
    diff = rhs - lhs
    return diff.const if diff.is_const else None


@dataclass
class DagBuilder:
    """Collects reference patterns and parallel loops, then :meth:`build` a :class:`Dag`.

    ``competing`` and ``noncompeting`` are the inter-dimensional weights of the
    two kinds of affinity edges (per unit of pattern weight).  ``parallel_weight``
    fixes the weight of parallelization edges; None (the default) makes it one
    more than the sum of all affinity weights at :meth:`build` time.

    A builder is a local accumulator: use one per phase, call :meth:`build` once.
    """

    competing: float = 2.0
    noncompeting: float = 1.0
    parallel_weight: float | None = None
    _ranks: dict[str, int] = field(default_factory=dict, repr=False)
    _affinities: list[Affinity] = field(default_factory=list, repr=False)
    _parallel: list[ParallelEdge] = field(default_factory=list, repr=False)
    _patterns: int = field(default=0, repr=False)

    def add_array(self, array: str, rank: int) -> None:
        """Declare a column (also done implicitly by the other calls)."""
        if rank < 0:
            raise ValueError(f"negative rank for {array}")
        known = self._ranks.setdefault(array, rank)
        if known != rank:
            raise ValueError(f"array {array} used with rank {rank} and {known}")

    def add_pattern(
        self,
        lhs_array: str,
        lhs_subs: Iterable[Affine | None],
        rhs_array: str,
        rhs_subs: Iterable[Affine | None],
        weight: float = 1.0,
        loop_vars: Collection[str] | None = None,
    ) -> tuple[Affinity, ...]:
        """Record the reference pattern ``lhs_array(lhs_subs) = ... rhs_array(rhs_subs)``.

        A subscript None is not affine (it makes no edge).  ``weight`` scales the
        pattern (e.g. how many times it occurs).  ``loop_vars`` names the loop
        variables in scope (other names are symbolic constants); None treats
        every name as a loop variable.  Returns the edges added (none for a
        self-reference pattern).
        """
        lhs_subs, rhs_subs = tuple(lhs_subs), tuple(rhs_subs)
        self.add_array(lhs_array, len(lhs_subs))
        self.add_array(rhs_array, len(rhs_subs))
        if weight < 0:
            raise ValueError("pattern weight must not be negative")
        pattern = self._patterns
        self._patterns += 1
        if lhs_array == rhs_array:
            return ()
        lvars = [None if s is None else loop_variable(s, loop_vars) for s in lhs_subs]
        rvars = [None if s is None else loop_variable(s, loop_vars) for s in rhs_subs]
        pairs = [
            (p, q, lv)
            for p, lv in enumerate(lvars)
            if lv is not None
            for q, rv in enumerate(rvars)
            if rv == lv
        ]
        degree: dict[Node, int] = defaultdict(int)
        for p, q, _ in pairs:
            degree[(lhs_array, p)] += 1
            degree[(rhs_array, q)] += 1
        added = []
        for p, q, var in pairs:
            lhs, rhs = (lhs_array, p), (rhs_array, q)
            competing = degree[lhs] > 1 or degree[rhs] > 1
            edge = Affinity(
                lhs=lhs,
                rhs=rhs,
                var=var,
                weight=weight * (self.competing if competing else self.noncompeting),
                count=weight,
                offset=subscript_offset(lhs_subs[p], rhs_subs[q], var),
                competing=competing,
                pattern=pattern,
            )
            added.append(edge)
        self._affinities.extend(added)
        return tuple(added)

    def add_edge(
        self,
        lhs: Node,
        rhs: Node,
        weight: float = 1.0,
        offset: int | None = 0,
        var: str = "",
    ) -> Affinity:
        """One affinity edge given directly, weighed by the caller (abstract DAGs in
        tests and benchmarks, or a caller with its own weighting).  Both columns
        must be declared with :meth:`add_array`."""
        for array, dim in (lhs, rhs):
            if array not in self._ranks or not 0 <= dim < self._ranks[array]:
                raise ValueError(f"edge on unknown dimension {array}{dim + 1}")
        if lhs[0] == rhs[0]:
            raise ValueError(f"edge inside one column: {node_name(lhs)}-{node_name(rhs)}")
        if weight < 0:
            raise ValueError("edge weight must not be negative")
        edge = Affinity(lhs, rhs, var, weight, weight, offset, False, self._patterns)
        self._patterns += 1
        self._affinities.append(edge)
        return edge

    def add_parallel(self, loop_var: str, dims: Iterable[Node]) -> tuple[ParallelEdge, ...]:
        """Link pairwise the left-hand-side dimensions ``dims`` subscripted by the
        variable of a loop that may run in parallel.  Two dimensions of one array
        cannot be aligned and are not linked."""
        dims = list(dict.fromkeys(dims))
        for array, dim in dims:
            if array not in self._ranks:
                raise ValueError(f"parallel loop {loop_var} names undeclared array {array}")
            if not 0 <= dim < self._ranks[array]:
                raise ValueError(f"dimension {dim} out of range for {array}")
        added = tuple(
            ParallelEdge(a, b, loop_var)
            for i, a in enumerate(dims)
            for b in dims[i + 1:]
            if a[0] != b[0]
        )
        self._parallel.extend(added)
        return added

    def build(self) -> Dag:
        weight = self.parallel_weight
        if weight is None:
            weight = 1.0 + sum(a.weight for a in self._affinities)
        return Dag(
            columns=tuple(self._ranks.items()),
            affinities=tuple(self._affinities),
            parallel=tuple(self._parallel),
            parallel_weight=weight,
        )
