"""The planner reuses the analysis, the alignment and the evaluators."""

from __future__ import annotations

from autodist.frontend import read_program
from autodist.machine import load_profile
from autodist.mapping.plan import make_plan
from autodist.analysis import analyze
from autodist.analysis.model import AnalysisOptions
from autodist.sweep import Planner, parse_vary, procs_axis, run_sweep

from ..conftest import PROFILES, SAMPLES

DDT = load_profile(PROFILES / "ddt1997.yaml")


def test_a_speed_sweep_analyses_once_and_agrees_with_fresh_plans():
    program = read_program([str(SAMPLES / "adi.f")])
    planner = Planner(program, DDT)
    axis = parse_vary("remote_access_time=1e-7,1e-6,1e-5", DDT)
    result = run_sweep(planner, (axis,), procs=8, refine=False)
    assert planner.analyses_made == 1
    assert planner.plans_made == 3 + 1  # the points and one sequential reference
    an = analyze(program, AnalysisOptions(DDT.default_trip_count, DDT.branch_probability))
    for p in result.points:
        fresh = make_plan(an, planner.machine({"remote_access_time": p.value("remote_access_time")}), 8)
        assert (p.static.total, p.dynamic.total, p.chosen) == (fresh.static.total, fresh.dynamic.total, fresh.chosen)


def test_frequency_parameters_reanalyse_per_value(tmp_path):
    src = tmp_path / "p.f"
    src.write_text(
        "      PROGRAM P\n"
        "      DOUBLE PRECISION A(32,32)\n"
        "      DO 1 J = 1, 32\n"
        "      IF (J .GT. 16) THEN\n"
        "      DO 2 I = 2, 32\n"
        "    2 A(I,J) = A(I-1,J) + 1\n"
        "      ENDIF\n"
        "    1 CONTINUE\n"
        "      END\n")
    planner = Planner(read_program([str(src)]), DDT)
    axes = (parse_vary("branch_probability=0.25,0.75", DDT), procs_axis([1, 4]))
    result = run_sweep(planner, axes, refine=False)
    assert planner.analyses_made == 2
    assert [(p.procs, p.value("branch_probability")) for p in result.points] == [
        (1, 0.25), (1, 0.75), (4, 0.25), (4, 0.75)]
