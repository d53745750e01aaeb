"""How phases are planned: the index-set algebra behind the exchanges
(checked against brute force), the chains the fast path vectorizes, and why
a phase is not vectorized."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from autodist.analysis import analyze
from autodist.frontend import read_program
from autodist.layout.sections import IndexSet, Section
from autodist.layout.sections import box_minus, disjoint_pieces, set_minus
from autodist.runtime.codegen.facts import program_facts
from autodist.runtime.codegen.vectorize import private_ranges, shape_of
from autodist.runtime.fortran.vectors import loop_values, vec_range
from tests.conftest import SAMPLES


@st.composite
def index_sets(draw):
    lo = draw(st.integers(-5, 20))
    kind = draw(st.sampled_from(["interval", "strided", "members"]))
    if kind == "interval":
        return IndexSet.interval(lo, lo + draw(st.integers(-1, 15)))
    if kind == "strided":
        return IndexSet.strided(lo, lo + draw(st.integers(0, 30)), draw(st.integers(1, 4)))
    return IndexSet.from_members(draw(st.lists(st.integers(-5, 30), max_size=12)))


def members(s: IndexSet) -> set[int]:
    return set(s.to_array().tolist()) if s else set()


@given(index_sets(), index_sets())
def test_set_minus_is_set_difference(a, b):
    assert members(set_minus(a, b)) == members(a) - members(b)


def boxes(n):
    return st.lists(st.tuples(index_sets(), index_sets()).map(lambda t: Section(t)), min_size=1, max_size=n)


def cells(sec: Section) -> set[tuple[int, int]]:
    return {(i, j) for i in members(sec.sets[0]) for j in members(sec.sets[1])}


@settings(max_examples=60, deadline=None)
@given(st.tuples(index_sets(), index_sets()).map(Section), st.tuples(index_sets(), index_sets()).map(Section))
def test_box_minus_covers_the_difference_without_overlap(a, b):
    parts = box_minus(a, b)
    got = [cells(p) for p in parts]
    assert set().union(*got) == cells(a) - cells(b)
    assert sum(len(g) for g in got) == len(set().union(*got))


@settings(max_examples=60, deadline=None)
@given(boxes(4), st.one_of(st.none(), st.tuples(index_sets(), index_sets()).map(Section)))
def test_disjoint_pieces_cover_the_union_minus_what_is_held(bs, held):
    pieces = disjoint_pieces(bs, held)
    union = set().union(*(cells(b) for b in bs))
    want = union - (cells(held) if held is not None else set())
    got = [cells(p) for p in pieces]
    assert set().union(*got) == want
    assert sum(len(g) for g in got) == len(want)  # every element exactly once


@given(st.integers(-10, 10), st.integers(-10, 10), st.sampled_from([1, 2, 3, -1, -2]), index_sets())
def test_loop_values_are_the_loop_restricted_to_a_set(a, b, step, s):
    want = [v for v in range(a, b + (1 if step > 0 else -1), step) if v in members(s)]
    assert list(loop_values(a, b, step, s)) == want
    assert vec_range(a, b, step, s).array().tolist() == want


def _shapes(sample: str):
    program = read_program([str(SAMPLES / f"{sample}.f")])
    an = analyze(program)
    facts = program_facts(program, an)
    out = {}
    for proc in an.procedures:
        unit = program.unit(proc.name)
        privates = private_ranges(proc.phases)
        for ph in proc.phases:
            if ph.kind != "loop":
                continue
            do = next(s for s in unit.statements() if s.span.first == ph.span.first)
            out[f"{proc.name}:{ph.id}"] = shape_of(unit, ph, do, facts, privates)
    return out


def test_adi_chains_move_the_parallel_loop_innermost():
    shapes = _shapes("adi")
    vec = {k: s.vectorized for k, s in shapes.items()}
    assert vec["ADI:1"] == (("J", "I"),)  # a 2-D operation for the whole initialisation
    assert vec["ADI:4"] == (("I",),)  # J walks sequentially, I is vectorized
    assert vec["ADI:7"] == (("J",),)  # the column sweep: J moved inside the I loop
    assert all(s.fast for s in shapes.values())


def test_rhs_vectorizes_sibling_loops_and_privatizes_scalars():
    shapes = _shapes("rhs")
    assert shapes["RHS:2"].vectorized == (("I",), ("I", "M"))
    assert {"VEL", "Q"} <= shapes["RHS:2"].privates
    assert shapes["RHSDRV:6"].reason == "line 71: IO statement in the loop"


def test_phases_with_jumps_stay_inline_with_a_reason():
    shapes = _shapes("tred2")
    assert not shapes["TRED2:2"].fast and "GOTO" in shapes["TRED2:2"].reason.upper()
    assert shapes["TRIDIA:3"].reductions == {"TRACE": "+", "SUMD": "+", "SUME2": "+"}
