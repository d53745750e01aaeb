"""The one integer evaluator against hand-computed Fortran answers."""

from __future__ import annotations

import pytest

from autodist import ir
from autodist.ir import Affine, IntEvaluator, affine, eval_affine, int_mod, int_power, int_value, trips, trunc_div

I4 = ir.INTEGER


def c(v, t=I4):
    return ir.Const(v, t)


def n(name):
    return ir.Name(name)


def b(op, left, right):
    return ir.BinOp(op, left, right)


def call(name, *args):
    return ir.FuncRef(name, tuple(args), "intrinsic")


@pytest.mark.parametrize(
    "a, d, q", [(7, 2, 3), (-7, 2, -3), (7, -2, -3), (-7, -2, 3), (0, -5, 0), (6, 3, 2), (-1, 3, 0)]
)
def test_division_truncates_toward_zero(a, d, q):
    assert trunc_div(a, d) == q
    assert int_value(b("/", c(a), c(d))) == q


def test_division_is_exact_beyond_float_precision():
    assert trunc_div(-(10**30) - 1, 10**15) == -(10**15)


@pytest.mark.parametrize(
    "a, d, r", [(7, 3, 1), (-7, 3, -1), (7, -3, 1), (-7, -3, -1), (6, 3, 0), (-6, 3, 0), (2, 5, 2)]
)
def test_mod_takes_the_sign_of_its_first_argument(a, d, r):
    assert int_mod(a, d) == r
    assert int_value(call("MOD", c(a), c(d))) == r


def test_mod_by_zero_has_no_value():
    assert int_value(call("MOD", c(7), c(0))) is None
    assert int_value(b("/", c(7), c(0))) is None


@pytest.mark.parametrize(
    "a, e, v",
    [(2, 10, 1024), (-2, 3, -8), (5, 0, 1), (0, 0, 1), (2, -1, 0), (-3, -2, 0), (1, -7, 1), (-1, -3, -1), (-1, -4, 1)],
)
def test_integer_power(a, e, v):
    assert int_power(a, e) == v
    assert int_value(b("**", c(a), c(e))) == v


def test_power_without_a_value():
    assert int_power(0, -1) is None  # division by zero
    assert int_power(2, 65) is None  # beyond every integer kind
    assert int_power(-1, 10**9) == 1


def test_nested_min_max_abs():
    e = call("MAX", call("MIN", b("+", n("I"), c(3)), n("N")), c(2), call("ABS", n("K")))
    assert int_value(e, {"I": 1, "N": 10, "K": -3}) == 4
    assert int_value(e, {"I": 9, "N": 10, "K": -3}) == 10
    assert int_value(e, {"I": -9, "N": 10, "K": 1}) == 2
    assert int_value(call("MIN0", c(4), c(-2), c(3))) == -2
    assert int_value(call("IABS", c(-6))) == 6


def test_unknown_names_leave_the_value_unknown():
    assert int_value(b("+", n("N"), c(1))) is None
    assert int_value(call("MAX", n("N"), c(1)), {"M": 3}) is None
    assert eval_affine(b("*", c(2), n("N")), {}) is None


def test_what_is_not_an_integer_has_no_value():
    assert int_value(c(1.5, ir.REAL)) is None
    assert int_value(c(True, ir.LOGICAL)) is None
    assert int_value(b("==", c(1), c(1))) is None
    assert int_value(ir.FuncRef("F", (c(1),), "external")) is None
    assert int_value(call("SQRT", c(4))) is None
    assert int_value(ir.Index("A", (c(1),))) is None


def test_unary_operators():
    assert int_value(ir.UnOp("-", b("-", c(2), c(5)))) == 3
    assert int_value(ir.UnOp("+", c(-4))) == -4


def test_affine_form():
    e = b("-", b("+", b("*", c(2), n("I")), b("*", c(3), b("-", n("J"), c(1)))), n("I"))
    assert affine(e) == Affine(-3, (("I", 1), ("J", 3)))
    assert str(affine(e)) == "I+3*J-3"
    assert affine(b("-", c(65), n("II"))) == Affine(65, (("II", -1),))
    assert affine(b("-", n("I"), n("I"))) == Affine(0)
    assert affine(ir.UnOp("-", n("K"))) == Affine(0, (("K", -1),))


@pytest.mark.parametrize(
    "e",
    [
        b("*", n("I"), n("J")),
        b("/", n("N"), c(2)),
        ir.Index("IDX", (n("I"),)),
        call("MOD", n("I"), c(2)),
        c(1.0, ir.REAL),
        c(True, ir.LOGICAL),
    ],
)
def test_not_affine(e):
    assert affine(e) is None


def test_affine_in_chosen_variables():
    # 2*I + N/2 - 1 with only I a variable: N/2 is a constant the caller evaluates
    e = b("-", b("+", b("*", c(2), n("I")), b("/", n("N"), c(2))), c(1))
    assert affine(e) is None
    form = affine(e, ["I"], lambda x: int_value(x, {"N": 9}))
    assert form == Affine(3, (("I", 2),))
    assert affine(e, ["I"], lambda x: int_value(x, {})) is None  # N unknown
    assert affine(b("*", n("I"), n("N")), ["I"], lambda x: 4) == Affine(0, (("I", 4),))


def test_eval_affine_cancels_terms():
    assert eval_affine(b("-", n("I"), n("I")), {}) == 0
    assert eval_affine(b("+", b("*", c(3), n("I")), c(1)), {"I": 4}) == 13
    assert eval_affine(b("/", n("N"), c(2)), {"N": -7}) == -3  # not affine: evaluated


@pytest.mark.parametrize(
    "start, end, step, n_", [(1, 10, 1, 10), (1, 10, 3, 4), (10, 1, -3, 4), (5, 1, 1, 0), (1, 1, -1, 1), (0, -1, 2, 0)]
)
def test_trip_counts(start, end, step, n_):
    assert trips(start, end, step) == n_
    assert n_ == len(range(start, end + (1 if step > 0 else -1), step))


class Strict(IntEvaluator):
    def name(self, name):
        if name == "P":
            return 4
        raise LookupError(name)

    def fail(self, e, why):
        raise ValueError(why or "cannot evaluate")


def test_a_subclass_decides_names_and_failures():
    ev = Strict()
    assert ev(b("*", n("P"), call("MAX", c(1), c(2)))) == 8
    with pytest.raises(LookupError):
        ev(n("Q"))
    with pytest.raises(ValueError, match="division by zero"):
        ev(b("/", n("P"), c(0)))
    with pytest.raises(ValueError, match="expected an integer"):
        ev(c(2.5, ir.REAL))
    with pytest.raises(ValueError, match="cannot evaluate"):
        ev(call("SQRT", c(4)))
