"""Phase frequencies and transitions over control flow."""

from __future__ import annotations

import json

import pytest

from autodist.analysis import AnalysisOptions, analyze
from autodist.analysis.profiledata import load_profile_data
from autodist.frontend import read_text

from ..conftest import PROGRAMS

TWO_BRANCHES = (PROGRAMS / "two_branches.f").read_text()  # the IF is on line 9


def flow_of(text, **opts):
    an = analyze(read_text(text, "t.f"), AnalysisOptions(**opts))
    return an.procedures[0]


def test_branches_default_to_half():
    proc = flow_of(TWO_BRANCHES)
    assert [proc.flow.execution(p) for p in (1, 2, 3)] == [1, 0.5, 0.5]
    t = {(x.source, x.target): x.count for x in proc.flow.transitions}
    assert t[(1, 2)] == 0.5 and t[(1, 3)] == 0.5


def test_branch_probability_from_the_options():
    proc = flow_of(TWO_BRANCHES, branch_probability=0.9)
    assert proc.flow.execution(2) == pytest.approx(0.9)
    assert proc.flow.execution(3) == pytest.approx(0.1)


def test_branch_probability_from_a_profile(tmp_path):
    data = {"version": 1, "branches": {"t.f:9": {"taken": 0.25, "evaluations": 4}}, "loops": {}}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    proc = flow_of(TWO_BRANCHES, profile=load_profile_data(path))
    assert proc.flow.execution(2) == pytest.approx(0.25)
    assert proc.flow.execution(3) == pytest.approx(0.75)


def test_decidable_condition_on_the_loop_index_splits_the_loop():
    text = """
      PROGRAM D
      REAL A(100)
      DO 50 NC = 1, 10
         IF (NC .LE. 1) THEN
            DO 10 I = 1, 100
   10       A(I) = 0.0
         ELSE
            DO 20 I = 1, 100
   20       A(I) = A(I) + 1.0
         ENDIF
         DO 30 I = 1, 100
   30    A(I) = A(I) * 0.5
   50 CONTINUE
      END
"""
    proc = flow_of(text)
    assert [proc.flow.execution(p) for p in (1, 2, 3)] == [1, 9, 10]
    t = {(x.source, x.target): x.count for x in proc.flow.transitions}
    assert t[(1, 3)] == 1 and t[(2, 3)] == 9
    assert t[(3, 2)] == 9 and (3, 1) not in t


def test_goto_loops_and_skips_are_weighted():
    text = """
      PROGRAM G
      REAL A(100)
      K = 0
    5 K = K + 1
      DO 10 I = 1, 100
   10 A(I) = A(I) + K
      IF (K .LT. 20) GOTO 5
      IF (A(1) .GT. 3.0) GOTO 30
      DO 20 I = 1, 100
   20 A(I) = 0.0
   30 CONTINUE
      END
"""
    proc = flow_of(text, default_trip_count=20)
    assert proc.flow.execution(1) == pytest.approx(20)
    assert proc.flow.execution(2) == pytest.approx(0.5)
    assert any("GOTO loop" in a for a in proc.flow.assumptions)


def test_a_goto_loop_left_only_from_inside_a_do_runs_a_finite_number_of_times():
    """A GOTO loop whose one exit is a jump out of the DO loop inside it (a
    search loop, as in SPARSEPAK's QMDQT): the DO is left there as often as an
    IF is taken, so the GOTO loop runs 1 / p times, not forever (the
    frequencies were negative, an internal error in the selection)."""
    text = """
      SUBROUTINE S(A, N, M)
      INTEGER A(*), N, M, J, K
      K = 1
  100 DO J = 1, N
        A(J) = A(J) + K
        IF (A(J) .GE. M) GO TO 400
      END DO
      K = K + 1
      GO TO 100
  400 A(1) = 0
      END
"""
    proc = flow_of(text, branch_probability=0.25)
    assert proc.flow.execution(1) == pytest.approx(4.0)  # expected visits of a loop left with p = 1/4
    assert all(t.count >= 0 for t in proc.flow.transitions)


def test_unknown_trip_counts_are_assumed_and_said():
    text = """
      SUBROUTINE S(A, N)
      REAL A(N)
      DO 10 I = 1, N
   10 A(I) = 0.0
      END
"""
    an = analyze(read_text(text, "s.f"), AnalysisOptions(default_trip_count=7))
    lp = an.procedures[0].phases[0].loops[0]
    assert lp.trip_count == 7 and not lp.trip_known


JUMPY = """\
      PROGRAM J
      INTEGER N, I, K
      PARAMETER (N=10)
      REAL A(N), B(N), S
      S = 0.0
      K = 0
   5  CONTINUE
      DO 10 I = 2, N
        A(I) = B(I-1) + 1.0
   10 CONTINUE
      IF (S .GT. 5.0) GOTO 30
      DO 20 I = 1, N
        B(I) = A(I) * 2.0
   20 CONTINUE
      GOTO (30, 40) K
      S = S + 1.0
   30 CONTINUE
      IF (A(1) .LT. 0.0) THEN
        B(1) = S
      END IF
      IF (S .LT. 100.0) GOTO 5
   40 CONTINUE
      DO 50 I = 1, N
        A(I) = B(I) + S
   50 CONTINUE
      END
"""


def _flow_facts(proc):
    f = proc.flow
    return ({p.id: f.execution(p.id) for p in proc.phases},
            {(t.source, t.target): t.count for t in f.transitions})


def test_sparse_chain_equals_the_dense_one(monkeypatch):
    """The chain solved sparse (long lists) gives the dense solution's numbers."""
    from autodist.analysis import controlflow

    dense = _flow_facts(flow_of(JUMPY))
    monkeypatch.setattr(controlflow, "SPARSE_FROM", 0)
    sparse = _flow_facts(flow_of(JUMPY))
    assert dense[0].keys() == sparse[0].keys() and dense[1].keys() == sparse[1].keys()
    for a, b in zip(dense, sparse):
        for k in a:
            assert b[k] == pytest.approx(a[k], rel=1e-9), k


def test_straight_runs_between_jumps_compose_exactly():
    """Phases between jumps run in sequence: 1 -> 2 inside one run of the chain,
    with the entry and loop-back counts the GOTO loop gives."""
    text = JUMPY.replace("      GOTO (30, 40) K\n", "")
    ex, trans = _flow_facts(flow_of(text, default_trip_count=4))
    # the backward IF-GOTO closes a loop of 4 assumed trips around phases 1 and 2
    assert ex[1] == pytest.approx(4.0)
    assert trans[(0, 1)] == pytest.approx(1.0)
    assert sum(c for (s, t), c in trans.items() if t == 1 and s != 0) == pytest.approx(3.0)
    assert ex[2] == pytest.approx(2.0)  # skipped by the forward IF-GOTO half of the time
    assert ex[3] == pytest.approx(1.0)
