"""The chain of dependent operations an innermost loop carries (exact latency units)."""

from __future__ import annotations

import pytest

from autodist.analysis import analyze
from autodist.analysis.recurrence import DIVIDE_LATENCY
from autodist.calibrate.kernels import RECURRENCES
from autodist.frontend import read_program, read_text

from ..conftest import SAMPLES


def chains(body: str, decl: str = "") -> list[tuple[int, int]]:
    """(line, chain) of every statement of the program's phases, lines counted
    from the first line of ``body``."""
    head = ["      PROGRAM R", "      INTEGER N", "      PARAMETER (N = 50)",
            "      DOUBLE PRECISION X(N), Y(N), A(N), B(N), U(N,N), S, T"]
    head += [f"      {d}" for d in decl.splitlines() if d]
    text = "\n".join(head + body.strip("\n").splitlines() + ["      PRINT *, X(1), Y(1), S, T, U(1,1)",
                                                              "      END"]) + "\n"
    an = analyze(read_text(text, "r.f"))
    first = len(head) + 1
    return [(p.line - first + 1, p.chain) for ph in an.procedures[0].phases for p in ph.patterns
            if not p.output]


def test_a_first_order_recurrence_waits_for_the_multiply_divide_and_subtract():
    got = chains("""
      DO I = 2, N
         X(I) = X(I) - X(I-1) * A(I) / B(I)
      END DO""")
    assert got == [(2, 1 + DIVIDE_LATENCY + 1)]


def test_a_loop_going_down_carries_what_it_reads_above():
    got = chains("""
      DO I = N - 1, 1, -1
         X(I) = (X(I) - A(I) * X(I+1)) / B(I)
      END DO""")
    assert got == [(2, 1 + 1 + DIVIDE_LATENCY)]


def test_reading_ahead_in_a_loop_going_up_carries_nothing():
    """X(I+1) is read before any iteration writes it: an anti dependence, no chain."""
    assert chains("""
      DO I = 1, N - 1
         X(I) = X(I+1) * A(I) + B(I)
      END DO""") == [(2, 0)]


def test_a_reduction_carries_its_one_operation():
    got = chains("""
      S = 0
      DO I = 1, N
         S = S + X(I) * A(I) / B(I)
      END DO""")
    assert (3, 1) in got


def test_a_max_reduction_carries_the_max_only():
    got = chains("""
      T = 0
      DO I = 1, N
         T = MAX(T, ABS(X(I) - A(I)))
      END DO""")
    assert (3, 1) in got


def test_a_scalar_assigned_before_it_is_read_carries_nothing():
    got = chains("""
      DO I = 1, N
         T = X(I) * A(I)
         Y(I) = T / B(I)
      END DO""")
    assert got == [(2, 0), (3, 0)]


def test_a_recurrence_of_the_outer_loop_leaves_the_inner_loop_free():
    """The column sweep of ADI: J carries, I (innermost) does not."""
    got = chains("""
      DO J = 2, N
         DO I = 1, N
            U(I,J) = U(I,J) - U(I,J-1) * A(I) / B(I)
         END DO
      END DO""")
    assert got == [(3, 0)]


def test_the_loop_waits_for_its_longest_chain_once():
    """Two coupled recurrences run side by side: the loop holds the longest, on one statement."""
    got = chains("""
      DO I = 2, N
         X(I) = X(I) - X(I-1) * A(I) / Y(I-1)
         Y(I) = Y(I) - A(I) * A(I) / Y(I-1)
      END DO""")
    assert got == [(2, 1 + DIVIDE_LATENCY + 1), (3, 0)]


def test_a_distance_that_does_not_divide_the_step_carries_nothing():
    assert chains("""
      DO I = 3, N, 2
         X(I) = X(I-1) * A(I)
      END DO""") == [(2, 0)]


def test_the_samples_chains():
    """ADI's row sweeps carry a chain along I (the innermost loop); its column
    sweeps carry theirs along J (outer) and none; Jacobi's residual its MAX."""
    want = {"adi": {"ADI:7": 6, "ADI:9": 6}, "jacobi": {"JACOBI:4": 1, "JACOBI:6": 1}}
    for name, expected in want.items():
        an = analyze(read_program([SAMPLES / f"{name}.f"]))
        got = {ph.key: sum(p.chain for p in ph.patterns) for ph in an.procedures[0].phases}
        assert {k: v for k, v in got.items() if v} == expected


@pytest.mark.parametrize("loop", RECURRENCES, ids=lambda r: r.name)
def test_the_calibration_recurrences_carry_what_they_say(loop):
    """calibrate divides by the chains it states: they are the analysis's."""
    before = f"      {loop.before}\n" if loop.before else ""
    got = chains(before + f"      DO I = 2, N\n         {loop.body}\n      END DO\n")
    pat = got[-1]
    assert pat[1] == loop.chain
    an = analyze(read_text("\n".join([
        "      PROGRAM R", "      INTEGER N", "      PARAMETER (N = 50)",
        "      DOUBLE PRECISION X(N), Y(N), A(N), B(N), S", before.rstrip("\n"),
        "      DO I = 2, N", f"         {loop.body}", "      END DO", "      PRINT *, Y(1), S", "      END"]) + "\n",
        "r.f"))
    p = [p for ph in an.procedures[0].phases for p in ph.patterns if not p.output][-1]
    assert (p.flops, p.accesses) == (loop.flops, loop.accesses)


def test_the_calibration_kernels_count_what_the_analysis_counts():
    """calibrate splits the kernels' times by their flops and accesses: the
    model prices a loop by the analysis's counts, so they must be the same."""
    from autodist.calibrate.bench import KERNELS
    from autodist.calibrate.kernels import BODIES

    for body, kernel in zip(BODIES, KERNELS):
        an = analyze(read_text("\n".join([
            "      PROGRAM R", "      INTEGER N", "      PARAMETER (N = 50)",
            "      DOUBLE PRECISION X(N), Y(N), A(N), B(N)", "      DO I = 2, N", f"         {body}", "      END DO",
            "      PRINT *, Y(1)", "      END"]) + "\n", "r.f"))
        p = [p for ph in an.procedures[0].phases for p in ph.patterns if not p.output][-1]
        assert (p.flops, p.accesses, p.chain) == (kernel.flops, kernel.accesses, 0), body
