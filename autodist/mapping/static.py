"""Static solutions: one mapping per array for the whole program (DDT §3).

Every combination of template distributions (:func:`.candidates.distributions`
per template) is evaluated over all phases of all procedures, weighted by how
often each runs; the cheapest is the static solution.  With many templates the
combinations are searched one template at a time (coordinate descent from the
first options) instead of enumerated: for each template every processor
arrangement with the profile's first formats, then the other formats
(CYCLIC for BLOCK, ...) of its :data:`REFINED_SHAPES` best arrangements.

Then, from the cheapest, a descent over the distributions on fewer processors
than P (a divisor of P, the others idle: :func:`.candidates.distributions`
with ``spare``); the cheapest it finds is kept when it is cheaper than every
mapping over all processors.  Where a dimension's sweep hands data from
processor to processor, or a remapping sends one message per processor, the
work that more processors save can cost more than it saves; the mappings on
P/4 processors are then candidates on P, which the descent searches (what a
mapping on P/4 costs on P differs only by what replicated data costs to keep
alike on more processors).  Trying them after the others, and keeping only what
is cheaper, leaves every answer that fewer processors do not improve as it
was, and the dynamic selection's pools (which start from the static
candidates) as small.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from ..layout.model import Layout
from ..machine import MachineProfile
from .candidates import Alignment, Distribution, distributions, group_layouts
from .evaluate import Evaluation, Evaluator
from .model import Mapping, Progress

#: Enumerate all combinations of template distributions up to this many.
MAX_COMBINATIONS = 512

#: In the coordinate descent, the formats other than the profile's first are
#: tried on this many of a template's best processor arrangements (a format
#: changes a cost by its load balance and its neighbours; the arrangement, by
#: which loops run in parallel and which references cross processors).
REFINED_SHAPES = 3


#: How a static candidate found by the dynamic selection describes itself.
DYNAMIC_WITHOUT_REMAPS = "the dynamic selection's mapping, which remaps nothing"


@dataclass(frozen=True)
class StaticCandidate:
    """One whole-program static mapping and its evaluation; ``origin`` says
    where a mapping that is not a choice of template distributions came from."""

    choice: tuple[tuple[str, Distribution], ...]  # template name -> distribution
    evaluation: Evaluation
    origin: str = ""

    @property
    def total(self) -> float:
        return self.evaluation.total

    def describe(self) -> str:
        return " ".join(f"{t}{d.text()}" for t, d in self.choice) or self.origin


def mapping_for(alignment: Alignment, choice: dict[str, Distribution], table, fixed: dict[str, Layout],
                memo: dict | None = None) -> Mapping:
    """The mapping of ``choice`` (template -> distribution); ``memo`` keeps each
    template's layouts per distribution, so that the mappings of a search share
    their layouts (the evaluator then compares them by identity)."""
    layouts: dict[str, Layout] = {}
    apart = {g.family for g in alignment.groups if g.family and choice[g.name] != choice[g.family]}
    for g in alignment.groups:
        # a family distributed alike is the one template it was split from
        name = g.family if g.family and g.family not in apart else g.name
        key = (g.name, choice[g.name], name)
        got = memo.get(key) if memo is not None else None
        if got is None:
            got = group_layouts(g, choice[g.name], table, name)
            if memo is not None:
                memo[key] = got
        layouts.update(got)
    layouts.update(fixed)
    return Mapping.of(layouts)


def static_candidates(evaluator: Evaluator, alignment: Alignment, machine: MachineProfile,
                      fixed: dict[str, Layout] | None = None,
                      progress: Progress | None = None) -> list[StaticCandidate]:
    """Every static candidate evaluated, cheapest first; ``progress`` is told
    of the combinations priced (enumeration) or the templates searched (a
    round of the coordinate descent)."""
    fixed = fixed or {}
    nprocs = evaluator.nranks
    table = evaluator.table
    options = {g.name: distributions(g, machine, nprocs) for g in alignment.groups}
    names = [g.name for g in alignment.groups]
    total = 1
    for v in options.values():
        total *= len(v)
    out: list[StaticCandidate] = []
    memo: dict = {}

    def run(choice: dict[str, Distribution]) -> StaticCandidate:
        m = mapping_for(alignment, choice, table, fixed, memo)
        return StaticCandidate(tuple((n, choice[n]) for n in names), evaluator.evaluate(m, machine))

    def prepare(choices: list[dict[str, Distribution]]) -> None:
        evaluator.prepare([mapping_for(alignment, c, table, fixed, memo) for c in choices])

    if not names:
        out.append(StaticCandidate((), evaluator.evaluate(Mapping.of(dict(fixed)), machine)))
        return out
    spare = {g.name: distributions(g, machine, nprocs, spare=True) for g in alignment.groups}
    with evaluator.workers():
        tell = progress or (lambda what, done, total: None)
        if total <= MAX_COMBINATIONS:
            out = _enumerate(names, options, run, prepare, tell)
        else:
            out = _descend(names, options, run, prepare, tell, _families(alignment))
        out = prefer_replication(sorted(out, key=lambda c: (c.total, c.describe())))
        if any(spare.values()):
            out += _fewer_processors(names, spare, out[0], run, prepare, tell, _families(alignment))
    out.sort(key=lambda c: (c.total, c.describe()))
    return prefer_replication(out)


def _fewer_processors(names: list[str], spare: dict[str, list[Distribution]], best: StaticCandidate, run,
                      prepare, tell: Progress, families: dict[str, tuple[str, ...]]) -> list[StaticCandidate]:
    """The descent from ``best`` over the templates' distributions on fewer
    processors; the cheapest mapping it prices, when cheaper than ``best``
    (one: each candidate kept is one more in every pool and procedure entry
    of the dynamic selection, and the Livermore loops' descent finds 251)."""
    start = dict(best.choice)
    options = {n: [start[n]] + spare[n] for n in names}
    found = _descend(names, options, run, prepare,
                     lambda what, done, total: tell(f"{what}, fewer processors", done, total), families)
    cheaper = [c for c in found if any(d.spare for _, d in c.choice) and c.total < best.total * (1 - TIE)]
    return [min(cheaper, key=lambda c: (c.total, c.describe()))] if cheaper else []


def _enumerate(names: list[str], options: dict[str, list[Distribution]], run, prepare,
               tell: Progress) -> list[StaticCandidate]:
    """Every combination of the templates' distributions (the first priced
    alone: it times the phases for :meth:`.Evaluator.prepare`)."""
    combos = [dict(zip(names, combo)) for combo in itertools.product(*(options[n] for n in names))]
    tell("static search", 0, len(combos))
    out = [run(combos[0])]
    prepare(combos[1:])
    for c in combos[1:]:
        tell("static search", len(out), len(combos))
        out.append(run(c))
    tell("static search", len(out), len(combos))
    return out


def _families(alignment: Alignment) -> dict[str, tuple[str, ...]]:
    """First template of a family -> the templates split from one connected
    group (see :class:`.candidates.TemplateGroup`), for families of two or more."""
    out: dict[str, list[str]] = {}
    for g in alignment.groups:
        if g.family:
            out.setdefault(g.family, []).append(g.name)
    return {f: tuple(ns) for f, ns in out.items() if len(ns) > 1}


def _descend(names: list[str], options: dict[str, list[Distribution]], run, prepare,
             tell: Progress, families: dict[str, tuple[str, ...]] | None = None) -> list[StaticCandidate]:
    """Coordinate descent from the first option of each template, one
    template at a time: its processor arrangements first (each with the
    formats the profile lists first), then the other formats of the best
    arrangements.  The templates of a family (split where only copies tie
    them) move together, as the one template they were, and at the end of
    each round one by one over their arrangements.  The trials of one step
    share the other templates' choices, so each round's trials are priced
    together ahead (on workers when there are any) and then taken in order."""
    families = families or {}
    choice = {n: options[n][0] for n in names}
    best = [run(choice)]
    seen = {_key(names, choice): best[0]}

    def ahead(ns: tuple[str, ...], ds: list[Distribution]) -> None:
        trials = [dict(choice, **{n: d for n in ns}) for d in ds]
        prepare([t for t in trials if _key(names, t) not in seen])

    def take(ns: tuple[str, ...], d: Distribution) -> float:
        """Try templates ``ns`` distributed ``d`` with the others as chosen; keep it if cheaper."""
        trial = dict(choice, **{n: d for n in ns})
        key = _key(names, trial)
        if key not in seen:
            seen[key] = run(trial)
        cand = seen[key]
        if cand.total < best[0].total - 1e-15 or (cand.total <= best[0].total and _fewer_distributed(cand, best[0])):
            best[0] = cand
            choice.update(trial)
        return cand.total

    # each template (a family as one), then, from there, each member of a
    # family apart over its processor arrangements (the profile's first formats)
    steps = [(families.get(n, (n,)), True) for n in names if n in families or not any(n in f for f in families.values())]
    steps += [((n,), False) for f in families.values() for n in f]
    shapes = {n: _shapes(options[n]) for n in names}
    rounds = 0
    while True:
        before = best[0]
        rounds += 1
        for i, (ns, refine) in enumerate(steps):
            tell(f"static search, round {rounds}", i, len(steps))
            n = ns[0]
            if not refine:
                ahead(ns, [shape[0] for shape in shapes[n]])
                for shape in shapes[n]:
                    take(ns, shape[0])
                continue
            if len(shapes[n]) <= REFINED_SHAPES:
                ahead(ns, options[n])
                for d in options[n]:
                    take(ns, d)
                continue
            ahead(ns, [shape[0] for shape in shapes[n]])
            ranked = sorted(((take(ns, shape[0]), k) for k, shape in enumerate(shapes[n])))
            refined = [d for _, k in ranked[:REFINED_SHAPES] for d in shapes[n][k][1:]]
            ahead(ns, refined)
            for d in refined:
                take(ns, d)
        tell(f"static search, round {rounds}", len(steps), len(steps))
        if best[0] is before:
            break
    return list(seen.values())


def _key(names: list[str], choice: dict[str, Distribution]) -> tuple[Distribution, ...]:
    return tuple(choice[t] for t in names)


def _fewer_distributed(a: StaticCandidate, b: StaticCandidate) -> bool:
    """``a`` distributes fewer arrays than ``b`` (at no greater cost, the descent
    moves to it: what distribution does not pay for stays whole)."""
    return distributed_arrays(a.evaluation.mapping) < distributed_arrays(b.evaluation.mapping)


def _shapes(options: list[Distribution]) -> list[list[Distribution]]:
    """``options`` grouped by processor arrangement (the distributed dimensions
    and the grid), in order: the formats of one arrangement together."""
    out: dict[tuple, list[Distribution]] = {}
    for d in options:
        out.setdefault((tuple(f.distributed for f in d.formats), d.grid), []).append(d)
    return list(out.values())


#: Relative difference of predicted totals below which two candidates tie.
TIE = 1e-9


def distributed_arrays(m: Mapping) -> int:
    return sum(1 for _, lay in m.layouts if lay.nprocs > 1)


def prefer_replication(ranked: list[StaticCandidate]) -> list[StaticCandidate]:
    """``ranked`` (cheapest first) with, among the candidates that tie with the
    cheapest, the one distributing the fewest arrays first: when distributing
    an array gains nothing (a table every processor reads, an array the
    program barely uses), it stays whole on every processor."""
    if not ranked:
        return ranked
    best = ranked[0].total
    ties = [c for c in ranked if c.total <= best + TIE * abs(best)]
    first = min(ties, key=lambda c: (distributed_arrays(c.evaluation.mapping), c.total, c.describe()))
    return [first] + [c for c in ranked if c is not first]
