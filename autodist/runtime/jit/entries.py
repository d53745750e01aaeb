"""Calling compiled procedures and phases from the running program.

Compiled code works on storage every rank holds whole: a procedure's kernel
runs when every array it reaches (its actual arguments and its static
storage, :mod:`.statics`) is held whole on every rank — always on one rank,
and for programs whose arrays are replicated — else the Python translation
runs (the same decision on every rank, as the layouts are the same
everywhere).  A loop phase's kernel runs on replicated data like the Python
translation it replaces: the arrays it reaches are gathered first and keep
their parts after.

:class:`Kernels` holds the program's :class:`~.program.ProgramKernels` for
one run: the static storage as kernel arguments (scalars copied into typed
arrays before a call and back after), the counters of the phases inside
compiled procedures (``_N``, ``_T``) credited to their regions after each
call, the labels of the arrays faults name.  :class:`ProcedureEntry` stands
in the executor's table of procedures for a compiled unit;
:meth:`Kernels.run_phase` runs a phase's kernel.
"""

from __future__ import annotations

import ctypes
import time

import numpy as np

from ... import ir
from ...errors import AutodistError, RuntimeFault
from ..codegen import intrinsic_code as ic
from ..codegen.generated import StopProgram
from ..fortran.foreign import region_of
from .engine import Jit, agreed, arg_types, converter
from .program import PhaseKernelInfo, ProgramKernels
from .statics import SCALAR_DTYPES, shape_key
from .kernelmodule import OUTPUT_FAILED, REAL_KINDS


def held_whole(arr) -> bool:
    """Every rank holds all of ``arr`` (the same answer on every rank)."""
    return arr.everywhere or (arr.comms.size == 1 and arr.whole)


def flat(arr) -> np.ndarray | None:
    """``arr``'s storage as one Fortran-order vector (a view), when it has no ghost cells."""
    loc = arr.local
    if any(g != (0, 0) for g in arr.ghosts) or not loc.flags.f_contiguous:
        return None
    return loc.reshape(-1, order="F")


class Kernels:
    """The compiled kernels of one run (see the module docstring)."""

    def __init__(self, ex, jit: Jit, kernels: ProgramKernels):
        self.ex, self.jit, self.k = ex, jit, kernels
        mod = kernels.mod
        self.statics = mod.statics
        self.N = np.zeros(3 + len(mod.regions), np.int64)
        self.T = np.zeros(max(len(mod.regions), 1))
        jit.flags.append(self.N)
        self.calls: dict[str, list[int]] = {}  # unit -> [compiled calls, Python calls]
        self.ready: dict[str, str] = {}  # kernel -> "" once compiled, else why it cannot be
        self.fns: dict[str, object] = {}  # compiled kernels by name
        self.python_why: dict[str, str] = {}  # unit -> why its last call ran its Python translation
        #: the output callback kernels call (static storage OUTPUT), and what it raised
        self.writer = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p)(self.output)
        self._failed: BaseException | None = None

    # ---------------------------------------------------------------- labels and faults

    def label(self, text: str) -> int:
        return self.k.mod.label(text)

    def _call(self, fn, args: list):
        """Run a kernel; faults, STOP and the time limit as the Python path has them."""
        from .helpers import JitFault, JitStop

        self.k.module.load()
        try:
            with self.jit.running():
                return fn(*args)
        except JitFault as exc:
            if exc.args and exc.args[0] == -1:  # the time is up: the alarm's handler raises now
                time.sleep(0)
                raise RuntimeFault("the run was interrupted") from None
            if exc.args and exc.args[0] == OUTPUT_FAILED and self._failed is not None:
                failed, self._failed = self._failed, None
                raise failed
            raise self.k.mod.sites.fault(exc.args, self.k.mod.labels) from None
        except JitStop as exc:
            raise StopProgram(self.k.mod.stops[exc.args[0]]) from None

    def output(self, k: int, ints: int, reals: int) -> int:
        """A PRINT or WRITE of a kernel (:meth:`~.units.KernelModule.output`), written
        by the executor as the Python path writes it; the kernel calls it through a
        ctypes callback with the addresses of its int64 values (the unit first) and
        float64 values.  Returns 0, or 1 when writing failed (the kernel then
        faults, and :meth:`_call` raises what writing raised)."""
        try:
            to_unit, fmt, items, where = self.k.mod.outputs[k]
            n_int = 1 + sum(1 for pos, _, kind in items if pos is not None and kind not in REAL_KINDS)
            n_real = sum(1 for pos, _, kind in items if pos is not None and kind in REAL_KINDS)
            iv = (ctypes.c_int64 * n_int).from_address(ints)
            rv = (ctypes.c_double * max(n_real, 1)).from_address(reals)
            out = []
            for pos, text, kind in items:
                if pos is None:
                    out.append((text, kind))
                else:
                    out.append((_OUTPUT.get(kind, int)(rv[pos] if kind in REAL_KINDS else iv[pos]), kind))
            self.ex.write(int(iv[0]) if to_unit else None, fmt, out)
            return 0
        except BaseException as exc:  # raised again when the kernel has returned (see _call)
            if isinstance(exc, AutodistError) and not exc.line and where:
                exc = type(exc)(exc.message, *where)
            self._failed = exc
            return 1

    def compile(self, name: str, signature) -> str:
        """Compile kernel ``name`` for ``signature()`` (numba types; from the cache when
        it is there), once; why it cannot be."""
        why = self.ready.get(name)
        if why is None:
            fn, why = self.jit.compile(self.k.module, name, signature)
            self.ready[name] = why
            if fn is not None:
                self.fns[name] = fn
        return why

    # ---------------------------------------------------------------- static storage

    def static_args(self, keys) -> tuple[list, list] | None:
        """The kernel arguments of ``keys`` and what to copy back after the call;
        None when an array is not held whole on every rank."""
        ex = self.ex
        args, back = [], []
        for key in keys:
            kind, a, b = key
            if kind == "X":
                args.append(ex.linked.foreign.pointer(a, *b))
                continue
            if kind == "O":
                args.append(self.writer)
                continue
            if kind in ("L", "C"):
                arr = ex.locals[(a, b)] if kind == "L" else ex.common_arrays[(a, b)]
                v = flat(arr) if held_whole(arr) else None
                if v is None:
                    return None
                args.append(v)
                continue
            if kind == "S":
                values = ex.commons[a]
                places = [k for k, (kd, _) in sorted(self.statics.block_slots(a).items()) if kd == b]
            else:
                values = ex.saved[a]
                places = [k for k, (kd, _) in enumerate(self.statics.saved_slots(a)) if kd == b]
            typed = np.array([values[k] for k in places], SCALAR_DTYPES[b])
            args.append(typed)
            back.append((values, places, typed, converter(_type_of_kind(b))))
        return args, back

    def linked_reason(self, keys) -> str:
        """Why kernels taking static storage ``keys`` cannot run on this job ("" when
        they can): a ``--link`` routine's scalars are rank 0's on every rank
        (:mod:`~autodist.runtime.spmd.linked`), which a direct call on more ranks does not give."""
        names = sorted({a for kind, a, _ in keys if kind == "X"})
        if not names or self.ex.comms.size == 1:
            return ""
        return (f"calls --link routine {names[0]} (on more than one rank its scalars are rank 0's, "
                "which the Python path gives)")

    @staticmethod
    def copy_back(back: list) -> None:
        for values, places, typed, conv in back:
            for k, v in zip(places, typed.tolist()):
                values[k] = conv(v)

    def credit(self) -> None:
        """The executions and times of the phases inside compiled procedures, to their regions."""
        counts = self.N[3:]
        hit = np.nonzero(counts)[0]
        if not len(hit):
            return
        ex, mod = self.ex, self.k.mod
        stats = ex.comms.stats
        for p in hit.tolist():
            region = mod.regions[p]
            if mod.region_kinds[p] == "unit":
                self.calls.setdefault(region, [0, 0])[0] += int(counts[p])
                continue
            if mod.region_kinds[p] == "linked":
                routine = region.removeprefix(region_of(""))
                ex.linked.calls[routine] = ex.linked.calls.get(routine, 0) + int(counts[p])
                stats.region(region).compute_time += float(self.T[p])
                continue
            ex.executions[region] = ex.executions.get(region, 0) + int(counts[p])
            stats.region(region).compute_time += float(self.T[p])
            if mod.region_kinds[p] == "call":
                ex.phase_modes.setdefault(region, ("call", "", ()))
            else:
                mode = "distributed" if ex.nprocs == 1 else "replicated"
                why = "" if ex.nprocs == 1 else "inside a compiled procedure: its arrays are whole on every rank"
                ex.phase_modes.setdefault(region, (mode, why, ()))
            ex.record_path(region, "jit", "", int(counts[p]))
        counts[:] = 0
        self.T[:] = 0.0

    # ---------------------------------------------------------------- phases

    def phase_info(self, unit: str, line: int) -> tuple[PhaseKernelInfo | None, str]:
        key = (unit, line)
        return self.k.phases.get(key), self.k.phase_reasons.get(key, "")

    def phase_ready(self, info: PhaseKernelInfo, frame, region: str) -> str:
        """Compile a phase's kernel, once it is hot (:meth:`~.engine.Jit.hot`), for the
        types of its arguments; why it does not run compiled."""
        why = self.linked_reason(info.statics) or self.ready.get(info.function)
        if why is None:
            seconds = self.ex.comms.stats.region(region).compute_time
            if not self.jit.hot(seconds, self.k.module, info.function):
                return self.jit.cold_reason(seconds)
            why = self.compile(info.function, lambda: self._phase_signature(info, frame))
        return why

    def _phase_signature(self, info: PhaseKernelInfo, frame) -> list:
        """numba's types of a phase kernel's arguments, from the arrays' and scalars' types."""
        import numba
        from numba import types

        def vector(dtype):
            return types.Array(numba.from_dtype(np.dtype(dtype)), 1, "C")

        sig = []
        for n in info.arrays:
            arr = frame.a[n]
            sig += [vector(arr.dtype)] + [types.int64] * (2 * len(arr.bounds) + 1)
        for kind, a, b in info.statics:
            if kind == "X":
                sig.append(numba.typeof(self.ex.linked.foreign.pointer(a, *b)))
            elif kind == "O":
                sig.append(numba.typeof(self.writer))
            elif kind in ("L", "C"):
                arr = self.ex.locals[(a, b)] if kind == "L" else self.ex.common_arrays[(a, b)]
                sig.append(vector(arr.dtype))
            else:
                sig.append(vector(SCALAR_DTYPES[b]))
        unit = frame.unit
        scalar = {"i": types.int64, "r4": types.float32, "r8": types.float64, "l": types.boolean}
        sig += [scalar[ic.kind(unit.symbol(n).type)] for n in info.ins] + [vector(np.int64), vector(np.float64)]
        return sig

    def run_phase(self, info: PhaseKernelInfo, frame, region: str, scalars: tuple, data) -> tuple:
        """One execution of a phase's kernel on replicated data (``data``: an
        :class:`~autodist.runtime.spmd.inline_data.InlineData`): its scalars
        after, and the label a GO TO out of the loop goes to (-1: RETURN; 0: none)."""
        ex = self.ex
        fn = self.fns[info.function]
        arrays = [frame.a[n] for n in info.arrays]
        statics = [ex.locals[(a, b)] if k == "L" else ex.common_arrays[(a, b)]
                   for k, a, b in info.statics if k in ("L", "C")]
        data.take([(name, arr) for name, arr in [*zip(info.arrays, arrays), *((None, s) for s in statics)]
                   if not held_whole(arr)])
        args, copies = [], []
        for arr in arrays:
            v = flat(arr)
            if v is None:  # ghost cells: a copy of the interior, put back after
                v = np.asfortranarray(arr.interior).reshape(-1, order="F")
                copies.append((arr, v))
            args.append(v)
            for lo, hi in arr.bounds:
                args += [lo, hi]
            args.append(self.label(arr.label))
        static, back = self.static_args(info.statics)  # every array is whole now
        args += static + list(scalars) + [self.N, self.T]
        stats = ex.comms.stats.region(region)
        t0 = time.perf_counter()
        try:
            outs = self._call(fn, args)
        finally:
            self.copy_back(back)
            stats.compute_time += time.perf_counter() - t0
            self.credit()
        for arr, v in copies:
            arr.interior[...] = v.reshape(arr.interior.shape, order="F")
        data.restore()
        unit = frame.unit
        return tuple(converter(unit.symbol(n).type)(v) for n, v in zip(info.outs, outs)), int(outs[-1])


#: The runtime's value of an output item from the number a kernel hands over, by kind.
_OUTPUT = {"r4": np.float32, "r8": float, "l": bool}


def _type_of_kind(kind: str) -> ir.Type:
    return {"i": ir.INTEGER, "r4": ir.REAL, "r8": ir.DOUBLE, "l": ir.LOGICAL}[kind]


class ProcedureEntry:
    """A compiled unit in the executor's table of procedures: called as its Python
    translation is (``(rt, *args)`` -> ``(result?, dummy values...)``), it runs the
    kernel when it can (see the module docstring) and the translation otherwise."""

    def __init__(self, kernels: Kernels, unit: ir.Unit, python):
        self.kernels, self.unit, self.python = kernels, unit, python
        self.name = f"k_{unit.name}"
        self.seconds = 0.0  # run uncompiled so far
        self.counts = kernels.calls.setdefault(unit.name, [0, 0])
        self.one_rank_only = kernels.linked_reason(kernels.statics.of(unit.name))  # fixed for the run
        self.outs = [None if unit.symbol(d).is_array else converter(unit.symbol(d).type) for d in unit.args]
        if unit.kind == "function":
            self.outs.insert(0, converter(unit.result_type or unit.symbol(unit.result or unit.name).type))

    def _python(self, rt, actuals, why: str):
        self.counts[1] += 1
        self.kernels.python_why[self.unit.name] = why
        t0 = time.perf_counter()
        try:
            return self.python(rt, *actuals)
        finally:
            self.seconds += time.perf_counter() - t0
            if self.seconds >= self.kernels.jit.after and not self.kernels.ready.get(self.name):
                self.kernels.k.module.want(self.name)

    def _hot(self) -> bool:
        """Compile now?  Every rank must answer alike (:func:`~.engine.agreed`):
        the translation does the collectives of the callee's own mapping (its
        dummies remapped on entry) that the kernel, on storage held whole, does not."""
        k = self.kernels
        return agreed(k.jit.hot(self.seconds, k.k.module, self.name), self.counts[1] + 1, k.ex.comms.comm)

    def __call__(self, rt, *actuals):
        k = self.kernels
        if k.ready.get(self.name):  # numba could not compile it
            return self._python(rt, actuals, k.ready[self.name])
        if self.name not in k.fns and not self._hot():
            # hot enough, but the ranks decide together only at calls 1, 2, 4, 8, ...: the
            # reason a call where they did gave stands
            why = k.jit.cold_reason(self.seconds) if self.seconds < k.jit.after else \
                k.python_why.get(self.unit.name) or "not compiled yet (the ranks decide together at calls 1, 2, 4, ...)"
            return self._python(rt, actuals, why)
        why = self.one_rank_only
        if why:
            return self._python(rt, actuals, why)
        got = self._arguments(actuals)
        if got is None:
            return self._python(rt, actuals, "an array it reaches is not held whole on every rank (distributed): "
                                             "its phases run as planned")
        args, back = got
        if self.name not in k.fns:
            why = k.compile(self.name, lambda: arg_types(args))
            comm = k.ex.comms.comm
            if comm.Get_size() > 1:  # the ranks run one path
                t0 = time.perf_counter()
                failed = agreed(bool(why), 1, comm)
                # waiting here is waiting for the ranks that still compile: numba's time too
                k.jit.compile_seconds += time.perf_counter() - t0
                if failed and not why:
                    why = k.ready[self.name] = "numba could not compile it on another rank"
                    k.fns.pop(self.name, None)
            if why:
                k.k.unit_reasons[self.unit.name] = why
                return self._python(rt, actuals, why)
        try:
            got = k._call(k.fns[self.name], args)
        finally:
            k.copy_back(back)
            k.credit()
        return tuple(None if conv is None else conv(v) for conv, v in zip(self.outs, got))

    def _arguments(self, actuals):
        u, k = self.unit, self.kernels
        args: list = []
        for d, a in zip(u.args, actuals):
            sym = u.symbol(d)
            if not sym.is_array:
                args.append(a)
                continue
            if hasattr(a, "local"):  # an array (the executor's RtArray)
                base, off, key = a, 0, shape_key(a.bounds)
            elif hasattr(a, "array"):  # an element where the dummy starts (ElementRef)
                base, off, key = a.array, a.offset, 0
            else:
                return None
            if (base.ftype.base, base.ftype.size) != (sym.type.base, sym.type.size) or not held_whole(base):
                return None
            v = flat(base)
            if v is None:
                return None
            args += [v, off, k.label(base.label), key]
        static = k.static_args(k.statics.of(u.name))
        if static is None:
            return None
        return args + static[0] + [k.N, k.T], static[1]
