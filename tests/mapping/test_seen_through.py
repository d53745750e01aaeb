"""A dummy's layout seen through its actual's declaration (the static and the
dynamic evaluation price a call with it)."""

from __future__ import annotations

from autodist.layout.formats import Format
from autodist.layout.model import Axis, Layout
from autodist.layout.ownership import ownership
from autodist.mapping.evaluate import seen_through


def _layout(bounds, template, kind, grid=()):
    return Layout(bounds, template, (Axis(0, 1, 0),), (Format(kind),), grid, template_name="T31", procs_name="P")


def test_a_one_element_dummy_seen_through_a_longer_actual_is_a_valid_layout():
    # X(1) in the callee, a 49-element actual: nothing distributed, the template widens
    seen = seen_through(_layout(((1, 1),), ((1, 1),), "*"), ((1, 49),))
    assert seen is not None and seen.bounds == ((1, 49),) and seen.template == ((1, 49),)
    assert ownership(seen, 4) is not None  # no "ALIGN puts indices ... outside" any more


def test_a_distribution_that_does_not_fit_the_actual_is_no_layout_of_it():
    assert seen_through(_layout(((1, 8),), ((1, 8),), "BLOCK", (4,)), ((1, 49),)) is None


def test_another_lower_bound_only_shifts_the_alignment():
    seen = seen_through(_layout(((0, 48),), ((0, 48),), "BLOCK", (4,)), ((1, 49),))
    assert seen is not None and seen.template == ((0, 48),) and seen.align == (Axis(0, 1, -1),)


def test_a_dummy_of_another_rank_than_its_actual_is_no_layout_of_it():
    # X(3) for a POS(3,500) actual: a remap is only between layouts of one shape
    assert seen_through(_layout(((1, 3),), ((1, 3),), "BLOCK", (3,)), ((1, 3), (1, 500))) is None
    assert seen_through(_layout(((1, 3),), ((1, 3),), "*"), ((1, 3), (1, 500))) is None
