"""The registry of communication routines: every routine the cost model can
name is carried out by a plan builder of the runtime, and the reference
patterns of DDT Table 3 pick exactly one routine."""

from __future__ import annotations

import itertools

import pytest

from autodist.ir import Affine
from autodist.layout import routines as rt
from autodist.runtime.comm.builders import BUILDERS, builder


def test_every_routine_has_its_builders_and_every_builder_a_routine():
    named = {b for r in rt.ROUTINES.values() for b in r.builders}
    assert named == set(BUILDERS)
    for r in rt.ROUTINES.values():
        assert builder(r) is BUILDERS[r.builders[0]]
    with pytest.raises(ValueError):
        builder(rt.REDUCTION, "halo_plan")


def test_names_are_the_reported_ones():
    assert list(rt.ROUTINES) == ["Shift", "Copy", "One_to_All", "All_to_One", "All_to_All",
                                 "Exchange", "Pipeline", "Remap", "Reduction"]
    assert [r.priced_apart for r in rt.ROUTINES.values()] == [False] * 8 + [True]


def test_ddt_message_counts():
    assert [r.messages(4) for r in rt.TABLE] == [1, 3, 1, 1, 3]
    assert [r.messages(1) for r in rt.TABLE] == [1] * 5


I, J = Affine(0, (("I", 1),)), Affine(0, (("J", 1),))
SUBS = [None, Affine(3), I, Affine(1, (("I", 1),)), Affine(0, (("I", 2),)), J]


@pytest.mark.parametrize("spans", [False, True])
def test_exactly_one_table_routine_per_reference(spans):
    for lhs, rhs in itertools.product(SUBS if spans else [None], SUBS):
        for lhs_vars in (frozenset(), frozenset({"I"}), frozenset({"I", "J"})):
            ref = rt.Reference(spans, lhs, rhs, lhs_vars)
            assert sum(r.matches(ref) for r in rt.TABLE) == 1, ref


def test_table_3():
    c = rt.classify
    assert c(rt.Reference(True, I, Affine(-1, (("I", 1),)), frozenset("I"))) is rt.SHIFT
    assert c(rt.Reference(True, I, Affine(3), frozenset("I"))) is rt.ONE_TO_ALL
    assert c(rt.Reference(False, None, Affine(3))) is rt.ONE_TO_ALL
    assert c(rt.Reference(True, Affine(3), I, frozenset())) is rt.ALL_TO_ONE
    assert c(rt.Reference(True, I, J, frozenset("IJ"))) is rt.ALL_TO_ALL
    assert c(rt.Reference(True, None, I, frozenset("I"))) is rt.ALL_TO_ALL
    assert c(rt.Reference(True, I, J, frozenset("I"))) is rt.COPY
    assert c(rt.Reference(False, None, I)) is rt.COPY
    assert c(rt.Reference(False, None, None)) is rt.COPY
