"""Recurrences across processors: one hand-off per block boundary under
BLOCK, one per step under CYCLIC (issue 12, item 6).

``tests/programs/layouts/recurrences.f`` has a recurrence along each
dimension of a 256x256 grid.  Distributed along the walked dimension on 4
processors, a sweep of 2..256 hands the work on 3 times under BLOCK and 254 times under
CYCLIC; enclosing parallel loops travel in one message.  Under a
latency-bandwidth profile each hand-off costs a latency on the critical path,
so BLOCK beats CYCLIC on recurrence dimensions; under DDT's linear model
messages have no latency and nothing changes.  The profile here has
``pipeline: false`` (the loops run one processor after the other, as DDT
has it); ``test_pipelines.py`` prices the same sweeps as pipelines.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autodist.frontend import read_program
from autodist.machine import load_profile, resolve_profile
from autodist.pipeline import Pipeline

PROGRAM = Path(__file__).resolve().parent.parent / "programs" / "layouts" / "recurrences.f"
LATENCY = 2.0e-6


@pytest.fixture(scope="module")
def pipe():
    return Pipeline(read_program([PROGRAM]))


@pytest.fixture
def machine(tmp_path):
    p = tmp_path / "latency.yaml"
    p.write_text("name: latency\nprocessors: 4\ncommunication_model: latency_bandwidth\n"
                 f"remote_access_time: 1.0e-9\nlatency: {LATENCY}\nbandwidth: 1.0e10\nflop_time: 1.0e-9\n"
                 "memory_access_time: 1.0e-9\ndistributions: [BLOCK, CYCLIC]\npipeline: false\n")
    return load_profile(p)


def _pipelines(plan, describe: str, line: int):
    cand = next(c for c in plan.statics if c.describe() == describe)
    phase = next(p for p in cand.evaluation.phases if p.span.first == line)
    return [(r.array, r.dim, r.messages, r.cost) for r in phase.cost.routines if r.routine == "Pipeline"]


@pytest.mark.parametrize("describe, line, dim, messages", [
    ("T(*,BLOCK)", 19, 2, 3),     # J walked, 4 blocks of J
    ("T(*,CYCLIC)", 19, 2, 254),  # J = 2..256 walked: every step on another processor
    ("T(BLOCK,*)", 23, 1, 3),     # I walked inside the parallel J loop: one message per boundary
    ("T(CYCLIC,*)", 23, 1, 254),
])
def test_hand_offs_per_sweep(pipe, machine, describe, line, dim, messages):
    plan = pipe.plan(machine, 4)
    (got,) = _pipelines(plan, describe, line)
    assert got[1:] == (dim, messages, pytest.approx(messages * LATENCY))


def test_a_sweep_along_an_undistributed_dimension_hands_nothing_on(pipe, machine):
    plan = pipe.plan(machine, 4)
    assert _pipelines(plan, "T(BLOCK,*)", 19) == []
    assert _pipelines(plan, "T(*,BLOCK)", 23) == []


def test_block_beats_cyclic_on_recurrence_dimensions(pipe, machine):
    plan = pipe.plan(machine, 4)
    totals = {c.describe(): c.total for c in plan.statics}
    assert totals["T(*,BLOCK)"] < totals["T(*,CYCLIC)"] and totals["T(BLOCK,*)"] < totals["T(CYCLIC,*)"]
    assert "CYCLIC" not in plan.static.describe()


def test_the_linear_model_prices_no_latency(pipe):
    plan = pipe.plan(resolve_profile("ddt1997")[0], 4)
    assert _pipelines(plan, "T(*,CYCLIC)", 19) == []
