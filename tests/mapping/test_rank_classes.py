"""Ranks in one class have equal costs: the shortcut changes no result."""

from __future__ import annotations

import pytest

from autodist.analysis import analyze
from autodist.frontend import read_program, read_text
from autodist.machine import resolve_profile
from autodist.mapping import cost
from autodist.mapping.arrays import build_array_table
from autodist.mapping.candidates import align_program
from autodist.mapping.evaluate import Evaluator
from autodist.mapping.static import static_candidates

from ..conftest import SAMPLES


#: Loops to a bound read at run time or from an array element (an open hull
#: for every rank), a triangular nest, and arrays no layout distributes.
UNKNOWN_BOUNDS = """
      PROGRAM UNK
      INTEGER N, M, I, J, K, NB(2)
      REAL A(200, 200), B(200, 200), C(200), T(10)
      READ (*, *) N, M
      NB(1) = N
      DO 10 J = 1, M
         DO 10 I = 2, N - 1
            A(I, J) = B(I - 1, J) + B(I + 1, J) + T(1)
   10 CONTINUE
      DO 20 J = 2, N
         DO 20 I = 1, J
            B(I, J) = A(I, J - 1) * 0.5
   20 CONTINUE
      DO 30 I = 1, NB(1)
         C(I) = A(I, 1) + C(I)
   30 CONTINUE
      DO 40 K = 1, 10
         T(K) = T(K) + 1.0
   40 CONTINUE
      PRINT *, A(2, 2), B(3, 3), C(4), T(5)
      END
"""


@pytest.mark.parametrize("sample", ["adi", "jacobi", "shallow", "unknown-bounds"])
def test_rank_classes_give_the_same_work_as_every_rank(sample, monkeypatch):
    machine = resolve_profile("cluster_ib")[0]
    if sample == "unknown-bounds":
        an = analyze(read_text(UNKNOWN_BOUNDS, "unk.f"))
    else:
        an = analyze(read_program([SAMPLES / f"{sample}.f"]))
    table = build_array_table(an.program)
    alignment = align_program(an, table, 10)
    compared = 0
    for procs in (5, 24) if sample == "unknown-bounds" else (3, 16):
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
                        m.setattr(cost, "rank_classes", lambda p, l, lo, n, memo=None: list(range(n)))
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
