"""The distribution format types: every profile name has one, each supplies
its block sizes, text and candidates."""

from __future__ import annotations

import pytest

from autodist.errors import HpfError
from autodist.layout.formats import SCHEMES, Format, candidate_formats
from autodist.layout.model import BLOCK, COLLAPSED, CYCLIC
from autodist.machine import FORMATS


def test_every_profile_name_belongs_to_one_format_type():
    names = [n for s in SCHEMES.values() for n in s.profile_names]
    assert sorted(names) == sorted(FORMATS)


def test_text_and_validation():
    assert [str(f) for f in (BLOCK, CYCLIC, COLLAPSED, Format("BLOCK", 4), Format("CYCLIC", 3))] == [
        "BLOCK", "CYCLIC", "*", "BLOCK(4)", "CYCLIC(3)"]
    for bad in (("GEN_BLOCK", None), ("*", 2), ("CYCLIC", 0)):
        with pytest.raises(ValueError):
            Format(*bad)


def test_block_sizes_and_contiguity():
    assert BLOCK.block_size(10, 3, 0, "t") == 4 and Format("BLOCK", 5).block_size(10, 2, 0, "t") == 5
    with pytest.raises(HpfError, match="BLOCK\\(4\\) on 2 processors covers 8 cells"):
        Format("BLOCK", 4).block_size(10, 2, 0, "t")
    assert CYCLIC.block_size(10, 3, 0, "t") == 1 and Format("CYCLIC", 3).block_size(10, 3, 0, "t") == 3
    assert [f.scheme.contiguous for f in (BLOCK, CYCLIC, COLLAPSED)] == [True, False, True]
    assert [f.distributed for f in (BLOCK, CYCLIC, COLLAPSED)] == [True, True, False]


def test_candidates_follow_the_profile_order():
    names = ("CYCLIC", "BLOCK", "CYCLIC(k)")
    assert candidate_formats(names, 100, 4, False) == [CYCLIC, BLOCK]
    assert candidate_formats(names, 100, 4, True) == [CYCLIC, BLOCK, Format("CYCLIC", 4), Format("CYCLIC", 7)]
