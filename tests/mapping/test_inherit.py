"""Element actuals whose dummies stay in the leading dimensions (issue 12,
item 1): ``CALL SCALE(U(1,I,J), R(1,I,J))`` into ``X(5)``, ``Y(5)`` and
``CALL BINVRHS(LHS(1,1,2,I), RHS(1,I,J))`` into ``A(5,5)``, ``R(5)``.

The programs under ``tests/programs/inherit`` state the layout an HPF expert
writes: the grids BLOCK along a grid dimension, never the component dimension
nor the 5x5 block, each call running where its element lives (the dummies
inherit the block).  Asserted at 4 and 16 processors on every bundled
profile, with the loops around the calls parallel, the report saying why
the dummies (and only they) are replicated, and the annotated programs
running on 2 and 4 ranks with the results of gfortran.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from autodist import ir
from autodist.analysis.actuals import covered_dims, dummy_size
from autodist.frontend import read_program
from autodist.machine import resolve_profile
from autodist.pipeline import Pipeline
from tests.conftest import requires_gfortran

HERE = Path(__file__).resolve().parent.parent / "programs" / "inherit"
PROFILES = ("ddt1997", "cluster_ib", "manycore_smp")
#: program -> (grid arrays, their component dimensions (0-based), the blocks' arrays and
#: their block dimensions, the work arrays private to the loops around the calls)
PROGRAMS = {
    "element_actuals.f": ({"U": 1, "R": 1}, {}, set()),
    # LHS is rebuilt for every line J: private to the J loop, not distributed
    "block_solve.f": ({"U": 1, "RHS": 1}, {}, {"LHS"}),
}


def cli(*args, cwd=None, timeout=600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "autodist", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd)


@pytest.fixture(scope="module")
def pipelines():
    return {name: Pipeline(read_program([HERE / name])) for name in PROGRAMS}


def _layouts(sol, array: str):
    out = {dict(p.mapping.layouts)[array] for p in sol.phases if array in dict(p.mapping.layouts)}
    out |= {dict(m.layouts)[array] for _, m in sol.entry if array in dict(m.layouts)}
    return out


@pytest.mark.parametrize("procs", [4, 16])
@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_grids_distributed_along_a_grid_dimension(pipelines, name, profile, procs):
    grids, blocks, _private = PROGRAMS[name]
    plan = pipelines[name].plan(resolve_profile(profile)[0], procs)
    for sol in (plan.static, plan.solution(plan.chosen)):
        for array, leading in {**grids, **blocks}.items():
            lays = _layouts(sol, array)
            assert lays, (array, sol.describe())
            for lay in lays:
                dims = lay.distributed_dims
                assert dims, (array, "replicated", sol.describe())
                # BLOCK along a dimension the dummies do not span (a grid dimension)
                assert all(d >= leading for d in dims), (array, lay.distribute_str())
                assert all(lay.formats[lay.tdim_of(d)].kind == "BLOCK" for d in dims), lay.distribute_str()


def test_the_dummies_inherit_and_the_report_says_so(tmp_path):
    for name in PROGRAMS:
        rep = tmp_path / f"{name}.json"
        out = cli("annotate", "-q", "--procs", "4", "--report", str(rep), str(HERE / name),
                  "-o", str(tmp_path / name))
        assert out.returncode == 0, out.stderr
        replicated = {r["array"].split(".")[-1]: r["reason"] for r in json.loads(rep.read_text())["replicated"]}
        grids, blocks, private = PROGRAMS[name]
        assert not set(grids) & set(replicated) and not set(blocks) & set(replicated), replicated
        assert {a for a, why in replicated.items() if "private work array" in why} == private, replicated
        dummies = {a: why for a, why in replicated.items() if a not in private}
        assert dummies and all("the call runs where it lives" in why for why in dummies.values()), replicated
        assert not any("section" in why or "another shape" in why for why in replicated.values())
        # the dummies get no mapping directive (HPF: they inherit the block)
        text = (tmp_path / name).read_text()
        assert "DISTRIBUTE" in text and not any(f"ALIGN {d}" in text for d in ("X", "Y", "A(", "R("))


def test_the_loops_around_the_calls_are_parallel():
    an = Pipeline(read_program([HERE / "element_actuals.f"])).analysis(resolve_profile("ddt1997")[0])
    call_phase = an.procedure("ELEM").phase(2)
    assert [lp.parallel for lp in call_phase.loops] == [True, True]
    an = Pipeline(read_program([HERE / "block_solve.f"])).analysis(resolve_profile("ddt1997")[0])
    blocks = an.procedure("BLKSLV").phase(3)
    by_var = {lp.var: lp for lp in blocks.loops}
    assert by_var["I"].parallel
    # LHS is rebuilt for every line J before the calls read it: private to J
    assert by_var["J"].parallel and "LHS" in by_var["J"].private_arrays
    assert all(lp.parallel for lp in an.procedure("BLKSLV").phase(4).loops)


SECTION_CASES = {
    # the dummy runs past the component dimension: the next grid point's components too
    "past the leading dimensions": ("DOUBLE PRECISION X(10)", "U(1,I,J)", False, "passed as a section"),
    # X(1): the old "any size" idiom, indexed beyond its bound
    "any-size idiom": ("DOUBLE PRECISION X(1)", "U(1,I,J)", False, "passed as a section"),
    # a subscript that is not constant in the spanned dimension
    "variable leading subscript": ("DOUBLE PRECISION X(5)", "U(I,I,J)", False, "passed as a section"),
}


@pytest.mark.parametrize("case", sorted(SECTION_CASES))
def test_sections_stay_sections(tmp_path, case):
    decl, actual, parallel, reason = SECTION_CASES[case]
    src = tmp_path / "s.f"
    src.write_text(f"""      PROGRAM S
      DOUBLE PRECISION U(5,16,16)
      INTEGER I, J
      DO J = 1, 16
        DO I = 1, 5
          CALL F({actual})
        END DO
      END DO
      PRINT *, U(1,1,1)
      END
      SUBROUTINE F(X)
      {decl}
      X(1) = 1.0D0
      END
""")
    rep = tmp_path / "r.json"
    out = cli("annotate", "-q", "--procs", "4", "--report", str(rep), str(src), "-o", str(tmp_path / "o.f"))
    assert out.returncode == 0, out.stderr
    replicated = {r["array"]: r["reason"] for r in json.loads(rep.read_text())["replicated"]}
    assert reason in replicated["U"]
    out = cli("analyze", "--format", "json", str(src))
    loops = [lp for p in json.loads(out.stdout)["procedures"][0]["phases"] for lp in p["loops"]]
    assert [lp["parallel"] for lp in loops] == [parallel, parallel]


def test_a_callee_writing_common_keeps_the_loop_in_order(tmp_path):
    src = tmp_path / "c.f"
    src.write_text("""      PROGRAM C
      DOUBLE PRECISION U(5,16)
      COMMON /CNT/ K
      INTEGER I, K
      K = 0
      DO I = 1, 16
        CALL F(U(1,I))
      END DO
      PRINT *, U(1,1), K
      END
      SUBROUTINE F(X)
      DOUBLE PRECISION X(5)
      COMMON /CNT/ K
      INTEGER K
      K = K + 1
      X(1) = DBLE(K)
      END
""")
    out = cli("analyze", "--format", "json", str(src))
    loops = [lp for p in json.loads(out.stdout)["procedures"][0]["phases"] for lp in p["loops"]]
    assert [lp["parallel"] for lp in loops] == [False]


def test_covered_dims_exact():
    assert covered_dims(((1, 5), (1, 8), (1, 8)), (ir.Const(1, ir.INTEGER), ir.Name("I"), ir.Name("J")), 5) == 1
    assert covered_dims(((1, 5), (1, 5), (1, 3), (0, 8)), (ir.Const(1, ir.INTEGER), ir.Const(1, ir.INTEGER), ir.Name("A"), ir.Name("I")),
                        25) == 2
    # from the second component on, 4 elements still fit; 5 do not (and the next subscript varies)
    assert covered_dims(((1, 5), (1, 8)), (ir.Const(2, ir.INTEGER), ir.Name("I")), 4) == 1
    assert covered_dims(((1, 5), (1, 8)), (ir.Const(2, ir.INTEGER), ir.Name("I")), 5) is None
    # one element: the element itself, whatever its subscripts
    assert covered_dims(((1, 5), (1, 8)), (ir.Name("M"), ir.Name("I")), 1) == 0
    # a 5x8 block from U(1,1,J) of U(5,8,8): the first two dimensions
    assert covered_dims(((1, 5), (1, 8), (1, 8)), (ir.Const(1, ir.INTEGER), ir.Const(1, ir.INTEGER), ir.Name("J")), 40) == 2


@requires_gfortran
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_annotated_programs_verify_on_2_and_4_ranks(tmp_path, name):
    annotated = tmp_path / name
    out = cli("annotate", "-q", "--procs", "4", str(HERE / name), "-o", str(annotated))
    assert out.returncode == 0, out.stderr
    for n in ("2", "4"):
        out = cli("run", str(annotated), "-np", n, "--verify")
        assert out.returncode == 0, out.stderr
        assert "same results as gfortran" in out.stderr, out.stderr
