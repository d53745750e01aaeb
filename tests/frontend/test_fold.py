"""Constant folding with Fortran semantics, against hand-computed values and laws."""

from __future__ import annotations

import struct

from hypothesis import given
from hypothesis import strategies as st

from autodist import ir
from autodist.frontend.fold import evaluate, fold, trunc_div

I4, R4, R8 = ir.INTEGER, ir.REAL, ir.DOUBLE


def c(v, t=I4):
    return ir.Const(v, t)


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def call(name, *args):
    return ir.FuncRef(name, tuple(args), "intrinsic")


def test_integer_arithmetic():
    assert evaluate(ir.BinOp("/", c(7), c(2))) == c(3)
    assert evaluate(ir.BinOp("/", c(-7), c(2))) == c(-3)
    assert evaluate(ir.BinOp("/", c(7), c(-2))) == c(-3)
    assert evaluate(ir.BinOp("**", c(-2), c(3))) == c(-8)
    assert evaluate(ir.BinOp("**", c(2), c(-2))) == c(0)
    assert evaluate(ir.BinOp("**", c(-1), c(-3))) == c(-1)
    assert evaluate(ir.BinOp("/", c(1), c(0))) is None
    assert evaluate(ir.BinOp("*", c(2**30), c(4))) is None  # does not fit INTEGER*4
    assert evaluate(ir.BinOp("*", c(2**30, ir.Type("integer", 8)), c(4))) == c(2**32, ir.Type("integer", 8))


def test_intrinsics_on_constants():
    assert evaluate(call("MOD", c(-7), c(3))) == c(-1)
    assert evaluate(call("MOD", c(7), c(-3))) == c(1)
    assert evaluate(call("MAX", c(3), c(9), c(-1))) == c(9)
    assert evaluate(call("MIN0", c(3), c(9))) == c(3)
    assert evaluate(call("AMAX0", c(3), c(9))) == c(9.0, R4)
    assert evaluate(call("MAX1", c(3.7, R4), c(1.0, R4))) == c(3)
    assert evaluate(call("ISIGN", c(5), c(-2))) == c(-5)
    assert evaluate(call("IDIM", c(3), c(5))) == c(0)
    assert evaluate(call("NINT", c(2.5, R4))) == c(3)
    assert evaluate(call("NINT", c(-2.5, R4))) == c(-3)
    assert evaluate(call("INT", c(-2.9, R4))) == c(-2)
    assert evaluate(call("ABS", c(-4))) == c(4)
    assert evaluate(call("ABS", c(complex(3, 4), ir.COMPLEX))) == c(5.0, R4)
    assert evaluate(call("LEN", c("ABCD", ir.Type("character", 4)))) == c(4)
    assert evaluate(call("INDEX", c("ABCD", ir.Type("character", 4)), c("CD", ir.Type("character", 2)))) == c(3)
    assert evaluate(call("ICHAR", c("A", ir.Type("character", 1)))) == c(65)
    assert evaluate(call("SQRT", c(2))) is None  # SQRT of an INTEGER is not Fortran
    assert evaluate(call("DSQRT", c(2.0, R8))) == c(2.0**0.5, R8)
    assert evaluate(call("SQRT", c(2.0, R4))) == c(f32(2.0**0.5), R4)


def test_real_arithmetic_rounds_to_the_type():
    assert evaluate(ir.BinOp("/", c(1.0, R4), c(3.0, R4))) == c(f32(1 / 3), R4)
    assert evaluate(ir.BinOp("/", c(1.0, R8), c(3.0, R4))) == c(1.0 / f32(3.0), R8)
    assert evaluate(ir.BinOp("+", c(1), c(0.5, R4))) == c(1.5, R4)
    assert evaluate(ir.BinOp("*", c(complex(0, 1), ir.COMPLEX), c(complex(0, 1), ir.COMPLEX))) == c(complex(-1, 0), ir.COMPLEX)


def test_relations_logic_and_strings():
    assert evaluate(ir.BinOp(">", c(2), c(1.5, R4))) == c(True, ir.LOGICAL)
    assert evaluate(ir.BinOp("==", c("AB", ir.Type("character", 2)), c("AB  ", ir.Type("character", 4)))) == c(True, ir.LOGICAL)
    assert evaluate(ir.BinOp("neqv", c(True, ir.LOGICAL), c(False, ir.LOGICAL))) == c(True, ir.LOGICAL)
    assert evaluate(ir.UnOp("not", c(True, ir.LOGICAL))) == c(False, ir.LOGICAL)
    assert evaluate(ir.BinOp("//", c("A", ir.Type("character", 1)), c("BC", ir.Type("character", 2)))) == c(
        "ABC", ir.Type("character", 3)
    )


def test_fold_keeps_real_arithmetic_and_variables():
    x = ir.Name("X")
    e = ir.BinOp("+", ir.BinOp("*", c(2.0, R4), c(3.0, R4)), ir.BinOp("*", x, ir.BinOp("-", c(4), c(1))))
    assert fold(e) == ir.BinOp("+", ir.BinOp("*", c(2.0, R4), c(3.0, R4)), ir.BinOp("*", x, c(3)))
    assert fold(ir.UnOp("-", c(2.5, R4))) == c(-2.5, R4)  # exact: always folded
    assert fold(ir.Index("A", (ir.BinOp("+", c(1), c(1)),))) == ir.Index("A", (c(2),))
    assert fold(call("MAX", c(1), c(2))) == c(2)
    assert fold(call("REAL", c(2))) == call("REAL", c(2))  # a REAL result: left to the evaluator


ints = st.integers(min_value=-(2**31) + 1, max_value=2**31 - 1)


@given(ints, ints.filter(lambda b: b != 0))
def test_division_and_mod_laws(a, b):
    q = trunc_div(a, b)
    assert abs(q) == abs(a) // abs(b)  # truncation toward zero
    assert q == 0 or (q > 0) == ((a > 0) == (b > 0))
    r = evaluate(call("MOD", c(a), c(b))).value
    assert a == q * b + r
    assert abs(r) < abs(b) and (r == 0 or (r > 0) == (a > 0))
