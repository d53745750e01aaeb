"""autodist under hostile and careless input, through every command.

Each test draws cases of one kind (see :mod:`tests.hostile.cases`) and holds
autodist to its promise: exit 0, or 2 with one clear line (1 only for a
``--verify`` mismatch, which must never happen); no traceback, no internal
error; every input byte-identical; no partial output; an end within the
bound.  ``python -m tests.hostile.fuzz`` runs the same cases by the thousand.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ..conftest import requires_gfortran
from .cases import case
from .check import execute, judge

SEEDS = st.integers(min_value=0, max_value=10**9)


def _holds(kind: str, seed: int) -> None:
    c = case(kind, seed)
    out = execute(c)
    bad = judge(c, out)
    assert bad is None, f"{bad}: {c.describe()} -> exit {out.status}: {out.stderr.strip()[:500]}"


def _examples(n: int):
    return settings(max_examples=n, derandomize=True, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))


def _draw(kind: str, examples: int) -> None:
    @_examples(examples)
    @given(seed=SEEDS)
    def holds(seed):
        _holds(kind, seed)

    holds()


@pytest.mark.parametrize("kind,examples", [("analyze", 8), ("annotate", 5), ("compare", 3), ("sweep", 2),
                                           ("machine", 6), ("options", 8), ("outputs", 6)])
def test_static_commands_hold_under_hostile_input(kind, examples):
    _draw(kind, examples)


@requires_gfortran
@pytest.mark.mpi
@pytest.mark.parametrize("kind,examples", [("run", 4), ("profile", 2)])
def test_running_commands_hold_and_match_gfortran_under_hostile_input(kind, examples):
    _draw(kind, examples)


def test_the_judge_sees_each_kind_of_failure():
    from .check import Outcome

    c = case("annotate", 0)

    def out(status, stderr="", changed=(), left=()):
        return Outcome(status, b"", stderr, 1.0, changed, left)

    assert judge(c, out(0)) is None
    assert judge(c, out(2, "autodist: error: prog.f:3: bad\n")) is None
    assert judge(c, out(None)) == "hang"
    assert judge(c, out(1, "autodist: verify: MISMATCH with gfortran: A(3)\n")) == "wrong result"
    assert judge(c, out(3, "autodist: internal error: KeyError: 'x'\n")) == "internal error"
    assert judge(c, out(2, "Traceback (most recent call last):\n")) == "internal error"
    assert judge(c, out(2, "autodist: error: one\nautodist: error: two\n")) == "unclear error"
    assert judge(c, out(2, "")) == "unclear error"
    assert judge(c, out(0, changed=("prog.f",))) == "input changed"
    assert judge(c, out(2, "autodist: error: no\n", left=("out.f",))) == "partial output"
