"""The Fortran 77 intrinsic functions (generic and specific names) and their result types.

Also the common vendor specifics for DOUBLE COMPLEX (``DCMPLX``, ``CDABS``, ...)
and the MIL-STD-1753 bit functions that F77 codes use.  A name is only taken
as an intrinsic when the unit does not declare it otherwise (an array, a
statement function, EXTERNAL, a dummy procedure).
"""

from __future__ import annotations

from ..ir import COMPLEX, DOUBLE, INTEGER, LOGICAL, REAL, Type

DOUBLE_COMPLEX = Type("complex", 16)
CHARACTER_1 = Type("character", 1)

#: Result rules: a Type (fixed result), "arg" (the type of the widest argument),
#: "part" (like "arg", but the real part's type for a complex argument).
_ARG = "arg"
_PART = "part"

INTRINSICS: dict[str, object] = {}


def _add(result: object, *names: str) -> None:
    for n in names:
        INTRINSICS[n] = result


# generic names
_add(INTEGER, "INT", "NINT", "LEN", "INDEX", "ICHAR")
_add(REAL, "REAL")
_add(DOUBLE, "DBLE", "DPROD")
_add(COMPLEX, "CMPLX")
_add(CHARACTER_1, "CHAR")
_add(LOGICAL, "LGE", "LGT", "LLE", "LLT")
_add(_PART, "ABS", "AIMAG")
_add(
    _ARG,
    "AINT", "ANINT", "MOD", "SIGN", "DIM", "MAX", "MIN", "SQRT", "EXP", "LOG", "LOG10",
    "SIN", "COS", "TAN", "ASIN", "ACOS", "ATAN", "ATAN2", "SINH", "COSH", "TANH", "CONJG",
)
# specific names
_add(INTEGER, "IFIX", "IDINT", "IDNINT", "IABS", "ISIGN", "IDIM", "MAX0", "MIN0", "MAX1", "MIN1")
_add(REAL, "FLOAT", "SNGL", "ALOG", "ALOG10", "AMOD", "AMAX1", "AMIN1", "AMAX0", "AMIN0", "CABS")
_add(
    DOUBLE,
    "DABS", "DSQRT", "DEXP", "DLOG", "DLOG10", "DSIN", "DCOS", "DTAN", "DASIN", "DACOS",
    "DATAN", "DATAN2", "DSINH", "DCOSH", "DTANH", "DMOD", "DSIGN", "DDIM", "DMAX1", "DMIN1",
    "DINT", "DNINT",
)
_add(COMPLEX, "CSQRT", "CEXP", "CLOG", "CSIN", "CCOS")
# DOUBLE COMPLEX vendor specifics and MIL-STD-1753 bit functions
_add(DOUBLE_COMPLEX, "DCMPLX", "DCONJG", "CDSQRT", "CDEXP", "CDLOG", "CDSIN", "CDCOS", "ZSQRT", "ZEXP", "ZLOG")
_add(DOUBLE, "DIMAG", "DREAL", "CDABS", "ZABS")
_add(_ARG, "IAND", "IOR", "IEOR", "ISHFT", "NOT")
_add(LOGICAL, "BTEST")


def is_intrinsic(name: str) -> bool:
    return name.upper() in INTRINSICS


def widest(types: list[Type]) -> Type | None:
    """The type a numeric operation on ``types`` yields (Fortran's promotion rules)."""
    numeric = [t for t in types if t.base in ("integer", "real", "complex")]
    if not numeric:
        return types[0] if types else None
    if any(t.base == "complex" for t in numeric):
        size = max(t.size if t.base == "complex" else 2 * t.size for t in numeric if t.base != "integer")
        return Type("complex", size)
    if any(t.base == "real" for t in numeric):
        return Type("real", max(t.size for t in numeric if t.base == "real"))
    return Type("integer", max(t.size for t in numeric))


def result_type(name: str, arg_types: list[Type]) -> Type:
    """The type of ``name(args)`` for an intrinsic ``name``."""
    rule = INTRINSICS[name.upper()]
    if isinstance(rule, Type):
        return rule
    t = widest(arg_types) or REAL
    if rule == _PART and t.base == "complex":
        return Type("real", t.size // 2)
    return t
