"""Inter-dimensional alignment: partition the DAG's nodes into template dimensions.

The problem (DDT §3.3, after Li and Chen): split the nodes of a
:class:`~autodist.mapping.dag.Dag` into ``n`` classes, ``n`` the size of its
largest column (the template's dimensions), never two nodes of one column in
one class, so that the total weight of edges between classes (the *cut*) is
least.  It is NP-complete; three solvers are here:

:func:`align_heuristic`
    DDT's greedy algorithm.  The template column is the first column of
    maximal size.  Repeatedly *Pick_Up_Column* takes the most critical
    remaining column (largest
    difference between the worst and the best alignment of its direct
    bipartite graph with the template), *Form_Bipartite_Graph* weighs each
    (template node, column node) pair by the **min-cut** between them in the
    current graph (the least weight to remove to separate them) -- or, as the
    option ``bipartite="paths"`` for comparison, by the sum over all simple
    paths between them of the path's weight (exponential: small graphs only)
    -- *Optimal_Alignment* solves the bipartite assignment exactly (among
    equally good assignments, the one aligning the most direct weight: min-cuts
    often tie when a node's cheapest cut is its own edges), and
    *Reduce_Graph* merges the column into the template (parallel edges summed,
    self-loops dropped, and -- beyond DDT -- edges that would join two template
    nodes dropped too: their weight is lost whatever comes next).
:func:`align_ilp`
    An exact 0-1 ILP (PuLP, solved by :func:`autodist.solvers.solve`), one
    model per independent part of the DAG (parts share no edge and no column).
:func:`align_exhaustive`
    Enumeration, for tiny graphs (tests).

:func:`align` is the default: the ILP when it proves optimality within the
time limit, else the better of the heuristic's answer and the ILP incumbent.

Classes are numbered by the template column: its dimension ``k`` is class ``k``
in every solver, so partitions from different solvers compare directly.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from itertools import permutations, product
from typing import Mapping, Sequence

import networkx as nx
import pulp

from ..errors import SolverError
from ..solvers import SolveResult, solve, variable
from .dag import Dag, Node, node_name

BIPARTITE_WEIGHTS = ("mincut", "paths")


@dataclass(frozen=True)
class Step:
    """One iteration of the heuristic: which column was aligned and why.

    ``criticality`` gives every candidate column's difference between worst and
    best direct alignment; ``weights[i][k]`` is the bipartite weight between
    dimension ``i`` of the column and template dimension ``k``; ``assignment[i]``
    the template dimension chosen for dimension ``i``.
    """

    column: str
    criticality: tuple[tuple[str, float], ...]
    weights: tuple[tuple[float, ...], ...]
    assignment: tuple[int, ...]


@dataclass(frozen=True)
class Partition:
    """Template dimension (class) of every DAG node, and the weight of the cut.

    ``template`` is the column whose dimension ``k`` is class ``k``; ``steps``
    records the heuristic's choices (empty for the exact solvers).
    """

    classes: tuple[tuple[Node, int], ...]
    cut: float
    template: str | None
    steps: tuple[Step, ...] = ()

    def __getitem__(self, node: Node) -> int:
        return self.as_dict()[node]

    def as_dict(self) -> dict[Node, int]:
        return dict(self.classes)

    def groups(self) -> tuple[tuple[Node, ...], ...]:
        """The nodes of each class, class 0 first."""
        width = 1 + max((k for _, k in self.classes), default=-1)
        return tuple(tuple(n for n, k in self.classes if k == c) for c in range(width))

    def describe(self) -> str:
        """``T1 D1 Z1 | T2 Z2`` style summary, one group per template dimension."""
        return " | ".join(" ".join(node_name(n) for n in g) for g in self.groups())


@dataclass(frozen=True)
class IlpAlignment:
    """What :func:`align_ilp` found: a partition (None without an incumbent) and
    the solver's report (status, bound, gap)."""

    partition: Partition | None
    solve: SolveResult

    @property
    def cut(self) -> float | None:
        return None if self.partition is None else self.partition.cut


@dataclass(frozen=True)
class AlignResult:
    """The default alignment and how it was obtained.

    ``method`` is "ilp" (proven optimal), "ilp-incumbent" (time limit, the ILP's
    incumbent beat the heuristic), "heuristic" (time limit, the heuristic was
    at least as good) or "trivial" (a template of at most one dimension: a
    single partition exists).  Both costs are kept so the heuristic's gap to the
    optimum is measured, not assumed.
    """

    partition: Partition
    method: str
    heuristic_cut: float
    ilp_cut: float | None
    ilp: SolveResult | None

    @property
    def optimal(self) -> bool:
        return self.method in ("ilp", "trivial")


# --------------------------------------------------------------------------- common


def template_column(dag: Dag) -> str | None:
    """DDT's Choose_Template_Column: the first column of maximal size (a caller
    that wants a particular template column lists it first)."""
    if not dag.columns:
        return None
    width = dag.width
    return next(a for a, r in dag.columns if r == width)


def _partition(dag: Dag, classes: Mapping[Node, int], template: str | None, steps=()) -> Partition:
    return Partition(
        classes=tuple((n, classes[n]) for n in dag.nodes),
        cut=dag.cut_weight(classes),
        template=template,
        steps=tuple(steps),
    )


def _trivial(dag: Dag) -> Partition:
    return _partition(dag, {n: 0 for n in dag.nodes}, template_column(dag))


# --------------------------------------------------------------------------- assignment


def best_assignment(
    weights: Sequence[Sequence[float]],
    maximize: bool = True,
    tiebreak: Sequence[Sequence[float]] | None = None,
) -> tuple[float, tuple[int, ...]]:
    """Exact assignment of rows to distinct columns (rows <= columns) maximizing
    (or minimizing) the sum of ``weights[i][assignment[i]]``.

    Among equal optima, the one with the largest sum of ``tiebreak`` weights
    wins, then the lexicographically smallest assignment.  Dynamic programming
    over subsets of used columns (fine up to ~15 columns; Fortran has 7).
    """
    rows = len(weights)
    cols = len(weights[0]) if rows else 0
    if rows > cols:
        raise ValueError("more rows than columns in an assignment problem")
    sign = 1.0 if maximize else -1.0
    second = tiebreak if tiebreak is not None else [[0.0] * cols for _ in range(rows)]
    memo: dict[tuple[int, int], tuple[float, float]] = {}

    def option(i: int, mask: int, k: int) -> tuple[float, float]:
        rest = value(i + 1, mask | (1 << k))
        return sign * weights[i][k] + rest[0], second[i][k] + rest[1]

    def value(i: int, mask: int) -> tuple[float, float]:
        """Best (primary, tiebreak) sums for rows i.. given the used columns."""
        if i == rows:
            return 0.0, 0.0
        if (i, mask) not in memo:
            best = None
            for k in range(cols):
                if not mask & (1 << k):
                    cand = option(i, mask, k)
                    if best is None or _better(cand, best):
                        best = cand
            memo[i, mask] = best
        return memo[i, mask]

    assignment, mask = [], 0
    for i in range(rows):
        target = value(i, mask)
        k = next(
            k for k in range(cols)
            if not mask & (1 << k) and all(map(_close, option(i, mask, k), target))
        )
        assignment.append(k)
        mask |= 1 << k
    return sign * value(0, 0)[0], tuple(assignment)


def _better(a: tuple[float, float], b: tuple[float, float]) -> bool:
    if not _close(a[0], b[0]):
        return a[0] > b[0]
    return a[1] > b[1] and not _close(a[1], b[1])


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


# --------------------------------------------------------------------------- heuristic


def criticality(graph: nx.Graph, template: Sequence[Node], column: Sequence[Node]) -> float:
    """DDT's measure for Pick_Up_Column: worst minus best alignment of the direct
    bipartite graph between ``column`` and ``template`` in ``graph`` (equal to
    the best minus the worst total weight of aligned edges)."""
    direct = _direct_weights(graph, template, column)
    best, _ = best_assignment(direct, maximize=True)
    worst, _ = best_assignment(direct, maximize=False)
    return best - worst


def _direct_weights(graph: nx.Graph, template: Sequence[Node], column: Sequence[Node]):
    return [
        [graph[x][t]["weight"] if graph.has_edge(x, t) else 0.0 for t in template]
        for x in column
    ]


def bipartite_weights(
    graph: nx.Graph, template: Sequence[Node], column: Sequence[Node], method: str = "mincut"
) -> tuple[tuple[float, ...], ...]:
    """Form_Bipartite_Graph: weight between each column node (rows) and each
    template node (columns) in the current ``graph``.

    "mincut": the minimum total weight of edges whose removal separates the two
    nodes (the least cost of not aligning them).  "paths": the sum, over all
    simple paths between them, of the weights of the path's edges.
    """
    if method not in BIPARTITE_WEIGHTS:
        raise ValueError(f"unknown bipartite weighting {method!r} (mincut or paths)")
    component = {n: i for i, c in enumerate(nx.connected_components(graph)) for n in c}
    weights = {u: {v: d["weight"] for v, d in nbrs.items()} for u, nbrs in graph.adj.items()}
    eps = _epsilon(weights)
    rows = []
    for x in column:
        row = []
        for t in template:
            if component[x] != component[t]:
                row.append(0.0)
            elif method == "mincut":
                row.append(min_cut(weights, x, t, eps))
            else:
                row.append(_path_sum(graph, t, x))
        rows.append(tuple(row))
    return tuple(rows)


def min_cut(
    weights: Mapping[Node, Mapping[Node, float]], s: Node, t: Node, eps: float | None = None
) -> float:
    """The value of a minimum s-t cut of an undirected graph given as
    ``{u: {v: weight}}`` (symmetric).

    Edmonds-Karp with the flow kept only on the arcs it touches: each search
    starts from ``s`` (the column node, usually of small degree) and the last
    one explores only the ``s`` side of the cut, so a call costs far less than
    the whole graph when the cut is local -- the common case here.  Residual
    capacities up to ``eps`` count as zero (default: 1e-12 of the largest weight).
    """
    if s == t:
        raise ValueError("min-cut between a node and itself")
    if eps is None:
        eps = _epsilon(weights)
    flow: dict[tuple[Node, Node], float] = {}
    total = 0.0
    while True:
        parent = {s: None}
        queue = deque([s])
        while queue and t not in parent:
            u = queue.popleft()
            for v, w in weights[u].items():
                if v not in parent and w - flow.get((u, v), 0.0) > eps:
                    parent[v] = u
                    queue.append(v)
        if t not in parent:
            return total
        path, v = [], t
        while parent[v] is not None:
            path.append((parent[v], v))
            v = parent[v]
        push = min(weights[u][v] - flow.get((u, v), 0.0) for u, v in path)
        for u, v in path:
            flow[u, v] = flow.get((u, v), 0.0) + push
            flow[v, u] = flow.get((v, u), 0.0) - push
        total += push


def _epsilon(weights: Mapping[Node, Mapping[Node, float]]) -> float:
    scale = max((w for nbrs in weights.values() for w in nbrs.values()), default=0.0)
    return 1e-12 * max(1.0, scale)


def _path_sum(graph: nx.Graph, s: Node, t: Node) -> float:
    total = 0.0
    for path in nx.all_simple_paths(graph, s, t):
        total += sum(graph[a][b]["weight"] for a, b in zip(path, path[1:]))
    return total


def align_heuristic(dag: Dag, bipartite: str = "mincut") -> Partition:
    """DDT's greedy DAG partitioning (see the module docstring).

    ``bipartite`` is "mincut" (DDT's improvement, the default) or "paths" (the
    original path sums, kept for comparison; exponential in the graph's size).
    """
    if bipartite not in BIPARTITE_WEIGHTS:
        raise ValueError(f"unknown bipartite weighting {bipartite!r} (mincut or paths)")
    if dag.width == 0:
        return _partition(dag, {}, None)
    graph = nx.Graph(dag.graph)  # the working copy that Reduce_Graph contracts
    template = template_column(dag)
    tnodes = dag.column(template)
    classes: dict[Node, int] = {t: k for k, t in enumerate(tnodes)}
    remaining = [a for a in dag.arrays if a != template]
    steps = []
    # (criticality, direct weight to the template) per column; a column's entry
    # changes only when a neighbouring column is merged into the template.
    rank: dict[str, tuple[float, float]] = {}
    while remaining:
        for a in remaining:
            if a not in rank:
                rank[a] = (criticality(graph, tnodes, dag.column(a)), _strength(graph, tnodes, dag.column(a)))
        chosen = max(range(len(remaining)), key=lambda i: (*rank[remaining[i]], -i))
        scores = tuple((a, rank[a][0]) for a in remaining)
        array = remaining.pop(chosen)
        column = dag.column(array)
        for x in column:
            for other in graph[x]:
                rank.pop(other[0], None)
        weights = bipartite_weights(graph, tnodes, column, bipartite)
        direct = _direct_weights(graph, tnodes, column)
        _, assignment = best_assignment(weights, maximize=True, tiebreak=direct)
        for x, k in zip(column, assignment):
            classes[x] = k
            _contract(graph, tnodes[k], x, tnodes)
        steps.append(Step(array, scores, weights, assignment))
    return _partition(dag, classes, template, steps)


def _strength(graph: nx.Graph, template: Sequence[Node], column: Sequence[Node]) -> float:
    return sum(sum(row) for row in _direct_weights(graph, template, column))


def _contract(graph: nx.Graph, keep: Node, gone: Node, template: Sequence[Node]) -> None:
    """Reduce_Graph for one node: move ``gone``'s edges onto ``keep``, summing
    parallel edges, dropping the self-loop and the edges that would join two
    template nodes (those are apart for good: their weight is lost whatever
    follows, and kept they would let later min-cuts route flow through them)."""
    for other, data in list(graph[gone].items()):
        if other == keep or other in template:
            continue
        if graph.has_edge(keep, other):
            graph[keep][other]["weight"] += data["weight"]
        else:
            graph.add_edge(keep, other, weight=data["weight"])
    graph.remove_node(gone)


# --------------------------------------------------------------------------- exact


def align_exhaustive(dag: Dag) -> Partition:
    """The optimal partition by enumeration of every column's injective maps into
    the template's dimensions (the template column fixed: labels are symmetric).
    Exponential: for tiny graphs and tests."""
    if dag.width <= 1:
        return _trivial(dag)
    n = dag.width
    template = template_column(dag)
    others = [a for a in dag.arrays if a != template]
    choices = [list(permutations(range(n), dag.rank(a))) for a in others]
    best: Partition | None = None
    for combo in product(*choices):
        classes = {t: k for k, t in enumerate(dag.column(template))}
        for array, assignment in zip(others, combo):
            classes.update(zip(dag.column(array), assignment))
        cut = dag.cut_weight(classes)
        if best is None or cut < best.cut - 1e-12:
            best = _partition(dag, classes, template)
    return best


def build_alignment_ilp(
    dag: Dag, width: int | None = None, anchor: str | None = None
) -> tuple[pulp.LpProblem, dict[tuple[Node, int], pulp.LpVariable]]:
    """The 0-1 model of the partition of ``dag`` into ``width`` classes (default:
    its own width).

    ``x[v,k]`` = node ``v`` in class ``k``; one class per node; at most one node
    of a column per class (exactly one when the column is as large as
    ``width``).  The ``anchor`` column (default: the template column) is fixed
    to classes ``0, 1, ...``: this breaks the symmetry of class labels.  An edge
    ``(t, v)`` at a fixed node costs ``w (1 - x[v, class(t)])``; any other edge
    ``(u, v)`` costs ``w/2 sum_k d[e,k]`` with ``d[e,k] >= |x[u,k] - x[v,k]|``
    (the multiway-cut relaxation of Calinescu, Karloff and Rabani, tighter than
    ``max_k`` for three classes or more; exact for 0-1 ``x``).  Returns the
    problem and the ``x`` variables (anchor nodes excluded: they are constants).
    """
    n = width if width is not None else dag.width
    template = anchor if anchor is not None else template_column(dag)
    fixed = {t: k for k, t in enumerate(dag.column(template))}
    prob = pulp.LpProblem("alignment", pulp.LpMinimize)
    x: dict[tuple[Node, int], pulp.LpVariable] = {}
    names = {a: f"a{i}" for i, a in enumerate(dag.arrays)}
    for array in dag.arrays:
        if array == template:
            continue
        for v in dag.column(array):
            for k in range(n):
                x[v, k] = variable(prob, f"x_{names[array]}_{v[1]}_{k}", binary=True)
    for array in dag.arrays:
        if array == template:
            continue
        column = dag.column(array)
        for v in column:
            prob.addConstraint(
                pulp.LpConstraint(pulp.LpAffineExpression([(x[v, k], 1) for k in range(n)]), 0, rhs=1),
                f"one_{names[array]}_{v[1]}",
            )
        sense = 0 if len(column) == n else -1
        for k in range(n):
            prob.addConstraint(
                pulp.LpConstraint(pulp.LpAffineExpression([(x[v, k], 1) for v in column]), sense, rhs=1),
                f"col_{names[array]}_{k}",
            )

    objective = []
    constant = 0.0
    for i, ((u, v), w) in enumerate(dag.weights.items()):
        if w <= 0:
            continue
        if u in fixed or v in fixed:  # never both: one column
            t, other = (u, v) if u in fixed else (v, u)
            # cut = 1 - x[other, class(t)]: a constant w and -w on x.
            objective.append((x[other, fixed[t]], -w))
            constant += w
            continue
        # cut = 1/2 sum_k |x[u,k] - x[v,k]| (the multiway-cut relaxation of
        # Calinescu, Karloff and Rabani: tighter than max_k for 3+ classes).
        for k in range(n):
            d = variable(prob, f"d_{i}_{k}", 0, 1)
            objective.append((d, w / 2))
            for a, b in ((u, v), (v, u)):
                expr = pulp.LpAffineExpression([(d, 1), (x[a, k], -1), (x[b, k], 1)])
                prob.addConstraint(pulp.LpConstraint(expr, 1, rhs=0), f"e_{i}_{k}_{a == u:d}")
    prob.setObjective(pulp.LpAffineExpression(objective, constant=constant))
    return prob, x


def independent_parts(dag: Dag) -> list[Dag]:
    """``dag`` split into parts that share no edge and no column: the alignment
    of each part is independent of the others (columns keep their order)."""
    union = nx.Graph()
    union.add_nodes_from(dag.arrays)
    union.add_edges_from((u[0], v[0]) for u, v in dag.weights)
    parts = []
    for arrays in nx.connected_components(union):
        parts.append(Dag(
            columns=tuple((a, r) for a, r in dag.columns if a in arrays),
            affinities=tuple(e for e in dag.affinities if e.lhs[0] in arrays),
            parallel=tuple(e for e in dag.parallel if e.a[0] in arrays),
            parallel_weight=dag.parallel_weight,
        ))
    order = {a: i for i, a in enumerate(dag.arrays)}
    parts.sort(key=lambda p: order[p.arrays[0]])
    return parts


def align_ilp(dag: Dag, time_limit: float, solver: str | None = None) -> IlpAlignment:
    """The exact 0-1 ILP of :func:`build_alignment_ilp`, solved within ``time_limit``
    seconds.

    The DAG is first split into :func:`independent_parts`; each part with
    edges is one ILP (its first largest column anchored, the template column in
    the template's part), solved with a fair share of the remaining time (what
    a part leaves unused passes on).  The report adds the parts up: optimal
    only when every part is; bound and objective are sums.  The partition's cut
    is recomputed on the DAG from the rounded assignment.
    """
    n = dag.width
    template = template_column(dag)
    if n <= 1:
        part = _trivial(dag)
        return IlpAlignment(part, SolveResult("none", "optimal", part.cut, part.cut, 0.0, 0.0,
                                              "trivial: at most one template dimension"))
    if not (time_limit > 0):
        raise SolverError(f"ILP time limit must be a positive number of seconds, got {time_limit!r}")
    parts = [p for p in independent_parts(dag) if p.weights]
    classes: dict[Node, int] = {v: v[1] for v in dag.nodes}  # columns without edges: identity
    deadline = time.perf_counter() + time_limit
    results = []
    for i, part in enumerate(parts):
        anchor = template if template in part.arrays else template_column(part)
        prob, x = build_alignment_ilp(part, n, anchor)
        share = max(deadline - time.perf_counter(), 0.0) / (len(parts) - i)
        result = solve(prob, max(share, 0.01), solver)
        results.append(result)
        if not result.has_solution:
            continue
        for v in part.nodes:
            if v[0] != anchor:
                classes[v] = max(range(n), key=lambda k: x[v, k].varValue or 0.0)
    report = _combine(results, len(parts))
    if not report.has_solution:
        return IlpAlignment(None, report)
    return IlpAlignment(_partition(dag, classes, template), report)


def _combine(results: list[SolveResult], parts: int) -> SolveResult:
    """One report for independent parts solved one after the other."""
    if not results:
        return SolveResult("none", "optimal", 0.0, 0.0, 0.0, 0.0, "no edge: nothing to optimize")
    if len(results) == 1:
        return results[0]
    statuses = {r.status for r in results}
    for bad in ("error", "infeasible", "unbounded", "no_solution"):
        if bad in statuses:
            status = bad
            break
    else:
        status = "optimal" if statuses == {"optimal"} else "feasible"
    objective = bound = gap = None
    if status in ("optimal", "feasible"):
        objective = sum(r.objective for r in results)
        if all(r.bound is not None for r in results):
            bound = sum(r.bound for r in results)
            gap = 0.0 if status == "optimal" else (
                abs(objective - bound) / max(abs(objective), 1e-10) if objective != bound else 0.0)
    return SolveResult(results[0].solver, status, objective, bound, gap,
                       sum(r.seconds for r in results), f"{parts} independent parts")


def align(dag: Dag, time_limit: float = 10.0, solver: str | None = None) -> AlignResult:
    """The default alignment: the ILP's answer when it proves optimality within
    ``time_limit`` seconds, else the better of the heuristic (min-cut) and the
    ILP's incumbent; both costs are reported (:class:`AlignResult`)."""
    heuristic = align_heuristic(dag)
    if dag.width <= 1:
        return AlignResult(heuristic, "trivial", heuristic.cut, heuristic.cut, None)
    ilp = align_ilp(dag, time_limit, solver)
    if ilp.partition is not None and ilp.solve.optimal:
        return AlignResult(ilp.partition, "ilp", heuristic.cut, ilp.cut, ilp.solve)
    if ilp.partition is not None and ilp.cut < heuristic.cut - 1e-9 * max(1.0, abs(heuristic.cut)):
        return AlignResult(ilp.partition, "ilp-incumbent", heuristic.cut, ilp.cut, ilp.solve)
    return AlignResult(heuristic, "heuristic", heuristic.cut, ilp.cut, ilp.solve)


__all__ = [
    "AlignResult",
    "IlpAlignment",
    "Partition",
    "Step",
    "align",
    "align_exhaustive",
    "align_heuristic",
    "align_ilp",
    "best_assignment",
    "bipartite_weights",
    "build_alignment_ilp",
    "criticality",
    "independent_parts",
    "min_cut",
    "template_column",
]
