"""Fortran arithmetic and intrinsic functions as the generated code runs them.

Two halves:

* **helpers** the generated Python calls (:data:`HELPERS`, injected into the
  namespace of every translated procedure): Fortran integer division and
  ``MOD`` (truncation toward zero), integer powers computed the way gfortran
  computes them, ``NINT`` (half away from zero), and the elementary functions
  taken from the C math library itself — ``math`` for double precision
  (CPython calls libm), ``ctypes`` bindings of ``sinf``, ``expf``, ... for
  REAL — so that results are bit-identical to a gfortran-compiled program
  (numpy's own vectorized ``exp``, ``log``, ``atan``, ``pow`` differ from libm
  in the last bit, and for REAL a double computation rounded to single differs
  from ``sinf`` about once in a hundred);
* **emission**: :func:`call_code` turns an intrinsic reference with typed
  argument code into Python source and its Fortran result type, for scalar
  operands (Python ``int``/``float``/``bool``/``complex``, ``np.float32`` for
  REAL) or vector operands (numpy arrays of the parallel loop's range).

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
import re
from fractions import Fraction
from typing import Callable

import numpy as np

from .. import ir
from ..errors import RuntimeFault, UnsupportedError
from ..frontend.intrinsics import INTRINSICS, result_type, widest

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
_ELEMENTARY = {
    "SIN": "sin", "COS": "cos", "TAN": "tan", "ASIN": "asin", "ACOS": "acos", "ATAN": "atan",
    "SINH": "sinh", "COSH": "cosh", "TANH": "tanh", "EXP": "exp", "LOG": "log", "LOG10": "log10",
}
#: Specific names of the elementary functions.
_SPECIFIC = {
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
for _g, _b in _ELEMENTARY.items():
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


HELPERS: dict[str, object] = {
    "np": np, "math": math, "F4": F4, "C8": C8,
    "idiv": idiv, "vidiv": vidiv, "vidivk": vidivk, "imod": imod, "vimod": vimod, "rmod": rmod,
    "ipow": ipow, "vipow": vipow, "powi": powi, "vpowi": vpowi,
    "nint": nint, "vnint": vnint, "anint": anint, "aint": aint, "vint": vint,
    "rsign": rsign, "isign": isign, "dim": dim, "ddiv": ddiv, "cabs4": cabs4,
    "ichar": ichar, "index_": index_, "ishft": ishft, "btest": btest,
    "LGE": lexical("LGE"), "LGT": lexical("LGT"), "LLE": lexical("LLE"), "LLT": lexical("LLT"),
    **{"m_" + k: v for k, v in LIBM.items()},
}

# --------------------------------------------------------------------------- types and conversions

INTEGER = ir.INTEGER
REAL = ir.REAL
DOUBLE = ir.DOUBLE
LOGICAL = ir.LOGICAL


def kind(t: ir.Type) -> str:
    """``i``, ``r4``, ``r8``, ``c8``, ``c16``, ``l`` or ``s`` (character)."""
    if t.base == "integer":
        return "i"
    if t.base == "real":
        return "r8" if t.size >= 8 else "r4"
    if t.base == "complex":
        return "c16" if t.size >= 16 else "c8"
    if t.base == "logical":
        return "l"
    if t.base == "character":
        return "s"
    raise UnsupportedError(f"values of type {t} are outside the runtime's subset")


#: numpy dtype of a vector of each kind.
VECTOR_DTYPE = {"i": "np.int64", "r4": "np.float32", "r8": "np.float64", "c8": "np.complex64",
                "c16": "np.complex128", "l": "np.bool_"}


def convert(code: str, src: ir.Type, dst: ir.Type, vector: bool) -> str:
    """Python code converting ``code`` (of Fortran type ``src``) to ``dst``."""
    a, b = kind(src), kind(dst)
    if a == b:
        return code
    if b == "s" or a == "s":
        raise UnsupportedError(f"no conversion between {src} and {dst}")
    if b == "l" or a == "l":
        raise UnsupportedError(f"no conversion between {src} and {dst}")
    if vector:
        if b == "i":
            return f"vint({code})"
        if a.startswith("c") and not b.startswith("c"):
            code = f"np.real({code})"
        return f"np.asarray({code}).astype({VECTOR_DTYPE[b]})"
    if b == "i":
        return f"int({code})" if not a.startswith("c") else f"int({code}.real)"
    if b == "r4":
        return f"F4({code})" if not a.startswith("c") else f"F4({code}.real)"
    if b == "r8":
        return f"float({code})" if not a.startswith("c") else f"float({code}.real)"
    if b == "c8":
        return f"C8({code})"
    return f"complex({code})"


def zero_code(t: ir.Type) -> str:
    """Python code of the zero value of a type (for uninitialized scalars)."""
    k = kind(t)
    return {"i": "0", "r4": "F4(0)", "r8": "0.0", "c8": "C8(0)", "c16": "0j", "l": "False"}.get(
        k, repr(" " * max(t.size, 0)))


def const_code(c: ir.Const) -> str:
    """Python code of a literal."""
    k = kind(c.type)
    v = c.value
    if k == "i":
        return repr(int(v))
    if k == "l":
        return repr(bool(v))
    if k == "s":
        return repr(str(v))
    if k == "r4":
        x = f32_const(float(v))
        return f"F4({float(x)!r})"
    if k == "r8":
        return repr(float(v))
    if k == "c8":
        z = complex(v)
        return f"C8(complex({float(f32_const(z.real))!r}, {float(f32_const(z.imag))!r}))"
    return repr(complex(v))


# --------------------------------------------------------------------------- intrinsic references

Arg = tuple[str, ir.Type, bool]  # code, Fortran type, is a vector


def canonical_name(name: str) -> str:
    """The generic intrinsic a specific name stands for (``DSQRT`` -> ``SQRT``)."""
    return _SPECIFIC.get(name, name)


def widest_type(a: ir.Type, b: ir.Type) -> ir.Type:
    """The type of a binary numeric operation on ``a`` and ``b``."""
    return widest([a, b]) or a


def _widest(args: list[Arg]) -> ir.Type:
    return widest([t for _, t, _ in args]) or REAL


def _same(args: list[Arg], t: ir.Type) -> list[str]:
    return [convert(c, at, t, v) for c, at, v in args]


#: Intrinsics on scalars only: code template over the argument codes, result type (None: the generic rule).
_SCALAR_ONLY: dict[str, tuple[str, ir.Type | None]] = {
    "LEN": ("len({0})", INTEGER), "ICHAR": ("ichar({0})", INTEGER), "CHAR": ("chr({0})", None),
    "INDEX": ("index_({0}, {1})", INTEGER), "LGE": ("{g}({0}, {1})", LOGICAL), "LGT": ("{g}({0}, {1})", LOGICAL),
    "LLE": ("{g}({0}, {1})", LOGICAL), "LLT": ("{g}({0}, {1})", LOGICAL), "IAND": ("({0} & {1})", None),
    "IOR": ("({0} | {1})", None), "IEOR": ("({0} ^ {1})", None), "NOT": ("(~{0})", None),
    "ISHFT": ("ishft({0}, {1})", None), "BTEST": ("btest({0}, {1})", LOGICAL),
}


def call_code(name: str, args: list[Arg]) -> tuple[str, ir.Type]:
    """Python code and Fortran result type of the intrinsic reference
    ``name(args)``; raises :class:`UnsupportedError` for an intrinsic the
    runtime does not implement."""
    name = name.upper()
    vec = any(v for _, _, v in args)
    g = canonical_name(name)
    if name not in INTRINSICS and g not in INTRINSICS:
        raise UnsupportedError(f"intrinsic {name} is outside the runtime's subset")
    rtype = result_type(name, [t for _, t, _ in args]) if name in INTRINSICS else result_type(g, [t for _, t, _ in args])
    k = kind(rtype)
    t = _widest(args)
    codes = [c for c, _, _ in args]

    if g in _ELEMENTARY or g == "SQRT":
        (x,) = _same(args[:1], rtype) if kind(rtype) != "i" else _same(args[:1], REAL)
        if k.startswith("c"):
            if vec:
                raise UnsupportedError(f"complex {g} in a vectorized loop is outside the runtime's subset")
            return f"complex(__import__('cmath').{g.lower()}({x}))" if k == "c16" else \
                f"C8(__import__('cmath').{g.lower()}(complex({x})))", rtype
        if g == "SQRT":
            return (f"np.sqrt({x})" if vec or k == "r4" else f"m_sqrt8({x})"), rtype
        base = _ELEMENTARY[g]
        bits = "4" if k == "r4" else "8"
        return f"m_{'v' if vec else ''}{base}{bits}({x})", rtype
    if g == "ATAN2":
        x, y = _same(args, rtype)
        bits = "4" if k == "r4" else "8"
        return f"m_{'v' if vec else ''}atan2{bits}({x}, {y})", rtype
    if g == "ABS":
        (c, at, _), = args
        if kind(at).startswith("c"):
            if vec:
                return f"np.abs({c})", rtype
            return (f"cabs4({c})" if kind(at) == "c8" else f"abs({c})"), rtype
        return (f"np.abs({c})" if vec else f"abs({c})"), rtype
    if g in ("MAX", "MIN", "MAX0", "MIN0", "AMAX1", "AMIN1", "DMAX1", "DMIN1", "AMAX0", "AMIN0", "MAX1", "MIN1"):
        op = "max" if "MAX" in g else "min"
        # the operation is done in the arguments' common type, then converted
        xs = _same(args, t)
        if vec:
            code = xs[0]
            for x in xs[1:]:
                code = f"np.{op}imum({code}, {x})"
        else:
            code = f"{op}({', '.join(xs)})"
        return convert(code, t, rtype, vec), rtype
    if g == "MOD":
        a, b = _same(args, t)
        if kind(t) == "i":
            if vec and _nonzero_literal(b):
                return f"np.fmod({a}, {b})", rtype
            return (f"vimod({a}, {b})" if vec else f"imod({a}, {b})"), rtype
        return f"rmod({a}, {b})", rtype
    if g == "SIGN":
        a, b = _same(args, t)
        return (f"isign({a}, {b})" if kind(t) == "i" else f"rsign({a}, {b})"), rtype
    if g == "DIM":
        a, b = _same(args, t)
        return f"dim({a}, {b})", rtype
    if g in ("INT", "IFIX", "IDINT"):
        (c, at, _), = args
        return convert(c, at, INTEGER, vec), INTEGER
    if g == "NINT":
        (c, at, _), = args
        return (f"vnint({c})" if vec else f"nint({c})"), INTEGER
    if g in ("REAL", "FLOAT", "SNGL"):
        (c, at, _), = args
        return convert(c, at, REAL, vec), REAL
    if g in ("DBLE", "DREAL"):
        (c, at, _), = args
        return convert(c, at, DOUBLE, vec), DOUBLE
    if g == "DPROD":
        a, b = _same(args, DOUBLE)
        return f"({a} * {b})", DOUBLE
    if g in ("AINT",):
        (x,) = _same(args, rtype)
        return f"aint({x})", rtype
    if g in ("ANINT",):
        (x,) = _same(args, rtype)
        return f"anint({x})", rtype
    if g in ("CMPLX", "DCMPLX"):
        parts = [convert(c, at, DOUBLE, v) for c, at, v in args]
        z = f"complex({parts[0]}, {parts[1] if len(parts) > 1 else '0.0'})"
        if vec:
            z = f"({parts[0]} + 1j * {parts[1] if len(parts) > 1 else '0.0'})"
        return (f"C8({z})" if kind(rtype) == "c8" and not vec else
                (f"np.asarray({z}).astype(np.complex64)" if kind(rtype) == "c8" else z)), rtype
    if g == "AIMAG":
        (c, at, _), = args
        return (f"F4({c}.imag)" if kind(rtype) == "r4" and not vec else
                (f"np.imag({c})" if vec else f"{c}.imag")), rtype
    if g == "CONJG":
        (c, at, _), = args
        return (f"np.conj({c})" if vec else f"{c}.conjugate()"), rtype
    if vec:
        raise UnsupportedError(f"intrinsic {name} in a vectorized loop is outside the runtime's subset")
    if g in _SCALAR_ONLY:
        template, fixed = _SCALAR_ONLY[g]
        return template.format(*codes, g=g), fixed or rtype
    raise UnsupportedError(f"intrinsic {name} is outside the runtime's subset")


def _nonzero_literal(code: str) -> bool:
    """Is ``code`` an integer literal other than zero?"""
    return re.fullmatch(r"\(?-?\d+\)?", code) is not None and int(code.strip("()")) != 0


def power_code(base: Arg, exponent: Arg, exponent_const: int | None, temp: str = "_pw") -> tuple[str, ir.Type]:
    """Python code of ``base ** exponent`` with gfortran's evaluation:
    INTEGER powers by multiplication (gfortran's addition chain for a
    constant exponent, libgcc's binary powering otherwise), REAL powers by
    libm's ``pow``.  ``temp`` names a variable that holds the base while a
    multiplication chain uses it several times."""
    (bc, bt, bv), (ec, et, ev) = base, exponent
    vec = bv or ev
    if kind(et) == "i":
        if kind(bt) == "i":
            return (f"vipow({bc}, {ec})" if vec else f"ipow({bc}, {ec})"), bt
        if exponent_const is not None:
            n = exponent_const
            if n == 0:
                return f"({bc} * 0 + 1)", bt
            m = abs(n)
            if m == 1:
                body = bc
            else:
                body = _chain_code(bc, m, temp)
            return (f"(1 / {body})" if n < 0 else body), bt
        return (f"vpowi({bc}, {ec})" if vec else f"powi({bc}, {ec})"), bt
    t = widest([bt, et]) or REAL
    b, e = convert(bc, bt, t, bv), convert(ec, et, t, ev)
    k = kind(t)
    if k.startswith("c"):
        if vec:
            raise UnsupportedError("complex ** in a vectorized loop is outside the runtime's subset")
        return (f"({b} ** {e})" if k == "c16" else f"C8(complex({b}) ** complex({e}))"), t
    bits = "4" if k == "r4" else "8"
    return f"m_{'v' if vec else ''}pow{bits}({b}, {e})", t


def _chain_code(x: str, n: int, temp: str) -> str:
    """``x**n`` as nested products following :func:`powi_chain`; an
    expression ``x`` is evaluated once (the leftmost leaf, evaluated first,
    assigns it to ``temp``)."""
    simple = re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*|F4\([^()]*\)|[0-9.e+-]+", x) is not None
    tree: dict[int, object] = {1: 1}
    for k, a, b in powi_chain(n):
        tree[k] = (a, b)
    first = [True]

    def render(k: int) -> str:
        node = tree[k]
        if node == 1:
            if simple:
                return x
            if first[0]:
                first[0] = False
                return f"({temp} := {x})"
            return temp
        a, b = node  # type: ignore[misc]
        return f"({render(a)} * {render(b)})"

    return render(n)
