"""MPI cases: what the runtime moves equals what the cost model predicts.

ADI (scaled down) under its static annotation (shifts in the pipelined
sweeps) and under the dynamic solution for 16 processors (remaps between the
row and column sweeps), at 1, 2, 3 and 4 ranks: per phase, the elements the
most loaded rank receives per execution equal the movement of
``as_written`` (``autodist compare --as-written``); per remap, the elements
per execution equal its ``bytes``; the number of remaps equals the model's
count; and every rank receives exactly what ``phase_needs`` says it needs.
"""

from __future__ import annotations

from tests.runtime.programs import prepared_program, run_text, variant


def _check(comm, name: str) -> None:
    text = variant("adi", name) if comm.Get_rank() == 0 else ""
    _, _, _, ex = run_text(comm, text)
    per_rank = ex.comms.stats.gather(comm, root=0)
    if comm.Get_rank() != 0:
        return
    from autodist.annotate.written import as_written
    from autodist.machine import resolve_profile
    from autodist.mapping.arrays import build_array_table

    program, analysis, _ = prepared_program(text)
    nranks = comm.Get_size()
    machine = resolve_profile(None)[0]
    sol = as_written(analysis, build_array_table(analysis.program), machine, nranks)

    def received(region: str) -> list[int]:
        return [d["regions"].get(region, {}).get("elements_received", 0) for d in per_rank]

    checked = 0
    for ph in sol.phases:
        if ph.kind != "loop":
            continue
        region = f"{ph.procedure}:{ph.phase}"
        runs = ex.executions.get(region, 0)
        assert runs == round(ph.executions), (region, runs, ph.executions)
        got = received(region)
        predicted_worst = sum(n for _, n in ph.cost.elements_per_array)
        assert max(got) == predicted_worst * runs, (region, got, predicted_worst, runs)
        assert got == [n * runs for n in ex.predicted.get(region, [0] * nranks)], (region, got, ex.predicted.get(region))
        checked += predicted_worst > 0
    measured: dict[tuple[str, str, str], tuple[int, int]] = {}
    for region, (_, _, array, src, dst) in ex.remap_log.items():
        runs = ex.executions[region]
        worst = max(received(region)) // runs
        key = (array, src, dst)
        n, w = measured.get(key, (0, worst))
        assert w == worst, (key, w, worst)
        measured[key] = (n + runs, worst)
    predicted: dict[tuple[str, str, str], tuple[float, int]] = {}
    for r in sol.remaps:
        key = (r.name, r.src.distribute_str(), r.dst.distribute_str())
        n, b = predicted.get(key, (0.0, r.bytes))
        assert b == r.bytes
        predicted[key] = (n + r.count, r.bytes)
    assert set(measured) == set(predicted), (sorted(measured), sorted(predicted))
    for key, (n, worst) in measured.items():
        pn, pbytes = predicted[key]
        assert n == round(pn) and worst * 8 == pbytes, (key, n, worst, pn, pbytes)
    if nranks > 1:
        assert checked or measured, "nothing moved: the case would not test anything"


def mpi_case_adi_shifts_measured_as_predicted(comm):
    _check(comm, "static")


def mpi_case_adi_remaps_measured_as_predicted(comm):
    _check(comm, "remapping")


def mpi_case_allreduce_keeps_a_numpy_scalar_a_scalar(comm):
    import numpy as np

    from autodist.runtime.comm.plans import allreduce

    got = allreduce(comm, np.float32(comm.Get_rank() + 0.5), "max")
    assert isinstance(got, np.float32) and np.ndim(got) == 0 and got == comm.Get_size() - 0.5
