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

#: The names of Fortran 77 (and the vendor specifics above): always the intrinsic
#: unless declared otherwise in the unit.
STANDARD = frozenset(INTRINSICS)

# Fortran 90 elemental and inquiry functions on scalars, and the GNU
# extensions that ``gfortran -std=legacy`` accepts, all without side effects.
CHARACTER_ANY = Type("character", 0)  # a length known only when the program runs
INTEGER_8 = Type("integer", 8)
_add(INTEGER, "LEN_TRIM", "LNBLNK", "IACHAR", "SCAN", "VERIFY", "CEILING", "FLOOR", "EXPONENT",
     "DIGITS", "RADIX", "RANGE", "PRECISION", "MAXEXPONENT", "MINEXPONENT", "BIT_SIZE", "KIND",
     "SELECTED_INT_KIND", "SELECTED_REAL_KIND", "IARGC", "NUMBER_OF_PROCESSORS", "INT2", "INT8",
     "SIZE", "LBOUND", "UBOUND",  # inquiries: they read no element
     "IQINT", "IIDINT", "JIDINT")
_add(CHARACTER_ANY, "TRIM", "ADJUSTL", "ADJUSTR", "REPEAT")
_add(CHARACTER_1, "ACHAR")
_add(LOGICAL, "ISNAN")
_add(DOUBLE, "DFLOAT", "DERF", "DERFC", "DGAMMA", "DLGAMA", "DBESJ0", "DBESJ1", "DBESY0", "DBESY1",
     "DCOTAN", "DASINH", "DACOSH", "DATANH")
_add(REAL, "ALGAMA")
_add(_PART, "IMAG", "IMAGPART", "REALPART")
_add(
    _ARG,
    "MODULO", "HUGE", "TINY", "EPSILON", "NEAREST", "SPACING", "RRSPACING", "SCALE", "FRACTION",
    "SET_EXPONENT", "IBSET", "IBCLR", "IBITS", "ISHFTC", "LSHIFT", "RSHIFT", "XOR", "AND", "OR",
    "ASINH", "ACOSH", "ATANH", "ERF", "ERFC", "GAMMA", "LGAMMA", "LOG_GAMMA", "BESJ0", "BESJ1",
    "BESY0", "BESY1", "HYPOT", "COTAN", "MERGE",
)

#: Inquiry functions: they tell a property of their argument (its size, its kind,
#: a limit of its type) and read none of its elements, so they are not elemental.
INQUIRIES = frozenset({
    "SIZE", "LBOUND", "UBOUND", "LEN", "KIND", "DIGITS", "RADIX", "RANGE", "PRECISION", "MAXEXPONENT",
    "MINEXPONENT", "BIT_SIZE", "HUGE", "TINY", "EPSILON", "NUMBER_OF_PROCESSORS", "IARGC",
    "SELECTED_INT_KIND", "SELECTED_REAL_KIND",
})

#: Functions ``gfortran -std=legacy`` provides that are not plain functions of
#: their scalar arguments: they read a clock or a hidden random state, write
#: their argument (``ETIME(T)``), or read whole arrays (``SUM(A)``).  They are
#: read as references to external functions of the given result type, so
#: analysis treats them as it treats any procedure it cannot see (sequential
#: loops, arguments possibly read and written).
EXTENSION_FUNCTIONS: dict[str, Type] = {}
for _t, _names in (
    (REAL, "SECOND SECNDS ETIME DTIME RAND RAN"),
    (DOUBLE, "DSECND"),
    (INTEGER, "IRAND TIME MCLOCK GETPID GETUID GETGID IERRNO HOSTNM SYSTEM ACCESS CHDIR GETCWD "
              "FSTAT STAT LSTAT UNLINK RENAME FGET FPUT FGETC FPUTC FTELL PUTENV "
              "COUNT"),
    (INTEGER_8, "TIME8 MCLOCK8 LOC SIZEOF"),
    (CHARACTER_ANY, "CTIME FDATE TTYNAM"),
    (LOGICAL, "ANY ALL ISATTY"),
):
    for _n in _names.split():
        EXTENSION_FUNCTIONS[_n] = _t
#: Intrinsic subroutines gfortran provides; a CALL of one is read as a CALL of
#: a procedure outside the program (effects unknown).
INTRINSIC_SUBROUTINES = frozenset(
    "GETARG GET_COMMAND GET_COMMAND_ARGUMENT GETENV GET_ENVIRONMENT_VARIABLE CPU_TIME SYSTEM_CLOCK "
    "DATE_AND_TIME IDATE ITIME DATE FDATE LTIME GMTIME FLUSH EXIT ABORT SLEEP RANDOM_NUMBER RANDOM_SEED "
    "SRAND MVBITS EXECUTE_COMMAND_LINE PERROR GERROR".split()
)
#: Array reductions whose result has the element type of their argument.
ARRAY_REDUCTIONS = frozenset({"SUM", "PRODUCT", "MAXVAL", "MINVAL", "DOT_PRODUCT"})


def is_intrinsic(name: str) -> bool:
    return name.upper() in INTRINSICS


def is_standard(name: str) -> bool:
    return name.upper() in STANDARD


def extension_function(name: str, arg_types: list[Type]) -> Type | None:
    """The result type of an extension function read as external (see
    :data:`EXTENSION_FUNCTIONS`), None when ``name`` is not one."""
    name = name.upper()
    if name in ARRAY_REDUCTIONS:
        return widest(arg_types) or REAL
    return EXTENSION_FUNCTIONS.get(name)


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
