"""Run a translated program SPMD on the ranks of a communicator.

:class:`Executor` is what the generated code calls ``_rt``.  It

* translates every unit once (:mod:`autodist.runtime.codegen.units`) and
  compiles it;
* allocates the arrays statically, as a Fortran 77 compiler does: COMMON
  blocks (shared by every unit that declares them) and every unit's local
  arrays, with DATA values; layouts come from the units' HPF directives
  (:func:`autodist.hpf.resolve.resolve_unit`), arrays without directives are
  replicated on every rank (:mod:`.static_storage`);
* on each procedure entry binds the dummy arrays to the actual arguments and
  moves every array to the layout the procedure's directives prescribe (a
  dummy or COMMON array without directives keeps its caller's layout), and
  restores the caller's layouts on return (HPF semantics);
* executes REDISTRIBUTE and REALIGN where they stand (a remap of each array
  whose layout changes);
* runs each loop phase through :mod:`autodist.runtime.spmd.planner`: distributed
  (owner computes, the data each rank needs received first), pipelined in
  rank order, or on replicated data;
* calls the routines of the ``--link`` libraries, replicated
  (:mod:`autodist.runtime.spmd.linked`);
* writes the program's output on rank 0, and counts communication and time
  per region (phase, remap) in :class:`~autodist.runtime.comm.stats.CommStats`.

Scalars are replicated: every rank runs every statement outside phases.
An element of a distributed array read outside a phase is broadcast by its
owner; one written there is stored by the ranks that hold it.
"""

from __future__ import annotations

import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import BinaryIO, Callable, TextIO

import numpy as np

from ... import ir
from ...analysis.model import Phase, ProgramAnalysis
from ...errors import STAGE_ATTRIBUTE, AutodistError, RuntimeFault, UnsupportedError, stage_of
from ...hpf.resolve import UnitMapping, apply_executable, resolve_unit
from ...layout.model import Layout, replicated
from ..fortran import intrinsics as it
from ..fortran.foreign import Foreign
from ..comm.storage import numpy_dtype
from .arrays import Comms, ElementRef, RtArray
from .data import int_value
from .copies import CopiedActuals
from .dummies import bytes_of, character_dummy, dummy_bounds
from .routines import check_routines, linked_routines, run_extensions
from .shared_storage import Slots, Storages
from .static_storage import StaticStorage
from .io import UnitIo
from .linked import LinkedCalls
from ..fortran.files import FileTable
from ..fortran.input import IoCondition
from ..codegen.generated import GENERATED_HELPERS, StopProgram
from ..codegen.facts import ProgramFacts, program_facts
from ..codegen.units import Translation, translate_unit



@dataclass(frozen=True)
class RunOptions:
    """How to run: ``vectorize`` lets phases use the vectorized fast path,
    ``distribute`` lets them run on the ranks' parts (else on replicated
    data), ``instrument`` counts loop trips and branches (profiling), ``jit``
    runs compiled kernels where numba can (:mod:`autodist.runtime.jit`)."""

    vectorize: bool = True
    distribute: bool = True
    instrument: bool = False
    ghost_limit: int = 8
    jit: bool = True
    jit_after: float | None = None  # seconds uncompiled before a kernel is compiled (None: the default)
    pipeline_blocks: int | None = None  # blocks a pipelined phase runs in (None: per rank count; 1: whole)


@dataclass
class Frame:
    """One activation of a unit."""

    unit: ir.Unit
    mapping: UnitMapping | None
    a: dict[str, RtArray]
    restore: list[tuple[RtArray, Layout]] = field(default_factory=list)
    copyout: list[tuple[RtArray, object]] = field(default_factory=list)
    saved: list = field(default_factory=list)
    commons: dict[str, list] = field(default_factory=dict)
    equivalenced: Slots | None = None  # the unit's EQUIVALENCEd scalars outside COMMON

    def common(self, name: str) -> list:
        return self.commons[name]


class _CallPhase:
    """Adds the time of a call (the callee's own phases included, what
    :meth:`Executor.aside_seconds` counts not) to a region."""

    def __init__(self, stats, region: str, aside):
        self.stats, self.region, self.aside = stats, region, aside

    def __enter__(self):
        self.t0 = time.perf_counter()
        self.a0 = self.aside()

    def __exit__(self, *exc):
        self.stats.region(self.region).compute_time += time.perf_counter() - self.t0 - (self.aside() - self.a0)


class Executor(StaticStorage, UnitIo, CopiedActuals):
    """Runs one program on the ranks of ``comm`` (see the module docstring)."""

    def __init__(self, program: ir.Program, analysis: ProgramAnalysis, comm, options: RunOptions = RunOptions(),
                 out: TextIO | None = None, profiler=None, translations: dict[str, Translation] | None = None,
                 foreign: Foreign | None = None, stdin: Callable[[], BinaryIO | None] | None = None):
        self.program = program
        self.analysis = analysis
        self.options = options
        self.comms = Comms(comm)
        self.nprocs = self.comms.size
        self.rank = self.comms.rank
        self.out = out if out is not None else sys.stdout
        self.files = FileTable(stdin if stdin is not None else lambda: sys.stdin.buffer)
        self.profiler = profiler
        self.linked = LinkedCalls(foreign, self.comms)
        self.facts: ProgramFacts = program_facts(program, analysis, linked_routines(program, foreign))
        self.units = {u.name: u for u in program.units}
        self.phases: dict[tuple[str, int], Phase] = {}
        for proc in analysis.procedures:
            for ph in proc.phases:
                if ph.kind == "loop":
                    self.phases[(proc.name, ph.span.first)] = ph
        self.translations: dict[str, Translation] = {}
        self.functions: dict[str, object] = {}
        self.linemaps: dict[str, dict[int, tuple[str, int]]] = {}
        self.entry_mappings: dict[str, UnitMapping] = {}
        self.resolved: dict[tuple, UnitMapping] = {}  # a unit's mapping on entry, by actual layouts and values
        self.saved: dict[str, list] = {}
        self.commons: dict[str, list] = {}
        self.common_arrays: dict[tuple[str, int], RtArray] = {}
        self.locals: dict[tuple[str, str], RtArray] = {}
        self.automatic: dict[str, list[ir.Symbol]] = {}  # unit -> its automatic arrays (bounds known on entry)
        self.storages = Storages(self.facts.storage)  # storage association: byte buffers
        self.associated: dict[str, dict[str, RtArray]] = {}  # unit -> its arrays over those buffers
        self.block_slots: dict[tuple[str, str], Slots] = {}  # (unit, block) -> scalars of an associated block
        self.equivalenced: dict[str, Slots] = {}  # unit -> its EQUIVALENCEd scalars outside COMMON
        self.labels: dict[int, str] = {}  # id(RtArray) -> UNIT.NAME for dumps
        self.phase_modes: dict[str, tuple[str, str, tuple[str, ...]]] = {}
        self.phase_paths: dict[str, list] = {}  # region -> [{path: executions}, why not compiled]
        self.jit, self.jit_off = _jit_engine(options)
        self.remap_log: dict[str, tuple[str, int, str, str, str]] = {}
        self.kept_replicated: dict[str, str] = {}  # UNIT.ARRAY -> why its directives were not applied
        self.predicted: dict[str, list[int]] = {}  # phase region -> elements each rank must receive
        self.executions: dict[str, int] = {}  # region -> times it ran
        self.ext = run_extensions(self)
        self._translate(translations)
        from .planner import Planner

        self.planner = Planner(self)
        self._check_mappings()

    # ---------------------------------------------------------------- setup

    def _translate(self, given: dict[str, Translation] | None) -> None:
        for u in self.program.units:
            if u.kind == "blockdata":
                continue
            if given is not None and u.name in given:
                tr = given[u.name]
            else:
                tr = translate_unit(u, self.facts, phase_lines(self.analysis, u.name), self.options.instrument,
                                    phase_lines(self.analysis, u.name, "call"))
            self.translations[u.name] = tr
            filename = f"<autodist {u.name}>"
            ns = {**it.HELPERS, **GENERATED_HELPERS, "_U": self.functions, "_FMT": tr.formats,
                  "_IoCondition": IoCondition}
            exec(compile(tr.source, filename, "exec"), ns)
            self.functions[u.name] = ns[tr.function]
            self.linemaps[filename] = tr.linemap
        self.kernels = self._kernels()
        if self.program.main is None:
            raise UnsupportedError("the program has no main program unit", self.program.files[0] if self.program.files else None)

    def _kernels(self):
        """The compiled kernels of the program (:mod:`autodist.runtime.jit`), the
        compiled units standing in the table of procedures; None without them."""
        if self.jit is None or self.program.main is None:
            return None
        from ..jit.entries import Kernels, ProcedureEntry
        from ..jit.program import build

        built = build(self.program, self.analysis, self.facts, {n: tr.saved for n, tr in self.translations.items()},
                      self.options.vectorize)
        kernels = Kernels(self, self.jit, built)
        for name, why in built.unit_reasons.items():
            if not why and name in self.functions:
                self.functions[name] = ProcedureEntry(kernels, self.units[name], self.functions[name])
        return kernels

    def _check_mappings(self) -> None:
        """Resolve every unit's directives now, so that a bad directive is an
        error before anything runs."""
        for u in self.program.units:
            if u.kind == "blockdata":
                continue
            self.entry_mappings[u.name] = resolve_unit(u, self.nprocs)

    # ---------------------------------------------------------------- running

    def run(self) -> int | str | None:
        """Run the main program; returns the STOP code (None at END)."""
        self._setup_storage()
        main = self.program.main
        old = np.seterr(all="ignore")
        try:
            self.functions[main.name](self)
            return None
        except StopProgram as stop:
            return stop.code if stop.code is not None else None
        except AutodistError as exc:
            raise self._located(exc, exc) from None
        except (ZeroDivisionError, OverflowError) as exc:  # the program's arithmetic
            raise self._located(RuntimeFault(_describe(exc)), exc) from None
        except Exception as exc:  # a bug of the runtime: say where in the program it struck
            where = self._where(exc)
            if where is not None and stage_of(exc) is None:
                setattr(exc, STAGE_ATTRIBUTE, f"run, at {where[0]}:{where[1]}")
            raise
        finally:
            np.seterr(**old)
            self.out.flush()
            if self.rank == 0:
                self.files.close_all()

    def _where(self, exc: BaseException) -> tuple[str, int] | None:
        """The Fortran ``(file, line)`` running when ``exc`` was raised."""
        where = None
        for frame, lineno in traceback.walk_tb(exc.__traceback__):
            lm = self.linemaps.get(frame.f_code.co_filename)
            if lm is not None and lineno in lm:
                where = lm[lineno]
        return where

    def _located(self, error: AutodistError, raised: BaseException) -> AutodistError:
        """``error`` with the Fortran ``file:line`` where ``raised`` happened."""
        if error.file and error.line:
            return error
        where = self._where(raised)
        if where is None:
            return error
        return type(error)(error.message, where[0], where[1])

    # ---------------------------------------------------------------- procedure entry and exit

    def enter(self, name: str, array_args: tuple, values: dict) -> Frame:
        unit = self.units[name]
        commons = {c.name: self._block(name, c.name) for c in unit.commons}
        a: dict[str, RtArray] = dict(self.associated.get(name, {}))
        frame = Frame(unit, None, a, saved=self.saved.get(name, []), commons=commons,
                      equivalenced=self.equivalenced.get(name))
        for c in unit.commons:
            for k, m in enumerate(c.members):
                if (c.name, k) in self.common_arrays:
                    a[m] = self.common_arrays[(c.name, k)]
        for sym in unit.arrays:
            if (name, sym.name) in self.locals:
                a[sym.name] = self.locals[(name, sym.name)]
        env = dict(values)
        for m, blk, k in _common_ints(unit, commons):
            env.setdefault(m, blk[k])
        for dname, actual in array_args:
            a[dname] = self._bind_dummy(unit, dname, actual, env, frame)
        actuals = {n: arr.layout for n, arr in a.items() if n in unit.args}
        if name == self.program.main.name:
            mapping = self.entry_mappings[name]
        else:
            key = (name, tuple(sorted(actuals.items())), tuple(sorted(env.items())))
            mapping = self.resolved.get(key)
            if mapping is None:
                mapping = self.resolved[key] = resolve_unit(unit, self.nprocs, actuals=actuals, values=env)
        frame.mapping = mapping
        for sym in self.automatic.get(name, ()):
            a[sym.name] = self._automatic_array(unit, sym, env, mapping, a)
        dummies = set(unit.args)
        cm = {m for c in unit.commons for m in c.members}
        for n, arr in a.items():
            target = self._target_layout(mapping, n, arr, n in dummies or n in cm)
            if target is not None and target != arr.layout:
                frame.restore.append((arr, arr.layout))
                arr.remap(target, region=f"entry {name}")
        return frame

    def _target_layout(self, mapping: UnitMapping, name: str, arr: RtArray, inherits: bool) -> Layout | None:
        if arr.dtype.kind == "S" or arr.fixed:  # CHARACTER (see static_storage.is_character) and storage-associated arrays
            return None                          # stay replicated
        if name in mapping.replicated or name in mapping.unresolved or name not in mapping.arrays:
            return None if inherits else replicated(arr.bounds)
        try:
            lay = mapping.layout(name)
        except KeyError:
            return None
        if lay.bounds != arr.bounds:
            return None
        return lay

    def _automatic_array(self, unit: ir.Unit, sym: ir.Symbol, env: dict, mapping: UnitMapping,
                         arrays: dict[str, RtArray]) -> RtArray:
        """A fresh automatic array: its bounds from the dummies, COMMON scalars
        and elements of the arrays bound so far (``L(IA(N+1)+1)``) on entry, in
        the layout its directives give it there."""
        where = sym.span or unit.span

        def known(e: ir.Expr) -> ir.Expr:
            def element(x: ir.Expr) -> ir.Expr:
                if isinstance(x, ir.Index) and x.name in arrays:  # read on every rank alike
                    value = arrays[x.name].g(*(int_value(i, env) for i in x.subscripts))
                    return ir.Const(value, ir.INTEGER) if type(value) is int else x
                return x
            return ir.map_exprs(e, element)

        try:
            bounds = tuple((int_value(known(d.lower), env), int_value(known(d.upper), env)) for d in sym.dims or ())
        except RuntimeFault:
            raise UnsupportedError(f"the bounds of automatic array {sym.name} (only INTEGER dummies, COMMON "
                                   f"scalars, INTEGER array elements and constants)", where.file, where.first) from None
        lay = None
        if sym.type.base != "character" and sym.name in mapping.arrays and sym.name not in mapping.replicated \
                and sym.name not in mapping.unresolved:
            try:
                lay = mapping.layout(sym.name)
            except KeyError:
                lay = None
            if lay is not None and lay.bounds != bounds:
                lay = None
        return RtArray(sym.name, sym.type, bounds, lay, self.comms, label=f"{unit.name}.{sym.name}")

    def _bind_dummy(self, unit: ir.Unit, dname: str, actual, env: dict, frame: Frame) -> RtArray:
        sym = unit.symbol(dname)
        if isinstance(actual, RtArray):
            base, offset = actual, 0
        elif isinstance(actual, ElementRef):
            base, offset = actual.array, actual.offset
        else:
            raise RuntimeFault(f"{unit.name}: dummy array {dname} received something that is not an array")
        dtype = sym.type
        if dtype.base == "character" or base.ftype.base == "character":
            dtype = character_dummy(unit, dname, dtype, base.ftype)
        # storage association counts bytes: a COMPLEX actual holds two REALs a dummy
        # sees, a CHARACTER*8 one two CHARACTER*4 elements (NPB FT passes COMPLEX
        # arrays to REAL dummies); the element's bits are kept, never converted
        size_b, size_d = base.dtype.itemsize, numpy_dtype(dtype).itemsize
        start, available = offset * size_b, (base.size - offset) * size_b
        bounds = dummy_bounds(sym, env, available // size_d, stretch=self.facts.stretches(unit.name, dname))
        need = 1
        for lo, hi in bounds:
            need *= max(hi - lo + 1, 0)
        if isinstance(actual, RtArray) and bounds == actual.bounds and dtype == actual.ftype:
            return actual
        # copy in now, copy out on return.  A dummy declared larger than what its
        # actual holds from there on (legacy codes round work arrays up, as NPB LU's
        # BUTS does) gets the actual's bytes and zeros after them; only the actual's
        # bytes go back, and of those only the ones the call changed (two dummies
        # may overlap in one actual: each gives back its own stores)
        held = min(need * size_d, available)
        piece = np.zeros(need * size_d, np.uint8)
        piece[:held] = bytes_of(base.full())[start:start + held]
        dummy = RtArray(dname, dtype, bounds, None, self.comms, label=f"{unit.name}.{dname}")
        dummy.keep_part(piece.view(dummy.dtype).reshape([hi - lo + 1 for lo, hi in bounds], order="F"))
        frame.copyout.append((dummy, (base, start, held, piece[:held].copy())))
        return dummy

    def leave(self, frame: Frame) -> None:
        for arr, layout in reversed(frame.restore):
            arr.remap(layout, region=f"exit {frame.unit.name}")
        stored: dict[int, np.ndarray] = {}  # id(base) -> the bytes dummies gave back so far
        for dummy, (base, start, held, original) in frame.copyout:
            whole = base.full()
            flat = bytes_of(whole)
            given = bytes_of(dummy.full())
            if given.size > held and np.any(given[held:]):
                raise RuntimeFault(f"{frame.unit.name} wrote into dummy {dummy.name} past the end of its actual "
                                   f"argument {base.label} ({held // dummy.dtype.itemsize} element(s) from there on)")
            changed = given[:held] != original
            mask = stored.setdefault(id(base), np.zeros(flat.size, bool))
            clash = changed & mask[start:start + held] & (flat[start:start + held] != given[:held])
            if clash.any():
                raise RuntimeFault(f"{frame.unit.name} defined the same storage of {base.label} through two dummy "
                                   f"arguments, {dummy.name} and another (Fortran forbids defining a dummy "
                                   f"associated with another one; the result would depend on the order)")
            mask[start:start + held] |= changed
            flat[start:start + held][changed] = given[:held][changed]
            base.keep_part(flat.view(base.dtype).reshape(whole.shape, order="F"))

    def element(self, array: RtArray, index: tuple[int, ...]) -> ElementRef:
        array._check(index)
        return ElementRef(array, index)

    # ---------------------------------------------------------------- directives

    def directive(self, frame: Frame, k: int) -> None:
        d = self.translations[frame.unit.name].directives[k]
        before = frame.mapping
        after = apply_executable(d, before, frame.unit)
        frame.mapping = after
        line = d.span.first if d.span else 0
        for name, arr in frame.a.items():
            try:
                old, new = before.layout(name), after.layout(name)
            except KeyError:
                continue
            if old != new and new.bounds == arr.bounds and arr.dtype.kind != "S" and not arr.fixed:
                region = f"remap {frame.unit.name}:{line} {name}"
                self.remap_log.setdefault(region, (frame.unit.name, line, name, old.distribute_str(),
                                                   new.distribute_str()))
                self.executions[region] = self.executions.get(region, 0) + 1
                arr.remap(new, region=region)

    # ---------------------------------------------------------------- phases

    def phase(self, frame: Frame, line: int):
        from .phaserun import PhaseRun

        return PhaseRun.start(self, frame, line)

    def call_phase(self, frame: Frame, line: int) -> "_CallPhase":
        """Counts an execution of a call phase and its time, callee included."""
        proc = self.analysis.procedure(frame.unit.name)
        pid = next(ph.id for ph in proc.phases if ph.kind == "call" and ph.span.first == line)
        region = f"{frame.unit.name}:{pid}"
        self.executions[region] = self.executions.get(region, 0) + 1
        self.phase_modes.setdefault(region, ("call", "", ()))
        return _CallPhase(self.comms.stats, region, self.aside_seconds)

    def record_path(self, region: str, path: str, why: str, executions: int = 1) -> None:
        """Count executions of a phase by the path they took ("jit", "numpy",
        "inline"), and why the last uncompiled one was not compiled."""
        rec = self.phase_paths.setdefault(region, [{}, ""])
        rec[0][path] = rec[0].get(path, 0) + executions
        if path != "jit":
            rec[1] = why

    # ---------------------------------------------------------------- output

    # ---------------------------------------------------------------- profiling hooks

    def loop(self, file: str, line: int, trips) -> None:
        self.profiler.loop(file, line, trips)

    def trip(self, file: str, line: int) -> None:
        self.profiler.trip(file, line)

    def branch(self, file: str, line: int, taken) -> bool:
        return self.profiler.branch(file, line, taken)

    # ---------------------------------------------------------------- results

    def aside_seconds(self) -> float:
        """Seconds so far that are not the program's: numba's (compiling, loading
        kernels) and the planning of phases (see the run report's ``seconds``)."""
        return (self.jit.compile_seconds if self.jit is not None else 0.0) + self.planner.seconds

    def arrays(self) -> dict[str, RtArray]:
        """Every array of the program by ``UNIT.NAME`` (COMMON arrays once,
        under the first unit that declares them, the main program first)."""
        out = {}
        for arr in self.common_arrays.values():
            out[arr.label] = arr
        for arr in self.locals.values():
            out[arr.label] = arr
        for arrays in self.associated.values():
            out.update((arr.label, arr) for arr in arrays.values())
        return dict(sorted(out.items()))

    def gather_arrays(self, root: int | None = 0) -> dict[str, np.ndarray] | None:
        """The final values of every array, whole, on ``root`` (every rank
        when None; None elsewhere).  A collective."""
        out = {k: a.full(region="dump", root=root) for k, a in self.arrays().items()}
        return out if root is None or self.rank == root else None


# --------------------------------------------------------------------------- helpers


def phase_lines(analysis: ProgramAnalysis, unit: str, kind: str = "loop") -> set[int]:
    """First lines of the loop (or call) phases of ``unit``."""
    return {ph.span.first for ph in analysis.procedure(unit).phases if ph.kind == kind}


def translate_program(program: ir.Program, analysis: ProgramAnalysis, instrument: bool = False,
                      foreign: Foreign | None = None) -> dict[str, Translation]:
    """Every unit's translation, calling the routines of ``foreign`` (the
    ``--link`` libraries) where the program calls them (raises
    :class:`UnsupportedError` for a construct outside the runtime's subset,
    before anything runs)."""
    if program.main is None:
        raise UnsupportedError("the program has no main program unit",
                               program.files[0] if program.files else None)
    facts = program_facts(program, analysis, check_routines(program, foreign))
    return {u.name: translate_unit(u, facts, phase_lines(analysis, u.name), instrument,
                                   phase_lines(analysis, u.name, "call"))
            for u in program.units if u.kind != "blockdata"}


def _jit_engine(options: RunOptions):
    """The compiled execution of a run and, when there is none, why."""
    if not options.jit:
        return None, "compiled execution turned off (--no-jit)"
    if options.instrument:
        return None, "an instrumented (profiling) run"
    from ..jit.compiler import numba_missing

    missing = numba_missing()
    if missing:
        return None, missing
    from ..jit.engine import Jit

    return Jit(options.jit_after), ""


def _common_ints(unit: ir.Unit, commons: dict[str, list]):
    for c in unit.commons:
        for k, m in enumerate(c.members):
            sym = unit.symbol(m)
            if sym is not None and not sym.is_array and sym.type.base == "integer":
                yield m, commons[c.name], k


def _describe(exc: BaseException) -> str:
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    return f"arithmetic overflow ({exc})"
