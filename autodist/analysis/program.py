"""The analysis of a whole program: procedures bottom-up, phases, flow, call graph."""

from __future__ import annotations

from dataclasses import replace

from .. import ir
from .callgraph import bottom_up, call_graph, check_arguments, check_recursion
from .constprop import specialize
from .knownvalues import Propagation, propagate
from .substitute import forward_substitute
from .controlflow import build_flow
from .loops import TripCounter
from .kills import KillSummary, summarize as summarize_kills
from .model import AnalysisOptions, Effects, ProcedureAnalysis, ProgramAnalysis
from .parallel import UnitContext, summarize_effects
from .phases import build_phase, find_sites
from .privatecalls import ProgramFacts


def _opaque(unit: ir.Unit) -> tuple[tuple[ir.Span, str], ...]:
    out = [(s.span, s.reason) for s in unit.opaque_decls]
    for s in unit.statements():
        if isinstance(s, ir.Opaque):
            out.append((s.span, s.reason))
        for e in s.exprs():
            for x in e.walk():
                if isinstance(x, ir.OpaqueExpr):
                    out.append((s.span, x.reason))
    return tuple(out)


def _common_readers(program: ir.Program, commons: ir.CommonLayouts) -> dict[ir.Slot, set[str]]:
    """COMMON array slot -> units that read it directly."""
    out: dict[ir.Slot, set[str]] = {}
    for u in program.units:
        used = set()
        for s in u.statements():
            for e in s.exprs():
                used |= {x.name for x in e.walk() if isinstance(x, (ir.Index, ir.Name))}
        for name in used:
            sym = u.symbol(name)
            slot = commons.slot(sym)
            if slot is not None and sym.is_array:
                out.setdefault(slot, set()).add(u.name)
    return out


def _read_elsewhere(unit: ir.Unit, readers: dict[ir.Slot, set[str]], commons: ir.CommonLayouts) -> frozenset[str]:
    out = set()
    for sym in unit.symbols:
        slot = commons.slot(sym)
        if slot is not None and readers.get(slot, set()) - {unit.name}:
            out.add(sym.name)
    return frozenset(out)


#: Rounds of constant propagation (dummies, then the variables the program
#: fixes, then the dummies their values reach, ...).
ROUNDS = 4


def _known_values(program: ir.Program, options: AnalysisOptions) -> tuple[ir.Program, Propagation]:
    """The program with constant dummies (:mod:`.constprop`) and the variables the
    program fixes (:mod:`.knownvalues`) substituted, round after round while
    either finds more; and the values found."""
    program, _ = specialize(program)
    substituted: dict = {}
    for _ in range(ROUNDS):
        new, known = propagate(program, options)
        for name, uv in known.units.items():
            substituted.setdefault(name, {}).update(uv.substituted)
        if new is program:
            break
        program, _ = specialize(new)
    for name, uv in known.units.items():
        uv.substituted.update(substituted.get(name, {}))
    return program, known


def _related(unit: ir.Unit, related: dict[str, ir.Expr] | None) -> ir.Unit:
    """``unit`` as the kill analysis reads it: its reads of related names
    (:attr:`.knownvalues.Propagation.related`) replaced by what they equal,
    and scalars set from array elements (``K = GRID_POINTS(3) - 2``)
    substituted forward."""
    if related:
        unit = ir.map_exprs(unit, lambda e: related.get(e.name, e) if isinstance(e, ir.Name) else e)
    return forward_substitute(unit, elements=True)


def analyze(program: ir.Program, options: AnalysisOptions | None = None) -> ProgramAnalysis:
    """Analyze every unit of ``program`` (callees first)."""
    options = options or AnalysisOptions()
    g = call_graph(program)
    check_recursion(program, g)
    check_arguments(program)
    program, known = _known_values(program, options)
    program = replace(program, units=tuple(forward_substitute(u) for u in program.units))
    order = bottom_up(g)
    commons = ir.common_layouts(program)
    readers = _common_readers(program, commons)
    effects: dict[str, Effects] = {}
    summaries: dict[str, KillSummary] = {}
    # the kill analysis reads sizes the main program relates (NZ2 as
    # GRID_POINTS(3) - 2), so that writes and reads bounded by either compare
    units = {u.name: _related(u, known.related.get(u.name)) for u in program.units}
    for name in order:  # what each procedure does, before loops ask about callers too
        unit = program.unit(name)
        assert unit is not None
        effects[name] = summarize_effects(unit, effects, commons)
        summaries[name] = summarize_kills(units[name], summaries, effects, commons, units)
    callers: dict[str, set[str]] = {}
    for a, b in g.edges():
        callers.setdefault(b, set()).add(a)
    facts = ProgramFacts(replace(program, units=tuple(units[u.name] for u in program.units)), summaries, effects,
                         commons, callers)
    functions = frozenset(u.name for u in program.units if u.kind == "function")
    results: dict[str, ProcedureAnalysis] = {}
    site_freq: dict[str, dict[int, float]] = {}
    for name in order:
        unit = program.unit(name)
        assert unit is not None
        uc = UnitContext(unit, effects, _read_elsewhere(unit, readers, commons), units, facts)
        counter = TripCounter(options, known.for_unit(name))
        sites = find_sites(unit.body, functions=functions)
        phases = tuple(build_phase(unit, uc, k + 1, site, counter) for k, site in enumerate(sites))
        phase_of = {id(site.stmt): k + 1 for k, site in enumerate(sites)}
        arrays_of = {p.id: p.arrays for p in phases}
        flow, freq = build_flow(unit, phase_of, arrays_of, counter)
        site_freq[name] = freq
        calls = tuple((s.name, s.span.first) for s in unit.statements() if isinstance(s, ir.Call))
        results[name] = ProcedureAnalysis(
            name=unit.name, kind=unit.kind, span=unit.span, phases=phases, flow=flow,
            opaque=_opaque(unit), calls=calls, effects=effects[name],
            trip_assumptions=counter.assumptions(unit.name),
        )
    # invocations per run, top-down from the main program (callers first)
    invocations = {n: 0.0 for n in order}
    roots = [n for n in order if g.in_degree(n) == 0]
    for r in roots:
        invocations[r] = 1.0
    for name in reversed(order):
        unit = program.unit(name)
        for s in unit.statements():  # type: ignore[union-attr]
            freq = site_freq[name].get(id(s), 0.0)
            if not freq:
                continue
            if isinstance(s, ir.Call) and s.name in invocations:
                invocations[s.name] += invocations[name] * freq
            for x in ir.external_calls(s):  # as the phases count their calls
                if x.name in invocations:
                    invocations[x.name] += invocations[name] * freq
    procedures = tuple(replace(results[u.name], invocations=invocations[u.name]) for u in program.units)
    return ProgramAnalysis(
        program=program,
        procedures=procedures,
        call_graph=tuple(sorted((a, b) for a, b in g.edges())),
        bottom_up=tuple(order),
        options=options,
        values=known.values,
    )
