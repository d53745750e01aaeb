"""The box algebra of the kill summaries against its definitions."""

from __future__ import annotations

import random

from autodist import ir
from autodist.analysis import boxes


def _box(rng: random.Random, dims: int) -> boxes.Box:
    out = []
    for d in range(dims):
        terms = ((f"N{d}", 1),) if rng.random() < 0.5 else ()
        lo = rng.randint(-2, 2)
        out.append((ir.Affine(lo, terms), ir.Affine(lo + rng.randint(-1, 3), terms)))
    return tuple(out)


def _pairwise(bs: list[boxes.Box]) -> list[boxes.Box]:
    return [b for b in bs if not any(c != b and boxes.contains(c, b) for c in bs)]


def test_largest_keeps_exactly_the_boxes_no_other_contains():
    rng = random.Random(7)
    for trial in range(60):
        dims = rng.randint(1, 3)
        # enough boxes that groups of one signature pass the pairwise size
        bs = [_box(rng, dims) for _ in range(rng.choice((5, 40, 120)))]
        assert boxes.largest(bs) == _pairwise(bs), trial


def test_largest_compares_constants_past_64_bits():
    big = 10 ** 30
    bs = [((ir.Affine(1, ()), ir.Affine(big + k, ())),) for k in range(40)]
    assert boxes.largest(bs) == [bs[-1]]
