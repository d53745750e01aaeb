"""Exact phase and loop expectations on the bundled samples."""

from __future__ import annotations

import pytest

from autodist.analysis import analyze
from autodist.frontend import read_program

from ..conftest import SAMPLES


@pytest.fixture(scope="module")
def analyses():
    return {name: analyze(read_program([SAMPLES / f"{name}.f"]))
            for name in ("adi", "jacobi", "transpose", "shallow", "tred2", "rhs")}


def loops(phase):
    return [(lp.var, lp.parallel) for lp in phase.loops]


def test_adi_has_nine_phases_with_ddt_parallelism(analyses):
    proc = analyses["adi"].procedure("ADI")
    assert len(proc.phases) == 9
    assert all(p.kind == "loop" for p in proc.phases)
    # initialisation: both loops parallel
    for p in proc.phases[:3]:
        assert loops(p) == [("J", True), ("I", True)]
    # row sweeps: parallel in I, sequential in J; column sweeps the reverse
    assert loops(proc.phase(4)) == [("J", False), ("I", True)]
    assert loops(proc.phase(5)) == [("I", True)]
    assert loops(proc.phase(6)) == [("J", False), ("I", True)]
    assert loops(proc.phase(7)) == [("J", True), ("I", False)]
    assert loops(proc.phase(8)) == [("J", True)]
    assert loops(proc.phase(9)) == [("J", True), ("I", False)]
    assert "distance 1" in proc.phase(4).loops[0].reason
    assert "X(I,J-1)" in proc.phase(4).loops[0].reason
    assert [(p.span.first, p.span.last) for p in proc.phases][3:] == [
        (39, 43), (45, 47), (49, 52), (55, 59), (61, 63), (65, 68)]


def test_adi_trip_counts_and_operations(analyses):
    proc = analyses["adi"].procedure("ADI")
    j, i = proc.phase(4).loops
    assert (j.trip_count, i.trip_count) == (255, 256)
    assert j.trip_known and i.trip_known
    # 6 flops on each of 255 x 256 points (DDT's forward row sweep)
    assert proc.phase(4).flops == 6 * 255 * 256
    assert proc.phase(6).flops == 3 * 255 * 256
    assert proc.phase(5).flops == 256
    assert proc.phase(4).reads == ("X", "A", "B")
    assert proc.phase(4).writes == ("X", "B")


def test_adi_control_flow_counts_back_edges(analyses):
    flow = analyses["adi"].procedure("ADI").flow
    counts = {(t.source, t.target): t.count for t in flow.transitions}
    assert counts[(3, 4)] == 1
    assert counts[(6, 7)] == 10  # the column sweeps follow the row sweeps 10 times
    assert counts[(9, 4)] == 9  # the row sweeps follow the column sweeps 9 times
    assert counts[(9, 0)] == 1
    assert [flow.execution(p) for p in range(1, 10)] == [1, 1, 1] + [10] * 6


def test_jacobi_reductions_and_parallel_stencil(analyses):
    proc = analyses["jacobi"].procedures[0]
    residual = [p for p in proc.phases if any(lp.reductions for lp in p.loops)]
    assert residual, "the residual loop is a reduction"
    assert all(lp.parallel for p in proc.phases for lp in p.loops)
    ops = {op for p in residual for lp in p.loops for _, op in lp.reductions}
    assert ops <= {"max", "+"}


def test_transpose_triangle_is_parallel_with_private_temporary(analyses):
    proc = analyses["transpose"].procedures[0]
    swap = proc.phase(2)
    assert loops(swap) == [("I", True), ("J", True)]
    assert swap.loops[0].private == ("T",)
    assert swap.loops[1].bounds == "I+1, 100"
    assert swap.loops[1].trip_count == pytest.approx(50)


def test_shallow_call_phases_and_first_cycle_branch(analyses):
    an = analyses["shallow"]
    main = an.procedure("SHALOW")
    kinds = [(p.kind, p.callee) for p in main.phases]
    assert kinds[:5] == [("call", "INITAL"), ("call", "CALC1"), ("call", "CALC2"),
                         ("call", "CALC3Z"), ("call", "CALC3")]
    itmax = main.flow.execution(2)
    # CALC3Z runs on the first cycle only, CALC3 on the others
    assert main.flow.execution(4) == 1
    assert main.flow.execution(5) == itmax - 1
    counts = {(t.source, t.target): t.count for t in main.flow.transitions}
    assert counts[(4, 2)] == 1 and counts[(5, 2)] == itmax - 2
    # COMMON arrays the callees use are arrays of the call phases
    assert {"U", "V", "P"} <= set(main.phase(2).reads)
    assert {"CU", "CV", "Z", "H"} <= set(main.phase(2).writes)
    assert an.procedure("CALC1").invocations == itmax
    assert ("SHALOW", "CALC1") in an.call_graph


def test_tred2_constants_flow_into_the_callee(analyses):
    an = analyses["tred2"]
    proc = an.procedure("TRED2")
    first = proc.phase(1)
    assert [lp.bounds for lp in first.loops] == ["1, 64", "J, 64"]
    assert all(lp.trip_known for p in proc.phases for lp in p.loops)
    assert an.procedure("TRED2").invocations == 1


def test_rhs_array_reduction_over_the_grid(analyses):
    main = analyses["rhs"].procedure("RHSDRV")
    norm = [p for p in main.phases if "RNORM" in p.writes and p.loops and len(p.loops) == 4][0]
    k = norm.loops[0]
    assert k.parallel and ("RNORM(M)", "+") in k.reductions
