"""Fortran arithmetic of the runtime: integer division and MOD, powers as
gfortran computes them, NINT, single-precision literals, libm bindings."""

from __future__ import annotations

import ctypes
import math
import subprocess
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from autodist import ir
from autodist.errors import RuntimeFault, UnsupportedError
from autodist.runtime.fortran import intrinsics as it
from autodist.runtime.codegen import intrinsic_code as ic
from tests.conftest import requires_gfortran

ints = st.integers(-10**6, 10**6)
nonzero = ints.filter(lambda x: x != 0)


@given(ints, nonzero)
def test_integer_division_truncates_toward_zero(a, b):
    q = it.idiv(a, b)
    assert q == int(Fraction(a, b)) and a == q * b + it.imod(a, b)
    assert abs(it.imod(a, b)) < abs(b) and (it.imod(a, b) == 0 or (it.imod(a, b) > 0) == (a > 0))


@given(st.lists(st.tuples(ints, nonzero), min_size=1, max_size=20))
def test_vector_division_and_mod_match_the_scalar_ones(pairs):
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    assert it.vidiv(a, b).tolist() == [it.idiv(x, y) for x, y in pairs]
    assert it.vimod(a, b).tolist() == [it.imod(x, y) for x, y in pairs]


def test_division_by_zero_is_a_fault():
    with pytest.raises(RuntimeFault, match="division by zero"):
        it.idiv(3, 0)
    with pytest.raises(RuntimeFault):
        it.vidiv(np.array([1, 2]), np.array([1, 0]))
    assert it.ddiv(1.0, 0.0) == math.inf and it.ddiv(-1.0, 0.0) == -math.inf and math.isnan(it.ddiv(0.0, 0.0))


def test_integer_powers_with_negative_exponents():
    assert [it.ipow(2, 10), it.ipow(2, -1), it.ipow(1, -5), it.ipow(-1, -3), it.ipow(-1, -4)] == [1024, 0, 1, -1, 1]
    with pytest.raises(RuntimeFault):
        it.ipow(0, -1)


@pytest.mark.parametrize("n", range(2, 40))
def test_powi_chain_computes_x_to_the_n(n):
    # the chain, evaluated on integers, must give exactly x**n
    values = {1: 3}
    for k, a, b in it.powi_chain(n):
        assert k == a + b and a in values and b in values
        values[k] = values[a] * values[b]
    assert values[n] == 3 ** n


def test_powi_of_a_variable_exponent_is_binary_powering():
    x = np.float32(1.1)
    y = it.powi(x, 5)
    # right to left: y = x; x = x*x; x = x*x; y = y*x  ->  x * (x^2)^2
    x2 = x * x
    assert y == x * (x2 * x2) and isinstance(y, np.float32)
    assert it.powi(2.0, -2) == 0.25


@pytest.mark.parametrize("x, want", [(2.5, 3), (-2.5, -3), (2.4999999, 2), (-0.5, -1), (0.5, 1), (0.0, 0)])
def test_nint_rounds_halves_away_from_zero(x, want):
    assert it.nint(x) == want
    assert it.vnint(np.array([x])).tolist() == [want]


def test_nint_of_single_precision_just_below_a_half():
    x = np.nextafter(np.float32(0.5), np.float32(0))  # 0.49999997: x + 0.5 rounds up in single precision
    assert it.nint(x) == 0 and it.vnint(np.array([x], np.float32)).tolist() == [0]


def test_real_literals_round_once_from_the_decimal():
    for text in ("0.1", "3.14159265358979", "1.0E-5", "123456.7", "16777217.0"):
        exact = Fraction(text)
        got = it.f32_const(float(text))
        below, above = np.nextafter(got, np.float32(-np.inf)), np.nextafter(got, np.float32(np.inf))
        err = abs(Fraction(float(got)) - exact)
        assert err <= abs(Fraction(float(below)) - exact) and err <= abs(Fraction(float(above)) - exact)


def test_elementary_functions_are_libms():
    libm = ctypes.CDLL("libm.so.6")
    sinf = libm.sinf
    sinf.restype, sinf.argtypes = ctypes.c_float, [ctypes.c_float]
    xs = np.linspace(0.01, 20, 301).astype(np.float32)
    assert all(it.LIBM["sin4"](x) == np.float32(sinf(float(x))) for x in xs)
    assert np.array_equal(it.LIBM["vsin4"](xs), np.array([sinf(float(x)) for x in xs], np.float32))
    d = np.linspace(-3, 3, 101)
    assert np.array_equal(it.LIBM["vexp8"](d), np.array([math.exp(x) for x in d]))
    assert it.LIBM["exp8"](1000.0) == math.inf and math.isnan(it.LIBM["log8"](-1.0))


def test_call_code_converts_like_fortran():
    code, t = ic.call_code("MAX", [("a", ir.INTEGER, False), ("b", ir.REAL, False)])
    assert t == ir.REAL and "F4(a)" in code
    code, t = ic.call_code("DBLE", [("i", ir.INTEGER, False)])
    assert (code, t) == ("float(i)", ir.DOUBLE)
    assert ic.call_code("SQRT", [("x", ir.DOUBLE, True)])[0] == "np.sqrt(x)"
    with pytest.raises(UnsupportedError, match="outside the runtime's subset"):
        ic.call_code("NOSUCH", [])


def test_mixed_kinds_promote_to_double():
    assert ic.convert("x", ir.REAL, ir.DOUBLE, False) == "float(x)"
    assert ic.convert("i", ir.INTEGER, ir.REAL, True) == "np.asarray(i).astype(np.float32)"
    assert ic.widest_type(ir.REAL, ir.DOUBLE) == ir.DOUBLE and ic.widest_type(ir.INTEGER, ir.REAL) == ir.REAL


@requires_gfortran
def test_single_precision_functions_and_powers_match_gfortran(tmp_path):
    src = tmp_path / "f.f"
    src.write_text(
        "      PROGRAM F\n"
        "      REAL X\n"
        "      INTEGER I, K\n"
        "      DO 10 I = 1, 400\n"
        "         X = REAL(I) * 0.0371\n"
        "         K = MOD(I, 7) - 3\n"
        "         WRITE (*,'(8(Z8.8,1X))') X, SIN(X), COS(X), EXP(X/9.0),\n"
        "     &        LOG(X), ATAN(X), X**5, X**K\n"
        "   10 CONTINUE\n"
        "      END\n")
    exe = tmp_path / "f"
    subprocess.run(["gfortran", "-O2", "-nostdinc", "-o", str(exe), str(src)], check=True, capture_output=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    for k, line in enumerate(out.splitlines(), 1):
        v = [np.uint32(int(h, 16)).view(np.float32) for h in line.split()]
        x = v[0]
        kk = k % 7 - 3
        mine = [it.LIBM["sin4"](x), it.LIBM["cos4"](x), it.LIBM["exp4"](x / np.float32(9.0)),
                it.LIBM["log4"](x), it.LIBM["atan4"](x), eval(ic.power_code(("x", ir.REAL, False),
                                                                              ("5", ir.INTEGER, False), 5)[0],
                                                              {"x": x}),
                it.powi(x, kk)]
        assert [float(a) for a in mine] == [float(b) for b in v[1:]], (k, x)
