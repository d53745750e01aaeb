"""Compiled execution for one run: when to compile, and the kernels of planned phases.

:class:`Jit` is what the executor holds when compiled execution is on (numba
importable, ``--no-jit`` not given).  Compiling a kernel costs numba a
fraction of a second to seconds, loading it from the cache a few
milliseconds, so a kernel is compiled (:meth:`Jit.hot`) when

* a run before this one compiled it (it is in the cache: :meth:`~.compiler.Module.warm`), or
* its phase or procedure has spent ``after`` seconds uncompiled in this run
  (``--jit-after``, default :data:`DEFAULT_AFTER`; 0: everything is compiled
  before it first runs), so that a short program or a phase that runs once
  does not wait for numba, and a hot one moves to compiled code early, or
* it spent ``after`` seconds uncompiled in a run before this one
  (:meth:`~.compiler.Module.want`: a routine called once, which could not move
  to compiled code in the middle of its call), so the second run of a program
  compiles it before it runs and the third loads it.

For a loop phase under a plan, :meth:`Jit.phase_kernel` writes the kernel
(:mod:`.fastkernel`), refuses it when its source needs what a kernel does not
have (:mod:`.check`) and returns a :class:`PhaseKernel`: a callable with the
numpy function's interface, ``fn(ctx, *scalars) -> outs``, that runs the
numpy function until the phase is hot, then compiles the kernel for the
argument types it gets (:meth:`PhaseKernel.prepare`, before the phase's
timer starts) and runs it — or keeps the numpy function when numba cannot
compile it.

The run's time limit (``SIGALRM``) cannot interrupt a kernel, which runs
without the GIL, so :meth:`Jit.running` watches the timer from a thread and
sets the flag compiled procedures poll (see :mod:`.units`).
"""

from __future__ import annotations

import os
import re
import signal
import sys
import threading
import time
import warnings
from contextlib import contextmanager

import numpy as np

from ... import ir
from ...errors import RuntimeFault, UnsupportedError
from ..codegen import intrinsic_code as ic
from .check import foreign_names
from .compiler import Module
from .faults import Sites

#: Seconds a phase or procedure runs uncompiled before its kernel is compiled.
DEFAULT_AFTER = 0.1

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


def arg_types(args) -> list:
    """numba's types of a kernel's arguments."""
    import numba

    return [numba.typeof(a) for a in args]


def _time_limit(exc: BaseException) -> RuntimeFault | None:
    """The run's time limit (a :class:`RuntimeFault` raised by its alarm) when it is
    ``exc`` or what numba wrapped into ``exc``; None for numba's own errors."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, RuntimeFault):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def default_after() -> float:
    """``$AUTODIST_JIT_AFTER`` seconds, else :data:`DEFAULT_AFTER`."""
    try:
        return max(float(os.environ.get("AUTODIST_JIT_AFTER", DEFAULT_AFTER)), 0.0)
    except ValueError:
        return DEFAULT_AFTER


def agreed(mine: bool, call: int, comm) -> bool:
    """Whether every rank compiles a procedure at its ``call``-th uncompiled
    call, from this rank's wish ``mine``.  The seconds run uncompiled and the
    kernel cache on disk differ between ranks, and a rank that runs the kernel
    skips collectives the translation makes, so they agree — any rank wishing
    it, all do — on the 1st, 2nd, 4th, 8th, ... call, the same calls on every
    rank (each rank makes every call): a hot procedure waits at most as many
    calls again, and a collective is made only log2(calls) times."""
    if comm.Get_size() == 1:
        return mine
    if call & (call - 1):
        return False
    from mpi4py import MPI

    return bool(comm.allreduce(int(mine), op=MPI.MAX))


class _LazyCompiles:
    """numba's compilations outside :meth:`Jit.compile` (none that autodist's
    kernels ask for: their PRINTs call the executor back without object mode,
    which numba would compile in every run) go to the current run's
    ``compile_seconds`` (one listener per process, registered once)."""

    current: "Jit | None" = None
    _registered = False

    @classmethod
    def watch(cls, jit: "Jit") -> None:
        cls.current = jit
        if cls._registered:
            return
        from numba.core import event

        class Listener(event.Listener):
            depth, t0 = 0, 0.0

            def on_start(self, ev):
                if self.depth == 0:
                    self.t0 = time.perf_counter()
                self.depth += 1

            def on_end(self, ev):
                self.depth -= 1
                run = cls.current
                if self.depth == 0 and run is not None and not run._compiling:
                    run.compile_seconds += time.perf_counter() - self.t0

        event.register("numba:compile", Listener())
        cls._registered = True


class Jit:
    """Compiled execution of one run (see the module docstring)."""

    def __init__(self, after: float | None = None) -> None:
        self.after = default_after() if after is None else after
        # numba's time: compiling, loading from the cache, waiting for a rank that still
        # does, and any compiling numba does on its own (:class:`_LazyCompiles`)
        self.compile_seconds = 0.0
        self._compiling = False
        self.compiled = 0  # kernels numba compiled
        self.loaded = 0  # kernels it loaded from its cache
        self.flags: list[np.ndarray] = []  # the kernels' ``_N``: ``[2]`` set when the time is up
        self._active = 0
        self._modules: dict[str, Module] = {}
        self._counted: set[tuple[str, str]] = set()  # the kernels counted in compiled or loaded
        self._watch: threading.Thread | None = None

    def hot(self, seconds: float, module: Module, name: str) -> bool:
        """Compile ``name`` of ``module`` now, after ``seconds`` run uncompiled?"""
        return seconds >= self.after or module.warm(name) or module.wanted(name)

    def cold_reason(self, seconds: float) -> str:
        return f"not compiled: ran {seconds:.3g} s uncompiled, less than --jit-after {self.after:g} s"

    def compile(self, module: Module, name: str, signature) -> tuple[object, str]:
        """The compiled function ``name`` of ``module`` for ``signature()`` (numba
        types; importing numba, the first time, counts as compiling), or ``(None, why not)``."""
        failed = module.failure(name)
        if failed:
            return None, f"{failed} (in an earlier run; the kernel is the same)"
        t0 = time.perf_counter()
        armed = signal.getitimer(signal.ITIMER_REAL)[0] > 0
        self._compiling = True
        try:
            # imported outside catch_warnings: the filters :mod:`.helpers` installs stay for
            # whatever numba compiles later on its own
            fn = module.function(name)
            _LazyCompiles.watch(self)
            with warnings.catch_warnings():  # numba's notes (object mode holds the GIL, ...) are not the user's
                warnings.simplefilter("ignore")
                # a kernel in the cache is only read: the ranks load theirs at once
                with module.compiling(shared=module.warm(name)), _deep_recursion():
                    fn.compile(tuple(signature()))
        except Exception as exc:  # numba's typing or lowering errors: the other path runs
            limit = _time_limit(exc)
            if limit is not None:  # the run's time limit fired while numba compiled: the run ends
                raise limit from None
            if armed and signal.getitimer(signal.ITIMER_REAL)[0] == 0:
                raise RuntimeFault("the run was interrupted (its time limit passed while numba compiled)") from None
            first = _numba_reason(exc)
            why = f"numba could not compile it: {first}"
            module.fail(name, why)
            return None, why
        finally:
            self._compiling = False
            self.compile_seconds += time.perf_counter() - t0
        if (module.digest, name) in self._counted:  # another user of a kernel this run has (blocks)
            pass
        elif sum(fn.stats.cache_hits.values()):
            self.loaded += 1
        else:
            self.compiled += 1
        self._counted.add((module.digest, name))
        module.compiled(name)
        return fn, ""

    # ---------------------------------------------------------------- the time limit

    @contextmanager
    def running(self):
        """Around a kernel call from Python: while one runs under an armed alarm, a
        thread watches the timer and, once it has fired, sets the flag kernels poll,
        so that they return to Python and the alarm's handler raises the timeout."""
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

    # ---------------------------------------------------------------- planned phases

    def phase_kernel(self, shape, plan, facts, name: str, fallback, seconds):
        """The kernel of a phase under ``plan`` (a ``GenPlan`` of its own), or
        ``(None, why not)``; ``fallback`` is the numpy function, ``seconds()`` the
        time the phase has run so far."""
        from .fastkernel import ins_types, kernel_source, storage_shape

        why = compiled_kinds(ins_types(shape)) or compiled_kinds([shape.unit.symbol(n).type for n in shape.arrays])
        if why:
            return None, f"{why} (not compiled)"
        try:
            body, sites = kernel_source(shape, plan, facts, name)
        except UnsupportedError as exc:
            return None, exc.message
        bad = foreign_names(body)
        if bad:
            return None, f"the kernel would need {', '.join(bad)}"
        consts = [c.to_array() for c in plan.constants]
        if plan.free:  # the interval of the free variable, the same for every statement (see GenPlan.free)
            s = next((sets[plan.free] for sets in plan.sets.values() if plan.free in sets), None)
            # a rank that runs none of the statements never reads it
            consts += [np.int64(s.lo), np.int64(s.hi)] if s else [np.int64(0), np.int64(-1)]
        outs = [converter(shape.unit.symbol(n).type) for n in shape.outs]
        module = self._modules.get(body)
        if module is None:  # one module per text: kernels of the same code (a phase's blocks) compile once
            module = self._modules[body] = Module(body)
        shapes = [storage_shape(plan.store[n]) for n in plan.store]
        return PhaseKernel(self, module, name, list(plan.store), consts, outs, sites, fallback, seconds, shapes), ""


#: Python's recursion limit while numba compiles: its SSA pass walks the
#: dominator tree recursively, one call per block from a variable's use up to
#: its definitions, and a long procedure (NPB LU's JACLD: thousands of blocks)
#: goes past the default 1000.  Python 3.11 calls Python functions without
#: growing the C stack, so the limit only bounds the frames kept.
COMPILE_RECURSION = 200_000


@contextmanager
def _deep_recursion():
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, COMPILE_RECURSION))
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _numba_reason(exc: BaseException) -> str:
    """One line of why numba failed: its first line and, after a pipeline's
    "Failed in ... (step: ...)", the line that says what (``Unknown attribute
    'x' of type float64``), without numba's colours and source excerpts."""
    lines = [ln.strip() for ln in _ANSI.sub("", str(exc)).splitlines() if ln.strip()]
    if not lines:
        return type(exc).__name__
    out = lines[0]
    if out.startswith("Failed in") and len(lines) > 1 and not lines[1].startswith(("File ", "During:", "<source")):
        out += ": " + lines[1]
    return out if len(out) <= 300 else out[:297] + "..."


class _Compiled:
    """The compiled function of a kernel, or why numba could not compile it,
    shared by the blocks of a pipelined phase."""

    kernel = None
    failed = ""


def _flat(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
    """The storage ``a`` as the kernel indexes it: a flat view in Fortran order,
    of the extents its code was written for; None when ``a`` is not that
    (a planned phase's storage is the plan's, and RtArray and window buffers
    are Fortran-ordered: the numpy function then runs, never a misread)."""
    if a.shape != shape or not (a.flags.f_contiguous or a.size <= 1):
        return None
    return a.reshape(-1, order="F")


class PhaseKernel:
    """A planned phase's kernel with the numpy function's interface (see the module docstring)."""

    def __init__(self, jit: Jit, module: Module, name: str, names: list[str], consts: list[np.ndarray],
                 outs: list, sites: Sites, fallback, seconds, shapes: list[tuple[int, ...]]):
        self.jit, self.module, self.name, self.names, self.consts = jit, module, name, names, consts
        self.outs, self.sites, self.fallback, self.seconds = outs, sites, fallback, seconds
        self.shapes = shapes  # the storage extents the kernel's flat positions assume
        self.shared = _Compiled()

    @property
    def kernel(self):
        return self.shared.kernel

    @property
    def failed(self) -> str:
        return self.shared.failed

    def for_block(self, lo: int, hi: int, fallback) -> "PhaseKernel":
        """The same kernel over the free variable's interval ``lo..hi`` (a block of
        a pipelined phase: see ``GenPlan.free``) with that block's numpy function:
        written, checked and compiled once for all the blocks."""
        other = PhaseKernel(self.jit, self.module, self.name, self.names,
                            self.consts[:-2] + [np.int64(lo), np.int64(hi)], self.outs, self.sites, fallback,
                            self.seconds, self.shapes)
        other.shared = self.shared
        return other

    @property
    def path(self) -> tuple[str, str]:
        """The path the next execution takes, and why it is not the compiled one."""
        if self.kernel is not None:
            return "jit", ""
        return "numpy", self.failed or self.jit.cold_reason(self.seconds())

    def _args(self, ctx, scalars) -> list | None:
        """The kernel's arguments; None when a storage is not as its code indexes it."""
        stores = [_flat(ctx.store[n], shape) for n, shape in zip(self.names, self.shapes)]
        if any(a is None for a in stores):
            return None
        return stores + self.consts + list(scalars)

    def prepare(self, ctx, *scalars) -> None:
        """Compile (or load from the cache) for these arguments' types, once the phase is hot."""
        if self.kernel is not None or self.failed or not self.jit.hot(self.seconds(), self.module, self.name):
            return
        args = self._args(ctx, scalars)
        if args is None:
            return
        self.shared.kernel, self.shared.failed = self.jit.compile(self.module, self.name, lambda: arg_types(args))

    def __call__(self, ctx, *scalars):
        args = self._args(ctx, scalars) if self.kernel is not None else None
        if args is None:
            try:
                return self.fallback(ctx, *scalars)
            finally:
                if not self.failed and self.seconds() >= self.jit.after:
                    self.module.want(self.name)  # hot, and run as often as it will be in this run, maybe
        from .helpers import JitFault

        try:
            got = self.kernel(*args)
        except JitFault as exc:
            raise self.sites.fault(exc.args) from None
        return tuple(conv(v) for conv, v in zip(self.outs, got))
