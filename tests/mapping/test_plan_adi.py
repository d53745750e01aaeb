"""Static and dynamic solutions of ADI (DDT §2.1 and §7.1)."""

from __future__ import annotations

import pytest

from autodist.analysis import analyze
from autodist.frontend import read_program
from autodist.machine import resolve_profile
from autodist.mapping.arrays import build_array_table
from autodist.mapping.candidates import align_program
from autodist.mapping.plan import make_plan

from ..conftest import SAMPLES


@pytest.fixture(scope="module")
def setup():
    an = analyze(read_program([SAMPLES / "adi.f"]))
    machine = resolve_profile("ddt1997")[0]
    table = build_array_table(an.program)
    alignment = align_program(an, table, 10)
    return an, machine, table, alignment


@pytest.fixture(scope="module")
def plans(setup):
    an, machine, table, alignment = setup
    return {p: make_plan(an, machine, p, table=table, alignment=alignment) for p in (2, 4, 8, 16)}


def test_all_arrays_perfectly_aligned(setup):
    _, _, _, alignment = setup
    assert len(alignment.groups) == 1
    # identity alignment, no offsets (the shifted references B(I,J-1) stay Shift movement)
    assert all(shift == 0 for _, shift in alignment.offsets.shifts)
    for _, targets in alignment.groups[0].members:
        assert [(t.dim, t.stride, t.offset) for t in targets] == [(0, 1, 0), (1, 1, 0)]
    assert {a for a, _ in alignment.groups[0].members} == {"X", "A", "B"}


def test_static_candidates_include_rows_and_columns(plans):
    texts = {c.describe() for c in plans[16].statics}
    assert {"T(BLOCK,*)", "T(*,BLOCK)"} <= texts


def test_dynamic_at_16_remaps_three_arrays_ten_and_nine_times(plans):
    plan = plans[16]
    assert plan.chosen == "dynamic"
    remaps = plan.dynamic.remaps
    to_cols = [r for r in remaps if r.dst.distribute_str() == "(*,BLOCK)"]
    to_rows = [r for r in remaps if r.dst.distribute_str() == "(BLOCK,*)"]
    assert sorted(r.name for r in to_cols) == ["A", "B", "X"]
    assert sorted(r.name for r in to_rows) == ["A", "B", "X"]
    assert all(r.count == 10 and r.target == 7 and r.source == 6 for r in to_cols)
    assert all(r.count == 9 and r.target == 4 and r.source == 9 for r in to_rows)
    assert all(r.bytes == 30720 for r in remaps)
    assert plan.dynamic.remapping == pytest.approx(57 * 30720e-6)
    # rows for the row sweeps, columns for the column sweeps
    by_phase = {(p.procedure, p.phase): p for p in plan.dynamic.phases}
    for pid in (4, 5, 6):
        assert {l.distribute_str() for _, l in by_phase[("ADI", pid)].mapping.layouts} == {"(BLOCK,*)"}
    for pid in (7, 8, 9):
        assert {l.distribute_str() for _, l in by_phase[("ADI", pid)].mapping.layouts} == {"(*,BLOCK)"}


def test_static_at_2_and_a_crossover_between(plans):
    assert plans[2].chosen == "static"
    chosen = [plans[p].chosen for p in (2, 4, 8, 16)]
    first = chosen.index("dynamic")
    assert 0 < first and all(c == "dynamic" for c in chosen[first:])


def test_dynamic_is_never_worse_than_static(plans):
    for plan in plans.values():
        assert plan.dynamic.total <= plan.static.total * (1 + 1e-12)


def test_static_total_matches_ddt_breakdown(plans):
    plan = plans[16]
    # (BLOCK,*) or (*,BLOCK): 10 iterations x 8,192 bytes at 1 us/byte of movement
    assert plan.static.movement == pytest.approx(10 * 8192e-6)
