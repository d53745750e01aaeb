"""The emitter: text and lines for every form, round trips, layouts to directives."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autodist import ir
from autodist.hpf import model as m
from autodist.hpf.emit import (
    directive_lines,
    directive_text,
    independent_directive,
    layout_directives,
    prefix_text,
    realign_directives,
    redistribute_directives,
)
from autodist.hpf.lines import format_lines, scan_directives
from autodist.hpf.parse import parse_directive, parse_text
from autodist.hpf.resolve import apply_executable, resolve_unit
from autodist.layout.model import BLOCK, COLLAPSED, CYCLIC, REPLICATED, Axis, Fixed, Layout, replicated, simple

from . import strategies as S
from .helpers import array, make_unit, scalar

# --------------------------------------------------------------------------- text


def test_text_of_each_form():
    cases = [
        "PROCESSORS P(4), Q(2, 2), R",
        "TEMPLATE T(0:N+1, M), G(SIZE(X,3))",
        "ALIGN A(I, J) WITH T(J, I)",
        "ALIGN (:, :) WITH T :: A, B",
        "ALIGN (*, :, :) WITH G :: U",
        "ALIGN A(I) WITH T(I, *)",
        "ALIGN A(I) WITH T(2*I-1)",
        "ALIGN A(I) WITH T(N-I+1)",
        "ALIGN A(:) WITH *B(1:N:2)",
        "ALIGN X WITH T(3)",
        "DISTRIBUTE T(BLOCK, *) ONTO P",
        "DISTRIBUTE (BLOCK(4), CYCLIC(K)) ONTO P :: T, U",
        "DISTRIBUTE A *(BLOCK) ONTO *P",
        "DISTRIBUTE A * ONTO *",
        "DISTRIBUTE * :: A, B",
        "INHERIT A, B",
        "DYNAMIC :: A",
        "REDISTRIBUTE T(CYCLIC) ONTO Q",
        "REALIGN A(I) WITH T(I+1)",
        "INDEPENDENT",
        "INDEPENDENT(I, J)",
        "INDEPENDENT, NEW(K, TMP), REDUCTION(S), ON HOME(A(I,J))",
    ]
    for text in cases:
        (d,) = parse_text(text)
        assert directive_text(d) == text


def test_expressions_keep_their_tree():
    for text in ["T(1::2)", "T(::N)", "T(A-(B-C))", "T(A-B-C)", "T(-A*B)", "T(-(A+B))", "T(A**B**C)", "T((A**B)**C)", "T(A/(B*C))", "T((-3)*I)"]:
        (d,) = parse_text(f"ALIGN A(:) WITH {text}")
        again = parse_text(directive_text(d))
        assert again == (d,), text


def test_fixed_form_lines_are_column_1_at_most_72_and_continue_at_commas():
    names = tuple(f"ARRAY{i:02d}" for i in range(20))
    lines = directive_lines([m.Dynamic(names)], "fixed")
    assert len(lines) > 1
    assert lines[0].startswith("CHPF$ DYNAMIC ARRAY00,")
    assert all(line.startswith("CHPF$+ ARRAY") for line in lines[1:])
    assert all(len(line) <= 72 for line in lines)
    assert all(line.rstrip().endswith(",") for line in lines[:-1])
    (back,) = scan_directives(lines, "x.f", "fixed")
    assert parse_directive(back) == (m.Dynamic(names),)


def test_free_form_lines_continue_with_ampersands():
    names = tuple(f"ARRAY{i:02d}" for i in range(20))
    lines = directive_lines([m.Dynamic(names)], "free", width=60)
    assert lines[0].startswith("!HPF$ DYNAMIC ") and lines[0].endswith(", &")
    assert all(line.startswith("!HPF$& ") for line in lines[1:])
    assert all(line.endswith("&") for line in lines[:-1]) and not lines[-1].endswith("&")
    assert all(len(line) <= 60 for line in lines)
    (back,) = scan_directives(lines, "x.f90", "free")
    assert parse_directive(back) == (m.Dynamic(names),)


def test_long_expression_without_commas_breaks_between_tokens():
    text = "TEMPLATE T(" + "+".join(f"N{i}" for i in range(40)) + ")"
    for form in ("fixed", "free"):
        lines = format_lines(text, form)
        assert len(lines) > 1 and all(len(line) <= 72 for line in lines)
        (back,) = scan_directives(lines, "x", form)
        assert parse_text(back.text) == parse_text(text)


def test_prefixes_and_independent_helper():
    assert prefix_text([m.Prefix("EXTRINSIC", "HPF_LOCAL"), m.Prefix("PURE")]) == "EXTRINSIC(HPF_LOCAL) PURE"
    d = independent_directive(new=["K", "TMP"], reduction=["S"])
    assert directive_lines([d], "fixed") == ["CHPF$ INDEPENDENT, NEW(K, TMP), REDUCTION(S)"]
    assert directive_lines([independent_directive()], "free") == ["!HPF$ INDEPENDENT"]


# --------------------------------------------------------------------------- round trips


def _scramble(text: str, rnd: random.Random) -> str:
    """Random case, and random blanks between tokens (never inside one)."""
    out = []
    for i, ch in enumerate(text):
        out.append(ch.lower() if rnd.random() < 0.5 else ch.upper())
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if ch + nxt in ("::", "**"):
            continue
        if not (ch.isalnum() or ch == "_") or not (nxt.isalnum() or nxt == "_"):
            out.append(" " * rnd.choice([0, 0, 1, 3]))
    return "".join(out)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(d=S.directives, seed=st.integers(0, 2**32), form=st.sampled_from(["fixed", "free"]), width=st.integers(40, 72))
def test_read_write_read_gives_the_same_model(d, seed, form, width):
    text = directive_text(d)
    assert parse_text(text) == (d,)
    assert parse_text(_scramble(text, random.Random(seed))) == (d,)
    lines = directive_lines([d], form, width)
    assert all(len(line) <= width for line in lines)
    (joined,) = scan_directives(lines, "x", form)
    assert parse_directive(joined) == (d,)
    # a reader that joins continuation lines with a blank reads the same
    if form == "fixed":
        assert parse_text(" ".join(line[6:] for line in lines)) == (d,)


# --------------------------------------------------------------------------- layouts


def _unit_from_lines(layouts, lines, extra=()):
    syms = [array(n, *lay.bounds) if lay.rank else scalar(n) for n, lay in layouts.items()]
    ds = scan_directives(lines, "prog.f", "fixed")
    return make_unit(syms, [d.text for d in ds] + list(extra))


def test_layout_directives_direct_and_shared_templates():
    a = simple(((1, 8), (1, 8)), (BLOCK, COLLAPSED), (4,))
    b = Layout(((1, 8),), ((0, 9), (1, 8)), (Axis(0, 1, 1), REPLICATED), (BLOCK, CYCLIC), (2, 2), template_name="G")
    c = Layout(((1, 8),), ((0, 9), (1, 8)), (Axis(0, -1, 9), Fixed(3)), (BLOCK, CYCLIC), (2, 2), template_name="G")
    arrays = {"A": a, "B": b, "C": c, "D": replicated(((1, 5),))}
    lines = directive_lines(layout_directives(arrays, dynamic=["C"]), "fixed")
    assert lines == [
        "CHPF$ PROCESSORS P4(4), P2X2(2, 2)",
        "CHPF$ TEMPLATE G(0:9, 8)",
        "CHPF$ ALIGN B(I) WITH G(I+1, *)",
        "CHPF$ ALIGN C(I) WITH G(9-I, 3)",
        "CHPF$ DISTRIBUTE A(BLOCK, *) ONTO P4",
        "CHPF$ DISTRIBUTE G(BLOCK, CYCLIC) ONTO P2X2",
        "CHPF$ DYNAMIC C, G",
    ]
    got = resolve_unit(_unit_from_lines(arrays, lines), nprocs=4)
    assert got.layouts == arrays
    assert got.replicated == ("D",)


def test_unnamed_templates_are_grouped_by_meaning_and_named_apart_from_the_unit():
    t = ((1, 6),)
    x = Layout(((1, 6),), t, (Axis(0, -1, 7),), (CYCLIC,), (3,))
    y = Layout(((1, 3),), t, (Axis(0, 2, 0),), (CYCLIC,), (3,))
    lines = directive_lines(layout_directives({"X": x, "Y": y}, avoid=["T1"]), "fixed")
    assert lines == [
        "CHPF$ PROCESSORS P3(3)",
        "CHPF$ TEMPLATE T2(6)",
        "CHPF$ ALIGN X(I) WITH T2(7-I)",
        "CHPF$ ALIGN Y(I) WITH T2(2*I)",
        "CHPF$ DISTRIBUTE T2(CYCLIC) ONTO P3",
    ]


def test_resolved_mappings_with_an_array_as_align_target_are_written_back_as_such():
    unit = make_unit([array("A", 8), array("B", 6), array("T1", 3)], ["DISTRIBUTE A(CYCLIC(2))", "ALIGN B(I) WITH A(I+2)"])
    layouts = resolve_unit(unit, nprocs=4).layouts
    lines = directive_lines(layout_directives(layouts, dynamic=["B"]), "fixed")
    assert lines == [
        "CHPF$ PROCESSORS P4(4)",
        "CHPF$ ALIGN B(I) WITH A(I+2)",
        "CHPF$ DISTRIBUTE A(CYCLIC(2)) ONTO P4",
        "CHPF$ DYNAMIC B, A",
    ]
    assert resolve_unit(_unit_from_lines(layouts, lines), nprocs=4).layouts == layouts
    # a template named like an array of the unit is renamed
    clash = {n: Layout(l.bounds, l.template, l.align, l.formats, l.grid, template_name="B") for n, l in layouts.items()}
    lines = directive_lines(layout_directives(clash, avoid=["A", "B", "T1"]), "fixed")
    assert "CHPF$ TEMPLATE T2(8)" in lines
    assert resolve_unit(_unit_from_lines(clash, lines), nprocs=4).layouts == layouts


def test_identical_alignments_share_an_attribute_form_align():
    lay = Layout(((1, 4),), ((1, 4), (1, 2)), (Axis(0), REPLICATED), (BLOCK, COLLAPSED), (2,), template_name="T")
    ds = layout_directives({"A": lay, "B": lay, "C": lay})
    assert m.Align(("A", "B", "C"), ("I",), "T", (ir.Name("I"), m.STAR), attribute=True) in ds


@settings(max_examples=150, deadline=None)
@given(layouts=S.layouts_on_one_template(), named=st.booleans())
def test_layouts_written_then_resolved_are_the_same_layouts(layouts, named):
    if named:
        layouts = {n: Layout(l.bounds, l.template, l.align, l.formats, l.grid, template_name="TT") for n, l in layouts.items()}
    lines = directive_lines(layout_directives(layouts, dynamic=list(layouts)), "fixed")
    got = resolve_unit(_unit_from_lines(layouts, lines), nprocs=5)
    assert got.layouts == layouts


def test_remap_directives_are_applied_by_the_resolver():
    t = ((1, 8), (1, 8))
    before = {
        "A": Layout(t, t, (Axis(0), Axis(1)), (BLOCK, COLLAPSED), (4,), template_name="T"),
        "B": Layout(t, t, (Axis(1), Axis(0)), (BLOCK, COLLAPSED), (4,), template_name="T"),
    }
    redistributed = {n: Layout(l.bounds, l.template, l.align, (COLLAPSED, CYCLIC), (4,), template_name="T") for n, l in before.items()}
    realigned = {"B": Layout(t, t, (Axis(0), Axis(1)), (COLLAPSED, CYCLIC), (4,), template_name="T")}
    spec = directive_lines(layout_directives(before, dynamic=["A", "B"], remaps=[redistributed]), "fixed")
    assert "CHPF$ DYNAMIC A, B, T" in spec
    unit = _unit_from_lines(before, spec)
    state = resolve_unit(unit, nprocs=4)
    assert state.layouts == before
    for d in redistribute_directives(redistributed):
        state = apply_executable(d, state, unit)
    assert state.layouts == redistributed
    for d in realign_directives(realigned):
        state = apply_executable(d, state, unit)
    assert state.layouts == {**redistributed, **realigned}


def test_realign_to_a_template_declared_only_for_later():
    t = ((1, 8),)
    a0 = {"A": Layout(t, t, (Axis(0),), (BLOCK,), (2,), template_name="T")}
    a1 = {"A": Layout(t, ((0, 9),), (Axis(0, 1, 1),), (CYCLIC,), (2,), template_name="U")}
    spec = directive_lines(layout_directives(a0, dynamic=["A"], remaps=[a1]), "fixed")
    assert spec == [
        "CHPF$ PROCESSORS P2(2)",
        "CHPF$ TEMPLATE T(8), U(0:9)",
        "CHPF$ ALIGN A(I) WITH T(I)",
        "CHPF$ DISTRIBUTE T(BLOCK) ONTO P2",
        "CHPF$ DISTRIBUTE U(CYCLIC) ONTO P2",
        "CHPF$ DYNAMIC A, T",
    ]
    unit = _unit_from_lines(a0, spec)
    state = resolve_unit(unit, nprocs=2)
    (d,) = realign_directives(a1)
    assert directive_text(d) == "REALIGN A(I) WITH U(I+1)"
    assert apply_executable(d, state, unit).layouts == a1
