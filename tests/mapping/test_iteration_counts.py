"""How many iterations of a loop nest a rank executes (``count_iterations``,
the cost model's and the runtime's count): against every iteration
enumerated, on random triangular nests (bounds affine in the outer
variables, steps 1 and -1, allowed values intervals or periodic sets as
BLOCK and CYCLIC(k) give them); and where the outer values are too many to
count one by one, the nest counted at once gives what counting row by row
gives."""

from __future__ import annotations

import random

import pytest

from autodist import ir
from autodist.analysis.model import RefPattern
from autodist.layout.sections import IndexSet
from autodist.owner import iterations
from autodist.owner.iterations import Loop, count_iterations

VARS = ("I", "J", "K")


def _affine(const: int, terms: dict[str, int]) -> ir.Expr:
    e: ir.Expr = ir.Const(const, ir.INTEGER)
    for v, c in terms.items():
        e = ir.BinOp(ir.Op.ADD, e, ir.BinOp(ir.Op.MUL, ir.Const(c, ir.INTEGER), ir.Name(v)))
    return e


def _random_nest(rng: random.Random, size: int, deepest: int = 3):
    loops, spans = [], []
    for depth in range(rng.randint(1, deepest)):
        outer = VARS[:depth]
        lo_terms = {v: rng.choice((0, 0, 1, -1)) for v in outer}
        hi_terms = {v: rng.choice((0, 1, -1, 2)) for v in outer}
        lo, hi = (rng.randint(-3, size // 2), {v: c for v, c in lo_terms.items() if c}), \
            (rng.randint(0, size), {v: c for v, c in hi_terms.items() if c})
        step = rng.choice((1, 1, -1))
        if step == -1:
            lo, hi = hi, lo
        loops.append(Loop(VARS[depth], 10 + depth, _affine(*lo), _affine(*hi), step, True))
        spans.append((lo, hi, step))
    return loops, spans


def _random_values(rng: random.Random, loops, size: int) -> dict[str, IndexSet]:
    out = {}
    for lp in loops:
        kind = rng.choice(("none", "interval", "cyclic"))
        if kind == "interval":
            a = rng.randint(-3, size)
            out[lp.var] = IndexSet.interval(a, a + rng.randint(0, size))
        elif kind == "cyclic":
            period, k = rng.choice(((4, 1), (6, 2), (3, 1))), 0
            r = rng.randrange(period[0] // period[1]) * period[1]
            out[lp.var] = IndexSet.periodic(-size, 2 * size, period[0], ((r, r + period[1]),))
    return out


def _brute(spans, values) -> int:
    def rec(k: int, env: dict[str, int]) -> int:
        if k == len(spans):
            return 1
        (lc, lt), (hc, ht), step = spans[k]
        lo = lc + sum(c * env[v] for v, c in lt.items())
        hi = hc + sum(c * env[v] for v, c in ht.items())
        allowed = values.get(VARS[k])
        return sum(rec(k + 1, {**env, VARS[k]: x}) for x in range(lo, hi + step, step)
                   if allowed is None or x in allowed.to_array())
    return rec(0, {})


def _pattern(loops) -> RefPattern:
    return RefPattern(None, "S", (), 1, tuple(lp.var for lp in loops), 1.0, 1, 1,
                      tuple(lp.line for lp in loops))


@pytest.mark.parametrize("seed", range(60))
def test_counts_equal_the_iterations_enumerated(seed):
    rng = random.Random(seed)
    loops, spans = _random_nest(rng, 12)
    values = _random_values(rng, loops, 12)
    got = count_iterations(_pattern(loops), {lp.line: lp for lp in loops}, values)
    assert got == _brute(spans, values)


@pytest.mark.parametrize("seed", range(20))
def test_counting_at_once_gives_what_counting_row_by_row_gives(seed, monkeypatch):
    rng = random.Random(1000 + seed)
    size = rng.choice((50, 3000))
    loops, _ = _random_nest(rng, size, deepest=2)  # row by row, deeper sampled nests take seconds
    values = _random_values(rng, loops, size)
    pat, by_line = _pattern(loops), {lp.line: lp for lp in loops}
    at_once = count_iterations(pat, by_line, values)
    monkeypatch.setattr(iterations, "_count_at_once", lambda *a: None)
    assert at_once == pytest.approx(count_iterations(pat, by_line, values), rel=1e-12)
