"""Value ranges of DO variables (runtime/codegen/ranges.py), against exhaustive
evaluation: a range always holds every value the expression takes, and is
exact for affine expressions."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from autodist import ir
from autodist.frontend import read_program
from autodist.runtime.codegen.ranges import fixed_in, interval, loop_interval

RANGES = {"v_I": (1, 16), "v_J": (-3, 2), "v_K": (5, 5)}


@pytest.mark.parametrize("code, affine", [
    ("(v_I + 1)", True),
    ("((2 * v_I) - v_I) + 1", True),
    ("17 - v_I", True),
    ("v_I + 16 * (v_J - 1)", True),
    ("-v_J * 3 + v_K", True),
    ("v_I * v_J", False),
    ("(v_I - v_J) * (v_J + 4)", False),
    ("v_J * v_J", False),
])
def test_ranges_hold_every_value_and_are_exact_when_affine(code, affine):
    names = sorted(RANGES)
    values = [eval(code, dict(zip(names, point)))
              for point in itertools.product(*(range(a, b + 1) for a, b in (RANGES[n] for n in names)))]
    lo, hi = interval(code, RANGES)
    assert lo <= min(values) and max(values) <= hi
    if affine:
        assert (lo, hi) == (min(values), max(values))


def test_unknown_names_and_other_operations_give_no_range():
    assert interval("v_N + 1", RANGES) is None
    assert interval("v_I // 2", RANGES) is None
    assert interval("at(1, v_I, 1, 5, 0)", RANGES) is None


@pytest.mark.parametrize("lo, hi, step, expected", [
    ("1", "16", "1", (1, 16)),
    ("16", "1", "-1", (1, 16)),
    ("v_I", "20", "2", (1, 20)),
    ("1", "v_N", "1", None),
    ("1", "10", "v_I", None),
])
def test_loop_values_lie_between_first_and_last(lo, hi, step, expected):
    assert loop_interval(lo, hi, step, RANGES) == expected


def _loop(fortran, text: str) -> ir.Do:
    program = read_program([str(fortran(text))])
    return next(s for s in ir.walk(program.units[0].body) if isinstance(s, ir.Do))


@pytest.mark.parametrize("body, fixed", [
    ("A(I) = 1.0", True),
    ("CALL SUB(I)", False),
    ("A(I) = F(I)", False),
    ("A(I) = SQRT(REAL(I))", True),
])
def test_a_loop_variable_is_fixed_unless_the_body_can_assign_it(fortran, body, fixed):
    lines = ["PROGRAM P", "REAL A(10), F", "INTEGER I", "DO 10 I = 1, 10", "   " + body, "10 CONTINUE", "END",
             "SUBROUTINE SUB(K)", "INTEGER K", "END", "REAL FUNCTION F(K)", "INTEGER K", "F = K", "END"]
    do = _loop(fortran, "".join(f"{l[:2]:<6}{l[3:]}\n" if l[:2].isdigit() else f"      {l}\n" for l in lines))
    assert fixed_in(do.var, do.body) is fixed


def test_assignments_the_front_end_refuses_still_unfix_the_variable(fortran):
    """The front end refuses a DO variable assigned or read in its loop; the
    ranges do not rely on it."""
    do = _loop(fortran, "      PROGRAM P\n      INTEGER I\n      DO 10 I = 1, 3\n10    CONTINUE\n      END\n")
    i = ir.Name("I")
    for s in (ir.Assign(do.span, None, i, ir.Const(1, ir.INTEGER)), ir.Io(do.span, None, "read", None, "*", (i,))):
        assert not fixed_in("I", (s,))
        assert not fixed_in("I", (dataclasses.replace(do, var="J", body=(s,)),))
    assert fixed_in("I", do.body)
