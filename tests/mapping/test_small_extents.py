"""Extents smaller than the processor count (issue 12, item 4).

``tests/programs/layouts/small_grid.f`` is a 12-point grid of 5-component
states, the class S size of the NAS pseudo-applications.  On 16 processors an
expert distributes a grid dimension BLOCK over 12 of them and leaves 4 idle;
replicating everything (what was predicted before) made 16 processors 2.5x
slower than 4.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autodist.frontend import read_program
from autodist.machine import resolve_profile
from autodist.mapping.candidates import distributions
from autodist.pipeline import Pipeline

PROGRAM = Path(__file__).resolve().parent.parent / "programs" / "layouts" / "small_grid.f"


@pytest.fixture(scope="module")
def pipe():
    return Pipeline(read_program([PROGRAM]))


@pytest.mark.parametrize("profile", ["ddt1997", "cluster_ib", "manycore_smp"])
def test_more_processors_are_never_predicted_slower_and_nothing_is_all_replicated(pipe, profile):
    machine = resolve_profile(profile)[0]
    p4, p16 = pipe.plan(machine, 4), pipe.plan(machine, 16)
    assert p16.solution("best").total <= p4.solution("best").total
    layouts = dict(p16.static.entry_of("SMALL").layouts)
    assert any(f.distributed for lay in layouts.values() for f in lay.formats)


@pytest.mark.parametrize("profile", ["cluster_ib", "manycore_smp"])
def test_a_grid_dimension_is_distributed_block_over_as_many_processors_as_points(pipe, profile):
    machine = resolve_profile(profile)[0]
    layouts = dict(pipe.plan(machine, 16).static.entry_of("SMALL").layouts)
    for lay in layouts.values():
        dims = [d for d, f in enumerate(lay.formats) if f.distributed]
        assert len(dims) == 1 and dims[0] != 0 and lay.formats[dims[0]].kind == "BLOCK"
        assert lay.grid == (12,)


def test_candidates_fit_the_extents(pipe):
    machine = resolve_profile("cluster_ib")[0]
    (group,) = pipe.alignment(machine).groups
    grids = {d.grid for d in distributions(group, machine, 16)}
    # 16 along a 12-point dimension uses 12, along the 5 components 5; 4x4
    # over two dimensions fits, 8x2 over the components and a grid dimension is 5x2
    assert {(12,), (5,), (4, 4), (5, 2)} <= grids
    assert all(all(g <= 12 for g in grid) for grid in grids)
