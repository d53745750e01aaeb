"""Candidate mappings: alignment into templates, then distributions of them.

1. The Dimension Alignment Graph over global arrays (:mod:`.dag`) collects the
   cross reference patterns of the phases (and parallelization edges for the
   loops that may run in parallel); it is partitioned into template
   dimensions (:func:`.align.align`: the exact ILP when it proves optimality in
   time, else DDT's min-cut heuristic) and offsets are chosen by retiming
   (:mod:`.offsets`).  Each connected group of arrays gets one template,
   split where only copies tie its arrays (``UZ(I,J,K) = U(I,J,K)``): the
   parts are templates of one *family*, with the group's bounds, so that a
   static mapping may distribute a copy otherwise than its original (the copy
   is then a transpose, as HPF codes write their sweeps) or all of them alike
   (then they are written as the one template).
2. Distributions of a template: which template dimensions are distributed (at
   most ``max_distributed_dims``), how many processors each (every ordered
   factorization of P), and the format of each (from the profile's
   ``distributions``, each name's candidates from its format type in
   :mod:`autodist.layout.formats`; ``CYCLIC(k)`` only where a loop over that
   dimension has a triangular iteration space).  The distributions over fewer
   processors than P (a divisor of P, or of a dimension's extent),
   which leave processors idle, are asked for apart
   (``spare=True``): the static search tries them after the others and keeps
   one only where it is cheaper (see :mod:`.static`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from ..analysis.model import Phase, ProgramAnalysis
from ..layout.formats import candidate_formats
from ..layout.grids import factorizations
from ..layout.model import Axis, Format, Layout, Replicated, REPLICATED
from ..machine import MachineProfile
from .align import AlignResult, align
from .arrays import ArrayTable
from .dag import DagBuilder
from .offsets import Offsets, align_offsets


@dataclass(frozen=True)
class TemplateGroup:
    """Arrays aligned to one template: the template's bounds and each array's
    alignment targets (one per template dimension)."""

    name: str
    bounds: tuple[tuple[int, int], ...]
    members: tuple[tuple[str, tuple[object, ...]], ...]  # (global id, targets)
    triangular: tuple[int, ...] = ()  # template dims walked by triangular loops
    #: the first template of the connected group this one was split from (only
    #: copies tie them: ``B(I) = A(I)``), "" when not split; templates of one
    #: family share their bounds and dimensions, so one distribution fits all
    family: str = ""

    def layout(self, array: str, formats: tuple[Format, ...], grid: tuple[int, ...],
               bounds: tuple[tuple[int, int], ...], procs_name: str = "P", name: str = "") -> Layout:
        targets = dict(self.members)[array]
        return Layout(bounds, self.bounds, tuple(targets), formats, grid,
                      template_name=name or self.name, procs_name=procs_name)


@dataclass(frozen=True)
class Alignment:
    """The result of the alignment step for a whole program."""

    groups: tuple[TemplateGroup, ...]
    result: AlignResult | None
    offsets: Offsets | None
    replicated: tuple[tuple[str, str], ...]  # (array, reason)


def _phases(an: ProgramAnalysis):
    for proc in an.procedures:
        for ph in proc.phases:
            yield proc, ph


def private_everywhere(an: ProgramAnalysis, table: ArrayTable) -> set[str]:
    """Global arrays that every loop phase using them treats as a private work
    array (a phase of a procedure that runs only inside loops privatizing the
    array, through calls, counts as treating it so)."""
    used: dict[str, bool] = {}
    inside = _runs_inside_private(an, table)
    for proc, ph in _phases(an):
        if ph.kind != "loop":
            continue
        private = set(ph.private_arrays)
        for name in ph.arrays:
            g = table.global_id(proc.name, name)
            if g is not None:
                used[g] = used.get(g, True) and (name in private or g in inside.get(proc.name, ()))
    return {g for g, p in used.items() if p}


def _runs_inside_private(an: ProgramAnalysis, table: ArrayTable) -> dict[str, set[str]]:
    """Procedure -> the global arrays private to a parallel loop around every
    call of it (directly, or around every call of each of its callers).  A
    serial loop's private arrays do not count: its iterations run in order on
    every processor, so the callee's loops still share the array's work."""
    from .. import ir

    loops: dict[str, list] = {}
    for proc, ph in _phases(an):
        for lp in ph.loops:
            if lp.parallel and lp.private_arrays:
                loops.setdefault(proc.name, []).append(lp)
    sites: dict[str, list[tuple[str, set[str]]]] = {}  # callee -> (caller, globals private around the site)
    for u in an.program.units:
        for s in u.statements():
            names = ([s.name] if isinstance(s, ir.Call) else []) + [f.name for f in ir.external_calls(s)]
            around: set[str] = set()
            for lp in loops.get(u.name, ()):
                if lp.line <= s.span.first <= lp.last_line and (lp.do is None or lp.do.span.file == s.span.file):
                    around |= {g for a in lp.private_arrays if (g := table.global_id(u.name, a)) is not None}
            for n in names:
                sites.setdefault(n, []).append((u.name, around))
    out: dict[str, set[str]] = {}
    for name in reversed(an.bottom_up):  # callers first
        calls = sites.get(name)
        if not calls:
            continue
        common = None
        for caller, around in calls:
            here = around | out.get(caller, set())
            common = here if common is None else common & here
        if common:
            out[name] = common
    return out


#: Weight of a competing affinity edge (two edges of one reference pattern on one
#: node: only one can be aligned).  DDT §3.1 after Li and Chen: "epsilon if it is
#: competing and 1 if not".
COMPETING_WEIGHT = 0.1


def _affinities(an: ProgramAnalysis, table: ArrayTable, exclude: set[str]):
    """What the DAG is built from, phase by phase: ("pattern", lhs, lhs
    subscripts, rhs, rhs subscripts, pattern) for each array read of a
    reference pattern, ("parallel", loop variable, [(array, dim)]) for each
    parallel loop writing more than one array."""
    for proc, ph in _phases(an):
        if ph.kind != "loop":
            continue
        unit = proc.name

        def gid(local: str) -> str | None:
            g = table.global_id(unit, local)
            return g if g is not None and table.array(g).distributable and g not in exclude else None

        for pat in ph.patterns:
            if pat.lhs is None:
                continue
            lg = gid(pat.lhs.array)
            if lg is None:
                continue
            for r in pat.rhs:
                rg = gid(r.array)
                if rg is None or len(r.subscripts) != table.array(rg).rank or len(pat.lhs.subscripts) != table.array(lg).rank:
                    continue
                yield ("pattern", lg, pat.lhs.subscripts, rg, r.subscripts, pat)
        for lp in ph.loops:
            if not lp.parallel:
                continue
            dims = []
            for pat in ph.patterns:
                if pat.lhs is None or lp.line not in pat.loop_lines:
                    continue
                lg = gid(pat.lhs.array)
                if lg is None or len(pat.lhs.subscripts) != table.array(lg).rank:
                    continue
                for d, s in enumerate(pat.lhs.subscripts):
                    if s is not None and s.vars == (lp.var,):
                        dims.append((lg, d))
            if len({a for a, _ in dims}) > 1:
                yield ("parallel", lp.var, dims)


def build_dag(an: ProgramAnalysis, table: ArrayTable, exclude: set[str] = frozenset()):
    """The DAG over distributable global arrays of the whole program."""
    b = DagBuilder(competing=COMPETING_WEIGHT, noncompeting=1.0)
    for a in table.arrays:
        if a.distributable and a.id not in exclude:
            b.add_array(a.id, a.rank)
    for item in _affinities(an, table, exclude):
        if item[0] == "pattern":
            _, lg, lsubs, rg, rsubs, pat = item
            b.add_pattern(lg, lsubs, rg, rsubs, 1.0, loop_vars=set(pat.loops))
        else:
            b.add_parallel(item[1], item[2])
    return b.build()


def is_copy(pat) -> bool:
    """An assignment that only copies one array's element into another's
    (``RHSZ(M,I,J,K) = RHS(M,I,J,K)``): no arithmetic, one read."""
    return pat.lhs is not None and pat.flops == 0 and len(pat.rhs) == 1 and pat.reduction is None


def computed_together(an: ProgramAnalysis, table: ArrayTable, exclude: set[str]) -> set[frozenset[str]]:
    """Pairs of arrays tied by more than a copy: one computed from the other,
    or both written by one parallel loop."""
    out: set[frozenset[str]] = set()
    for item in _affinities(an, table, exclude):
        if item[0] == "pattern":
            _, lg, _, rg, _, pat = item
            if not is_copy(pat):
                out.add(frozenset((lg, rg)))
        else:
            arrays = sorted({a for a, _ in item[2]})
            out.update(frozenset((a, b)) for a, b in itertools.combinations(arrays, 2))
    return out


def _triangular_dims(an: ProgramAnalysis, table: ArrayTable, classes: dict) -> set[tuple[str, int]]:
    """(array, dim) subscripted by the variable of a loop whose bounds depend on
    an outer loop variable (or that bounds an inner loop): load imbalance under BLOCK."""
    out = set()
    for proc, ph in _phases(an):
        loops = {lp.line: lp for lp in ph.loops}
        tri_vars = set()
        for lp in ph.loops:
            if lp.do is None:
                continue
            names = {x.name for e in (lp.do.start, lp.do.end) for x in e.walk() if hasattr(x, "name")}
            outer = set()
            p = lp.parent
            while p is not None and p in loops:
                outer.add(loops[p].var)
                p = loops[p].parent
            if names & outer:
                tri_vars.add(lp.var)
                tri_vars |= names & outer
        for pat in ph.patterns:
            if pat.lhs is None:
                continue
            g = table.global_id(proc.name, pat.lhs.array)
            if g is None:
                continue
            for d, s in enumerate(pat.lhs.subscripts):
                if s is not None and set(s.vars) & tri_vars:
                    out.add((g, d))
    return out


def align_program(an: ProgramAnalysis, table: ArrayTable, time_limit: float) -> Alignment:
    """Alignment of every distributable global array into templates."""
    private = private_everywhere(an, table)
    dag = build_dag(an, table, private)
    work = "private work array of the loops that use it"
    replicated = tuple((a.id, f"{a.replicate_reason}; {work}" if a.id in private else a.replicate_reason)
                       for a in table.arrays if not a.distributable)
    listed = {g for g, _ in replicated}
    replicated += tuple((g, work) for g in sorted(private) if g not in listed)
    if not dag.nodes:
        return Alignment((), None, None, replicated)  # type: ignore[arg-type]
    result = align(dag, time_limit=time_limit)
    offsets = align_offsets(dag, result.partition)
    classes = result.partition.as_dict()
    shifts = dict(offsets.shifts)
    tri = _triangular_dims(an, table, classes)
    # connected groups of arrays (by affinity or parallel edges), each split
    # where only copies tie its arrays (a copy between templates is a remap)
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(dag.arrays)
    g.add_edges_from((u[0], v[0]) for u, v in dag.weights)
    together = computed_together(an, table, private)
    order = dag.arrays.index
    comps = sorted((sorted(c, key=order) for c in nx.connected_components(g)), key=lambda c: order(c[0]))
    templates: list[list[TemplateGroup]] = []  # per connected group, its parts
    for comp in comps:
        width = max(table.array(a).rank for a in comp)
        # template dims actually used, renumbered densely in class order
        used = sorted({classes[(a, d)] for a in comp for d in range(table.array(a).rank)})
        if len(used) < width:
            used = list(range(width))
        tindex = {c: i for i, c in enumerate(used)}
        lo = [None] * len(used)
        hi = [None] * len(used)
        targets_of = {}
        tri_t = set()
        for a in comp:
            arr = table.array(a)
            targets: list[object] = [REPLICATED] * len(used)
            for d in range(arr.rank):
                t = tindex[classes[(a, d)]]
                s = shifts.get((a, d), 0)
                targets[t] = Axis(d, 1, s)
                blo, bhi = arr.bounds[d]
                lo[t] = blo + s if lo[t] is None else min(lo[t], blo + s)
                hi[t] = bhi + s if hi[t] is None else max(hi[t], bhi + s)
                if (a, d) in tri:
                    tri_t.add(t)
            targets_of[a] = tuple(targets)
        bounds = tuple((l if l is not None else 1, h if h is not None else 1) for l, h in zip(lo, hi))
        core = nx.Graph()
        core.add_nodes_from(comp)
        core.add_edges_from(tuple(pair) for pair in together if len(pair) == 2 and pair <= set(comp))
        parts = sorted((sorted(c, key=order) for c in nx.connected_components(core)), key=lambda c: order(c[0]))
        # the group's name ("T", "T3"), its parts after the first "T_2", "T3_2"
        name = "T" if len(comps) == 1 else f"T{len(templates) + 1}"
        family = name if len(parts) > 1 else ""
        templates.append([TemplateGroup(name if j == 0 else f"{name}_{j + 1}", bounds,
                                        tuple((a, targets_of[a]) for a in part), tuple(sorted(tri_t)), family)
                          for j, part in enumerate(parts)])
    groups = [g for parts in templates for g in parts]
    return Alignment(tuple(groups), result, offsets, replicated)


# --------------------------------------------------------------------------- distributions


@dataclass(frozen=True)
class Distribution:
    """Formats of every template dimension and the processor grid."""

    formats: tuple[Format, ...]
    grid: tuple[int, ...]
    #: over a smaller divisor of P by choice, the other processors idle
    spare: bool = False

    def text(self) -> str:
        """``(BLOCK,*)``; a spare one says its grid: ``(BLOCK,*) on 4``, ``(BLOCK,BLOCK) on 2x2``."""
        out = "(" + ",".join(str(f) for f in self.formats) + ")"
        return out + " on " + "x".join(map(str, self.grid)) if self.spare else out


def distributions(group: TemplateGroup, machine: MachineProfile, nprocs: int,
                  spare: bool = False) -> list[Distribution]:
    """Every distribution of the group's template worth evaluating on
    ``nprocs``; with ``spare``, instead, the BLOCK ones over fewer processors
    (:func:`_spare_counts`) whose grids are not among them (a 12-point
    dimension on 16 processors: over 8, 6, 4, 3 and 2; not over 12, which the
    others hold)."""
    width = len(group.bounds)
    extents = [hi - lo + 1 for lo, hi in group.bounds]
    collapsed = Format("*")
    if nprocs == 1:
        return [] if spare else [Distribution(tuple(collapsed for _ in range(width)), ())]
    out: dict[Distribution, None] = {}
    for k in range(1, min(machine.max_distributed_dims, width) + 1):
        for dims in itertools.combinations(range(width), k):
            shape = [extents[d] for d in dims]
            grids = _grids(nprocs, k, shape)
            if spare:
                grids = [g for d in _spare_counts(nprocs, shape) for g in _grids(d, k, shape) if g not in grids]
            for grid in dict.fromkeys(grids):
                options = [_distinct(candidate_formats(machine.distributions, extents[d], g, d in group.triangular),
                                     extents[d], g)
                           for d, g in zip(dims, grid)]
                if spare:  # fewer processors pay where each one's overheads dominate: in equal blocks
                    options = [[f for f in fs if f.kind == "BLOCK"] for fs in options]
                for fmts in itertools.product(*options):
                    formats = [collapsed] * width
                    for d, f in zip(dims, fmts):
                        formats[d] = f
                    out[Distribution(tuple(formats), grid, spare)] = None
    if not spare:
        # the template replicated: every processor holds its arrays whole (the
        # answer for tables every processor reads; last, so that searches start
        # from a distribution)
        out[Distribution(tuple(collapsed for _ in range(width)), ())] = None
    return list(out)


def _distinct(formats: list[Format], extent: int, procs: int) -> list[Format]:
    """``formats`` without CYCLIC where it deals the cells as BLOCK does (no
    more cells than processors: one cell each, in order), when BLOCK is tried."""
    if extent <= procs and Format("BLOCK") in formats:
        return [f for f in formats if f != Format("CYCLIC")]
    return formats


def _grids(nprocs: int, k: int, extents: list[int]) -> list[tuple[int, ...]]:
    """Processor grids for ``k`` distributed template dimensions of these
    extents: the factorizations of ``nprocs``, each factor at most its
    dimension's extent (a 12-point dimension on 16 processors uses 12 of them,
    the others idle: more processors never leave a dimension without a
    distribution); a factor that drops to 1 is a collapsed dimension, left to
    smaller ``k``."""
    out: dict[tuple[int, ...], None] = {}
    for grid in factorizations(nprocs, k, least=2):
        fitted = tuple(min(g, e) for g, e in zip(grid, extents))
        if all(g >= 2 for g in fitted):
            out[fitted] = None
    return list(out)


def _divisors(n: int) -> list[int]:
    """The divisors of ``n`` above 1, largest first."""
    return [d for d in range(n, 1, -1) if n % d == 0]


def _spare_counts(nprocs: int, extents: list[int]) -> list[int]:
    """Processor counts below ``nprocs`` worth a grid: its divisors (16: 8, 4,
    2), and the divisors of the dimensions' extents, which deal them in equal
    blocks (a 12-point dimension on 7 or 13 processors: 6, 4, 3, 2, where a
    prime count has no divisor to fall back on); largest first."""
    counts = set(_divisors(nprocs)[1:])
    for e in extents:
        counts.update(_divisors(e))
    return sorted((c for c in counts if c < nprocs), reverse=True)


def group_layouts(group: TemplateGroup, dist: Distribution, table: ArrayTable, name: str = "") -> dict[str, Layout]:
    """The layouts of the group's arrays, their template named ``name`` (else the group's)."""
    return {a: group.layout(a, dist.formats, dist.grid, table.array(a).bounds, name=name) for a, _ in group.members}


def phase_arrays(proc_name: str, ph: Phase, table: ArrayTable) -> dict[str, str]:
    """Local name -> global id of the arrays a phase uses."""
    out = {}
    for name in ph.arrays:
        g = table.global_id(proc_name, name)
        if g is not None:
            out[name] = g
    for acc in ph.accesses:
        g = table.global_id(proc_name, acc.array)
        if g is not None:
            out[acc.array] = g
    return out


__all__ = [
    "Alignment", "Distribution", "TemplateGroup", "align_program", "build_dag", "distributions",
    "group_layouts", "phase_arrays", "Replicated",
]
