"""More processors are never predicted slower (issue 12, item 4).

``tests/programs/layouts/line_sweeps.f`` sweeps a 12-point grid along each
dimension with a recurrence.  On cluster_ib the best on 4 processors
distributes the last dimension BLOCK over the 4 (0.00276 s).  On 16, the
distributions over every processor a 12-point dimension can take (12 of
them) hand off between 12 processors in the sweep along it, which costs more
than the two parallel sweeps gain, and replicating everything (0.00310 s) is
the cheapest of them.  The distribution over 4 of the 16 processors, the
others idle, costs what it costs on 4: it is a candidate on 16 (a divisor of
16), and the best on 16 is that one.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from autodist.frontend import read_program
from autodist.layout.model import Format
from autodist.machine import resolve_profile
from autodist.mapping.candidates import Distribution, TemplateGroup, distributions
from autodist.pipeline import Pipeline

PROGRAM = Path(__file__).resolve().parent.parent / "programs" / "layouts" / "line_sweeps.f"


@pytest.fixture(scope="module")
def pipe():
    return Pipeline(read_program([PROGRAM]))


@pytest.mark.parametrize("profile", ["ddt1997", "cluster_ib", "manycore_smp"])
def test_sixteen_processors_are_never_predicted_slower_than_four(pipe, profile):
    machine = resolve_profile(profile)[0]
    p4, p16 = pipe.plan(machine, 4), pipe.plan(machine, 16)
    best4, best16 = p4.solution("best").total, p16.solution("best").total
    assert best16 <= best4 * (1 + 1e-9), (best4, best16, p16.solution("best").describe())


@pytest.mark.parametrize("procs", [6, 7, 9, 11, 13])
def test_no_count_between_four_and_sixteen_is_predicted_slower_than_four(pipe, procs):
    """A count that divides neither 16 nor 12 (7, 11, 13: primes) still finds the
    layout on 4: the grids on fewer processors range over the divisors of the
    extents too."""
    machine = resolve_profile("cluster_ib")[0]
    best4 = pipe.plan(machine, 4).solution("best").total
    best = pipe.plan(machine, procs).solution("best")
    assert best.total <= best4 * (1 + 1e-9), (procs, best.describe(procs))


def test_a_sweep_says_on_how_many_processors_a_mapping_runs(pipe):
    from autodist.sweep.planner import mapping_text

    machine = resolve_profile("cluster_ib")[0]
    assert mapping_text(pipe.plan(machine, 16).solution("best"), 16) == "R,S,U(*,*,BLOCK) on 4"
    assert mapping_text(pipe.plan(machine, 4).solution("best"), 4) == "R,S,U(*,*,BLOCK)"


def test_explain_names_a_change_of_processor_count_as_a_change_of_layout():
    from autodist.report.explain_text import mapping_change

    assert mapping_change("R,S,U(*,*,BLOCK)", "R,S,U(*,*,BLOCK) on 4") == "R,S,U (*,*,BLOCK) -> (*,*,BLOCK) on 4"


def test_the_best_on_sixteen_leaves_twelve_idle_and_the_candidates_say_so(pipe):
    machine = resolve_profile("cluster_ib")[0]
    p4, p16 = pipe.plan(machine, 4), pipe.plan(machine, 16)
    best = p16.solution("best")
    assert best.total == pytest.approx(p4.solution("best").total, rel=1e-9)
    assert best.processors() == 4
    assert best.describe(16) == "R,S,U(*,*,BLOCK) on 4 of 16 processors"
    assert p16.statics[0].describe() == "T(*,*,BLOCK) on 4"
    # the distributions over all the processors a dimension can take are
    # still candidates, priced and dearer
    names = {c.describe() for c in p16.statics}
    assert "T(*,*,BLOCK)" in names and "T(*,*,*)" in names


def test_explain_says_the_chosen_solution_leaves_processors_idle(pipe):
    from autodist.report.explain import explain
    from autodist.report.explain_text import explain_text

    machine = resolve_profile("cluster_ib")[0]
    told = explain_text(explain(pipe.plan(machine, 16), "best", "cluster_ib"))
    assert "Chosen: the static solution on 4 of 16 processors, " in told, told
    told = explain_text(explain(pipe.plan(machine, 4), "best", "cluster_ib"))
    assert "Chosen: the static solution, " in told, told


def test_distributions_on_fewer_processors_are_those_the_others_do_not_hold():
    machine = resolve_profile("cluster_ib")[0]
    group = TemplateGroup("T", ((1, 12), (1, 100)), (), ())
    full = distributions(group, machine, 16)
    spare = distributions(group, machine, 16, spare=True)
    assert all(not d.spare for d in full) and all(d.spare for d in spare)
    one_dim = {d.grid for d in full if len(d.grid) == 1}
    assert one_dim == {(12,), (16,)}  # the 12-point dimension on 12 of 16
    # over the divisors of 16 and of the extents below 16: the 12-point dimension on 6 and 3
    # (on 12: a full grid), the 100-point one on 10 and 5, either on 8, 4, 2
    assert {d.grid for d in spare if len(d.grid) == 1} == {(10,), (8,), (6,), (5,), (4,), (3,), (2,)}
    assert {d.grid for d in spare if len(d.grid) == 1 and d.formats[1].kind != "*"} == {
        (10,), (8,), (5,), (4,), (2,)}
    assert {d.grid for d in full if len(d.grid) == 2} == {(2, 8), (4, 4), (8, 2)}
    assert {d.grid for d in spare if len(d.grid) == 2} == {
        (2, 6), (3, 4), (4, 3), (6, 2), (2, 5), (5, 2), (2, 4), (4, 2), (2, 3), (3, 2), (2, 2)}
    block = Format("BLOCK")
    assert Distribution((block, Format("*")), (4,), True).text() == "(BLOCK,*) on 4"
    assert Distribution((block, block), (2, 2), True).text() == "(BLOCK,BLOCK) on 2x2"
    assert Distribution((block, Format("*")), (16,)).text() == "(BLOCK,*)"
    assert distributions(group, machine, 1, spare=True) == []


def test_compare_and_annotate_show_the_processors_left_idle(tmp_path):
    run = [sys.executable, "-m", "autodist"]
    out = subprocess.run(run + ["compare", str(PROGRAM), "--machine", "cluster_ib", "--procs", "4,16"],
                         capture_output=True, text=True, check=True).stdout
    rows = {int(line.split()[0]): line for line in out.splitlines() if line.strip()[:1].isdigit()}
    assert float(rows[16].split()[1]) <= float(rows[4].split()[1])
    assert rows[16].endswith("R,S,U(*,*,BLOCK) on 4 of 16 processors")
    assert rows[4].endswith("R,S,U(*,*,BLOCK)")
    annotated = tmp_path / "sweeps.f"
    subprocess.run(run + ["annotate", str(PROGRAM), "--machine", "cluster_ib", "--procs", "16", "-o", str(annotated)],
                   capture_output=True, text=True, check=True)
    text = annotated.read_text()
    assert re.search(r"^CHPF\$ PROCESSORS \w+\(4\)$", text, re.M), text
    assert re.search(r"^CHPF\$ DISTRIBUTE \w+\(\*, \*, BLOCK\) ONTO \w+$", text, re.M), text
