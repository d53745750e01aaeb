"""Why a plan decided what it did, from the plan's own candidates.

* the decision: the other kind of solution (static or dynamic), how much more
  it costs and the phases (and the remapping) that make the difference;
* per array: its layout in the chosen solution and the runner-ups — per other
  layout of the array, the cheapest solution giving it that layout (a static
  candidate, or the other kind) — with the cost difference and the phases that
  contribute most to it (positive: the runner-up pays more there);
* per replicated array: why (passed as a section, a dummy inheriting a block
  of its actual, storage association, too small for the processors, a
  private work array, cheaper replicated, ...).

Differences are in seconds per run of the program, runner-up minus chosen.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..layout.model import Layout
from ..mapping.candidates import distributions
from ..mapping.plan import Plan, Solution, static_solution

REPLICATED = "replicated"
#: Runner-ups per array, and phases per difference, that are reported.
MAX_ALTERNATIVES = 3
MAX_CONTRIBUTIONS = 3
#: Static candidates looked at for runner-ups (the cheapest).
MAX_CANDIDATES = 200
#: Up to this many templates a static candidate is named in full.
SHORT_CHOICE = 3

#: (category, words of the analysis' reason that put an array in it)
CATEGORIES = (
    ("section actual", ("as a section", "array section")),
    ("inherited block", ("the call runs where it lives",)),
    ("storage association", ("EQUIVALENCE", "storage associated", "declared with different bounds", "another shape")),
    ("private work array", ("private work array",)),
    ("unknown bounds", ("bounds not known",)),
    ("CHARACTER", ("CHARACTER",)),
    ("external procedure", ("external procedure",)),
)


def layout_key(lay: Layout | None) -> str:
    """The layout as the array sees it: ``(BLOCK,*)`` (per array dimension the
    format of the template dimension it follows, ``*`` when collapsed or not
    distributed; ``on 4x4`` for a grid of several dimensions), ``replicated``
    when no dimension is distributed."""
    if lay is None or not lay.distributed_dims:
        return REPLICATED
    parts = []
    for d in range(lay.rank):
        t = lay.tdim_of(d)
        parts.append(str(lay.formats[t]) if t is not None and lay.formats[t].distributed else "*")
    grid = "x".join(str(g) for g in lay.grid) if len(lay.grid) > 1 else ""
    return "(" + ",".join(parts) + ")" + (f" on {grid}" if grid else "")


def array_labels(plan: Plan) -> dict[str, str]:
    """A name per global array, unique: ``U``, or ``U (CALC1)`` when several
    procedures have their own ``U``."""
    count: dict[str, int] = {}
    for a in plan.table.arrays:
        count[a.name] = count.get(a.name, 0) + 1
    return {a.id: a.name if count[a.name] == 1 or not a.members else f"{a.name} ({a.members[0][0]})"
            for a in plan.table.arrays}


@dataclass(frozen=True)
class Contribution:
    key: str  # "UNIT:id" of a phase, or "remapping"
    label: str  # "phase 4 (line 39) of ADI", "remapping"
    delta: float  # runner-up minus chosen, seconds per run


@dataclass(frozen=True)
class Alternative:
    solution: str  # "static T(*,BLOCK)", "dynamic"
    layout: str  # the array's layouts in it, in phase order: "(*,BLOCK)", "(BLOCK,*) -> (*,BLOCK)"
    total: float
    delta: float
    contributions: tuple[Contribution, ...]


@dataclass(frozen=True)
class ArrayWhy:
    """One distributed array: its layouts in the chosen solution (each with the
    phases that use it) and the runner-ups."""

    array: str
    name: str
    template: str | None
    together: tuple[str, ...]  # the other arrays of its template (their layouts change with it)
    layout: str
    phases: tuple[tuple[str, tuple[str, ...]], ...]  # (layout key, phase keys "INSTANCE:id")
    alternatives: tuple[Alternative, ...]


@dataclass(frozen=True)
class ReplicatedWhy:
    array: str
    name: str
    category: str
    detail: str


@dataclass(frozen=True)
class DecisionWhy:
    """The chosen kind against the other one."""

    chosen: str
    total: float
    other: str
    other_total: float
    contributions: tuple[Contribution, ...]

    @property
    def delta(self) -> float:
        return self.other_total - self.total


# --------------------------------------------------------------------------- costs per phase


def _phase_costs(sol: Solution) -> tuple[dict[tuple[str, int], float], dict[tuple[str, int], str]]:
    """Seconds per run of every phase (by procedure and id, clones summed) and its label."""
    costs: dict[tuple[str, int], float] = {}
    labels: dict[tuple[str, int], str] = {}
    for p in sol.phases:
        key = (sol.unit_of(p.procedure), p.phase)
        costs[key] = costs.get(key, 0.0) + (p.executions * p.cost.total if p.cost is not None else 0.0)
        labels[key] = f"phase {p.phase} (line {p.span.first}) of {key[0]}"
    return costs, labels


def contributions(alt: Solution, chosen: Solution) -> tuple[Contribution, ...]:
    """Where ``alt`` costs more (or less) than ``chosen``: the phases and the
    remapping with the largest differences, largest first."""
    a, labels = _phase_costs(alt)
    c, more = _phase_costs(chosen)
    labels.update(more)
    rows = [Contribution(f"{u}:{i}", labels[(u, i)], a.get((u, i), 0.0) - c.get((u, i), 0.0))
            for u, i in dict.fromkeys(list(a) + list(c))]
    rows.append(Contribution("remapping", "remapping", alt.remapping - chosen.remapping))
    scale = max(abs(alt.total), abs(chosen.total), 1e-300)
    rows = [r for r in rows if abs(r.delta) > 1e-9 * scale]
    rows.sort(key=lambda r: -abs(r.delta))
    return tuple(rows[:MAX_CONTRIBUTIONS])


def decision_reason(plan: Plan, chosen: Solution) -> DecisionWhy:
    other = plan.dynamic if chosen.kind == "static" else plan.static
    return DecisionWhy(chosen.kind, chosen.total, other.kind, other.total, contributions(other, chosen))


# --------------------------------------------------------------------------- arrays


def _signatures(sol: Solution) -> dict[str, tuple[str, ...]]:
    """Per array, its layouts in phase order (each once); arrays no phase
    uses: their layout on entry."""
    out: dict[str, list[str]] = {}
    for p in sol.phases:
        for gid, lay in p.mapping.layouts:
            got = out.setdefault(gid, [])
            key = layout_key(lay)
            if key not in got:
                got.append(key)
    for _, m in sol.entry:
        for gid, lay in m.layouts:
            out.setdefault(gid, [layout_key(lay)])
    return {g: tuple(v) for g, v in out.items()}


def _uses(sol: Solution) -> dict[str, dict[str, list[str]]]:
    """Per array, per layout key, the phases (``INSTANCE:id``) that use it so."""
    out: dict[str, dict[str, list[str]]] = {}
    for p in sol.phases:
        for gid, lay in p.mapping.layouts:
            out.setdefault(gid, {}).setdefault(layout_key(lay), []).append(f"{p.procedure}:{p.phase}")
    return out


def _solutions(plan: Plan, chosen: Solution) -> list[tuple[str, Solution]]:
    """Every other solution the plan considered: the other kind and the static candidates."""
    out: list[tuple[str, Solution]] = []
    if chosen is not plan.dynamic and plan.dynamic.remaps:
        out.append(("dynamic", plan.dynamic))
    best = plan.statics[0] if plan.statics else None
    for k, cand in enumerate(plan.statics[:MAX_CANDIDATES]):
        sol = plan.static if k == 0 else static_solution(cand, plan.analysis, plan.table, plan.procs, plan.machine)
        if sol is not chosen:
            out.append((candidate_name(cand, best), sol))
    return out


def candidate_name(cand, best) -> str:
    """``static T(*,BLOCK)``; with many templates only those that differ from
    the best static candidate: ``static with T2(*,CYCLIC)``, ``best static``."""
    if len(cand.choice) <= SHORT_CHOICE:
        return f"static {cand.describe()}".rstrip()
    if cand is best:
        return "best static"
    diffs = [f"{t}{d.text()}" for (t, d), (_, d0) in zip(cand.choice, best.choice) if d != d0]
    return "static with " + " ".join(diffs)


Others = list[tuple[str, Solution, dict[str, tuple[str, ...]]]]


def _others(plan: Plan, chosen: Solution) -> Others:
    return [(name, sol, _signatures(sol)) for name, sol in _solutions(plan, chosen)]


def array_reasons(plan: Plan, chosen: Solution, others: Others) -> tuple[ArrayWhy, ...]:
    """The distributed arrays of ``chosen`` (those of a template), each with its runner-ups."""
    names = array_labels(plan)
    template = {gid: g.name for g in plan.alignment.groups for gid, _ in g.members}
    members = {g.name: tuple(gid for gid, _ in g.members) for g in plan.alignment.groups}
    mine = _signatures(chosen)
    uses = _uses(chosen)
    diffs: dict[int, tuple[Contribution, ...]] = {}
    out = []
    for gid in sorted(mine, key=lambda g: names.get(g, g)):
        sig = mine[gid]
        if gid not in template or sig == (REPLICATED,):
            continue
        best: dict[tuple[str, ...], tuple[str, Solution]] = {}
        for name, sol, sigs in others:
            alt = sigs.get(gid)
            if alt is None or alt == sig:
                continue
            if alt not in best or sol.total < best[alt][1].total:
                best[alt] = (name, sol)
        alts = []
        for alt, (name, sol) in sorted(best.items(), key=lambda kv: kv[1][1].total)[:MAX_ALTERNATIVES]:
            if id(sol) not in diffs:
                diffs[id(sol)] = contributions(sol, chosen)
            alts.append(Alternative(name, " -> ".join(alt), sol.total, sol.total - chosen.total, diffs[id(sol)]))
        t = template[gid]
        phases = tuple((k, tuple(v)) for k, v in uses.get(gid, {}).items())
        out.append(ArrayWhy(gid, names.get(gid, gid), t, tuple(m for m in members[t] if m != gid),
                            " -> ".join(sig), phases, tuple(alts)))
    return tuple(out)


# --------------------------------------------------------------------------- replicated arrays


def category(reason: str) -> str:
    """The kind of a reason the analysis gives for replicating an array."""
    for name, words in CATEGORIES:
        if any(w.lower() in reason.lower() for w in words):
            return name
    return "other"


def replicated_reasons(plan: Plan, chosen: Solution, others: Others) -> tuple[ReplicatedWhy, ...]:
    """Every array left replicated, and why: the analysis' reason for those
    that cannot be distributed; for the others (in a template), too small for
    the processors, or cheaper replicated."""
    names = array_labels(plan)
    out = [ReplicatedWhy(gid, names.get(gid, gid), category(reason), reason)
           for gid, reason in plan.alignment.replicated]
    mine = _signatures(chosen)
    for g in plan.alignment.groups:
        gids = [gid for gid, _ in g.members if mine.get(gid) == (REPLICATED,)]
        if not gids:
            continue
        options = distributions(g, plan.machine, plan.procs)
        if plan.procs > 1 and not any(f.distributed for d in options for f in d.formats):
            extents = ", ".join(str(hi - lo + 1) for lo, hi in g.bounds)
            for gid in gids:
                out.append(ReplicatedWhy(gid, names.get(gid, gid), "too small",
                                         f"no distribution of template {g.name} (extents {extents}) fits "
                                         f"{plan.procs} processors"))
            continue
        for gid in gids:
            detail = "replicated in every candidate" if plan.procs > 1 else "one processor: nothing is distributed"
            dist = [(name, sol) for name, sol, sigs in others if REPLICATED not in sigs.get(gid, (REPLICATED,))]
            if dist:
                name, sol = min(dist, key=lambda ns: ns[1].total)
                detail = f"cheaper replicated: the best solution distributing it ({name}) costs " \
                         f"{sol.total - chosen.total:+.4g} s"
            out.append(ReplicatedWhy(gid, names.get(gid, gid), "cost" if plan.procs > 1 else "one processor",
                                     detail))
    return tuple(out)


def reasons(plan: Plan, chosen: Solution) -> tuple[DecisionWhy, tuple[ArrayWhy, ...], tuple[ReplicatedWhy, ...]]:
    """The decision, the distributed arrays and the replicated ones, explained."""
    others = _others(plan, chosen)
    return (decision_reason(plan, chosen), array_reasons(plan, chosen, others),
            replicated_reasons(plan, chosen, others))
