"""Compiled execution for one run: kernels built, compiled and called.

:class:`Jit` is what the executor holds when compiled execution is on (numba
importable, ``--no-jit`` not given).  For a loop phase under a plan,
:meth:`Jit.phase_kernel` writes the kernel (:mod:`.fastkernel`), refuses it
when its source needs what a kernel does not have (:mod:`.check`), loads its
module (:mod:`.compiler`) and returns a :class:`PhaseKernel`: a callable with
the numpy function's interface, ``fn(ctx, *scalars) -> outs``, that compiles
itself for the argument types it first gets (:meth:`PhaseKernel.prepare`,
before the phase's timer starts) and falls back to the numpy function when
numba cannot compile it.
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager

import numpy as np

from ... import ir
from ...errors import UnsupportedError
from ..codegen import intrinsic_code as ic
from . import compiler
from .check import foreign_names
from .faults import Sites

#: How a scalar the kernel returns becomes the runtime's value of its kind.
_CONVERT = {"i": int, "r4": np.float32, "r8": float, "l": bool}


def converter(t: ir.Type):
    return _CONVERT[ic.kind(t)]


def compiled_kinds(types: list[ir.Type]) -> str | None:
    """Why scalars of these types cannot pass into a kernel (None: they can)."""
    for t in types:
        if ic.kind(t) not in _CONVERT:
            return f"a {t} scalar"
    return None


class Jit:
    """Compiled execution of one run (see the module docstring)."""

    def __init__(self) -> None:
        self.compile_seconds = 0.0
        self.compiled = 0
        self.flags: list[np.ndarray] = []  # the kernels' ``_N``: ``[2]`` set when the time is up
        self._active = 0
        self._watch: threading.Thread | None = None

    @contextmanager
    def running(self):
        """Around a kernel call from Python.  A kernel runs without the GIL and
        cannot see the run's time limit (``SIGALRM``, whose handler only runs in
        Python): while one runs under an armed alarm, a thread watches the timer
        and, when it has fired, sets the flag kernels poll, so that they return
        to Python and the handler raises the run's timeout."""
        if self._watch is None and signal.getitimer(signal.ITIMER_REAL)[0] > 0:
            self._watch = threading.Thread(target=self._watcher, daemon=True, name="autodist-jit-timer")
            self._watch.start()
        self._active += 1
        try:
            yield
        finally:
            self._active -= 1

    def _watcher(self) -> None:
        while True:
            time.sleep(0.02)
            if signal.getitimer(signal.ITIMER_REAL)[0] == 0:
                if self._active:
                    for flag in self.flags:
                        flag[2] = 1
                return

    def phase_kernel(self, shape, plan, facts, name: str, fallback, on_fallback):
        """The kernel of a phase under ``plan`` (a ``GenPlan`` of its own), or
        ``(None, why not)``; ``fallback`` is the numpy function, used when numba
        cannot compile the kernel (``on_fallback(why)`` is told)."""
        from .fastkernel import ins_types, kernel_source

        types = ins_types(shape)
        why = compiled_kinds(types) or compiled_kinds([shape.unit.symbol(n).type for n in shape.arrays])
        if why:
            return None, f"{why} (not compiled)"
        try:
            body, sites = kernel_source(shape, plan, facts, name)
        except UnsupportedError as exc:
            return None, exc.message
        bad = foreign_names(body)
        if bad:
            return None, f"the kernel would need {', '.join(bad)}"
        module = compiler.load(body)
        consts = [c.to_array() for c in plan.constants]
        outs = [converter(shape.unit.symbol(n).type) for n in shape.outs]
        return PhaseKernel(self, getattr(module, name), list(plan.store), consts, outs, sites, fallback,
                           on_fallback), ""


class PhaseKernel:
    """A compiled phase with the numpy function's interface (see the module docstring)."""

    def __init__(self, jit: Jit, kernel, names: list[str], consts: list[np.ndarray], outs: list, sites: Sites,
                 fallback, on_fallback):
        self.jit, self.kernel, self.names, self.consts = jit, kernel, names, consts
        self.outs, self.sites, self.fallback, self.on_fallback = outs, sites, fallback, on_fallback
        self.ready = False

    def _args(self, ctx, scalars) -> list:
        return [ctx.store[n] for n in self.names] + self.consts + list(scalars)

    def prepare(self, ctx, *scalars) -> None:
        """Compile (or load from the cache) for these arguments' types."""
        if self.ready:
            return
        import numba

        t0 = time.perf_counter()
        try:
            self.kernel.compile(tuple(numba.typeof(a) for a in self._args(ctx, scalars)))
        except Exception as exc:  # numba's typing or lowering errors: the numpy function runs
            first = str(exc).strip().splitlines()
            self.on_fallback(f"numba could not compile the kernel: {first[0] if first else type(exc).__name__}")
            self.kernel = None
        finally:
            self.jit.compile_seconds += time.perf_counter() - t0
        self.jit.compiled += self.kernel is not None
        self.ready = True

    def __call__(self, ctx, *scalars):
        from .helpers import JitFault

        if not self.ready:
            self.prepare(ctx, *scalars)
        if self.kernel is None:
            return self.fallback(ctx, *scalars)
        try:
            got = self.kernel(*self._args(ctx, scalars))
        except JitFault as exc:
            raise self.sites.fault(exc.args) from None
        return tuple(conv(v) for conv, v in zip(self.outs, got))
