"""Fortran arithmetic and intrinsic functions as the generated code runs them.

* the **helpers** the generated Python calls (:data:`HELPERS`, injected into the
  namespace of every translated procedure): Fortran integer division and
  ``MOD`` (truncation toward zero), integer powers computed the way gfortran
  computes them, ``NINT`` (half away from zero), and the elementary functions
  taken from the C math library itself — ``math`` for double precision
  (CPython calls libm), ``ctypes`` bindings of ``sinf``, ``expf``, ... for
  REAL — so that results are bit-identical to a gfortran-compiled program
  (numpy's own vectorized ``exp``, ``log``, ``atan``, ``pow`` differ from libm
  in the last bit, and for REAL a double computation rounded to single differs
  from ``sinf`` about once in a hundred).

The emission half (Python source of intrinsic references and conversions) is
:mod:`autodist.runtime.codegen.intrinsic_code`.

Every value of a Fortran type has one Python representation:
INTEGER -> ``int``, REAL -> ``np.float32``, DOUBLE PRECISION -> ``float``,
COMPLEX -> ``np.complex64``, DOUBLE COMPLEX -> ``complex``, LOGICAL ->
``bool``, CHARACTER -> ``str``; vectors are numpy arrays of the matching
dtype (integers as int64).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
from fractions import Fraction
from typing import Callable

import numpy as np

from ...errors import RuntimeFault

F4 = np.float32
C8 = np.complex64

# --------------------------------------------------------------------------- libm


def _libm():
    name = ctypes.util.find_library("m") or "libm.so.6"
    try:
        return ctypes.CDLL(name)
    except OSError:  # pragma: no cover - every Unix has a libm
        return ctypes.CDLL(None)


_LIBM = _libm()


def _cfun(name: str, ctype, nargs: int):
    f = getattr(_LIBM, name)
    f.restype = ctype
    f.argtypes = [ctype] * nargs
    return f


def _single(name: str, nargs: int = 1) -> Callable:
    """libm's single-precision ``name`` (e.g. ``sinf``) on np.float32 values."""
    f = _cfun(name, ctypes.c_float, nargs)
    if nargs == 1:
        return lambda x: F4(f(x))
    return lambda x, y: F4(f(x, y))


def _double(name: str, nargs: int = 1) -> Callable:
    """libm's double-precision ``name``: ``math.<name>`` (which calls libm),
    falling back to the C function itself where ``math`` raises instead of
    returning an IEEE value (overflow, domain errors)."""
    c = _cfun(name, ctypes.c_double, nargs)
    m = getattr(math, name, None)
    if m is None:
        return c
    if nargs == 1:
        def one(x, m=m, c=c):
            try:
                return m(x)
            except (OverflowError, ValueError):
                return c(x)
        return one

    def two(x, y, m=m, c=c):
        try:
            return m(x, y)
        except (OverflowError, ValueError, ZeroDivisionError):
            return c(x, y)
    return two


def _vector(fn: Callable, dtype, nargs: int = 1) -> Callable:
    """``fn`` applied element by element to numpy arrays (results of ``dtype``)."""
    u = np.frompyfunc(fn, nargs, 1)
    dt = np.dtype(dtype)

    def apply(*args):
        out = u(*args)
        return out.astype(dt) if isinstance(out, np.ndarray) else dt.type(out)
    return apply


#: Elementary functions: generic name -> libm base name.
ELEMENTARY = {
    "SIN": "sin", "COS": "cos", "TAN": "tan", "ASIN": "asin", "ACOS": "acos", "ATAN": "atan",
    "SINH": "sinh", "COSH": "cosh", "TANH": "tanh", "EXP": "exp", "LOG": "log", "LOG10": "log10",
}
#: Specific names of the elementary functions.
SPECIFIC = {
    "ALOG": "LOG", "ALOG10": "LOG10", "DLOG": "LOG", "DLOG10": "LOG10", "DEXP": "EXP",
    "DSIN": "SIN", "DCOS": "COS", "DTAN": "TAN", "DASIN": "ASIN", "DACOS": "ACOS",
    "DATAN": "ATAN", "DSINH": "SINH", "DCOSH": "COSH", "DTANH": "TANH",
    "CSQRT": "SQRT", "CEXP": "EXP", "CLOG": "LOG", "CSIN": "SIN", "CCOS": "COS",
    "CDSQRT": "SQRT", "CDEXP": "EXP", "CDLOG": "LOG", "CDSIN": "SIN", "CDCOS": "COS",
    "ZSQRT": "SQRT", "ZEXP": "EXP", "ZLOG": "LOG", "DSQRT": "SQRT", "DATAN2": "ATAN2",
    "DABS": "ABS", "IABS": "ABS", "CABS": "ABS", "CDABS": "ABS", "ZABS": "ABS",
    "DMOD": "MOD", "AMOD": "MOD", "DSIGN": "SIGN", "ISIGN": "SIGN", "DDIM": "DIM", "IDIM": "DIM",
    "DINT": "AINT", "DNINT": "ANINT", "IDNINT": "NINT", "DCONJG": "CONJG", "DIMAG": "AIMAG",
}

LIBM: dict[str, Callable] = {}
for _g, _b in ELEMENTARY.items():
    LIBM[_b + "4"] = _single(_b + "f")
    LIBM[_b + "8"] = _double(_b)
    LIBM["v" + _b + "4"] = _vector(LIBM[_b + "4"], np.float32)
    LIBM["v" + _b + "8"] = _vector(LIBM[_b + "8"], np.float64)
for _b in ("atan2", "pow"):
    LIBM[_b + "4"] = _single(_b + "f", 2)
    LIBM[_b + "8"] = _double(_b, 2)
    LIBM["v" + _b + "4"] = _vector(LIBM[_b + "4"], np.float32, 2)
    LIBM["v" + _b + "8"] = _vector(LIBM[_b + "8"], np.float64, 2)
LIBM["sqrt8"] = _double("sqrt")

#: The elementary functions gfortran adds (Fortran 2008 and GNU extensions):
#: generic name -> libm base name.  Called straight from libm in both
#: precisions (Python's ``math.gamma`` and ``math.lgamma`` are its own code).
EXTRA_ELEMENTARY = {
    "ERF": "erf", "ERFC": "erfc", "GAMMA": "tgamma", "LGAMMA": "lgamma", "ASINH": "asinh",
    "ACOSH": "acosh", "ATANH": "atanh", "BESJ0": "j0", "BESJ1": "j1", "BESY0": "y0", "BESY1": "y1",
}
SPECIFIC.update({
    "DERF": "ERF", "DERFC": "ERFC", "DGAMMA": "GAMMA", "LOG_GAMMA": "LGAMMA", "ALGAMA": "LGAMMA",
    "DLGAMA": "LGAMMA", "DASINH": "ASINH", "DACOSH": "ACOSH", "DATANH": "ATANH", "DBESJ0": "BESJ0",
    "DBESJ1": "BESJ1", "DBESY0": "BESY0", "DBESY1": "BESY1", "IMAG": "AIMAG", "IMAGPART": "AIMAG",
    "DFLOAT": "DBLE", "LNBLNK": "LEN_TRIM",
})
for _b in EXTRA_ELEMENTARY.values():
    LIBM[_b + "4"] = _single(_b + "f")
    LIBM[_b + "8"] = _cfun(_b, ctypes.c_double, 1)
    LIBM["v" + _b + "4"] = _vector(LIBM[_b + "4"], np.float32)
    LIBM["v" + _b + "8"] = _vector(LIBM[_b + "8"], np.float64)
LIBM["hypot4"] = _single("hypotf", 2)
LIBM["hypot8"] = _cfun("hypot", ctypes.c_double, 2)
LIBM["vhypot4"] = _vector(LIBM["hypot4"], np.float32, 2)
LIBM["vhypot8"] = _vector(LIBM["hypot8"], np.float64, 2)
_hypotf = _single("hypotf", 2)

# --------------------------------------------------------------------------- helpers


def idiv(a: int, b: int) -> int:
    """Fortran integer division: the quotient truncated toward zero."""
    if b == 0:
        raise RuntimeFault("integer division by zero")
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def vidiv(a, b):
    """:func:`idiv` on numpy integer arrays (or an array and a scalar)."""
    b = np.asarray(b)
    if np.any(b == 0):
        raise RuntimeFault("integer division by zero")
    r = np.fmod(a, b)
    return (np.asarray(a) - r) // b


def imod(a: int, b: int) -> int:
    """``MOD`` of integers: ``a - INT(a/b)*b`` (the sign of ``a``)."""
    if b == 0:
        raise RuntimeFault("MOD with a zero second argument")
    return a - idiv(a, b) * b


def vidivk(a, b: int):
    """:func:`vidiv` by a non-zero constant."""
    return (np.asarray(a) - np.fmod(a, b)) // b


def vimod(a, b):
    if np.any(np.asarray(b) == 0):
        raise RuntimeFault("MOD with a zero second argument")
    return np.fmod(a, b)


def rmod(a, b):
    """``MOD`` of reals: C's ``fmod`` (exact), in the type of ``a``."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.fmod(a, b)
    if isinstance(a, np.floating):
        return F4(np.fmod(a, b))
    return math.fmod(a, b) if b != 0 else math.nan


def i4(x: int) -> int:
    """An INTEGER result as gfortran's 32-bit arithmetic leaves it (two's complement wrap)."""
    return x if -0x80000000 <= x <= 0x7FFFFFFF else ((x + 0x80000000) & 0xFFFFFFFF) - 0x80000000


def i8(x: int) -> int:
    """An INTEGER*8 result as 64-bit arithmetic leaves it."""
    return x if -0x8000000000000000 <= x <= 0x7FFFFFFFFFFFFFFF else \
        ((x + 0x8000000000000000) & 0xFFFFFFFFFFFFFFFF) - 0x8000000000000000


def ipow(a: int, b: int) -> int:
    """INTEGER ** INTEGER (a negative power truncates like a division)."""
    if b >= 0:
        return a ** b
    if a == 0:
        raise RuntimeFault("zero raised to a negative power")
    if a == 1:
        return 1
    if a == -1:
        return 1 if b % 2 == 0 else -1
    return 0


def vipow(a, b):
    a = np.asarray(a, np.int64)
    b = np.asarray(b, np.int64)
    if np.all(b >= 0):
        return a ** b
    out = np.where(b >= 0, a ** np.maximum(b, 0), 0)
    out = np.where((b < 0) & (a == 1), 1, out)
    return np.where((b < 0) & (a == -1), np.where(b % 2 == 0, 1, -1), out)


def powi(x, n: int):
    """REAL ** INTEGER for a non-constant exponent: libgcc's ``__powi*f2``
    (right-to-left binary powering), as gfortran calls it."""
    m = abs(int(n))
    y = x if m % 2 else x * 0 + 1
    while True:
        m >>= 1
        if not m:
            break
        x = x * x
        if m % 2:
            y = y * x
    return 1 / y if n < 0 else y


def vpowi(x, n):
    """:func:`powi` with an integer array of exponents (or a scalar one)."""
    n = np.asarray(n)
    if n.ndim == 0:
        return powi(x, int(n))
    x, n = np.broadcast_arrays(x, n)
    out = np.empty(x.shape, x.dtype if x.dtype.kind != "i" else np.float64)
    for k in np.unique(n):
        sel = n == k
        out[sel] = powi(x[sel], int(k))
    return out


#: gfortran's addition chains for constant integer powers (``gfc_conv_powi``):
#: ``x**n = x**(n - T[n]) * x**T[n]``.
POWI_TABLE = (0, 1, 1, 2, 2, 3, 3, 4, 4, 6, 5, 6, 6, 10, 7, 9)


def powi_chain(n: int) -> list[tuple[int, int, int]]:
    """The multiplications that compute ``x**n`` for a constant ``n >= 2``:
    ``(k, a, b)`` means ``x**k = x**a * x**b`` (in order of evaluation)."""
    steps: list[tuple[int, int, int]] = []
    done = {1}

    def rec(k: int) -> None:
        if k in done:
            return
        if k < len(POWI_TABLE):
            a, b = k - POWI_TABLE[k], POWI_TABLE[k]
        elif k & 1:
            b = k & 7
            a = k - b
        else:
            a = b = k >> 1
        rec(a)
        rec(b)
        steps.append((k, a, b))
        done.add(k)

    rec(n)
    return steps


def nint(x) -> int:
    """``NINT``: nearest integer, halves away from zero."""
    r = int(x)  # truncates toward zero, for np.float32 too
    f = x - r
    if f >= 0.5:
        r += 1
    elif f <= -0.5:
        r -= 1
    return int(r)


def vnint(x):
    r = np.trunc(x)
    f = x - r
    r = r + (f >= 0.5) - (f <= -0.5)
    return r.astype(np.int64)


def anint(x):
    """``ANINT``: :func:`nint` kept in the real type."""
    if isinstance(x, np.ndarray):
        r = np.trunc(x)
        f = x - r
        return (r + (f >= 0.5) - (f <= -0.5)).astype(x.dtype)
    r = type(x)(np.trunc(x))
    f = x - r
    if f >= 0.5:
        r = r + 1
    elif f <= -0.5:
        r = r - 1
    return r


def aint(x):
    if isinstance(x, np.ndarray):
        return np.trunc(x).astype(x.dtype)
    return type(x)(np.trunc(x))


def vint(x):
    """``INT`` of a real array: truncation toward zero."""
    return np.trunc(np.real(x)).astype(np.int64)


def rsign(a, b):
    """``SIGN`` of reals: ``|a|`` with the sign bit of ``b`` (gfortran uses copysign)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.copysign(a, b)
    if isinstance(a, np.floating):
        return F4(np.copysign(a, b))
    return math.copysign(a, b)


def isign(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.where(np.asarray(b) >= 0, np.abs(a), -np.abs(a))
    return abs(a) if b >= 0 else -abs(a)


def dim(a, b):
    """``DIM``: ``a - b`` when positive, else zero."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        d = a - b
        return np.where(d > 0, d, d * 0)
    d = a - b
    return d if d > 0 else d * 0


def ddiv(a: float, b: float) -> float:
    """Double precision division with IEEE results for a zero divisor."""
    try:
        return a / b
    except ZeroDivisionError:
        if a != a or a == 0:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)


def f32_const(value: float) -> np.float32:
    """A REAL literal, rounded once from its decimal value to single precision
    (a compiler reads ``0.1`` straight to single; going through double first
    could round twice)."""
    if value != value or value in (math.inf, -math.inf):
        return F4(value)
    exact = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
    x = F4(value)
    best, err = x, abs(Fraction(float(x)) - exact)
    for cand in (np.nextafter(x, F4(-math.inf)), np.nextafter(x, F4(math.inf))):
        e = abs(Fraction(float(cand)) - exact)
        if e < err or (e == err and int(cand.view(np.uint32)) % 2 == 0):
            best, err = cand, e
    return F4(best)


def cabs4(z) -> np.float32:
    return _hypotf(F4(z.real), F4(z.imag))


def ichar(c: str) -> int:
    return ord(c[0]) if c else 0


def index_(s: str, sub: str) -> int:
    return s.find(sub) + 1


def lexical(op: str) -> Callable[[str, str], bool]:
    def compare(a: str, b: str) -> bool:
        n = max(len(a), len(b))
        a, b = a.ljust(n), b.ljust(n)
        return {"LGE": a >= b, "LGT": a > b, "LLE": a <= b, "LLT": a < b}[op]
    return compare


def ishft(i, n):
    i = np.int32(i) if not isinstance(i, np.ndarray) else i.astype(np.int32)
    u = i.view(np.uint32) if isinstance(i, np.ndarray) else np.uint32(i.view(np.uint32))
    out = (u << np.uint32(n)) if n >= 0 else (u >> np.uint32(-n))
    out = np.asarray(out, np.uint32).view(np.int32)
    return out.astype(np.int64) if out.ndim else int(out)


def btest(i, pos) -> bool:
    return bool((int(i) >> int(pos)) & 1)


def modulo(a, p):
    """``MODULO``: ``a - FLOOR(a/p)*p`` (the sign of ``p``); for reals C's
    ``fmod`` corrected by ``p`` when the signs differ, as gfortran computes it."""
    if isinstance(a, int):
        if p == 0:
            raise RuntimeFault("MODULO with a zero second argument")
        return a % p
    r = rmod(a, p)
    if r != 0 and (r < 0) != (p < 0):
        r = r + p
    return r


def ibits(i: int, pos: int, n: int) -> int:
    return (int(i) >> int(pos)) & ((1 << int(n)) - 1)


def ishift(i: int, n: int, bits: int) -> int:
    """``LSHIFT``/``RSHIFT`` (gfortran: arithmetic right shift) of a ``bits``-wide integer."""
    n = int(n)
    if n >= 0:
        v = int(i) << n
        v &= (1 << bits) - 1
        return v - (1 << bits) if v >> (bits - 1) else v
    return int(i) >> -n


def scan_(s: str, chars: str) -> int:
    return next((k + 1 for k, c in enumerate(s) if c in chars), 0)


def verify_(s: str, chars: str) -> int:
    return next((k + 1 for k, c in enumerate(s) if c not in chars), 0)


def adjustl(s: str) -> str:
    return s.lstrip(" ").ljust(len(s))


def adjustr(s: str) -> str:
    return s.rstrip(" ").rjust(len(s))


def exponent(x) -> int:
    return math.frexp(float(x))[1] if x != 0 and math.isfinite(float(x)) else 0


def fraction(x):
    return type(x)(math.frexp(float(x))[0]) if x != 0 else x


def scale(x, i: int):
    return type(x)(math.ldexp(float(x), int(i)))


def nearest(x, s):
    return type(x)(np.nextafter(x, type(x)(math.copysign(math.inf, float(s)))))


def to_int(x, rounding: Callable) -> int:
    """``CEILING``/``FLOOR``: ``rounding`` of ``x``; a fault for what no INTEGER holds."""
    if not math.isfinite(float(x)):
        raise RuntimeFault(f"{float(x)} has no INTEGER value")
    return int(rounding(x))


HELPERS: dict[str, object] = {
    "np": np, "math": math, "F4": F4, "C8": C8,
    "idiv": idiv, "vidiv": vidiv, "vidivk": vidivk, "imod": imod, "vimod": vimod, "rmod": rmod,
    "i4": i4, "i8": i8, "ipow": ipow, "vipow": vipow, "powi": powi, "vpowi": vpowi,
    "nint": nint, "vnint": vnint, "anint": anint, "aint": aint, "vint": vint,
    "rsign": rsign, "isign": isign, "dim": dim, "ddiv": ddiv, "cabs4": cabs4,
    "ichar": ichar, "index_": index_, "ishft": ishft, "btest": btest,
    "modulo": modulo, "ibits": ibits, "ishift": ishift, "scan_": scan_, "verify_": verify_,
    "adjustl": adjustl, "adjustr": adjustr, "exponent": exponent, "fraction": fraction, "scale": scale,
    "nearest": nearest, "to_int": to_int,
    "LGE": lexical("LGE"), "LGT": lexical("LGT"), "LLE": lexical("LLE"), "LLT": lexical("LLT"),
    **{"m_" + k: v for k, v in LIBM.items()},
}
