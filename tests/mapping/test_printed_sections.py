"""What a WRITE prints through implied DO loops is priced as the elements it
lists, and a strided loop reads every step-th element (issue 12: a WRITE of
part of a column inside a time loop was priced as reading the whole array,
and ``annotate`` replicated everything).

``tests/programs/layouts/printed_columns.f`` prints parts of columns of a
Jacobi grid through implied DO loops (stride 1, a strided nest, bounds
following the outer loop); ``printed_elements.f`` prints the same elements
one per WRITE from explicit DO loops.  Both must cost the same and get the
same layout, with the grid distributed; the sections every processor
receives are checked against the elements enumerated one by one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autodist.cli import main
from autodist.layout.model import BLOCK, COLLAPSED, simple
from autodist.layout.ownership import ownership
from autodist.owner.needs import phase_needs
from autodist.pipeline import Pipeline
from autodist.frontend import read_program

LAYOUTS = Path(__file__).resolve().parent.parent / "programs" / "layouts"
N = 200


def _compare(capsys, name: str, machine: str) -> list[dict]:
    assert main(["compare", "-q", str(LAYOUTS / name), "--procs", "4,16", "--machine", machine,
                 "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)["runs"]


@pytest.mark.parametrize("machine", ["ddt1997", "cluster_ib"])
def test_implied_do_writes_cost_what_explicit_loops_cost(capsys, machine):
    listed = _compare(capsys, "printed_columns.f", machine)
    single = _compare(capsys, "printed_elements.f", machine)
    for a, b in zip(listed, single):
        sa, sb = a["static"], b["static"]
        assert sa["mapping"] == sb["mapping"]
        assert sa["movement"] == pytest.approx(sb["movement"], rel=1e-12)
        assert sa["mapping"]["V"]["distribute"] != "(*,*)", "the grid must not be replicated"


def _enumerated(rank_cols: range) -> dict[str, set[tuple[int, int]]]:
    """The elements printed_columns.f prints in one execution of its
    printing loop that a processor holding columns ``rank_cols`` lacks."""
    v, w = set(), set()
    for j in range(1, 11):
        v |= {(k, j + 1) for k in range(2, 10)}
        v |= {(k, l) for l in (j, j + 1) for k in range(1, 31, 7)}
        w |= {(k, 3) for k in range(j, 2 * j + 1)}
    return {"V": {e for e in v if e[1] not in rank_cols}, "W": {e for e in w if e[1] not in rank_cols}}


@pytest.mark.parametrize("nranks", [2, 4, 16])
def test_printed_sections_are_the_elements_listed(nranks):
    pipe = Pipeline(read_program([LAYOUTS / "printed_columns.f"]))
    proc = pipe.analysis().procedure("PRCOLS")
    printing = [p for p in proc.phases if p.kind == "loop"][-1]
    bounds = ((1, N), (1, N))
    lay = simple(bounds, (COLLAPSED, BLOCK), (nranks,))
    own = ownership(lay, nranks)
    needs = phase_needs(printing, {"V": lay, "W": lay}, {"V": bounds, "W": bounds}, nranks)
    for rank in range(nranks):
        cols = own.owned(rank).sets[1]
        expect = _enumerated(range(cols.lo, cols.hi + 1))
        for name in ("V", "W"):
            got = set()
            for sec in needs.get(name, [[]] * nranks)[rank]:
                rows, columns = sec.sets
                got |= {(i, j) for i in rows.to_array().tolist() for j in columns.to_array().tolist()
                        if not cols.lo <= j <= cols.hi}
            assert got == expect[name], (rank, name)
