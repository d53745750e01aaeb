"""The cost model against the DDT paper's ADI example (hand-computed values)."""

from __future__ import annotations

import pytest

from autodist.analysis import analyze
from autodist.frontend import read_program
from autodist.layout.model import BLOCK, COLLAPSED, simple
from autodist.machine import resolve_profile
from autodist.mapping.cost import ArrayFacts, phase_cost
from autodist.mapping.remap import remap_volume

from ..conftest import SAMPLES

N = 256
BOUNDS = ((1, N), (1, N))
ROWS = simple(BOUNDS, (BLOCK, COLLAPSED), (16,))
COLS = simple(BOUNDS, (COLLAPSED, BLOCK), (16,))


@pytest.fixture(scope="module")
def adi():
    return analyze(read_program([SAMPLES / "adi.f"])).procedure("ADI")


@pytest.fixture(scope="module")
def machine():
    return resolve_profile("ddt1997")[0]


def cost(phase, layout, machine):
    facts = {a: ArrayFacts(BOUNDS, 8) for a in "XAB"}
    return phase_cost(phase, {a: layout for a in "XAB"}, facts, machine, 16)


def test_row_distribution_moves_nothing_in_the_row_sweeps(adi, machine):
    for pid in (4, 5, 6):
        c = cost(adi.phase(pid), ROWS, machine)
        assert c.movement_bytes == 0 and c.routines == ()


@pytest.mark.parametrize("pid, arrays", [(7, {"X", "B"}), (9, {"X", "A"})])
def test_column_sweeps_under_rows_move_one_row_of_two_arrays(adi, machine, pid, arrays):
    c = cost(adi.phase(pid), ROWS, machine)
    # one 256-element row of two arrays, each counted once: 4,096 bytes
    assert c.movement_bytes == 4096
    assert {r.array for r in c.routines} == arrays
    assert all(r.routine == "Shift" and r.bytes == 2048 and r.dim == 1 for r in c.routines)
    assert c.movement == pytest.approx(4096 * 1e-6)


def test_column_distribution_is_the_mirror_image(adi, machine):
    for pid in (7, 8, 9):
        assert cost(adi.phase(pid), COLS, machine).movement_bytes == 0
    for pid in (4, 6):
        c = cost(adi.phase(pid), COLS, machine)
        assert c.movement_bytes == 4096
        assert all(r.routine == "Shift" and r.dim == 2 for r in c.routines)


def test_parallelism_follows_owner_computes(adi, machine):
    seq = adi.phase(4).flops * machine.flop_time + adi.phase(4).memory_accesses * machine.memory_access_time
    par = cost(adi.phase(4), ROWS, machine)
    ser = cost(adi.phase(4), COLS, machine)
    assert par.computation == pytest.approx(seq / 16)
    assert ser.computation == pytest.approx(seq)  # the distributed J carries the dependence
    assert par.parallel_loops == (40,) and ser.serialized_loops == (39,)


def test_remap_volume_is_exact_not_ddts_estimate():
    v = remap_volume(ROWS, COLS, 16, 8)
    # DDT's N^2/P = 4,096 over-estimates; each rank keeps N^2/P^2 and sends the rest
    assert v.elements == N * N // 16 * 15 // 16 == 3840
    assert v.bytes == 30720
    assert v.messages == 15
