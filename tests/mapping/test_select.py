"""Remapping selection: the DDT ADI case, call phases, loops, branches, errors."""

from __future__ import annotations

import pytest

from autodist.errors import SolverError
from autodist.mapping.select import (
    Candidate,
    DpNotApplicable,
    Phase,
    Problem,
    Transition,
    dp_work,
    evaluate,
    select,
    select_dp,
    select_exhaustive,
    select_ilp,
    select_static,
)

ROW, COL = "(BLOCK,*)", "(*,BLOCK)"
# DDT Table 2: movement + computation (s) per execution of phases 4-9 of ADI,
# Solution 1 = (BLOCK,*), Solution 2 = (*,BLOCK).
TABLE2 = {
    4: (0 + 0.022058, 0.006144 + 0.352925),
    5: (0 + 0.000212, 0 + 0.003391),
    6: (0 + 0.011095, 0.004096 + 0.177513),
    7: (0.006144 + 0.324565, 0 + 0.020285),
    8: (0 + 0.002261, 0 + 0.000141),
    9: (0.004096 + 0.177513, 0 + 0.011095),
}
INIT_COST = 0.01  # phases 1-3 (not in Table 2): the same under both mappings
USES = {1: "X", 2: "A", 3: "B", 4: "XAB", 5: "XB", 6: "XAB", 7: "XAB", 8: "XB", 9: "XAB"}
DDT_REMAP = 0.032768  # 256*256/16 elements of 8 bytes at 1 us/byte, per array


def adi(remap=DDT_REMAP):
    """ADI as in DDT §2.1: phases 1-3 once, the loop 4..9 ten times; per array a
    transition between consecutive phases that use it, the back edge 9 -> 4 nine times."""
    phases = []
    for p in range(1, 10):
        costs = TABLE2.get(p, (INIT_COST, INIT_COST))
        candidates = tuple(
            Candidate(name, cost, {a: name for a in USES[p]}) for name, cost in zip((ROW, COL), costs)
        )
        phases.append(Phase(str(p), 10 if p >= 4 else 1, candidates))
    transitions = []
    for a in "XAB":
        seq = [p for p in range(1, 10) if a in USES[p]]
        transitions += [Transition(a, str(s), str(t), 1 if s < 4 else 10) for s, t in zip(seq, seq[1:])]
        transitions.append(Transition(a, "9", "4", 9))

    def cost(array, key_from, key_to):
        assert key_from != key_to
        return remap

    return Problem(tuple(phases), tuple(transitions), cost)


INIT_TOTAL = 3 * INIT_COST


@pytest.mark.parametrize(
    "solve", [select, select_dp, lambda p: select_ilp(p, 10), select_exhaustive], ids=["default", "dp", "ilp", "exhaustive"]
)
def test_adi_dynamic_solution_of_ddt(solve):
    sel = solve(adi())
    assert sel.candidates == (ROW,) * 6 + (COL,) * 3
    # DDT §2.1: (10*0.064886) + (10*3*0.032768) + (9*3*0.032768) = 2.516636 for the loop.
    assert sel.total - INIT_TOTAL == pytest.approx(2.516636, abs=1e-9)
    assert sel.phase_cost - INIT_TOTAL == pytest.approx(10 * 0.064886, abs=1e-9)
    assert sel.remap_cost == pytest.approx((10 + 9) * 3 * DDT_REMAP)
    before = {(r.array, r.target, r.key_from, r.key_to, r.count) for r in sel.remaps}
    assert before == {(a, "7", ROW, COL, 10) for a in "XAB"} | {(a, "4", COL, ROW, 9) for a in "XAB"}
    assert all(r.cost == pytest.approx(r.count * DDT_REMAP) for r in sel.remaps)
    assert sel.optimal


def test_adi_default_uses_dp_and_says_so():
    sel = select(adi())
    assert sel.method == "dp" and "back edges" in sel.note and sel.solve is None


def test_adi_ilp_reports_the_solver():
    sel = select_ilp(adi(), 10)
    assert sel.method == "ilp"
    assert sel.solve.status == "optimal" and sel.solve.gap == pytest.approx(0, abs=1e-9)
    assert sel.solve.objective == pytest.approx(sel.total)


@pytest.mark.parametrize("static", [False, True])
def test_the_ilp_on_cbc_equals_the_ilp_on_highs(static):
    from autodist.solvers import available_solvers

    if "CBC" not in available_solvers():
        pytest.skip("CBC is not installed")
    highs, cbc = select_ilp(adi(), 10, static=static), select_ilp(adi(), 10, static=static, solver="CBC")
    assert cbc.solve.solver == "CBC" and cbc.solve.status == "optimal"
    assert cbc.total == pytest.approx(highs.total) and cbc.solve.objective == pytest.approx(highs.solve.objective)


def test_adi_static_solutions_of_ddt():
    problem = adi()
    static = select_static(problem)
    assert static.candidates == (ROW,) * 9 and static.remaps == ()
    assert dict(static.layouts) == {"X": ROW, "A": ROW, "B": ROW}
    # DDT §2.1: 5.47944 for the loop with Solution 1 everywhere, 5.7559 with Solution 2.
    assert static.total - INIT_TOTAL == pytest.approx(5.47944, abs=1e-9)
    phase_cost, remap_cost, _ = evaluate(problem, [1] * 9)
    assert phase_cost - INIT_TOTAL == pytest.approx(5.7559, abs=1e-9) and remap_cost == 0
    assert select_exhaustive(problem, static=True).total == pytest.approx(static.total)


def test_adi_expensive_remaps_make_the_static_solution_best():
    sel = select(adi(remap=1.0))
    assert sel.candidates == (ROW,) * 9 and sel.remap_cost == 0


def test_call_phase_leaves_another_mapping():
    """A call phase that takes X by rows and leaves it by columns (FORGE-style)."""
    phases = (
        Phase("call", 1, (Candidate("rows-in", 1.0, {"X": ROW}, exits={"X": COL}),)),
        Phase("after", 1, (Candidate("rows", 1.0, {"X": ROW}), Candidate("cols", 1.5, {"X": COL}))),
    )
    problem = Problem(phases, (Transition("X", "call", "after", 1),), lambda a, k, l: 1.0)
    sel = select(problem)
    assert sel.candidates == ("rows-in", "cols")  # 1.5 beats 1.0 + a remap of 1.0
    assert sel.total == pytest.approx(2.5)
    with pytest.raises(SolverError, match="no static solution"):
        select_static(problem)
    with pytest.raises(SolverError, match="no static solution"):
        select_exhaustive(problem, static=True)


def test_self_loop_prices_exit_to_entry():
    """One call phase in a loop of 5 trips: its exit mapping comes back to its entry 4 times."""
    phases = (
        Phase("p", 5, (
            Candidate("changes", 1.0, {"X": ROW}, exits={"X": COL}),
            Candidate("keeps", 1.3, {"X": ROW}),
        )),
    )
    problem = Problem(phases, (Transition("X", "p", "p", 4),), lambda a, k, l: 0.1)
    for sel in (select_dp(problem), select_ilp(problem, 10), select_exhaustive(problem)):
        # changes: 5*1.0 + 4*0.1 = 5.4; keeps: 5*1.3 = 6.5
        assert sel.candidates == ("changes",) and sel.total == pytest.approx(5.4)
        assert [(r.source, r.target, r.count) for r in sel.remaps] == [("p", "p", 4)]


def branch_problem(p_then: float) -> Problem:
    """start -> then (p) | else (1-p) -> join, all using X; 'then' prefers rows,
    'else' columns; start and join are indifferent."""
    def phase(name, freq, rows, cols):
        return Phase(name, freq, (Candidate(ROW, rows, {"X": ROW}), Candidate(COL, cols, {"X": COL})))

    phases = (
        phase("start", 1, 1, 1),
        phase("then", p_then, 1, 5),
        phase("else", 1 - p_then, 5, 1),
        phase("join", 1, 1, 1),
    )
    trans = (
        Transition("X", "start", "then", p_then),
        Transition("X", "start", "else", 1 - p_then),
        Transition("X", "then", "join", p_then),
        Transition("X", "else", "join", 1 - p_then),
    )
    return Problem(phases, trans, lambda a, k, l: 1.5)


def test_branch_probability_changes_the_choice():
    chosen = []
    for p in (0.0, 0.2, 0.5, 0.8, 1.0):
        problem = branch_problem(p)
        sel = select(problem)
        assert sel.total == pytest.approx(select_exhaustive(problem).total)
        assert sel.total == pytest.approx(select_ilp(problem, 10).total)
        chosen.append(sel.candidates[0])
    assert chosen[0] == COL and chosen[-1] == ROW


def test_dp_refuses_a_wide_frontier_and_default_falls_back_to_ilp():
    """Eight phases each write their own array, a last phase reads them all: the
    layouts of all eight are in flight at once (2**8 states before the last phase)."""
    arrays = [f"A{i}" for i in range(8)]

    def two(name, uses, bias):
        return Phase(name, 1, (Candidate(ROW, 1.0 + bias, {a: ROW for a in uses}),
                               Candidate(COL, 1.0 - bias, {a: COL for a in uses})))

    phases = [two(f"w{i}", [a], 0.1 * (-1) ** i) for i, a in enumerate(arrays)]
    phases.append(two("last", arrays, 0.0))
    trans = tuple(Transition(a, f"w{i}", "last", 1) for i, a in enumerate(arrays))
    problem = Problem(tuple(phases), trans, lambda a, k, l: 0.15)
    # Widest: 2**8 states times 2 candidates at "last"; in all 2 + 4 + ... + 256 + 512.
    assert dp_work(problem) == (512, sum(2 ** (i + 1) for i in range(8)) + 512)
    with pytest.raises(DpNotApplicable, match="states"):
        select_dp(problem, max_work=1000)
    sel = select(problem, dp_budget=1000)
    assert sel.method == "ilp" and "states" in sel.note
    exact = select_exhaustive(problem)
    assert sel.total == pytest.approx(exact.total)
    assert select_dp(problem).total == pytest.approx(exact.total)
    assert select(problem).method == "dp"


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda c: Problem((Phase("p", 1, (c,)),), (Transition("X", "p", "q", 1),)), "unknown phase q"),
        (lambda c: Problem((Phase("p", 1, (c,)),), (Transition("Y", "p", "p", 1),)), "no layout for Y"),
        (lambda c: Problem((Phase("p", 1, (c,)), Phase("p", 1, (c,)))), "share a name"),
        (lambda c: Phase("p", 1, ()), "no candidate"),
        (lambda c: Candidate("bad", -1.0, {"X": ROW}), "cost"),
        (lambda c: Candidate("bad", 1.0, {"X": ROW}, exits={"Y": ROW}), "unused array"),
        (lambda c: Transition("X", "p", "p", -2), "frequency"),
    ],
)
def test_problem_validation(build, message):
    with pytest.raises(ValueError, match=message):
        build(Candidate("c", 1.0, {"X": ROW}))


def test_candidate_accessors():
    c = Candidate("c", 1.0, {"B": COL, "A": ROW}, exits={"B": ROW})
    assert c.arrays == ("A", "B")
    assert (c.entry("B"), c.exit("B"), c.exit("A")) == (COL, ROW, ROW)
    with pytest.raises(KeyError):
        c.entry("Z")


def test_remap_cost_must_be_sane():
    problem = branch_problem(0.5)
    bad = Problem(problem.phases, problem.transitions, lambda a, k, l: float("nan"))
    with pytest.raises(ValueError, match="remap cost"):
        select_dp(bad)
