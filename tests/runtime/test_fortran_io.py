"""Output formatting as gfortran writes it.  The expected records below are
gfortran 12's own output for the same values; with gfortran installed the
last tests also compare live, on many random values."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from autodist.errors import UnsupportedError
from autodist.runtime.fortran.formats import format_records, list_directed, parse_format
from tests.conftest import requires_gfortran

F = np.float32


@pytest.mark.parametrize("items, record", [
    ([("X =", "s"), (F(3.14159265), "r4")], " X =   3.14159274    "),
    ([("D =", "s"), (3.14159265358979, "r8")], " D =   3.1415926535897900     "),
    ([("I =", "s"), (42, "i"), (42, "i")], " I =          42          42"),
    ([(F(1e10), "r4"), (F(1e-10), "r4"), (F(0.0), "r4"), (F(-0.0), "r4"), (F(123456789.0), "r4")],
     "   1.00000000E+10   1.00000001E-10   0.00000000      -0.00000000       123456792.    "),
    ([(1e100, "r8"), (1e-100, "r8"), (0.0, "r8"), (1 / 3, "r8"), (1e15, "r8"), (1e16, "r8")],
     "   1.0000000000000000E+100   1.0000000000000000E-100   0.0000000000000000       "
     "0.33333333333333331        1000000000000000.0        10000000000000000.     "),
    ([(F(0.1), "r4"), (F(0.001), "r4"), (F(99999.99), "r4"), (F(1e7), "r4")],
     "  0.100000001       1.00000005E-03   99999.9922       10000000.0    "),
    ([("A", "s"), ("B", "s")], " AB"),
    ([("A", "s"), (5, "i"), ("B", "s")], " A           5 B"),
    ([(0.1, "r8"), (5e-2, "r8")], "  0.10000000000000001        5.0000000000000003E-002"),
    ([(True, "l"), (np.complex64(1 - 2.5j), "c8")], " T            (1.00000000,-2.50000000)"),
    ([], ""),  # PRINT * with no items: an empty line, as gfortran writes it
    # a complex part in E form has one digit more than a real's
    ([(complex(0.18999182141370596, 1.29697392307122072e-2), "c16")],
     "        (0.18999182141370596,1.29697392307122072E-002)"),
    ([(complex(1.0e20, -0.5), "c16")], "       (1.00000000000000000E+020,-0.50000000000000000)"),
    ([(np.complex64(complex(1.0e-5, 0.3)), "c8")], "       (9.999999747E-06,0.300000012)"),
])
def test_list_directed_records(items, record):
    assert list_directed(items) == record


@pytest.mark.parametrize("fmt, items, records", [
    # a complex value takes two descriptors (as gfortran writes them)
    ("(A, 2F10.4)", [("Z=", "s"), (complex(1.5, -2.25e-3), "c16")], ["Z=    1.5000   -0.0022"]),
    ("(1X, 2(E12.4, 1X), I3)", [(np.complex64(complex(0.1, 3.0e7)), "c8"), (7, "i")],
     ["   0.1000E+00   0.3000E+08   7"]),
    ("(F8.3, '|', F5.1, '|', E12.4, '|', 1PE12.4, '|', 0PF10.0, '|', E10.3)", [(F(3.14159265), "r4")] * 6,
     ["   3.142|  3.1|  0.3142E+01|  3.1416E+00|        3.| 0.314E+01"]),
    ("(F8.3, '|', F5.1, '|', E12.4, '|', 1PE12.4, '|', 0PF10.0, '|', E10.3)", [(F(-0.0), "r4")] * 6,
     ["  -0.000| -0.0| -0.0000E+00| -0.0000E+00|       -0.|-0.000E+00"]),
    ("(F8.3, F5.1)", [(F(123456.7), "r4"), (F(99.95), "r4")], ["******** 99.9"]),
    ("(F12.5, '|', D15.6, '|', 1PE22.14, '|', G15.6, '|', F5.2)", [(1.0e100, "r8")] * 5,
     ["************|   0.100000+101|  1.00000000000000+100|   1.000000+100|*****"]),
    ("(I4, I4, 2X, I1, I3.2)", [(1, "i"), (-22, "i"), (333, "i"), (0, "i")], ["   1 -22  * 00"]),
    ("(A5,A,A2)", [("abc", "s"), ("defg", "s"), ("hijk", "s")], ["  abcdefghi"]),
    ("(2(I3,1X),/,F6.2)", [(1, "i"), (2, "i"), (F(3.5), "r4")], ["  1   2", "  3.50"]),
    ("(3I4)", [(i, "i") for i in range(1, 8)], ["   1   2   3", "   4   5   6", "   7"]),
    ('(A,2(I2,:,","))', [("x", "s"), (5, "i"), (6, "i")], ["x 5, 6"]),
    ("(1X,I5.3,SP,I5,SS,I5)", [(7, "i"), (8, "i"), (9, "i")], ["   007   +8    9"]),
    ('(5X,"hello",T3,"ab",TR2,I2)', [(4, "i")], ["  ab h 4lo"]),
    ("(G12.4,G12.4,G12.4)", [(F(0.001), "r4"), (F(123.456), "r4"), (F(1e8), "r4")],
     ["  0.1000E-02   123.5      0.1000E+09"]),
    ("(ES12.4,E12.4E3)", [(F(1234.5), "r4")] * 2, ["  1.2345E+03 0.1234E+004"]),
    ("(1X, 'X=', F8.3, 3HABC)", [(F(2.5), "r4")], [" X=   2.500ABC"]),
    # A editing of numeric items writes their bytes (Hollerith text kept in INTEGER arrays)
    ("(2A4, A6, A2, A)", [(1145258561, "i"), (538976335, "i"), (1145258561, "i"), (1145258561, "i"),
                          (int.from_bytes(b"HELLO.  ", "little", signed=True), "i8")],
     ["ABCDO     ABCDABHELLO.  "]),
])
def test_formatted_records(fmt, items, records):
    assert format_records(parse_format(fmt), items) == records


def test_formats_outside_the_subset_are_named():
    with pytest.raises(UnsupportedError, match="outside the runtime's subset"):
        parse_format("(Z8)")
    with pytest.raises(UnsupportedError, match="missing a closing parenthesis"):
        parse_format("(I5")


@requires_gfortran
def test_random_values_print_as_gfortran_prints_them(tmp_path):
    rng = np.random.default_rng(7)
    reals = (rng.standard_normal(60) * 10.0 ** rng.integers(-12, 12, 60)).astype(np.float32)
    doubles = rng.standard_normal(60) * 10.0 ** rng.integers(-40, 40, 60)
    src = tmp_path / "p.f"
    lines = ["      PROGRAM P", "      REAL R", "      DOUBLE PRECISION D", "      INTEGER K"]
    for k, (r, d) in enumerate(zip(reals, doubles)):
        lines += [f"      R = TRANSFER({int(np.float32(r).view(np.int32))}, R)",
                  f"      D = TRANSFER({int(np.float64(d).view(np.int64))}_8, D)",
                  f"      K = {k * 7919 - 200000}",
                  "      PRINT *, R, D, K",
                  "      WRITE (*,'(F12.4,E14.5,1PE13.4,G13.5,I9)') R, D, R, D, K"]
    lines.append("      END")
    src.write_text("\n".join(lines) + "\n")
    exe = tmp_path / "p"
    subprocess.run(["gfortran", "-O0", "-o", str(exe), str(src)], check=True, capture_output=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.splitlines()
    fmt = parse_format("(F12.4,E14.5,1PE13.4,G13.5,I9)")
    for k, (r, d) in enumerate(zip(reals, doubles)):
        kk = k * 7919 - 200000
        assert out[2 * k] == list_directed([(r, "r4"), (d, "r8"), (kk, "i")])
        assert out[2 * k + 1] == format_records(fmt, [(r, "r4"), (d, "r8"), (r, "r4"), (d, "r8"), (kk, "i")])[0]
