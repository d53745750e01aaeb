"""Recurrence chains in the cost model: priced at the profile's
``recurrence_time`` per latency unit on the critical path, nothing when it is 0."""

from __future__ import annotations

import pytest

from autodist.analysis import analyze
from autodist.frontend import read_program
from autodist.layout.model import BLOCK, COLLAPSED, simple
from autodist.machine import resolve_profile
from autodist.mapping.cost import ArrayFacts, phase_cost

from ..conftest import SAMPLES

N = 256
BOUNDS = ((1, N), (1, N))
UNIT = 1e-9  # seconds per latency unit in these tests


@pytest.fixture(scope="module")
def adi():
    return analyze(read_program([SAMPLES / "adi.f"])).procedure("ADI")


def cost(phase, layout, machine, nranks):
    facts = {a: ArrayFacts(BOUNDS, 8) for a in "XAB"}
    return phase_cost(phase, {a: layout for a in "XAB"} if layout else {}, facts, machine, nranks)


@pytest.mark.parametrize("profile", ["ddt1997", "cluster_ib", "manycore_smp"])
def test_the_bundled_profiles_do_not_price_chains(profile):
    assert resolve_profile(profile)[0].recurrence_time == 0.0


@pytest.mark.parametrize("pid", [7, 9])
def test_a_row_sweep_pays_its_chain_once_per_iteration(adi, pid):
    """ADI's sweeps along I: 255 x 256 iterations, 6 units each (multiply,
    divide, subtract), on one rank; on two ranks holding columns, half each."""
    base = resolve_profile("cluster_ib")[0]
    timed = base.replace(recurrence_time=UNIT)
    phase = adi.phase(pid)
    extra = cost(phase, None, timed, 1).computation - cost(phase, None, base, 1).computation
    assert extra == pytest.approx(255 * 256 * 6 * UNIT)
    cols = simple(BOUNDS, (COLLAPSED, BLOCK), (2,))
    extra = cost(phase, cols, timed, 2).computation - cost(phase, cols, base, 2).computation
    assert extra == pytest.approx(255 * 128 * 6 * UNIT)


def test_a_column_sweep_pays_no_chain(adi):
    """ADI's sweeps along J leave the innermost loop free: they run at throughput."""
    base = resolve_profile("cluster_ib")[0]
    timed = base.replace(recurrence_time=UNIT)
    for pid in (4, 6):
        assert cost(adi.phase(pid), None, timed, 1).computation == cost(adi.phase(pid), None, base, 1).computation


def test_a_chain_along_the_distributed_dimension_is_pipelined_with_the_rest(adi):
    """Rows distributed: the sweep along I is a pipeline over the ranks, and its
    chain goes down with its work (never more than serialized, less when pipelined)."""
    base = resolve_profile("cluster_ib")[0]
    timed = base.replace(recurrence_time=UNIT)
    rows = simple(BOUNDS, (BLOCK, COLLAPSED), (4,))
    serialized = 255 * 256 * 6 * UNIT
    extra = cost(adi.phase(7), rows, timed, 4).computation - cost(adi.phase(7), rows, base, 4).computation
    assert 0 < extra < serialized
    off = timed.replace(pipeline=False)
    extra = cost(adi.phase(7), rows, off, 4).computation - cost(adi.phase(7), rows, base.replace(pipeline=False),
                                                                4).computation
    assert extra == pytest.approx(serialized)


def test_a_negative_recurrence_time_is_refused(tmp_path):
    from autodist.errors import ProfileError
    from autodist.machine import load_profile

    text = (SAMPLES.parent / "machine_profiles" / "cluster_ib.yaml").read_text() + "recurrence_time: -1.0e-9\n"
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ProfileError, match="recurrence_time"):
        load_profile(path)
