"""Reductions into small arrays every processor holds (issue 12): ``RMS(M) =
RMS(M) + ADD*ADD`` over a distributed grid.  Every rank adds its own grid
points; the partial vectors go from rank to rank in the order of the
iterations when the ranks run them one after the other (the reduction loop
distributed BLOCK, outermost), else an all-reduce combines them.  Either way no
rank reads another's part of the grid, and the results are gfortran's.

``tests/programs/layouts/grid_norm.f``: a relaxation sweep over a
5-component grid, then RMS and largest-change vectors summed over the grid in
a subroutine.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from autodist.runtime.job.api import run_file
from tests.conftest import requires_gfortran
from tests.runtime.programs import annotated

SOURCE = (Path(__file__).resolve().parent.parent / "programs" / "layouts" / "grid_norm.f").read_text()
NORMS_LOOP = 2  # the phase of NORMS summing over the grid


def _by_hand(fmt: str) -> str:
    """grid_norm.f with the grids mapped by hand: ``fmt`` distributes their template."""
    lines = SOURCE.splitlines(keepends=True)
    out = []
    for line in lines:
        out.append(line)
        if re.match(r"\s+DOUBLE PRECISION U\(5,N,N,N\)", line):
            out.append("CHPF$ PROCESSORS P(NUMBER_OF_PROCESSORS())\n")
            out.append("CHPF$ TEMPLATE T(5, N, N, N)\n")
            out.append("CHPF$ ALIGN (I, J, K, L) WITH T(I, J, K, L) :: U, V\n")
            out.append(f"CHPF$ DISTRIBUTE T({fmt}) ONTO P\n")
    return "".join(out)


def _reduction_phase(rep):
    phase = rep.phase("NORMS", NORMS_LOOP)
    assert phase.mode in ("distributed", "pipelined"), phase.reason
    return phase


@requires_gfortran
@pytest.mark.parametrize("nranks", [2, 4])
def test_the_annotated_norms_add_on_every_rank_and_match_gfortran(nranks):
    text = annotated(SOURCE, "static", "ddt1997", 4)
    assert not re.search(r"ALIGN.*(RMS|ERRMAX)", text), "the norm vectors stay whole"
    rep = run_file(text, nranks, verify=True)
    assert rep.status == 0, rep.stderr
    assert "same results as gfortran" in rep.stderr
    phase = _reduction_phase(rep)
    # the partial vectors (10 values, 8 executions) and nothing of the grid
    assert all(r.elements_received <= 10 * 8 for r in phase.ranks)


@requires_gfortran
@pytest.mark.parametrize("fmt, mode", [("*, *, *, BLOCK", "pipelined"), ("*, *, BLOCK, *", "distributed"),
                                       ("*, *, CYCLIC, *", "distributed")])
def test_partial_vectors_are_passed_in_order_or_all_reduced(fmt, mode):
    rep = run_file(_by_hand(fmt), 3, verify=True)
    assert rep.status == 0, rep.stderr
    assert "same results as gfortran" in rep.stderr
    phase = _reduction_phase(rep)
    assert phase.mode == mode
    assert all(r.elements_received <= 2 * 10 * 8 for r in phase.ranks)
