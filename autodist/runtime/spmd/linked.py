"""Calls of ``--link`` routines on a rank (what the generated code calls ``_rt.linked``).

A linked routine (:mod:`autodist.runtime.fortran.foreign`) runs replicated:
every rank calls it — every rank runs every statement outside loop phases —
on the whole of each array passed to it (gathered onto every rank in Fortran
order: :meth:`~autodist.runtime.spmd.arrays.RtArray.full`) and keeps its own
part of what the routine leaves there
(:meth:`~autodist.runtime.spmd.arrays.RtArray.keep_part`).  The scalars it
returns or writes are rank 0's on every rank (a broadcast), as the runtime's
own timers do, so that a C timer's reading is the same everywhere and control
flow that depends on it stays replicated.  An array element passed is the
whole array from that element on (sequence association), so a BLAS call
``DAXPY(N, A, X(K), 1, Y(K), 1)`` works on the array itself.

Per routine: the number of calls (:attr:`LinkedCalls.calls`, for the
report), and in region ``linked NAME`` the time of the calls and the
gathers' communication.
"""

from __future__ import annotations

import time
from typing import Sequence

from ...errors import RuntimeFault
from ..fortran.foreign import ArrayArgument, Foreign, region_of
from .arrays import Comms, ElementRef, RtArray


class LinkedCalls:
    """The ``--link`` routines of one run (``foreign`` None without ``--link``)."""

    def __init__(self, foreign: Foreign | None, comms: Comms):
        self.foreign, self.comms = foreign, comms
        self.calls: dict[str, int] = {}

    def call(self, name: str, result: str | None, kinds: Sequence[str], *args) -> tuple:
        """Call ``name`` (see :meth:`Foreign.call <autodist.runtime.fortran.foreign.Foreign.call>`);
        arrays come as ``RtArray`` or ``ElementRef``, scalars by value.  Returns
        what a translated procedure returns: ``(result, *args)`` for a function,
        ``(*args,)`` for a subroutine, each scalar's final value (rank 0's), None
        for arrays."""
        if self.foreign is None:
            raise RuntimeFault(f"{name} is a --link routine, but no --link library is loaded")
        region = region_of(name)
        self.calls[name] = self.calls.get(name, 0) + 1
        bases = [_base(a) for a in args]
        values = [a if base is None else ArrayArgument(base.full(region), a.offset if isinstance(a, ElementRef) else 0)
                  for a, base in zip(args, bases)]
        t0 = time.perf_counter()
        out = self.foreign.call(name, result, kinds, values)
        self.comms.stats.region(region).compute_time += time.perf_counter() - t0
        head, finals = out[: len(out) - len(args)], out[len(out) - len(args):]
        for base, final in zip(bases, finals):
            if base is not None:
                base.keep_part(final)
        scalars = self._rank0(region, head + tuple(f for f, base in zip(finals, bases) if base is None))
        it = iter(scalars)
        return tuple(next(it) for _ in head) + tuple(None if base is not None else next(it) for base in bases)

    def _rank0(self, region: str, values: tuple) -> tuple:
        """``values`` as rank 0 has them, on every rank."""
        comms = self.comms
        if comms.size == 1 or not values:
            return values
        me = comms.rank == 0
        comms.stats.record(region, elements_sent=len(values) * (comms.size - 1) if me else 0,
                           elements_received=0 if me else len(values),
                           messages_sent=comms.size - 1 if me else 0, messages_received=0 if me else 1)
        return comms.comm.bcast(values if me else None, root=0)


def _base(arg) -> RtArray | None:
    """The array an argument passes (None for a scalar)."""
    if isinstance(arg, RtArray):
        return arg
    if isinstance(arg, ElementRef):
        return arg.array
    return None
