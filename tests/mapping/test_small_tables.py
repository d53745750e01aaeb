"""Tiny tables stay whole, ties break towards replication, and a processor's
memory bounds what may be replicated (issue 12, item 5).

``tests/programs/layouts/tables.f``: a grid of 5-component states set from a
13x5 coefficient table and smoothed with a 4-entry weight table; an expert
distributes a grid dimension BLOCK and keeps both tables whole on every
processor (every processor reads them).  ``exact_table.f``: the same tables
as the NAS codes use them — a COMMON table set element by element and read
by a routine that fills its dummy, called at every grid point; 5 errors
computed in one loop and written out in another: every table stays whole (a
loop writing an array no processor distributes runs on every processor, and
what a loop writes out every processor needs), and so does a timer table
(``START(N) = WALL()``) that distributing changes nothing for: among equal
costs the search keeps the mapping distributing fewer arrays.  ``unused_table.f``: a table no loop
uses.  ``transpose.f``: two arrays swept along different dimensions with a
transposed copy between them: on a slow network replication is cheapest,
unless the processors' memory cannot hold both arrays.  ``grid_norm.f``: norm
vectors summed over a distributed grid stay whole (partial sums and an
all-reduce).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from autodist.cli import main
from autodist.frontend import read_program
from autodist.layout.model import BLOCK, COLLAPSED, Axis, Layout
from autodist.machine import load_profile, resolve_profile
from autodist.mapping.candidates import distributions
from autodist.mapping.memory import footprint, local_elements
from autodist.mapping.model import Mapping
from autodist.mapping.static import prefer_replication
from autodist.pipeline import Pipeline

LAYOUTS = Path(__file__).resolve().parent.parent / "programs" / "layouts"


def _plan(name: str, profile, procs: int):
    machine = profile if not isinstance(profile, str) else resolve_profile(profile)[0]
    return Pipeline(read_program([LAYOUTS / name])).plan(machine, procs)


def _distributed(lay: Layout | None) -> bool:
    return lay is not None and bool(lay.distributed_dims)


@pytest.mark.parametrize("profile", ["ddt1997", "cluster_ib", "manycore_smp"])
@pytest.mark.parametrize("procs", [4, 16])
def test_tables_every_processor_reads_stay_whole(profile, procs):
    plan = _plan("tables.f", profile, procs)
    for sol in (plan.static, plan.solution("best")):
        layouts = {}
        for p in sol.phases:
            layouts.update(dict(p.mapping.layouts))
        layouts.update(dict(sol.entry_of("TABLES").layouts))
        assert not _distributed(layouts.get("CE")) and not _distributed(layouts.get("W"))
        for grid in ("U", "R"):
            assert layouts[grid].distributed_dims and 0 not in layouts[grid].distributed_dims



def _every_layout(sol) -> dict[str, Layout]:
    out = {}
    for p in sol.phases:
        out.update(dict(p.mapping.layouts))
    for _, m in sol.entry:
        out.update(dict(m.layouts))
    return out


@pytest.mark.parametrize("profile", ["ddt1997", "cluster_ib", "manycore_smp"])
@pytest.mark.parametrize("procs", [4, 16])
def test_tables_filled_through_a_dummy_or_written_out_stay_whole(profile, procs):
    plan = _plan("exact_table.f", profile, procs)
    for sol in (plan.static, plan.solution("best")):
        layouts = _every_layout(sol)
        for table in ("CE", "XCR", "XCRREF", "XCRDIF", "START", "ELAPS"):
            assert not _distributed(layouts.get(table)), (table, sol.describe())
        assert layouts["U"].distributed_dims and 0 not in layouts["U"].distributed_dims

def test_every_template_may_be_replicated():
    pipe = Pipeline(read_program([LAYOUTS / "tables.f"]))
    machine = resolve_profile("cluster_ib")[0]
    for group in pipe.alignment(machine).groups:
        assert any(not any(f.distributed for f in d.formats) for d in distributions(group, machine, 16))


def test_a_table_no_loop_uses_is_not_distributed():
    plan = _plan("unused_table.f", "ddt1997", 16)
    entry = dict(plan.static.entry_of("UNUSED").layouts)
    assert not _distributed(entry.get("TAB"))
    assert _distributed(entry["G"])


@dataclass
class _Eval:
    mapping: Mapping


@dataclass
class _Cand:
    total: float
    evaluation: _Eval
    name: str

    def describe(self) -> str:
        return self.name


def test_ties_break_towards_the_candidate_distributing_fewest_arrays():
    lay = Layout(((1, 8),), ((1, 8),), (Axis(0),), (BLOCK,), (4,))
    both = _Cand(1.0, _Eval(Mapping.of({"A": lay, "B": lay})), "a")
    one = _Cand(1.0 + 1e-12, _Eval(Mapping.of({"A": lay})), "b")
    dearer = _Cand(1.0 + 1e-6, _Eval(Mapping.of({})), "c")
    ranked = prefer_replication([both, one, dearer])
    assert ranked[0] is one and ranked[1:] == [both, dearer]
    # a real difference is not a tie
    assert prefer_replication([one, dearer])[0] is one
    assert prefer_replication([both, dearer])[0] is both


def test_footprint_counts_the_largest_local_part_and_whole_arrays():
    table = Pipeline(read_program([LAYOUTS / "transpose.f"])).arrays()
    whole = 2 * 64 * 64 * 8
    assert footprint({}, table, 4) == whole
    cols = Layout(((1, 64), (1, 64)), ((1, 64), (1, 64)), (Axis(0), Axis(1)), (COLLAPSED, BLOCK), (4,))
    assert local_elements(cols, 4) == 64 * 16
    assert footprint({"A": cols}, table, 4) == 64 * 16 * 8 + 64 * 64 * 8
    assert footprint({"A": [cols, _replicated(cols)]}, table, 4) == whole  # the largest of its layouts
    # 10 elements on 4 processors under BLOCK: blocks of 3, 3, 3, 1
    ten = Layout(((1, 10),), ((1, 10),), (Axis(0),), (BLOCK,), (4,))
    assert local_elements(ten, 4) == 3


def _replicated(lay: Layout) -> Layout:
    return Layout(lay.bounds, lay.template, lay.align, tuple(COLLAPSED for _ in lay.formats), ())


def _profile(tmp_path: Path, memory: int | None) -> Path:
    p = tmp_path / "slow.yaml"
    text = ("name: slow-network\nprocessors: 4\nremote_access_time: 1.0e-3\nflop_time: 1.0e-9\n"
            "memory_access_time: 1.0e-9\ndistributions: [BLOCK]\n")
    if memory is not None:
        text += f"memory_per_processor: {memory}\n"
    p.write_text(text)
    return p


def test_memory_per_processor_makes_replication_infeasible(tmp_path):
    free = _plan("transpose.f", load_profile(_profile(tmp_path, None)), 4)
    assert not any(_distributed(l) for _, l in free.static.entry_of("TRANSP").layouts)
    # both arrays whole need 65,536 bytes; 40,000 forbids that
    bounded = _plan("transpose.f", load_profile(_profile(tmp_path, 40000)), 4)
    for sol in (bounded.static, bounded.solution("best")):
        layouts = {}
        for p in sol.phases:
            layouts.update(dict(p.mapping.layouts))
        assert any(_distributed(l) for l in layouts.values())
        assert footprint({a: l for a, l in layouts.items()}, bounded.table, 4) <= 40000


def test_memory_too_small_for_any_mapping_is_one_error_naming_the_key(tmp_path, capsys):
    out = tmp_path / "out.f"
    rc = main(["annotate", str(LAYOUTS / "transpose.f"), "--machine", str(_profile(tmp_path, 1000)),
               "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 2 and not out.exists()
    assert "memory_per_processor" in err and "slow.yaml" in err and "Traceback" not in err
    assert "bytes per processor on 4 processors" in err


@pytest.mark.parametrize("profile", ["ddt1997", "cluster_ib", "manycore_smp"])
@pytest.mark.parametrize("procs", [4, 16])
def test_vectors_summed_over_a_distributed_grid_stay_whole(profile, procs):
    """``RMS(M) = RMS(M) + ADD*ADD`` over the grid (grid_norm.f): each processor
    adds its own points and an all-reduce of 5 values combines them, so the
    vectors stay whole and the grids are distributed along a grid dimension,
    not along their 5 components."""
    plan = _plan("grid_norm.f", profile, procs)
    for sol in (plan.static, plan.solution("best")):
        layouts = _every_layout(sol)
        for vector in ("RMS", "ERRMAX"):
            assert not _distributed(layouts.get(vector)), (vector, sol.describe())
        for grid in ("U", "V"):
            assert layouts[grid].distributed_dims and 0 not in layouts[grid].distributed_dims, sol.describe()
