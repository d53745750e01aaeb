"""The compiled kernels of one program: which units and phases, written as one module.

:func:`build` decides what compiles (:mod:`.eligible`), writes a kernel for
every compiled unit and for every loop phase that needs no Python
(:mod:`.units`), gives up on a unit whose kernel cannot be written (and so on
its callers, until nothing changes), and loads the module (:mod:`.compiler`);
numba compiles each kernel when it first runs.  The result,
:class:`ProgramKernels`, says for every unit and phase whether it has a
kernel, and why not.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ... import ir
from ...errors import UnsupportedError
from ..codegen.scan import arrays_of
from ..codegen.vectorize import private_ranges, shape_of
from . import compiler
from .check import foreign_names
from .eligible import own_reason, statements_reason, unit_reasons
from .expr import chain_source
from .statics import Statics
from .kernelmodule import KernelModule, NotCompiled
from .units import KernelTranslator


@dataclass(frozen=True)
class PhaseKernelInfo:
    """The kernel of one loop phase: its function, arrays, scalars and static storage."""

    function: str
    arrays: tuple[str, ...]
    ins: tuple[str, ...]
    outs: tuple[str, ...]
    statics: tuple


@dataclass
class ProgramKernels:
    """What :func:`build` made (see the module docstring)."""

    module: compiler.Module | None
    mod: KernelModule
    unit_reasons: dict[str, str]  # "" for a compiled unit
    phases: dict[tuple[str, int], PhaseKernelInfo] = field(default_factory=dict)
    phase_reasons: dict[tuple[str, int], str] = field(default_factory=dict)


def _lines(analysis, unit: str, kind: str) -> set[int]:
    return {ph.span.first for ph in analysis.procedure(unit).phases if ph.kind == kind}


def _fast_lines(unit: ir.Unit, analysis, facts) -> set[int]:
    """The loop phases of ``unit`` the Python path runs vectorized (their faults
    name arrays as the vectorized code does)."""
    proc = analysis.procedure(unit.name)
    privates = private_ranges(proc.phases)
    out = set()
    for ph in proc.phases:
        if ph.kind == "loop":
            do = next(s for s in unit.statements() if isinstance(s, ir.Do) and s.span.first == ph.span.first)
            if shape_of(unit, ph, do, facts, privates).fast:
                out.add(ph.span.first)
    return out


def build(program: ir.Program, analysis, facts, saved: dict[str, tuple[str, ...]],
          vectorize: bool = True) -> ProgramKernels:
    units = {u.name: u for u in program.units if u.kind != "blockdata"}
    phase_ids = {(p.name, ph.span.first): ph.id for p in analysis.procedures for ph in p.phases}
    failed: dict[str, str] = {}
    while True:
        reasons = unit_reasons(program, facts, failed)
        compiled = {n for n in units if not reasons.get(n)}
        mod = KernelModule(facts, Statics(program, facts, saved, compiled), phase_ids)
        sources: list[str] = []
        new: dict[str, str] = {}
        for name in sorted(compiled):
            fast = _fast_lines(units[name], analysis, facts) if vectorize else set()
            tr = KernelTranslator(units[name], mod, _lines(analysis, name, "loop"), _lines(analysis, name, "call"), fast)
            why, src = _written(tr.translate_unit, compiled, mod)
            if why:
                new[name] = why
            else:
                sources.append(src)
        if not new:
            break
        failed.update(new)
    out = ProgramKernels(None, mod, reasons)
    for name, u in units.items():
        own = own_reason(u, facts)
        for line in sorted(_lines(analysis, name, "loop")):
            do = next(s for s in u.statements() if isinstance(s, ir.Do) and s.span.first == line)
            why = own or statements_reason((do,), u, facts, reasons)
            if not why:
                arrays = arrays_of((do,), u)
                tr = KernelTranslator(u, mod)
                why, got = _written(lambda: tr.translate_phase(do, list(arrays)), compiled, mod)
                if not why:
                    src, ins, outs, statics = got
                    sources.append(src)
                    out.phases[(name, line)] = PhaseKernelInfo(f"p_{name}_{line}", arrays, ins, outs, statics)
            if why:
                out.phase_reasons[(name, line)] = why
    chains = "".join(chain_source(n) + "\n" for n in sorted(mod.chains))
    out.module = compiler.Module(chains + "\n".join(sources))
    return out


def _written(write, compiled: set[str], mod: KernelModule):
    """``(why not, None)`` or ``("", what write() returned)``, the source checked
    for what kernels do not have."""
    try:
        got = write()
    except (NotCompiled, UnsupportedError) as exc:
        return (exc.message if isinstance(exc, UnsupportedError) else str(exc)), None
    src = got if isinstance(got, str) else got[0]
    known = frozenset({f"k_{n}" for n in compiled} | {f"_pow{n}" for n in mod.chains})
    bad = foreign_names(src, known)
    if bad:
        return f"the kernel would need {', '.join(bad)}", None
    return "", got
