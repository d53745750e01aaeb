"""Copies between templates (issue 12): arrays tied only by copies
(``UZ(I,J,K) = U(I,J,K)``) get templates of their own, one family, so that a
static mapping can distribute the copy another way than the original -- the
copy is then the transpose, as the HPF version of NAS SP writes its Z sweep.
The search still tries the family's templates moving together, as the one
template they were."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from autodist.frontend import read_program
from autodist.machine import resolve_profile
from autodist.pipeline import Pipeline

from ..conftest import PROGRAMS

ZCOPY = PROGRAMS / "layouts" / "zcopy.f"


@pytest.fixture(scope="module")
def zcopy():
    return Pipeline(read_program([ZCOPY]))


def _layout(mapping, array):
    lay = dict(mapping.layouts)[array]
    return tuple((d, lay.formats[lay.tdim_of(d)].kind) for d in lay.distributed_dims)


def test_a_copy_gets_its_own_template_of_the_same_family(zcopy):
    groups = {a: g for g in zcopy.alignment(resolve_profile("ddt1997")[0]).groups for a, _ in g.members}
    u, uz = groups["U"], groups["UZ"]
    assert u.name != uz.name and u.family == uz.family == u.name
    assert u.bounds == uz.bounds


def test_the_static_mapping_transposes_through_the_copies_where_that_pays(zcopy):
    """16 processors of the slow network: the Z sweep on U's layout would run
    one processor after the other; the expert's static mapping (U along Z, its
    copy along Y) beats every static mapping giving both one layout."""
    plan = zcopy.plan(resolve_profile("ddt1997")[0], 16)
    mapping = plan.statics[0].evaluation.mapping
    assert _layout(mapping, "U") == ((2, "BLOCK"),), plan.static.describe()
    assert _layout(mapping, "UZ") and 2 not in {d for d, _ in _layout(mapping, "UZ")}, plan.static.describe()
    alike = [c.total for c in plan.statics
             if dict(c.evaluation.mapping.layouts)["U"] == dict(c.evaluation.mapping.layouts)["UZ"]]
    assert alike and plan.static.total < min(alike)


@pytest.mark.parametrize("profile", ["cluster_ib", "manycore_smp"])
def test_where_the_sweep_pipelines_one_layout_stays_best(zcopy, profile):
    """On the fast networks the Z sweep runs as a pipeline: both arrays along Z."""
    plan = zcopy.plan(resolve_profile(profile)[0], 16)
    mapping = plan.statics[0].evaluation.mapping
    assert _layout(mapping, "U") == _layout(mapping, "UZ") == ((2, "BLOCK"),), plan.static.describe()


def test_the_annotated_copies_read_back_as_the_plan(tmp_path):
    """annotate writes two templates; read back, the directives price as the
    static solution does."""
    out = tmp_path / "zcopy.f"
    args = ["--machine", "ddt1997", "--procs", "16"]
    done = subprocess.run([sys.executable, "-m", "autodist", "annotate", "-q", "--mode", "static", *args,
                           str(ZCOPY), "-o", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    text = out.read_text().upper()
    assert text.count("CHPF$ DISTRIBUTE") == 2, text
    done = subprocess.run([sys.executable, "-m", "autodist", "compare", "-q", "--as-written", "--format", "json",
                           *args, str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (run,) = json.loads(done.stdout)["runs"]
    assert run["as_written"]["total_cost"] == pytest.approx(run["static"]["total_cost"], rel=1e-9)
