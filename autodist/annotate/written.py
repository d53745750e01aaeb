"""The mapping a program's own HPF directives describe.

Used two ways: the arrays a user mapped are *constraints* for the optimizer
(their layouts are kept and the rest is chosen around them), and
``compare --as-written`` evaluates the directives as they stand (DDT: a
support tool to estimate user-selected mappings).  Executable REDISTRIBUTE
and REALIGN statements are followed through each procedure body in source
order; the layouts in force at each phase give its cost, and every control
flow transition between phases where an array's layout differs is a remap.
"""

from __future__ import annotations

from .. import ir
from ..analysis.model import ProgramAnalysis
from ..errors import HpfError
from ..hpf import model as m
from ..hpf.parse import parse_directive
from ..hpf.resolve import UnitMapping, apply_executable, resolve_unit
from ..layout.model import Layout
from ..machine import MachineProfile
from ..mapping.arrays import ArrayTable
from ..mapping.evaluate import Evaluator
from ..mapping.model import Mapping
from ..mapping.plan import PhaseDecision, RemapEvent, Solution
from ..mapping.remap import remap_cost, remap_volume


def _has_mapping(unit: ir.Unit) -> bool:
    return any(isinstance(s, ir.Directive) for s in unit.statements()) or bool(unit.directives)


def unit_mappings(program: ir.Program, nprocs: int) -> dict[str, UnitMapping]:
    """The entry mapping of every unit that has directives."""
    out = {}
    for unit in program.units:
        if _has_mapping(unit):
            out[unit.name] = resolve_unit(unit, nprocs)
    return out


def directive_notes(program: ir.Program, nprocs: int) -> list[str]:
    """What the program's own directives needed read leniently (see
    :func:`autodist.hpf.resolve.resolve_unit`), once each."""
    return list(dict.fromkeys(n for um in unit_mappings(program, nprocs).values() for n in um.notes))


def user_layouts(program: ir.Program, table: ArrayTable, nprocs: int) -> dict[str, Layout]:
    """Layouts (by global id) of the arrays the directives map explicitly and
    do not declare DYNAMIC (those the optimizer may still remap)."""
    out: dict[str, Layout] = {}
    for name, um in unit_mappings(program, nprocs).items():
        named = set(um.layouts) - set(um.replicated) - set(um.dynamic)
        for local, lay in um.layouts.items():
            if local not in named:
                continue
            gid = table.global_id(name, local)
            if gid is None:
                continue
            if gid in out and out[gid] != lay:
                continue  # declared differently in two units: keep the first
            out.setdefault(gid, lay)
    return out


def _phase_states(unit: ir.Unit, start: UnitMapping, phase_lines: dict[int, int]) -> dict[int, UnitMapping]:
    """The mapping in force when each phase starts (source order)."""
    states: dict[int, UnitMapping] = {}
    state = start

    def walk(stmts: tuple[ir.Stmt, ...]) -> None:
        nonlocal state
        for s in stmts:
            if isinstance(s, ir.Directive):
                for d in parse_directive(s):
                    if isinstance(d, (m.Redistribute, m.Realign)):
                        state = apply_executable(d, state, unit)
                continue
            pid = phase_lines.get(s.span.first)
            if pid is not None and pid not in states:
                states[pid] = state
            for block in s.blocks():
                walk(block)

    walk(unit.body)
    return states


def as_written(an: ProgramAnalysis, table: ArrayTable, machine: MachineProfile, nprocs: int,
               evaluator: Evaluator | None = None) -> Solution:
    """The program's own directives evaluated as a solution."""
    evaluator = evaluator or Evaluator(an, table, nprocs)
    program = an.program
    phases: list[PhaseDecision] = []
    remaps: list[RemapEvent] = []
    entry: list[tuple[str, Mapping]] = []
    notes: list[str] = []
    for proc in an.procedures:
        unit = program.unit(proc.name)
        try:
            start = resolve_unit(unit, nprocs)
        except HpfError:
            raise
        lines = {ph.span.first: ph.id for ph in proc.phases}
        states = _phase_states(unit, start, lines)
        layouts_at: dict[int, dict[str, Layout]] = {}
        for ph in proc.phases:
            st = states.get(ph.id, start)
            lay = {}
            for local, l in st.layouts.items():
                gid = table.global_id(proc.name, local)
                if gid is not None and local not in st.replicated:
                    lay[gid] = l
            layouts_at[ph.id] = lay
            mapping = Mapping.of({g: l for g, l in lay.items()
                                  if g in set(evaluator.phase_arrays(proc, ph).values())})
            pe = evaluator.phase(proc, ph, mapping, machine)
            phases.append(PhaseDecision(proc.name, ph.id, ph.kind, ph.span, pe.executions, mapping,
                                        pe.cost if ph.kind == "loop" else None, ph.callee))
        entry.append((proc.name, Mapping.of({table.global_id(proc.name, n) or n: l
                                             for n, l in start.layouts.items() if n not in start.replicated})))
        for local, ts in proc.flow.array_transitions:
            gid = table.global_id(proc.name, local)
            if gid is None:
                continue
            for t in ts:
                if t.source == 0 or t.target == 0:
                    continue
                a = layouts_at[t.source].get(gid)
                b = layouts_at[t.target].get(gid)
                if a is None or b is None or a == b:
                    continue
                elem = table.array(gid).elem_size
                v = remap_volume(a, b, nprocs, elem)
                once = remap_cost(a, b, nprocs, elem, machine)
                remaps.append(RemapEvent(proc.name, gid, local, t.source, t.target,
                                         t.count * proc.invocations, a, b, v.bytes, v.messages,
                                         once * t.count * proc.invocations))
        if start.unresolved:
            notes.extend(f"{proc.name}: {n}: {why}" for n, why in start.unresolved.items())
        notes.extend(n for n in start.notes if n not in notes)
    return Solution("as-written", tuple(phases), tuple(remaps), tuple(entry), method="as written", notes=tuple(notes))
