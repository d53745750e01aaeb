"""The coordinate descent of the static search (many templates) against the
exhaustive enumeration of every combination of template distributions: the
same optimum, from a fraction of the candidates, and among equal costs the
same mapping (the one distributing fewer arrays)."""

from __future__ import annotations

import pytest

from autodist.analysis import analyze
from autodist.frontend import read_program
from autodist.machine import resolve_profile
from autodist.mapping import static
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

