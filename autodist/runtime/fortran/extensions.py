"""gfortran's extension routines and the Fortran 90 intrinsic subroutines that
read a clock, the date or a hidden random state, as the generated code calls
them.

Timers give the wall time of the job: every rank runs the call (scalars are
replicated) and every rank gets rank 0's reading (``clock``, a collective
supplied by the executor), so control flow that depends on a time stays the
same on every rank.  ``RAND``/``IRAND``/``SRAND`` are libgfortran's
Park–Miller generator, bit for bit.

A call is ``ext.call(name, kinds, *args)``: ``kinds`` are the kind codes of
the actual arguments (:func:`~autodist.runtime.codegen.intrinsic_code.io_kind`,
``s<len>`` for CHARACTER), scalars come by value, arrays as ``RtArray``; the
result is what a translated procedure returns: ``(value, *args)`` for a
function, ``(*args,)`` for a subroutine, with the final values of the
arguments :data:`ROUTINES` says are written (in the actuals' types).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ...errors import RuntimeFault

F4 = np.float32


@dataclass(frozen=True)
class Routine:
    """One extension routine: ``function`` (else a subroutine), the range of
    its argument count, the positions of its scalar arguments it writes and
    of its array arguments."""

    function: bool
    nargs: tuple[int, int]
    writes: frozenset[int] = frozenset()
    arrays: frozenset[int] = frozenset()
    keywords: tuple[str, ...] = ()  # the dummies' names, for keyword arguments


ROUTINES: dict[str, Routine] = {
    "SECOND": Routine(True, (0, 0)),
    "DSECND": Routine(True, (0, 0)),
    "SECNDS": Routine(True, (1, 1)),
    "ETIME": Routine(True, (1, 1), arrays=frozenset({0})),
    "DTIME": Routine(True, (1, 1), arrays=frozenset({0})),
    "RAND": Routine(True, (0, 1)),
    "IRAND": Routine(True, (0, 1)),
    "CPU_TIME": Routine(False, (1, 1), frozenset({0})),
    "SYSTEM_CLOCK": Routine(False, (0, 3), frozenset({0, 1, 2}), keywords=("COUNT", "COUNT_RATE", "COUNT_MAX")),
    "DATE_AND_TIME": Routine(False, (0, 4), frozenset({0, 1, 2}), frozenset({3}),
                             ("DATE", "TIME", "ZONE", "VALUES")),
    "SRAND": Routine(False, (1, 1)),
    "FLUSH": Routine(False, (0, 1)),
    "GETARG": Routine(False, (2, 2), frozenset({1})),
}

_RAND_A, _RAND_M = 16807, 2147483647


def convert_to(value, k: str):
    """``value`` (a Python number or string) in the representation of kind ``k``."""
    if k.startswith("s"):
        n = int(k[1:] or 0)
        return str(value)[:n].ljust(n) if n else str(value)
    if k.startswith("i"):
        return int(value)
    if k == "r4":
        return F4(value)
    if k == "r8":
        return float(value)
    raise RuntimeFault(f"an argument of kind {k} where a number or a string is expected")


class Extensions:
    """The extension routines of one run (see the module docstring);
    ``clock()`` is the job's wall time in seconds on rank 0, on every rank,
    ``now()`` rank 0's local date and time, ``flush()`` flushes the output."""

    def __init__(self, clock: Callable[[], float], now: Callable[[], datetime.datetime],
                 flush: Callable[[], None], argv0: str = ""):
        self.clock, self.now, self.flush, self.argv0 = clock, now, flush, argv0
        self.seed = 1  # libgfortran's rand_seed
        self.last = 0.0  # DTIME's previous reading

    def call(self, name: str, kinds: tuple[str, ...], *args):
        return getattr(self, "_" + name.lower())(kinds, *args)

    # ---------------------------------------------------------------- timers

    def _second(self, kinds):
        return (F4(self.clock()),)

    def _dsecnd(self, kinds):
        return (float(self.clock()),)

    def _secnds(self, kinds, x):
        t = self.now()
        since_midnight = t.hour * 3600 + t.minute * 60 + t.second + t.microsecond / 1e6
        return (F4(since_midnight - float(x)), x)

    def _etime(self, kinds, tarray):
        t = F4(self.clock())
        _set_pair(tarray, t)
        return (t, tarray)

    def _dtime(self, kinds, tarray):
        now = self.clock()
        t = F4(now - self.last)
        self.last = now
        _set_pair(tarray, t)
        return (t, tarray)

    def _cpu_time(self, kinds, t):
        return (convert_to(self.clock(), kinds[0]),)

    def _system_clock(self, kinds, *args):
        wide = any(k == "i8" for k in kinds)  # gfortran: milliseconds for INTEGER*4, microseconds for *8
        rate = 1_000_000 if wide else 1000
        top = (1 << 63) - 1 if wide else (1 << 31) - 1
        values = (int(self.clock() * rate) % (top + 1), rate, top)
        return tuple(None if a is None else convert_to(v, k) for v, k, a in zip(values, kinds, args))

    def _date_and_time(self, kinds, *args):
        t = self.now()
        off = t.utcoffset() or datetime.timedelta(0)
        minutes = int(off.total_seconds() // 60)
        zone = f"{'+' if minutes >= 0 else '-'}{abs(minutes) // 60:02d}{abs(minutes) % 60:02d}"
        texts = (t.strftime("%Y%m%d"), t.strftime("%H%M%S") + f".{t.microsecond // 1000:03d}", zone)
        out = [None if a is None else convert_to(v, k) for v, k, a in zip(texts, kinds, args)]
        if len(args) == 4 and args[3] is not None:
            values = args[3]
            parts = (t.year, t.month, t.day, minutes, t.hour, t.minute, t.second, t.microsecond // 1000)
            _set_first(values, parts, "DATE_AND_TIME: VALUES")
            out.append(values)
        return tuple(out)

    # ---------------------------------------------------------------- random numbers (libgfortran rand.c)

    def _next(self, flag) -> int:
        flag = 0 if flag is None else int(flag)
        if flag == 1:
            self.seed = 123459876
        elif flag != 0:
            self.seed = flag & 0xFFFFFFFFFFFFFFFF
        self.seed = _RAND_A * self.seed % _RAND_M
        v = self.seed & 0xFFFFFFFF
        return v - (1 << 32) if v >> 31 else v

    def _irand(self, kinds, flag=None):
        return (self._next(flag),) + (() if flag is None else (flag,))

    def _rand(self, kinds, flag=None):
        mask = (0xFFFFFFFF << (32 - 24 + 1)) & 0xFFFFFFFF
        i = ((self._next(flag) - 1) & 0xFFFFFFFF) & mask
        r = F4(i) / F4(_RAND_M - 1)
        if r == F4(1):
            r = np.nextafter(F4(1), F4(0))
        return (F4(r),) + (() if flag is None else (flag,))

    def _srand(self, kinds, seed):
        self.seed = int(seed) if int(seed) else 123459876
        return (seed,)

    # ---------------------------------------------------------------- the rest

    def _flush(self, kinds, *unit):
        self.flush()
        return unit

    def _getarg(self, kinds, n, text):
        # ``autodist run`` passes no arguments to the program
        return (n, convert_to(self.argv0 if int(n) == 0 else "", kinds[1]))


def _set_first(array, values, what: str) -> None:
    """Store ``values`` into the first elements of ``array`` (column-major order)."""
    if array.size < len(values):
        raise RuntimeFault(f"{what} has fewer than {len(values)} elements")
    shape = tuple(hi - lo + 1 for lo, hi in array.bounds)
    for k, v in enumerate(values):
        idx = np.unravel_index(k, shape, order="F")
        array.s(v, *(int(i) + lo for i, (lo, _) in zip(idx, array.bounds)))


def _set_pair(tarray, t) -> None:
    """ETIME/DTIME's TARRAY: (user time, system time) = (wall time, 0)."""
    t = F4(t) if tarray.ftype.size == 4 else float(t)
    _set_first(tarray, (t, t * 0), "ETIME/DTIME's argument")
