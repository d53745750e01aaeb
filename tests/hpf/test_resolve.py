"""The resolver, element by element against a brute-force reading of the directives."""

from __future__ import annotations

from itertools import product

import pytest

from autodist import ir
from autodist.errors import HpfError
from autodist.hpf import model as m
from autodist.hpf.parse import parse_directive, parse_text
from autodist.hpf.resolve import apply_executable, resolve_unit
from autodist.layout.grids import default_grid
from autodist.layout.model import BLOCK, Axis, Format, Layout, Replicated

from .helpers import array, directive, do, make_unit, parameter, scalar, span

# --------------------------------------------------------------------------- brute force


def deal(extent: int, fmt: Format, p: int) -> list[int]:
    """Owner (processor index along one axis) of each position of a template dimension,
    dealt out one position at a time the way the format describes."""
    owners = []
    if fmt.kind == "BLOCK":
        size = fmt.k or -(-extent // p)
        proc, filled = 0, 0
        for _ in range(extent):
            if filled == size:
                proc, filled = proc + 1, 0
            owners.append(proc)
            filled += 1
    else:
        size = fmt.k or 1
        proc, filled = 0, 0
        for _ in range(extent):
            if filled == size:
                proc, filled = (proc + 1) % p, 0
            owners.append(proc)
            filled += 1
    return owners


def owners_of_cells(cells, template, formats, grid) -> set[tuple[int, ...]]:
    """Processor coordinates holding any of the template ``cells``."""
    out = set()
    for cell in cells:
        coords = [[]]
        g = 0
        for t, fmt in enumerate(formats):
            if fmt.kind == "*":
                continue
            lo, hi = template[t]
            proc = deal(hi - lo + 1, fmt, grid[g])[cell[t] - lo]
            coords = [c + [proc] for c in coords]
            g += 1
        out.update(tuple(c) for c in coords)
    return out


def cells_of(layout: Layout, idx: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Template cells of one element according to the resolved layout."""
    per_dim = []
    for t, a in enumerate(layout.align):
        lo, hi = layout.template[t]
        if isinstance(a, Axis):
            per_dim.append([a(idx[a.dim])])
        elif isinstance(a, Replicated):
            per_dim.append(list(range(lo, hi + 1)))
        else:
            per_dim.append([a.index])
    return set(product(*per_dim))


def check(layout: Layout, expected_cells, template, formats, grid):
    """Every element: same template cells as the hand-written reading, same owners."""
    assert layout.template == template
    for idx in product(*(range(lo, hi + 1) for lo, hi in layout.bounds)):
        want = set(expected_cells(*idx))
        assert cells_of(layout, idx) == want, idx
        got_owners = owners_of_cells(want, layout.template, layout.formats, layout.grid)
        assert got_owners == owners_of_cells(want, template, formats, grid), idx


F = Format

# --------------------------------------------------------------------------- element by element


def test_permutation_reflection_replication_constant_on_2d_template():
    unit = make_unit(
        [parameter("N", 10), array("A", 10, 10), array("B", 10), array("C", (0, 11))],
        [
            "PROCESSORS P(2,2)",
            "TEMPLATE T(0:N+1, N)",
            "ALIGN A(I,J) WITH T(J,I)",
            "ALIGN B(I) WITH T(N-I+1,*)",
            "ALIGN (:) WITH T(:, 3) :: C",
            "DISTRIBUTE T(BLOCK, CYCLIC) ONTO P",
        ],
    )
    got = resolve_unit(unit, nprocs=4)
    t, fmts, grid = ((0, 11), (1, 10)), (F("BLOCK"), F("CYCLIC")), (2, 2)
    check(got.layout("A"), lambda i, j: {(j, i)}, t, fmts, grid)
    check(got.layout("B"), lambda i: {(11 - i, k) for k in range(1, 11)}, t, fmts, grid)
    check(got.layout("C"), lambda i: {(i, 3)}, t, fmts, grid)
    assert got.layout("A").procs_name == "P" and got.layout("A").template_name == "T"


def test_stride_chains_of_arrays_and_collapsed_dimension_with_default_arrangement():
    unit = make_unit(
        [array("X", 20), array("Y", 10), array("Z", 4, 6)],
        [
            "TEMPLATE G(40)",
            "ALIGN X(I) WITH G(2*I-1)",
            "ALIGN Y(K) WITH X(2*K)",
            "ALIGN Z(*, J) WITH Y(J+2)",
            "DISTRIBUTE G(CYCLIC(3))",
        ],
    )
    got = resolve_unit(unit, nprocs=4)
    t, fmts, grid = ((1, 40),), (F("CYCLIC", 3),), (4,)
    check(got.layout("X"), lambda i: {(2 * i - 1,)}, t, fmts, grid)
    check(got.layout("Y"), lambda k: {(4 * k - 1,)}, t, fmts, grid)
    check(got.layout("Z"), lambda i, j: {(4 * (j + 2) - 1,)}, t, fmts, grid)


def test_alignment_with_a_distributed_array_replication_and_scalar():
    unit = make_unit(
        [array("M", 6, 6), array("V", 6), scalar("S")],
        [
            "PROCESSORS Q(3,2)",
            "ALIGN V(I) WITH M(*, I)",
            "ALIGN S WITH M(2, 5)",
            "DISTRIBUTE M(BLOCK(2), CYCLIC) ONTO Q",
        ],
    )
    got = resolve_unit(unit, nprocs=6)
    t, fmts, grid = ((1, 6), (1, 6)), (F("BLOCK", 2), F("CYCLIC")), (3, 2)
    check(got.layout("M"), lambda i, j: {(i, j)}, t, fmts, grid)
    check(got.layout("V"), lambda i: {(r, i) for r in range(1, 7)}, t, fmts, grid)
    check(got.layout("S"), lambda: {(2, 5)}, t, fmts, grid)
    assert owners_of_cells({(2, 5)}, t, fmts, grid) == {(0, 0)}


def test_triplet_alignment_and_reflected_array_target():
    unit = make_unit(
        [array("A", 5), array("B", (0, 9)), array("W", 10)],
        [
            "TEMPLATE T(1:20)",
            "ALIGN W(I) WITH T(21-2*I)",
            "ALIGN A(:) WITH T(2:10:2)",
            "ALIGN B(:) WITH W(:)",
            "DISTRIBUTE T(BLOCK)",
        ],
    )
    got = resolve_unit(unit, nprocs=3)
    t, fmts, grid = ((1, 20),), (F("BLOCK"),), (3,)
    check(got.layout("A"), lambda i: {(2 + 2 * (i - 1),)}, t, fmts, grid)
    check(got.layout("W"), lambda i: {(21 - 2 * i,)}, t, fmts, grid)
    check(got.layout("B"), lambda i: {(21 - 2 * (i + 1),)}, t, fmts, grid)


def test_attribute_form_alignees_with_their_own_source_lists():
    unit = make_unit(
        [array("F", (0, 9), 3), array("S", 8), array("X", 10), array("A", 4, 6), array("B", 6, 4)],
        [
            "PROCESSORS P(2)",
            "TEMPLATE T(10), U(6, 6)",
            "DISTRIBUTE F(BLOCK,*) ONTO P",
            "DISTRIBUTE T(BLOCK) ONTO P",
            "DISTRIBUTE U(CYCLIC, *) ONTO P",
            "ALIGN WITH F(I,*) :: S(I)",
            "ALIGN WITH T(*) :: X(*)",
            "ALIGN WITH U(I,J) :: A(I,J), B(J,I)",
        ],
    )
    got = resolve_unit(unit, nprocs=2)
    check(got.layout("S"), lambda i: {(i, k) for k in range(1, 4)}, ((0, 9), (1, 3)), (F("BLOCK"), F("*")), (2,))
    check(got.layout("X"), lambda i: {(t,) for t in range(1, 11)}, ((1, 10),), (F("BLOCK"),), (2,))
    uf = (F("CYCLIC"), F("*"))
    check(got.layout("A"), lambda i, j: {(i, j)}, ((1, 6), (1, 6)), uf, (2,))
    check(got.layout("B"), lambda i, j: {(j, i)}, ((1, 6), (1, 6)), uf, (2,))


def test_abstract_arrangement_larger_than_the_ranks_and_number_of_processors():
    unit = make_unit(
        [array("A", 40, 20), array("B", 12)],
        [
            "PROCESSORS P2(20, 10), PN(NUMBER_OF_PROCESSORS())",
            "DISTRIBUTE A(BLOCK, CYCLIC) ONTO P2",
            "DISTRIBUTE B(CYCLIC(2)) ONTO PN",
        ],
    )
    got = resolve_unit(unit, nprocs=3)
    assert got.processors == {"P2": (20, 10), "PN": (3,)}
    check(got.layout("A"), lambda i, j: {(i, j)}, ((1, 40), (1, 20)), (F("BLOCK"), F("CYCLIC")), (20, 10))
    check(got.layout("B"), lambda i: {(i,)}, ((1, 12),), (F("CYCLIC", 2),), (3,))


@pytest.mark.parametrize(
    "nprocs, ndims, grid",
    [(16, 2, (4, 4)), (8, 2, (4, 2)), (12, 2, (4, 3)), (6, 3, (3, 2, 1)), (7, 2, (7, 1)), (1, 3, (1, 1, 1)), (5, 0, ())],
)
def test_default_arrangement_is_the_most_square_factorization(nprocs, ndims, grid):
    assert default_grid(nprocs, ndims) == grid


def test_default_arrangement_used_without_onto():
    unit = make_unit([array("A", 8, 8, 8)], ["DISTRIBUTE A(BLOCK, *, CYCLIC)"])
    lay = resolve_unit(unit, nprocs=8).layout("A")
    assert lay.grid == (4, 2) and lay.procs_name == ""


def test_arrays_without_directives_are_replicated_and_reported():
    unit = make_unit([array("A", 8), array("B", 4, 4), scalar("K")], ["DISTRIBUTE A(BLOCK)"])
    got = resolve_unit(unit, nprocs=2)
    assert got.replicated == ("B",)
    assert got.layout("B").is_replicated_everywhere
    assert set(got.layouts) == {"A", "B"}


# --------------------------------------------------------------------------- dummies


def test_inherit_and_transcriptive_take_the_actual_layout_shifted_to_the_dummy_bounds():
    actual = Layout(((1, 8),), ((1, 8),), (Axis(0),), (BLOCK,), (2,), template_name="A")
    unit = make_unit(
        [array("X", (0, 7), dummy=True), array("Y", 8, dummy=True), array("Z", 8, dummy=True)],
        ["INHERIT X", "DISTRIBUTE Y *", "DISTRIBUTE Z *(CYCLIC) ONTO *"],
    )
    got = resolve_unit(unit, nprocs=2, actuals={"x": actual, "Y": actual})
    check(got.layout("X"), lambda i: {(i + 1,)}, ((1, 8),), (F("BLOCK"),), (2,))
    check(got.layout("Y"), lambda i: {(i,)}, ((1, 8),), (F("BLOCK"),), (2,))
    check(got.layout("Z"), lambda i: {(i,)}, ((1, 8),), (F("CYCLIC"),), (2,))
    without = resolve_unit(unit, nprocs=2)
    assert set(without.unresolved) == {"X", "Y"}
    assert "actual argument" in without.unresolved["X"]
    with pytest.raises(KeyError):
        without.layout("X")


def test_bounds_from_dummy_scalars_need_values():
    n = ir.Name("N")
    unit = make_unit([scalar("N", dummy=True), array("A", n, dummy=True)], ["TEMPLATE T(N)", "ALIGN A(I) WITH T(I)", "DISTRIBUTE T(BLOCK)"])
    unknown = resolve_unit(unit, nprocs=2)
    assert "N is not a PARAMETER" in unknown.unresolved["A"]
    known = resolve_unit(unit, nprocs=2, values={"N": 6})
    check(known.layout("A"), lambda i: {(i,)}, ((1, 6),), (F("BLOCK"),), (2,))


def test_adjustable_and_assumed_size_dummies_take_unknown_extents_from_the_actual():
    actual = Layout(((1, 6),), ((1, 6),), (Axis(0),), (Format("CYCLIC"),), (3,))
    unit = make_unit([scalar("N", dummy=True), array("X", ir.Name("N"), dummy=True), array("Z", (0, None), dummy=True)],
                     ["INHERIT X, Z"])
    got = resolve_unit(unit, nprocs=3, actuals={"X": actual, "Z": actual})
    assert got.layout("X") == actual
    check(got.layout("Z"), lambda i: {(i + 1,)}, ((1, 6),), (F("CYCLIC"),), (3,))
    assert set(resolve_unit(unit, nprocs=3).unresolved) == {"X", "Z"}


# --------------------------------------------------------------------------- executable directives


def remap_unit():
    return make_unit(
        [array("A", 8), array("B", 8), array("C", 8)],
        [
            "TEMPLATE T(8), U(0:9)",
            "DYNAMIC A, T, C",
            "ALIGN A(I) WITH T(I)",
            "ALIGN B(I) WITH A(9-I)",
            "ALIGN C(I) WITH A(I)",
            "DISTRIBUTE T(BLOCK)",
            "DISTRIBUTE U(CYCLIC)",
        ],
    )


def test_redistribute_moves_every_object_on_the_template():
    unit = remap_unit()
    state = resolve_unit(unit, nprocs=2)
    (d,) = parse_text("REDISTRIBUTE T(CYCLIC(2))", span(30))
    after = apply_executable(d, state, unit)
    for name, cells in (("A", lambda i: {(i,)}), ("B", lambda i: {(9 - i,)}), ("C", lambda i: {(i,)})):
        check(after.layout(name), cells, ((1, 8),), (F("CYCLIC", 2),), (2,))
    assert state.layout("A").formats == (F("BLOCK"),)  # the old state is untouched


def test_realign_moves_only_the_object_realigned():
    unit = remap_unit()
    state = resolve_unit(unit, nprocs=2)
    (d,) = parse_text("REALIGN A(I) WITH U(I+1)", span(31))
    after = apply_executable(d, state, unit)
    check(after.layout("A"), lambda i: {(i + 1,)}, ((0, 9),), (F("CYCLIC"),), (2,))
    check(after.layout("B"), lambda i: {(9 - i,)}, ((1, 8),), (F("BLOCK"),), (2,))
    (d2,) = parse_text("REALIGN C(I) WITH A(I)", span(32))
    again = apply_executable(d2, after, unit)
    check(again.layout("C"), lambda i: {(i + 1,)}, ((0, 9),), (F("CYCLIC"),), (2,))


def test_realign_of_a_template_and_executables_in_the_specification_part():
    unit = make_unit(
        [array("A", 4)],
        ["TEMPLATE S(4), G(0:5)", "DYNAMIC S", "ALIGN A(I) WITH S(I)", "DISTRIBUTE G(BLOCK)", "REALIGN S(I) WITH G(I+1)",
         "REALIGN A(I) WITH S(I)"],
    )
    with pytest.raises(HpfError, match="A is not DYNAMIC"):
        resolve_unit(unit, nprocs=2)
    unit = make_unit(
        [array("A", 4)],
        ["TEMPLATE S(4), G(0:5)", "DYNAMIC S, A", "ALIGN A(I) WITH S(I)", "DISTRIBUTE G(BLOCK)", "REALIGN S(I) WITH G(I+1)",
         "REALIGN A(I) WITH S(I)"],
    )
    got = resolve_unit(unit, nprocs=2)
    assert got.placements["S"].root == "G"
    check(got.layout("A"), lambda i: {(i + 1,)}, ((0, 5),), (F("BLOCK"),), (2,))


# --------------------------------------------------------------------------- INDEPENDENT


def test_independent_is_attached_to_the_do_that_follows():
    inner = do("I", 21, [ir.Continue(span(22), None)])
    body = (
        directive("INDEPENDENT, NEW(TMP), REDUCTION(S)", 10),
        do("J", 11, [ir.Continue(span(12), None)]),
        directive("INDEPENDENT(J, I)", 19),
        do("J", 20, [inner]),
    )
    unit = make_unit([array("A", 10, 10)], body=body)
    got = resolve_unit(unit, nprocs=1)
    assert got.independent == {
        11: m.Independent(new=("TMP",), reduction=("S",)),
        20: m.Independent(loops=("J", "I")),
        21: m.Independent(loops=("J", "I")),
    }


def test_independent_before_the_first_statement_may_come_with_the_specification_directives():
    unit = make_unit([array("A", 10)], ["DISTRIBUTE A(BLOCK)", "INDEPENDENT, NEW(K)"], body=[do("I", 4)])
    assert resolve_unit(unit, nprocs=2).independent == {4: m.Independent(new=("K",))}


def test_unsupported_directives_and_prefixes_are_recorded():
    unit = make_unit(
        [array("A", 10)],
        ["SHADOW A(1:1)", "DISTRIBUTE A(BLOCK)"],
        body=[directive("SEQUENCE", 20)],
        prefixes=("EXTRINSIC(HPF_LOCAL)", "PURE"),
    )
    got = resolve_unit(unit, nprocs=2)
    assert [(u.text, u.span.first) for u in got.unsupported] == [("SHADOW A(1:1)", 2), ("SEQUENCE", 20)]
    assert got.prefixes == (m.Prefix("EXTRINSIC", "HPF_LOCAL"), m.Prefix("PURE"))


def test_an_alignee_shorter_than_its_triplet_is_aligned_from_the_start_with_a_note():
    # a work array declared one short of a padded template (NPB HPF's LU has
    # this): HPF asks for equal extents, HPF compilers accepted it
    unit = make_unit([array("B", 6), array("C", 6, 8)],
                     ["TEMPLATE T(7)", "ALIGN (:) WITH T(:) :: B", "ALIGN (:, *) WITH T(2:7) :: C",
                      "DISTRIBUTE T(BLOCK)"])
    got = resolve_unit(unit, nprocs=2)
    assert got.layout("B").align == (Axis(0, 1, 0),)
    assert got.layout("C").align == (Axis(0, 1, 1),)  # C(I,*) on T(I+1): the triplet already fits
    assert len(got.notes) == 1 and got.notes[0].startswith("prog.f:3: ")
    assert "6 elements against the triplet of T dimension 1 (7 elements)" in got.notes[0]


def test_a_target_subscript_naming_no_align_dummy_of_an_alignee_replicates_it_with_a_note():
    # the list form ALIGN J(I), K(*) WITH T(I) of an HPF compiler's validation
    # programs: I is no align-dummy of K, so K could sit anywhere along T
    unit = make_unit([array("J", 10), array("K", 3), scalar("I")], ["TEMPLATE T(10)", "ALIGN J(I), K(*) WITH T(I)",
                                                       "DISTRIBUTE T(BLOCK)"])
    got = resolve_unit(unit, nprocs=2)
    assert got.layout("J").align == (Axis(0, 1, 0),)
    assert got.layout("K").align == (Replicated(),)
    assert len(got.notes) == 1 and "the subscript I of T dimension 1 is no align-dummy of K" in got.notes[0]


# --------------------------------------------------------------------------- errors


ERRORS = [
    (["ALIGN A(I) WITH T(I)"], 2, "ALIGN A(I) WITH T(I) names T, which is not a declared array or template"),
    (["TEMPLATE T(8,8)", "DISTRIBUTE T(BLOCK)"], 3, "1 distribution formats for T of rank 2"),
    (["TEMPLATE T(8)", "ALIGN A(I) WITH T(I)", "ALIGN A(J) WITH T(J)"], 4, "A appears in two ALIGN directives (first at line 3)"),
    (["TEMPLATE T(8)", "ALIGN A(I) WITH T(I)", "DISTRIBUTE A(BLOCK)"], 4, "A is both aligned (line 3) and distributed"),
    (["PROCESSORS P(2,2)", "DISTRIBUTE A(BLOCK) ONTO P"], 3, "P has rank 2 but A has 1 distributed dimensions"),
    (["DISTRIBUTE A(BLOCK) ONTO Q"], 2, "ONTO Q, but no PROCESSORS Q is declared"),
    (["DYNAMIC A, ZZ"], 2, "DYNAMIC names ZZ, which is not a declared array or template"),
    (["DISTRIBUTE QQ(BLOCK)"], 2, "DISTRIBUTE names QQ"),
    (["TEMPLATE T(64)", "ALIGN A(I) WITH T(I*I)"], 3, "subscript I*I of T is not affine in one align-dummy"),
    (["TEMPLATE T(64)", "ALIGN A(I) WITH T(I/2)"], 3, "subscript I/2 of T is not affine"),
    (["TEMPLATE T(64)", "ALIGN C(I,J) WITH T(I+J)"], 3, "subscript I+J of T is not affine in one align-dummy"),
    (["TEMPLATE T(8,8)", "ALIGN A(I) WITH T(I,I)"], 3, "align-dummy I appears in two subscripts of T"),
    (["TEMPLATE T(10)", "ALIGN A(I) WITH T(I+5)"], 3, "A reaches index 13 of T dimension 1, outside 1:10"),
    (["TEMPLATE T(8)", "ALIGN A(I) WITH T(I, 1)"], 3, "T has rank 1 but 2 subscripts are given"),
    (["TEMPLATE T(8)", "ALIGN C(I) WITH T(I)"], 3, "1 align-source entries for C of rank 2"),
    (["TEMPLATE T(8)", "ALIGN (:) WITH T(1:4) :: A"], 3, "has 4 elements but A dimension 1 has 8"),
    (["DISTRIBUTE A(BLOCK(1)) ONTO P", "PROCESSORS P(4)"], 2, "BLOCK(1) on 4 processors covers 4 of the 8 elements"),
    (["DISTRIBUTE A(CYCLIC(0))"], 2, "block size 0 must be positive"),
    (["INHERIT A"], 2, "INHERIT A: A is not a dummy argument"),
    (["DISTRIBUTE A *"], 2, "only a dummy argument can be transcriptive"),
    (["ALIGN A(I) WITH B(I)", "ALIGN B(I) WITH A(I)"], 2, "alignment cycle: A -> B -> A"),
    (["TEMPLATE A(4)"], 2, "TEMPLATE A: A is already declared as a variable"),
    (["PROCESSORS P(K)"], 2, "PROCESSORS P: extent not known (K is not a PARAMETER)"),
    (["TEMPLATE T(8)", "DISTRIBUTE T(BLOCK)", "DISTRIBUTE (CYCLIC) :: T"], 4, "T is distributed twice (first at line 3)"),
    (["TEMPLATE T(8, 8)", "ALIGN B(I) WITH C(*, I)", "ALIGN C(I, J) WITH T(I+2, J)"], 3, "replicated over part of template T only"),
    (["INDEPENDENT"], 2, "INDEPENDENT must stand right before a DO loop"),
]


@pytest.mark.parametrize("directives, line, message", ERRORS)
def test_hpf_errors_name_file_and_line(directives, line, message):
    unit = make_unit([array("A", 8), array("B", 6), array("C", 6, 8), scalar("K")], directives)
    with pytest.raises(HpfError) as err:
        resolve_unit(unit, nprocs=4)
    text = str(err.value)
    assert text.startswith(f"prog.f:{line}: "), text
    assert message in text
    assert "\n" not in text


@pytest.mark.parametrize(
    "text, message",
    [
        ("REDISTRIBUTE B(CYCLIC)", "REDISTRIBUTE B(CYCLIC): B is not DYNAMIC"),
        ("REALIGN B(I) WITH T(I)", "B is not DYNAMIC"),
        ("REDISTRIBUTE A(CYCLIC)", "A is aligned with another object; redistribute its template instead"),
        ("REDISTRIBUTE NOPE(CYCLIC)", "names NOPE, which is not a declared array or template"),
        ("REALIGN T(I) WITH A(I)", "T is distributed, so it cannot be realigned"),
    ],
)
def test_executable_errors_name_file_and_line(text, message):
    unit = make_unit(
        [array("A", 8), array("B", 8)],
        ["TEMPLATE T(8)", "DYNAMIC A, T", "ALIGN A(I) WITH T(I)", "DISTRIBUTE T(BLOCK)"],
    )
    state = resolve_unit(unit, nprocs=2)
    (d,) = parse_text(text, span(40))
    with pytest.raises(HpfError) as err:
        apply_executable(d, state, unit)
    assert str(err.value).startswith("prog.f:40: ") and message in str(err.value)


def test_errors_among_executable_statements():
    unit = make_unit([array("A", 8)], body=[directive("INDEPENDENT", 20), ir.Continue(span(21), None)])
    with pytest.raises(HpfError, match=r"prog.f:20: INDEPENDENT must be followed by a DO loop"):
        resolve_unit(unit, nprocs=2)
    unit = make_unit([array("A", 8)], body=[directive("DISTRIBUTE A(BLOCK)", 20)])
    with pytest.raises(HpfError, match=r"prog.f:20: DISTRIBUTE is a specification directive"):
        resolve_unit(unit, nprocs=2)
    unit = make_unit([array("A", 8)], body=[directive("INDEPENDENT(K)", 20), do("I", 21)])
    with pytest.raises(HpfError, match=r"prog.f:20: INDEPENDENT\(K\) names K but the DO loop that follows runs over I"):
        resolve_unit(unit, nprocs=2)


# --------------------------------------------------------------------------- through the front end


def test_end_to_end_resolution_through_the_front_end(frontend):
    from .test_parse import FIXED_PROGRAM, FREE_PROGRAM

    unit = frontend.read_text(FIXED_PROGRAM, "main.f", "fixed").units[0]
    got = resolve_unit(unit, nprocs=4)
    t, fmts, grid = ((1, 8), (1, 8)), (F("BLOCK"), F("CYCLIC")), (2, 2)
    check(got.layout("A"), lambda i, j: {(j, i)}, t, fmts, grid)
    check(got.layout("B"), lambda i: {(i, k) for k in range(1, 9)}, t, fmts, grid)
    assert got.independent == {13: m.Independent(new=("I",))}

    sub = frontend.read_text(FREE_PROGRAM, "smooth.f90", "free").units[0]
    actual = Layout(((1, 10),), ((1, 10),), (Axis(0),), (BLOCK,), (4,))
    state = resolve_unit(sub, nprocs=4, actuals={"X": actual})
    assert state.layout("X") == actual
    check(state.layout("Y"), lambda i, j: {(i, j)}, ((1, 6), (1, 6)), (F("*"), F("CYCLIC", 2)), (4,))
    assert list(state.independent) == [11]
    (redistribute,) = [d for s in sub.body if isinstance(s, ir.Directive) for d in parse_directive(s) if isinstance(d, m.Redistribute)]
    after = apply_executable(redistribute, state, sub)
    check(after.layout("Y"), lambda i, j: {(i, j)}, ((1, 6), (1, 6)), (F("BLOCK"), F("*")), (4,))
