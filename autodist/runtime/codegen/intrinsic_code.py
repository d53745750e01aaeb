"""Fortran types and intrinsic references as Python source (the emission half of
:mod:`autodist.runtime.fortran.intrinsics`).

Every value of a Fortran type has one Python representation:
INTEGER -> ``int``, REAL -> ``np.float32``, DOUBLE PRECISION -> ``float``,
COMPLEX -> ``np.complex64``, DOUBLE COMPLEX -> ``complex``, LOGICAL ->
``bool``, CHARACTER -> ``str``; vectors are numpy arrays of the matching
dtype (integers as int64).  :func:`convert` writes a conversion between two
of them, :func:`const_code` a literal, :func:`call_code` an intrinsic
reference with typed argument code (scalar or vector operands) and its
Fortran result type, :func:`power_code` ``**``.
"""

from __future__ import annotations

import re

from ... import ir
from ...errors import UnsupportedError
from ...frontend.intrinsics import INTRINSICS, result_type, widest
from ..fortran.intrinsics import ELEMENTARY, EXTRA_ELEMENTARY, SPECIFIC, f32_const, powi_chain


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
def io_kind(t: ir.Type) -> str:
    """The kind code of an output item: :func:`kind`, with the width of an INTEGER
    other than the default ("i1", "i2", "i8"), which list-directed output shows."""
    k = kind(t)
    return k if k != "i" or t.size == 4 else f"i{t.size}"


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
    return SPECIFIC.get(name, name)


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


#: Fortran 90 and GNU intrinsics on scalars: code template, result type (None: the generic rule).
_SCALAR_ONLY.update({
    "IACHAR": ("ichar({0})", INTEGER), "ACHAR": ("chr({0})", None), "LEN_TRIM": ("len({0}.rstrip(' '))", INTEGER),
    "TRIM": ("{0}.rstrip(' ')", None), "ADJUSTL": ("adjustl({0})", None), "ADJUSTR": ("adjustr({0})", None),
    "REPEAT": ("({0} * {1})", None), "SCAN": ("scan_({0}, {1})", INTEGER), "VERIFY": ("verify_({0}, {1})", INTEGER),
    "ISNAN": ("({0} != {0})", LOGICAL), "IBITS": ("ibits({0}, {1}, {2})", None),
    "XOR": ("({0} ^ {1})", None), "AND": ("({0} & {1})", None), "OR": ("({0} | {1})", None),
    "MERGE": ("({0} if {2} else {1})", None), "EXPONENT": ("exponent({0})", INTEGER),
    "FRACTION": ("fraction({0})", None), "SCALE": ("scale({0}, {1})", None), "NEAREST": ("nearest({0}, {1})", None),
    "IARGC": ("0", INTEGER),
})

#: Inquiries answered from the argument's kind alone: kind code -> value.
_MODEL: dict[str, dict[str, object]] = {
    "HUGE": {"i": "2147483647", "i8": "9223372036854775807", "r4": "F4(3.4028234663852886e+38)",
             "r8": "1.7976931348623157e+308"},
    "TINY": {"r4": "F4(1.1754943508222875e-38)", "r8": "2.2250738585072014e-308"},
    "EPSILON": {"r4": "F4(1.1920928955078125e-07)", "r8": "2.220446049250313e-16"},
    "DIGITS": {"i": "31", "i8": "63", "r4": "24", "r8": "53"},
    "RADIX": {"i": "2", "i8": "2", "r4": "2", "r8": "2"},
    "PRECISION": {"r4": "6", "r8": "15", "c8": "6", "c16": "15"},
    "RANGE": {"i": "9", "i8": "18", "r4": "37", "r8": "307", "c8": "37", "c16": "307"},
    "MAXEXPONENT": {"r4": "128", "r8": "1024"},
    "MINEXPONENT": {"r4": "-125", "r8": "-1021"},
    "BIT_SIZE": {"i": "32", "i8": "64"},
    "KIND": {"i": "4", "i8": "8", "r4": "4", "r8": "8", "c8": "4", "c16": "8", "l": "4", "s": "1"},
}

#: Intrinsics :func:`call_code` writes for scalar operands only (a loop that
#: uses one is not vectorized).
SCALAR_ONLY = frozenset(_SCALAR_ONLY) | frozenset(_MODEL) | {
    "MODULO", "CEILING", "FLOOR", "IBSET", "IBCLR", "LSHIFT", "RSHIFT", "REALPART", "SELECTED_INT_KIND"}


def vectorizable(name: str) -> bool:
    """Whether :func:`call_code` writes ``name`` on vector operands too."""
    return canonical_name(name.upper()) not in SCALAR_ONLY


def _int_width(t: ir.Type) -> int:
    return 64 if t.size == 8 else 32


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

    if g in EXTRA_ELEMENTARY:
        if k not in ("r4", "r8"):
            raise UnsupportedError(f"intrinsic {name} of a {rtype} argument is outside the runtime's subset")
        (x,) = _same(args[:1], rtype)
        return f"m_{'v' if vec else ''}{EXTRA_ELEMENTARY[g]}{k[1]}({x})", rtype
    if g == "HYPOT":
        x, y = _same(args, rtype)
        return f"m_{'v' if vec else ''}hypot{k[1]}({x}, {y})", rtype
    if g in ELEMENTARY or g == "SQRT":
        (x,) = _same(args[:1], rtype) if kind(rtype) != "i" else _same(args[:1], REAL)
        if k.startswith("c"):
            if vec:
                raise UnsupportedError(f"complex {g} in a vectorized loop is outside the runtime's subset")
            return f"complex(__import__('cmath').{g.lower()}({x}))" if k == "c16" else \
                f"C8(__import__('cmath').{g.lower()}(complex({x})))", rtype
        if g == "SQRT":
            return (f"np.sqrt({x})" if vec or k == "r4" else f"m_sqrt8({x})"), rtype
        base = ELEMENTARY[g]
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
    if g in _MODEL:
        at = args[0][1]
        value = _MODEL[g].get(io_kind(at) if kind(at) == "i" else kind(at))
        if value is None:
            raise UnsupportedError(f"intrinsic {name} of a {at} argument is outside the runtime's subset")
        return str(value), rtype if g in ("HUGE", "TINY", "EPSILON") else INTEGER
    if g in ("MODULO", "MERGE"):
        codes = _same(args[:2], t) + codes[2:]
    if g in ("CEILING", "FLOOR"):
        (c, at, _), = args
        return f"to_int({c}, math.{'ceil' if g == 'CEILING' else 'floor'})", INTEGER
    if g == "MODULO":
        return f"modulo({codes[0]}, {codes[1]})", rtype
    if g in ("IBSET", "IBCLR"):
        w = _int_width(rtype)
        op = "|" if g == "IBSET" else "& ~"
        return f"i{w // 8}({codes[0]} {op} (1 << {codes[1]}))", rtype
    if g in ("LSHIFT", "RSHIFT"):
        sign = "" if g == "LSHIFT" else "-"
        return f"ishift({codes[0]}, {sign}({codes[1]}), {_int_width(rtype)})", rtype
    if g == "REALPART":
        (c, at, _), = args
        return convert(c, at, rtype, False), rtype
    if g == "SELECTED_INT_KIND":
        return f"next((k for r, k in ((2, 1), (4, 2), (9, 4), (18, 8), (38, 16)) if {codes[0]} <= r), -1)", INTEGER
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
