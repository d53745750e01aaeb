"""The coordinate descent of the static search (many templates) against the
exhaustive enumeration of every combination of template distributions: the
same optimum, from a fraction of the candidates, and among equal costs the
same mapping (the one distributing fewer arrays)."""

from __future__ import annotations

import pytest

from autodist.analysis import analyze
from autodist.frontend import read_program
from autodist.machine import resolve_profile
from autodist.mapping import evaluate, static
from autodist.mapping.arrays import build_array_table
from autodist.mapping.candidates import align_program, distributions
from autodist.mapping.evaluate import Evaluator

from ..conftest import PROGRAMS, SAMPLES

CASES = [
    (SAMPLES / "rhs.f", "cluster_ib", 4),
    (SAMPLES / "transpose.f", "cluster_ib", 16),
    (PROGRAMS / "miniapps" / "adi3d.f", "cluster_ib", 4),
    (PROGRAMS / "miniapps" / "fft3d.f", "cluster_ib", 4),
    (PROGRAMS / "miniapps" / "fft3d.f", "ddt1997", 16),
    (PROGRAMS / "miniapps" / "cgcsr.f", "cluster_ib", 16),
    # a timer table nothing gains from distributing: a tie, broken towards replication
    (PROGRAMS / "layouts" / "exact_table.f", "ddt1997", 4),
]


@pytest.mark.parametrize("path,profile,procs", CASES, ids=lambda v: getattr(v, "stem", str(v)))
def test_coordinate_descent_finds_the_exhaustive_optimum(path, profile, procs, monkeypatch):
    machine = resolve_profile(profile)[0]
    an = analyze(read_program([path]))
    table = build_array_table(an.program)
    alignment = align_program(an, table, 10)
    ev = Evaluator(an, table, procs)
    combos = 1
    for g in alignment.groups:
        combos *= len(distributions(g, machine, procs))
    monkeypatch.setattr(static, "MAX_COMBINATIONS", combos)
    every = static.static_candidates(ev, alignment, machine)
    assert len(every) == combos
    monkeypatch.setattr(static, "MAX_COMBINATIONS", 0)
    descent = static.static_candidates(ev, alignment, machine)
    assert len(descent) < combos
    assert descent[0].total == pytest.approx(every[0].total, rel=1e-9)
    assert descent[0].evaluation.mapping == every[0].evaluation.mapping



@pytest.mark.parametrize("path,profile,procs", [CASES[2], CASES[5]], ids=lambda v: getattr(v, "stem", str(v)))
@pytest.mark.parametrize("combos", ["descent", "every"])
def test_the_search_priced_on_forked_workers_is_the_search_priced_here(path, profile, procs, combos,
                                                                       monkeypatch):
    """Every batch of trials priced ahead on two forked workers (as on a large
    program): the same candidates, the same costs, in the same order."""
    machine = resolve_profile(profile)[0]
    an = analyze(read_program([path]))
    table = build_array_table(an.program)
    alignment = align_program(an, table, 10)
    monkeypatch.setattr(static, "MAX_COMBINATIONS", 0 if combos == "descent" else 10**9)
    here = static.static_candidates(Evaluator(an, table, procs), alignment, machine)
    monkeypatch.setattr(evaluate, "may_fork", lambda: True)
    monkeypatch.setattr(evaluate, "processors", lambda: 2)
    monkeypatch.setattr(evaluate, "PARALLEL_SECONDS", 0.0)
    forked = []
    real = evaluate.ForkPool.map
    monkeypatch.setattr(evaluate.ForkPool, "map",
                        lambda pool, items, place=None: forked.extend(items) or real(pool, items, place))
    ev = Evaluator(an, table, procs)
    there = static.static_candidates(ev, alignment, machine)
    assert forked, "no batch went to the workers"
    assert [(c.describe(), c.total) for c in there] == [(c.describe(), c.total) for c in here]
    assert ev._pool is None  # the workers are stopped when the search ends


@pytest.mark.parametrize("combos", ["descent", "every"])
def test_the_plan_tells_how_far_its_long_steps_are(combos, monkeypatch):
    """A command shows the static search and the selection as they go (a
    progress bar on a terminal): each step counts up to its total, the
    selection ends with every procedure solved, and the plan is the same."""
    from autodist.pipeline import Pipeline

    path, profile, procs = CASES[2]
    machine = resolve_profile(profile)[0]
    monkeypatch.setattr(static, "MAX_COMBINATIONS", 0 if combos == "descent" else 10**9)
    told: list[tuple[str, int, int]] = []
    with_progress = Pipeline(read_program([path]), progress=lambda *t: told.append(t)).plan(machine, procs)
    without = Pipeline(read_program([path])).plan(machine, procs)
    assert with_progress.static.total == without.static.total
    assert with_progress.dynamic.total == without.dynamic.total
    steps: dict[str, list[tuple[int, int]]] = {}
    for what, done, total in told:
        steps.setdefault(what, []).append((done, total))
    assert any(w.startswith("static search") for w in steps) and "selection" in steps
    for what, counts in steps.items():
        assert [d for d, _ in counts] == sorted(d for d, _ in counts), what
        assert all(0 <= d <= t for d, t in counts) and counts[-1][0] == counts[-1][1], what
    n = len(with_progress.analysis.bottom_up)
    assert steps["selection"][-1] == (n, n)
