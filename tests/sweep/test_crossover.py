"""Crossover search on synthetic cost curves with known answers."""

from __future__ import annotations

import math

import pytest

from autodist.sweep import Axis, Outcome, SweepPoint
from autodist.sweep.crossover import find_crossovers


def point(key, x, static, dynamic, mapping=None, procs=16):
    s = Outcome(static, static, 0.0, 0.0, 0, mapping or "A(*,BLOCK)")
    d = Outcome(dynamic, dynamic, 0.0, 0.0, 2, "A(BLOCK,*)/(*,BLOCK)")
    chosen = "dynamic" if dynamic < static * (1 - 1e-9) else "static"
    return SweepPoint(((key, x),), procs, 10.0, s, d, chosen)


def lines(x):
    """DDT's linear model: static = 5 + 1e5·r, dynamic = 1 + 2e6·r: equal at 4/1.9e6."""
    return point("rat", x, 5 + 1e5 * x, 1 + 2e6 * x)


RAT = Axis("rat", tuple(10.0 ** k for k in range(-9, -2)), "log")
EXACT = 4 / 1.9e6


class Counter:
    def __init__(self, fn):
        self.fn, self.calls = fn, 0

    def __call__(self, x):
        self.calls += 1
        return self.fn(x)


def test_bisection_finds_the_intersection_of_the_cost_lines():
    grid = [lines(x) for x in RAT.values]
    ev = Counter(lines)
    (c,) = find_crossovers(RAT, grid, ev, tolerance=1e-4)
    assert c.solution_changes and c.refined
    assert (c.below.chosen, c.above.chosen) == ("dynamic", "static")
    assert c.grid == (1e-6, 1e-5)
    lo, hi = c.bracket
    assert lo < EXACT <= hi and (hi - lo) <= 1e-4 * hi
    assert abs(c.at - EXACT) / EXACT < 1e-4
    # geometric bisection of a decade down to 1e-4: about log2(ln 10 / 1e-4) = 15 steps
    assert ev.calls <= 16


def test_without_refinement_the_grid_bracket_is_reported():
    grid = [lines(x) for x in RAT.values]
    (c,) = find_crossovers(RAT, grid, lambda x: pytest.fail("no evaluation without refinement"), refine=False)
    assert c.bracket == c.grid == (1e-6, 1e-5) and not c.refined


def test_integer_axis_gives_the_first_count_where_the_other_solution_wins():
    # dynamic wins from 6 processors on
    def at(p):
        p = int(p)
        return point("procs", float(p), 6.0, 100.0 / p - 10.0, procs=p)

    axis = Axis("procs", (1.0, 2.0, 4.0, 8.0, 16.0), "lin", True)
    grid = [at(p) for p in axis.values]
    (c,) = find_crossovers(axis, grid, at)
    assert c.at == 7 and c.bracket == (6.0, 7.0) and c.grid == (4.0, 8.0)
    (c,) = find_crossovers(axis, grid, at, refine=False)
    assert c.at == 8 and c.bracket == (4.0, 8.0)


def test_two_changes_between_the_same_grid_points_are_both_found():
    # static below 0.3, dynamic from 0.3, and from 0.6 static again with another mapping
    def at(x):
        return point("x", x, 1.0, 0.5 if 0.3 <= x < 0.6 else 2.0, mapping="A(BLOCK,*)" if x < 0.6 else None)

    axis = Axis("x", (0.0, 1.0), "lin")
    grid = [at(v) for v in axis.values]
    found = find_crossovers(axis, grid, at, tolerance=1e-2)
    assert [(c.below.regime, c.above.regime) for c in found] == [
        (("static", "A(BLOCK,*)"), ("dynamic", "A(BLOCK,*)/(*,BLOCK)")),
        (("dynamic", "A(BLOCK,*)/(*,BLOCK)"), ("static", "A(*,BLOCK)")),
    ]
    assert [round(c.at, 2) for c in found] == [0.3, 0.6] and all(c.refined for c in found)
    assert all(c.grid == (0.0, 1.0) for c in found)


def test_a_change_of_mapping_alone_is_reported_as_such():
    def at(x):
        return point("x", x, 1.0, 2.0, mapping="A(BLOCK,*)" if x < 0.5 else "A(*,BLOCK)")

    axis = Axis("x", (0.0, 1.0), "lin")
    (c,) = find_crossovers(axis, [at(0.0), at(1.0)], at, tolerance=1e-3)
    assert not c.solution_changes and c.refined
    assert math.isclose(c.at, 0.5, abs_tol=1e-3)


def test_on_one_processor_a_different_mapping_is_no_change():
    one = point("procs", 1.0, 1.0, 1.0, mapping="A(*,*)", procs=1)
    two = point("procs", 2.0, 1.0, 1.0, mapping="A(*,BLOCK)", procs=2)
    axis = Axis("procs", (1.0, 2.0), "lin", True)
    assert find_crossovers(axis, [one, two], lambda p: pytest.fail("nothing to refine")) == []


def test_a_static_dynamic_crossover_ignores_mapping_changes_on_either_side():
    # static below 0.5; above, the dynamic solution's mapping flips every 0.01
    def at(x):
        p = point("x", x, 1.0, 0.5 if x >= 0.5 else 2.0)
        flip = "A(BLOCK,*)/(*,BLOCK)" if int(x * 100) % 2 else "A(*,BLOCK)/(BLOCK,*)"
        return SweepPoint(p.values, p.procs, p.sequential, p.static,
                          Outcome(p.dynamic.total, p.dynamic.total, 0, 0, 2, flip), p.chosen)

    axis = Axis("x", (0.0, 1.0), "lin")
    (c,) = find_crossovers(axis, [at(0.0), at(1.0)], at, tolerance=1e-6)
    assert c.solution_changes and c.refined and math.isclose(c.at, 0.5, abs_tol=1e-6)


def test_flickering_mappings_stay_within_the_evaluation_budget():
    from autodist.sweep.crossover import MAX_MAPPING_EVALUATIONS

    def at(x):  # the static mapping flips 100 times between the grid points
        return point("x", x, 1.0, 2.0, mapping=f"A{int(x * 100) % 2}")

    ev = Counter(at)
    axis = Axis("x", (0.0, 1.015), "lin")
    found = find_crossovers(axis, [at(0.0), at(1.015)], ev, tolerance=1e-9)
    assert ev.calls == MAX_MAPPING_EVALUATIONS
    assert found and all(c.below.regime != c.above.regime for c in found)
    ends = [v for c in found for v in c.bracket]
    assert ends == sorted(ends)  # disjoint brackets, in order
