"""Ranks in one class have equal costs: the shortcut changes no result."""

from __future__ import annotations

import pytest

from autodist.analysis import analyze
from autodist.frontend import read_program
from autodist.machine import resolve_profile
from autodist.mapping import cost
from autodist.mapping.arrays import build_array_table
from autodist.mapping.candidates import align_program
from autodist.mapping.evaluate import Evaluator
from autodist.mapping.static import static_candidates

from ..conftest import SAMPLES


@pytest.mark.parametrize("sample", ["adi", "jacobi", "shallow"])
def test_rank_classes_give_the_same_work_as_every_rank(sample, monkeypatch):
    machine = resolve_profile("cluster_ib")[0]
    an = analyze(read_program([SAMPLES / f"{sample}.f"]))
    table = build_array_table(an.program)
    alignment = align_program(an, table, 10)
    compared = 0
    for procs in (3, 16):
        ev = Evaluator(an, table, procs)
        for cand in static_candidates(ev, alignment, machine)[:4]:
            for proc in an.procedures:
                for ph in proc.phases:
                    if ph.kind != "loop":
                        continue
                    layouts = ev.local_layouts(proc, ph, cand.evaluation.mapping)
                    facts = ev._phase_facts(proc, ph)
                    fast = cost.phase_work(ph, layouts, facts, procs)
                    with monkeypatch.context() as m:
                        m.setattr(cost, "rank_classes", lambda p, l, lo, n: list(range(n)))
                        slow = cost.phase_work(ph, layouts, facts, procs)
                    assert fast == slow, (sample, procs, cand.describe(), proc.name, ph.id)
                    compared += 1
    assert compared > 10


def test_interior_ranks_share_a_class():
    an = analyze(read_program([SAMPLES / "adi.f"]))
    from autodist.layout.model import BLOCK, COLLAPSED, simple
    from autodist.owner.iterations import phase_loops

    lay = simple(((1, 256), (1, 256)), (BLOCK, COLLAPSED), (64,))
    ph = an.procedure("ADI").phase(7)
    rep = cost.rank_classes(ph, {a: lay for a in "XAB"}, phase_loops(ph), 64)
    assert len(set(rep)) <= 4 and rep[0] == 0 and rep[30] == rep[31]
