"""Coarse-grain pipelines in the cost model (:mod:`autodist.mapping.pipelines`).

On ``recurrences.f`` (a recurrence along each dimension of a 256x256 grid)
distributed BLOCK along the walked dimension on 4 processors, each sweep can
run in blocks of its parallel loop: the model prices ``(nb + 3) * (w/nb + L)``
with the best ``nb`` instead of the four processors one after the other, and
says so with ``nb + 3`` messages in the sweep's Pipeline row.  CYCLIC, a
profile with ``pipeline: false`` (ddt1997's, DDT's own model) and a sweep
whose blocks would need values the processor before has not computed
(``wavefronts.f``) stay serialized.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from autodist.annotate.written import as_written
from autodist.frontend import read_program
from autodist.machine import load_profile, resolve_profile
from autodist.mapping.pipelines import best_blocks
from autodist.pipeline import Pipeline

PROGRAMS = Path(__file__).resolve().parent.parent / "programs"
LATENCY = 2.0e-6
FLOP = ACCESS = 1.0e-9


@pytest.mark.parametrize("work, stages, latency, most", list(itertools.product(
    (0.0, 1e-6, 3e-4, 0.2), (1, 2, 4, 16), (0.0, 1e-7, 2e-6, 1e-3), (1, 3, 37, 256))))
def test_best_blocks_is_the_exhaustive_minimum(work, stages, latency, most):
    def time(nb):
        return (nb + stages - 1) * (work / nb + latency)

    nb = best_blocks(work, stages, latency, most)
    assert 1 <= nb <= most
    assert time(nb) == pytest.approx(min(time(k) for k in range(1, most + 1)), rel=1e-12, abs=1e-18)


def _profile(tmp_path, pipeline: bool, latency: float = LATENCY):
    p = tmp_path / f"latency{pipeline}{latency}.yaml"
    p.write_text("name: latency\nprocessors: 4\ncommunication_model: latency_bandwidth\n"
                 f"remote_access_time: 1.0e-9\nlatency: {latency}\nbandwidth: 1.0e10\nflop_time: {FLOP}\n"
                 f"memory_access_time: {ACCESS}\ndistributions: [BLOCK, CYCLIC]\npipeline: {str(pipeline).lower()}\n")
    return load_profile(p)


@pytest.fixture(scope="module")
def recur():
    return Pipeline(read_program([PROGRAMS / "layouts" / "recurrences.f"]))


def _phase(plan, describe: str, line: int):
    cand = next(c for c in plan.statics if c.describe() == describe)
    return next(p for p in cand.evaluation.phases if p.span.first == line)


def _messages(phase) -> list[int]:
    return [r.messages for r in phase.cost.routines if r.routine == "Pipeline"]


@pytest.mark.parametrize("describe, line", [("T(*,BLOCK)", 19), ("T(BLOCK,*)", 23)])
def test_a_sweep_along_a_block_dimension_is_priced_as_a_pipeline(recur, tmp_path, describe, line):
    piped = _phase(recur.plan(_profile(tmp_path, True), 4), describe, line)
    serial = _phase(recur.plan(_profile(tmp_path, False), 4), describe, line)
    (pattern,) = [p for p in recur.analysis(_profile(tmp_path, True)).procedure("RECUR").phases
                  if p.loops[0].line == line][0].patterns
    # the most loaded processor: 64 of the walked points (the sweep starts at 2: 63 on the first)
    # times the 256 of the parallel loop
    w = 64 * 256 * (pattern.flops * FLOP + pattern.accesses * ACCESS)
    nb = best_blocks(w, 4, LATENCY, 256)
    assert 1 < nb < 256
    assert piped.cost.computation == pytest.approx(w * (nb + 3) / nb)
    assert _messages(piped) == [nb + 3] and _messages(serial) == [3]
    assert piped.cost.total < serial.cost.total
    assert serial.cost.computation == pytest.approx(
        (63 + 3 * 64) * 256 * (pattern.flops * FLOP + pattern.accesses * ACCESS))


def test_cyclic_and_the_linear_model_stay_serialized(recur, tmp_path):
    plan = recur.plan(_profile(tmp_path, True), 4)
    assert _messages(_phase(plan, "T(*,CYCLIC)", 19)) == [254]
    ddt = resolve_profile("ddt1997")[0]
    assert ddt.pipeline is False
    assert _messages(_phase(recur.plan(ddt, 4), "T(*,BLOCK)", 19)) == []


def test_the_static_solution_gains_from_the_pipelines(recur, tmp_path):
    piped = recur.plan(_profile(tmp_path, True), 4).static
    serial = recur.plan(_profile(tmp_path, False), 4).static
    assert piped.total < serial.total


def test_a_sweep_whose_blocks_would_read_ahead_stays_serialized(tmp_path):
    """wavefronts.f line 50: Z(I,J) reads Z(I+1,J-1), a value of the next block
    on the processor before (the runtime runs it whole too); the sweeps at
    lines 28, 38 and the SSOR wavefront at 55 are pipelines where messages cost little against their
    work (37x37 points: at 2 us a message they run serialized)."""
    pipe = Pipeline(read_program([PROGRAMS / "pipeline" / "wavefronts.f"]))
    machine = _profile(tmp_path, True, latency=1.0e-9)
    sol = as_written(pipe.analysis(machine), pipe.arrays(machine), machine, 4, pipe.evaluator(machine, 4))
    msgs = {p.span.first: _messages(p) for p in sol.phases if p.span.first in (28, 38, 50, 55)}
    assert msgs[50] == [3], msgs
    assert all(m and m[0] > 3 for line, m in msgs.items() if line != 50), msgs
