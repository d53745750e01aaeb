"""Miniature classic applications against the layout an HPF expert writes
(issue 12).  Each program under ``tests/programs/miniapps`` states the
expert's layout and why; where autodist disagrees today the case is a strict
xfail naming the cause, so that fixing the cause turns it into a failure to
be promoted.

``ssor.f`` (the SSOR wavefronts of NAS LU and a parallel residual): the grid
BLOCK along one dimension for every array, in every phase, on 4 and 16
processors; the wavefronts run as a pipeline.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autodist.frontend import read_program
from autodist.machine import resolve_profile
from autodist.pipeline import Pipeline

MINIAPPS = Path(__file__).resolve().parent.parent / "programs" / "miniapps"

PIPELINE_OVERLAP = ("the cost model serializes a wavefront along a distributed dimension without the "
                    "overlap of a pipeline (issue 14 item 2, coarse-grain pipelining): replicating the "
                    "grid for the sweeps looks as fast and moves nothing")


@pytest.fixture(scope="module")
def ssor():
    return Pipeline(read_program([MINIAPPS / "ssor.f"]))


def _phase_layouts(sol, array: str):
    out = {dict(p.mapping.layouts)[array] for p in sol.phases if array in dict(p.mapping.layouts)}
    out |= {dict(m.layouts)[array] for _, m in sol.entry if array in dict(m.layouts)}
    return out


def _block_along_one_grid_dimension(sol, arrays=("U", "F", "R")) -> bool:
    dims = set()
    for a in arrays:
        for lay in _phase_layouts(sol, a):
            d = lay.distributed_dims
            if len(d) != 1 or lay.formats[lay.tdim_of(d[0])].kind != "BLOCK":
                return False
            dims.add(d[0])
    return len(dims) == 1


def _xfail_on(profiles, reason):
    return lambda profile: pytest.param(profile, marks=pytest.mark.xfail(strict=True, reason=reason)) \
        if profile in profiles else profile


@pytest.mark.parametrize("procs", [4, 16])
@pytest.mark.parametrize("profile", list(map(_xfail_on({"ddt1997"}, PIPELINE_OVERLAP),
                                            ["ddt1997", "cluster_ib", "manycore_smp"])))
def test_ssor_static_solution_is_the_experts(ssor, profile, procs):
    plan = ssor.plan(resolve_profile(profile)[0], procs)
    assert _block_along_one_grid_dimension(plan.static)


@pytest.mark.parametrize("procs", [4, 16])
@pytest.mark.parametrize("profile", list(map(_xfail_on({"ddt1997", "cluster_ib", "manycore_smp"}, PIPELINE_OVERLAP),
                                            ["ddt1997", "cluster_ib", "manycore_smp"])))
def test_ssor_best_solution_keeps_the_grid_distributed_in_every_phase(ssor, profile, procs):
    plan = ssor.plan(resolve_profile(profile)[0], procs)
    assert _block_along_one_grid_dimension(plan.solution("best"))


@pytest.mark.parametrize("profile", ["ddt1997", "cluster_ib", "manycore_smp"])
def test_ssor_never_cyclic_and_16_processors_not_slower_than_4(ssor, profile):
    machine = resolve_profile(profile)[0]
    p4, p16 = ssor.plan(machine, 4), ssor.plan(machine, 16)
    for plan in (p4, p16):
        assert "CYCLIC" not in plan.solution("best").describe()
    assert p16.solution("best").total <= p4.solution("best").total
