"""What compiled kernels call: the Fortran arithmetic of
:mod:`autodist.runtime.fortran.intrinsics` as numba functions, and the two
exceptions that leave a kernel.

Every helper computes what its Python namesake computes, bit for bit, on the
runtime's scalar types as numba types them (INTEGER -> int64, REAL ->
float32, DOUBLE PRECISION -> float64, LOGICAL -> boolean):

* no Python integer literal meets a float32 value (numba would widen the
  operation to float64): real constants are ``np.float32`` values, which
  numba keeps as float32 with float32 and widens exactly with float64;
* the elementary functions are libm's own symbols (``sinf``, ``sin``, ...),
  declared as external functions so that kernels stay cacheable;
* faults raise :class:`JitFault` with the number of the *site* that faulted
  (the generated code passes it; :mod:`.faults` turns it into the runtime's
  message at the Fortran line), and STOP raises :class:`JitStop`.

This module imports numba: only :mod:`.compiler` and the generated modules
import it.
"""

from __future__ import annotations

import warnings

import numba
import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ..fortran.intrinsics import ELEMENTARY, EXTRA_ELEMENTARY
from .compiler import cache_dir

# numba's cache of these helpers and of the kernels goes under autodist's cache (one
# lock guards it, :meth:`.compiler.Module.compiling`), not beside this file: every
# kernel adds its specializations of the helpers to their index there, and processes
# with different caches (jobs, test workers) writing one index at once mixed up its
# entries (a helper then failed to type in every later run)
if not numba.config.CACHE_DIR:
    numba.config.CACHE_DIR = str(cache_dir() / "numba")

# object mode (none in autodist's kernels now) keeps the GIL, which numba would note on every compile
warnings.filterwarnings("ignore", message=".*Code running in object mode", category=numba.NumbaWarning)


class JitFault(Exception):
    """A fault in compiled code: ``(site, value, lo, hi, label)``."""


class JitStop(Exception):
    """STOP in compiled code: ``(code,)`` (an integer, a string or None as -1 with a flag)."""


_OPTIONS = dict(cache=True, error_model="numpy", nogil=True)


def njit(fn):
    """The options every helper and kernel is compiled with: cached on disk,
    IEEE results for a real division by zero (the runtime's numpy semantics)."""
    return numba.njit(**_OPTIONS)(fn)


def small(fn):
    """:func:`njit` for a helper inlined into the kernel by numba itself: LLVM's
    inliner gives up on calls in a long kernel (a whole procedure), and a call
    per subscript costs ten times the loop."""
    return numba.njit(inline="always", **_OPTIONS)(fn)


F4 = np.float32
ONE4 = np.float32(1)
ZERO4 = np.float32(0)
HALF4 = np.float32(0.5)

# --------------------------------------------------------------------------- libm

_F4 = types.float32
_F8 = types.float64


def _external(name: str, t, nargs: int):
    return types.ExternalFunction(name, t(*([t] * nargs)))


_LIBM = {}
for _b in ELEMENTARY.values():
    _LIBM[_b + "4"] = _external(_b + "f", _F4, 1)
    _LIBM[_b + "8"] = _external(_b, _F8, 1)
for _b in EXTRA_ELEMENTARY.values():
    _LIBM[_b + "4"] = _external(_b + "f", _F4, 1)
    _LIBM[_b + "8"] = _external(_b, _F8, 1)
for _b in ("atan2", "pow", "hypot"):
    _LIBM[_b + "4"] = _external(_b + "f", _F4, 2)
    _LIBM[_b + "8"] = _external(_b, _F8, 2)


#: ``m_sin4``, ``m_pow8``, ... as the generated Python names them: libm's functions
#: themselves, which kernels call directly.
LIBM = {"m_" + k: f for k, f in _LIBM.items()}
globals().update(LIBM)


@njit
def m_sqrt8(x):
    return np.sqrt(x)


# --------------------------------------------------------------------------- integers


@small
def i4(x):
    """gfortran's 32-bit wrap of an INTEGER result."""
    return ((x + 0x80000000) & 0xFFFFFFFF) - 0x80000000


@small
def i8(x):
    return x  # int64 arithmetic wraps already


@small
def idiv_at(site, a, b):
    """Integer division truncated toward zero; a zero divisor faults at ``site``."""
    if b == 0:
        raise JitFault(site, 0, 0, 0, -1)
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


@small
def imod_at(site, a, b):
    if b == 0:
        raise JitFault(site, 0, 0, 0, -1)
    q = abs(a) // abs(b)
    q = q if (a < 0) == (b < 0) else -q
    return a - q * b


@njit
def ipow_at(site, a, b):
    """INTEGER ** INTEGER (a negative power truncates like a division)."""
    if b >= 0:
        r = 1
        x = a
        n = b
        while n:
            if n & 1:
                r = r * x
            x = x * x
            n >>= 1
        return r
    if a == 0:
        raise JitFault(site, 0, 0, 0, -1)
    if a == 1:
        return 1
    if a == -1:
        return 1 if b % 2 == 0 else -1
    return 0


@small
def isign(a, b):
    return abs(a) if b >= 0 else -abs(a)


@small
def ishft(i, n):
    """``ISHFT`` of a 32-bit INTEGER (logical shift)."""
    u = i & 0xFFFFFFFF
    out = ((u << n) & 0xFFFFFFFF) if n >= 0 else (u >> -n)
    return out - 0x100000000 if out >= 0x80000000 else out


@small
def btest(i, pos):
    return ((i >> pos) & 1) != 0


@small
def ibits(i, pos, n):
    return (i >> pos) & ((1 << n) - 1)


@njit
def ishift(i, n, bits):
    if n >= 0:
        v = (i << n) & ((1 << bits) - 1) if bits < 64 else i << n
        return v - (1 << bits) if bits < 64 and (v >> (bits - 1)) & 1 else v
    return i >> -n


# --------------------------------------------------------------------------- reals


@small
def ddiv(a, b):
    return a / b  # IEEE (error_model="numpy"), as the runtime's ddiv


@small
def rmod(a, b):
    """``MOD`` of REALs: numpy's ``fmod``, as the Python path computes it."""
    return np.fmod(a, b)


@small
def rmod8(a, b):
    """``MOD`` of DOUBLE PRECISION: C's ``fmod``; a positive NaN for a zero divisor
    (the Python path's ``math.nan``)."""
    return np.fmod(a, b) if b != 0 else np.nan


@small
def rsign(a, b):
    return np.copysign(a, b)


@small
def dim(a, b):
    d = a - b
    return d if d > 0 else d * (d - d)  # d * 0: the sign of d kept, NaN for infinities


@small
def nint(x):
    r = int(x)
    f = x - np.trunc(x)
    if f >= HALF4:
        r += 1
    elif f <= -HALF4:
        r -= 1
    return r


@small
def aint(x):
    return np.trunc(x)


@small
def anint(x):
    r = np.trunc(x)
    f = x - r
    if f >= HALF4:
        r = r + ONE4
    elif f <= -HALF4:
        r = r - ONE4
    return r


@njit
def powi(x, n):
    """REAL ** INTEGER: libgcc's right-to-left binary powering, as the Python
    path's ``powi`` (whose Python integer constants numba would widen)."""
    m = abs(n)
    y = x if m % 2 else x * ZERO4 + ONE4
    while True:
        m >>= 1
        if not m:
            break
        x = x * x
        if m % 2:
            y = y * x
    return ONE4 / y if n < 0 else y


@small
def imodulo_at(site, a, p):
    """``MODULO`` of integers (the sign of ``p``); a zero ``p`` faults at ``site``."""
    if p == 0:
        raise JitFault(site, 0, 0, 0, -1)
    return a % p


@small
def rmodulo(a, p):
    """``MODULO`` of REALs: ``fmod`` corrected by ``p`` when the signs differ."""
    r = np.fmod(a, p)
    if r != 0 and (r < 0) != (p < 0):
        r = r + p
    return r


@small
def rmodulo8(a, p):
    """``MODULO`` of DOUBLE PRECISION (:func:`rmod8` corrected by ``p``)."""
    r = rmod8(a, p)
    if r != 0 and (r < 0) != (p < 0):
        r = r + p
    return r


# --------------------------------------------------------------------------- subscripts and loops


@small
def at(site, i, lo, hi, label):
    """``i`` when it lies in ``lo..hi``; else a fault of ``site`` (``label``: the
    array's label number, -1 when the site names it)."""
    if i < lo or i > hi:
        raise JitFault(site, i, lo, hi, label)
    return i


@small
def rd(a, p, n, zero):
    """Element ``p`` of a dummy's storage; 0 past its end (``n``: its length)."""
    return a[p] if p < n else zero


@small
def wr(site, a, p, n, v, label, held):
    """Store into a dummy's storage; past the end of its actual only a zero may
    go (``held``: the elements the actual holds from the dummy's start)."""
    if p < n:
        a[p] = v
    elif v != 0:
        raise JitFault(site, held, 0, 0, label)


@intrinsic
def timeup(typingctx, counters):
    """``counters[2]`` read anew every time (an atomic load the optimizer does not
    hoist out of a loop): set by another thread when the run's time is up."""
    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        return builder.load_atomic(cgutils.gep_inbounds(builder, ary.data, 2), "monotonic", 8)
    return types.int64(counters), codegen


_clock_gettime = types.ExternalFunction("clock_gettime", types.intc(types.intc, types.voidptr))


@small
def clock(n):
    """Seconds of CLOCK_MONOTONIC (``n[0]``, ``n[1]``: room for the timespec)."""
    _clock_gettime(1, n.ctypes.data)
    return n[0] + n[1] * 1e-9


@small
def check(site, x, lo, hi):
    if x < lo or x > hi:
        raise JitFault(site, x, lo, hi, -1)


@njit
def span_check(site, start, stop, step, c1, c0, lo, hi):
    """:func:`check` of ``c1 * v + c0`` at both ends of ``range(start, stop, step)``."""
    n = len(range(start, stop, step))
    if n > 0:
        check(site, c1 * start + c0, lo, hi)
        check(site, c1 * (start + (n - 1) * step) + c0, lo, hi)


@njit
def clip(site, a, b, st, lo, hi):
    """``range(a, b, st)`` (Fortran bounds: ``b`` included) restricted to
    ``lo..hi``, as ``(start, stop, step)``; a zero step faults."""
    if st == 0:
        raise JitFault(site, 0, 0, 0, -1)
    if st > 0:
        last = min(b, hi)
        first = a if a >= lo else a + -(-(lo - a) // st) * st
        return first, last + 1, st
    last = max(b, lo)
    first = a if a <= hi else a - (-(-(a - hi) // -st)) * -st
    return first, last - 1, st


@njit
def values_in(a, b, st, members):
    """The members (sorted values) of a set that ``range(a, b, st)`` visits, in its order."""
    out = np.empty(len(members), np.int64)
    n = 0
    lo, hi = (a, b) if st > 0 else (b, a)
    for k in range(len(members)):
        v = members[k]
        if lo <= v <= hi and (v - a) % st == 0:
            out[n] = v
            n += 1
    out = out[:n]
    return out if st > 0 else out[::-1]


@njit
def member(x, members):
    k = np.searchsorted(members, x)
    return k < len(members) and members[k] == x
