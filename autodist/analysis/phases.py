"""Phases (DDT §2) and their summaries.

A phase is the outermost DO loop of a nest whose control variable subscripts an
array, or a CALL outside such a loop.  Loops whose variable subscripts no
array (an iteration counter such as ``DO ITER = 1, NITER``), DO WHILE loops and
IF blocks are control structures: phases are looked for inside them.
Remapping is allowed only between phases.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .. import ir
from .loops import Ctx, TripCounter, walk_ctx
from .controlflow import inner_call_sites
from .model import Access, InnerCall, LoopInfo, Phase, RefPattern
from .ops import flops, loads
from .parallel import UnitContext, classify_loop
from .recurrence import chain_latency
from .scalars import reduction_form


@dataclass(frozen=True)
class PhaseSite:
    """Where a phase stands: its statement and the loops/conditions around it."""

    stmt: ir.Stmt
    loops: tuple[ir.Do, ...]


def subscripts_with(var: str, stmts: tuple[ir.Stmt, ...]) -> bool:
    """Does ``var`` appear in a subscript of an array reference in ``stmts``?"""
    for s in ir.walk(stmts):
        for e in s.exprs():
            for x in e.walk():
                if isinstance(x, ir.Index):
                    for sub in x.subscripts:
                        if any(isinstance(y, ir.Name) and y.name == var for y in sub.walk()):
                            return True
    return False


def find_sites(stmts: tuple[ir.Stmt, ...], loops: tuple[ir.Do, ...] = (),
               functions: frozenset[str] = frozenset()) -> list[PhaseSite]:
    """Phase statements in source order: loop nests, CALLs, and the
    assignments and I/O statements outside them that reference one of the
    program's ``functions``, and the IF statements whose conditions do."""
    out: list[PhaseSite] = []
    for s in stmts:
        if isinstance(s, ir.Do):
            if subscripts_with(s.var, s.body):
                out.append(PhaseSite(s, loops))
            else:
                out.extend(find_sites(s.body, loops + (s,), functions))
        elif isinstance(s, ir.DoWhile):
            out.extend(find_sites(s.body, loops, functions))
        elif isinstance(s, ir.If):
            if functions and function_refs(s, functions):  # its conditions call the program's functions
                out.append(PhaseSite(s, loops))
            for b in s.branches:
                out.extend(find_sites(b.body, loops, functions))
        elif isinstance(s, ir.Call):
            out.append(PhaseSite(s, loops))
        elif isinstance(s, (ir.Assign, ir.Io)) and functions and function_refs(s, functions):
            out.append(PhaseSite(s, loops))
    return out


def function_refs(s: ir.Stmt, functions: frozenset[str]) -> list[ir.FuncRef]:
    """The references of statement ``s`` itself to the program's ``functions``."""
    return [x for x in ir.external_calls(s) if x.name in functions]


def _access(x: ir.Index, write: bool, line: int, loops: tuple[str, ...]) -> Access:
    return Access(x.name, tuple(ir.affine(s) for s in x.subscripts), write, line, loops)


def _array_reads(e: ir.Expr, uc: UnitContext, line: int, loops: tuple[str, ...]) -> list[Access]:
    """Array element reads in ``e``; an array passed to an external function
    (whole, or from an element on) is read with unknown subscripts."""
    out = []
    for x in e.walk():
        if isinstance(x, ir.Index) and uc.is_array(x.name):
            out.append(_access(x, False, line, loops))
        elif isinstance(x, ir.FuncRef) and x.kind == "external":
            for a in x.args:
                if isinstance(a, (ir.Name, ir.Index)) and uc.is_array(a.name):
                    rank = uc.unit.symbol(a.name).rank  # type: ignore[union-attr]
                    out.append(Access(a.name, (None,) * rank, False, line, loops))
    return out


def _output_reads(e: ir.Expr, uc: UnitContext, line: int, loops: tuple[str, ...],
                  implied: tuple = ()) -> list[Access]:
    """Array element reads of an item of an output list, each with the implied
    DO loops around it (so that ``(V(K, J), K = 2, 9)`` reads 8 elements of a
    column, not any element of it)."""
    if not isinstance(e, ir.ImpliedDo):
        reads = _array_reads(e, uc, line, loops)
        return [dataclasses.replace(a, implied=implied) for a in reads] if implied else reads
    out = [a for b in (e.start, e.end, e.step) if b is not None for a in _output_reads(b, uc, line, loops, implied)]
    step = 1 if e.step is None else ir.constant(e.step)
    inner = implied + ((e.var, ir.affine(e.start), ir.affine(e.end), step or None),)
    for item in e.items:
        out.extend(_output_reads(item, uc, line, loops, inner))
    return out


def _branch_weight(ctx: Ctx, counter: TripCounter) -> float:
    """Probability-weighted share of executions of a statement under IFs."""
    if not ctx.conditional:
        return 1.0
    return counter.options.branch_probability ** max(1, len(ctx.conds))


def common_names(unit: ir.Unit, slot: ir.Slot) -> tuple[str, ...]:
    """The caller's names for a COMMON array: its own declaration when it has
    one (every member of the block for the whole block), else ``/BLOCK/k``
    (the k-th item of the block) or ``/BLOCK/`` (the whole block)."""
    block, k = slot
    whole = k == ir.WHOLE_BLOCK
    names = tuple(sym.name for sym in unit.symbols
                  if sym.common == block and (whole or sym.common_index == k))
    return names or (f"/{block}/" if whole else f"/{block}/{k}",)


def call_arrays(unit: ir.Unit, uc: UnitContext, args: tuple[ir.Expr, ...], callee) -> tuple[list[str], list[str]]:
    """Arrays (caller's names) a call with ``args`` may read and write: array
    arguments and the COMMON arrays the callee (transitively) uses."""
    reads: list[str] = []
    writes: list[str] = []
    for k, a in enumerate(args):
        if isinstance(a, (ir.Name, ir.Index)) and uc.is_array(a.name):
            if callee is None or k in callee.reads_args or k in callee.writes_args:
                reads.append(a.name)
            if callee is None or k in callee.writes_args:
                writes.append(a.name)
    if callee is not None:
        for slot in sorted(callee.reads_common | callee.writes_common_slots):
            for name in common_names(unit, slot):
                if name.startswith("/") or uc.is_array(name):
                    reads.append(name)
                    if slot in callee.writes_common_slots:
                        writes.append(name)
    return list(dict.fromkeys(reads)), list(dict.fromkeys(writes))


def _per_execution(counter: TripCounter, outer: tuple[ir.Do, ...], inner: tuple[ir.Do, ...]) -> float:
    """Executions of the body of ``inner`` per execution of the phase, averaged
    over the iterations of the control loops ``outer`` around the phase."""
    if not inner:
        return 1.0
    runs = counter.count(outer)
    return counter.count(outer + inner) / runs if runs else 0.0


def build_phase(unit: ir.Unit, uc: UnitContext, pid: int, site: PhaseSite, counter: TripCounter,
                branch_prob: dict[int, float] | None = None) -> Phase:
    """Summarize one phase: loops with their parallelism, reference patterns, counts."""
    stmt = site.stmt
    outer_vars = tuple(lp.var for lp in site.loops)
    if isinstance(stmt, ir.Call):
        accesses = []
        callee = uc.effects.get(stmt.name)
        reads, writes = call_arrays(unit, uc, stmt.args, callee)
        for a in stmt.args:
            for x in a.walk():
                if isinstance(x, ir.Index) and uc.is_array(x.name):
                    accesses.append(_access(x, False, stmt.span.first, outer_vars))
        return Phase(
            unit=unit.name, id=pid, kind="call", span=stmt.span, loops=(), patterns=(),
            accesses=tuple(accesses), reads=tuple(dict.fromkeys(reads)),
            writes=tuple(dict.fromkeys(writes)), flops=0.0, memory_accesses=0.0,
            callee=stmt.name, call_args=stmt.args, inner_calls=_statement_calls(stmt, uc),
        )
    if not isinstance(stmt, ir.Do):
        return _function_phase(unit, uc, pid, site)

    loops: list[LoopInfo] = []
    patterns: list[RefPattern] = []
    accesses: list[Access] = []
    calls: list[str] = []
    opaque: list[str] = []
    total_flops = 0.0
    total_mem = 0.0
    root_ctx = Ctx(stmt, site.loops, ())
    for ctx in [root_ctx, *walk_ctx(stmt.body, site.loops + (stmt,))]:
        s = ctx.stmt
        in_phase = ctx.loops[len(site.loops):]  # loops of the phase around s
        loop_vars = tuple(lp.var for lp in ctx.loops)
        line = s.span.first
        if isinstance(s, ir.Do):
            depth = len(in_phase)
            parent = in_phase[-1].span.first if in_phase else None
            # averaged over the control loops around the phase (bounds may use their variables)
            trip = counter.average_trips(site.loops + in_phase, s)
            iters = _per_execution(counter, site.loops, in_phase + (s,))
            info = classify_loop(s, ctx.loops, uc, depth, parent, trip, counter.known(s), iters)
            loops.append(dataclasses.replace(info, **counter.describe(s)))
        count = _per_execution(counter, site.loops, in_phase) * _branch_weight(ctx, counter)
        lines = tuple(lp.span.first for lp in in_phase)
        if isinstance(s, ir.Assign):
            value_reads = _array_reads(s.value, uc, line, loop_vars)
            rhs = list(value_reads)
            for c in ctx.conds:
                rhs.extend(_array_reads(c, uc, line, loop_vars))
            mem = len(value_reads)
            lhs = None
            lhs_scalar = None
            if isinstance(s.target, ir.Index) and uc.is_array(s.target.name):
                lhs = _access(s.target, True, line, loop_vars)
                for sub in s.target.subscripts:
                    sub_reads = _array_reads(sub, uc, line, loop_vars)
                    rhs.extend(sub_reads)
                    mem += len(sub_reads)
                mem += 1
                accesses.append(lhs)
            elif isinstance(s.target, ir.Name):
                lhs_scalar = s.target.name
            accesses.extend(rhs)
            f = flops(unit, s.value)
            red = reduction_form(s)
            patterns.append(RefPattern(lhs, lhs_scalar, tuple(rhs), line, loop_vars, count, f, mem,
                                       lines, ctx.conditional, red[1] if red else None,
                                       chain=chain_latency(s, ctx.loops[-1]) if ctx.loops else 0))
            total_flops += count * f
            total_mem += count * mem
        else:
            for e in s.exprs():
                accesses.extend(_array_reads(e, uc, line, loop_vars))
                if isinstance(s, ir.If):
                    total_flops += count * flops(unit, e)
                total_mem += count * loads(e)
            if isinstance(s, ir.Call):
                calls.append(s.name)
            if isinstance(s, ir.Opaque):
                opaque.append(f"line {line}: {s.reason}")
            if isinstance(s, ir.Io) and s.kind in (ir.IoKind.PRINT, ir.IoKind.WRITE):
                shown = [r for item in s.items for r in _output_reads(item, uc, line, loop_vars)]
                if shown:
                    conds = [r for c in ctx.conds for r in _array_reads(c, uc, line, loop_vars)]
                    patterns.append(RefPattern(None, None, tuple(shown + conds), line, loop_vars, count, 0,
                                               len(shown), lines,
                                               ctx.conditional, None, output=True))
            if isinstance(s, ir.Io):
                for item in s.targets():
                    if isinstance(item, ir.Substring):
                        item = item.base
                    if isinstance(item, ir.Index) and uc.is_array(item.name):
                        accesses.append(_access(item, True, line, loop_vars))
    patterns = _longest_chains(patterns)
    reads = tuple(dict.fromkeys(a.array for a in accesses if not a.write))
    writes = tuple(dict.fromkeys(a.array for a in accesses if a.write))
    # arrays that calls inside the phase read and write
    for s in ir.walk(stmt.body):
        if isinstance(s, ir.Call):
            r, w = call_arrays(unit, uc, s.args, uc.effects.get(s.name))
            reads = tuple(dict.fromkeys(reads + tuple(r)))
            writes = tuple(dict.fromkeys(writes + tuple(w)))
    return Phase(
        unit=unit.name, id=pid, kind="loop", span=stmt.span, loops=tuple(loops),
        patterns=tuple(patterns), accesses=tuple(accesses), reads=reads, writes=writes,
        flops=total_flops, memory_accesses=total_mem, calls=tuple(dict.fromkeys(calls)),
        inner_calls=_inner_calls(stmt, counter), opaque=tuple(opaque),
    )


def _longest_chains(patterns: list[RefPattern]) -> list[RefPattern]:
    """Per innermost loop, only its longest chain: the chains of its statements
    run side by side, an iteration waits for the longest."""
    best: dict[int, RefPattern] = {}
    for p in patterns:
        if p.chain and p.loop_lines:
            key = p.loop_lines[-1]
            if key not in best or p.chain > best[key].chain:
                best[key] = p
    keep = {id(p) for p in best.values()}
    return [p if not p.chain or id(p) in keep else dataclasses.replace(p, chain=0) for p in patterns]


def _statement_calls(s: ir.Stmt, uc: UnitContext) -> tuple[InnerCall, ...]:
    """The program's functions that statement ``s`` references, once each per
    execution of the statement."""
    return tuple(InnerCall(x.name, s.span.first, x.args, 1.0) for x in ir.external_calls(s) if x.name in uc.effects)


def _function_phase(unit: ir.Unit, uc: UnitContext, pid: int, site: PhaseSite) -> Phase:
    """A statement outside loop phases that references the program's
    functions (an IF: in its conditions, evaluated before its branches): a
    phase with no work of its own, whose cost is its calls."""
    stmt = site.stmt
    outer_vars = tuple(lp.var for lp in site.loops)
    reads: list[str] = []
    writes: list[str] = []
    accesses = []
    calls = _statement_calls(stmt, uc)
    for c in calls:
        r, w = call_arrays(unit, uc, c.args, uc.effects.get(c.callee))
        reads += r
        writes += w
        for a in c.args:
            for x in a.walk():
                if isinstance(x, ir.Index) and uc.is_array(x.name):
                    accesses.append(_access(x, False, stmt.span.first, outer_vars))
    span = ir.Span(stmt.span.file, stmt.span.first, stmt.span.first) if isinstance(stmt, ir.If) else stmt.span
    return Phase(
        unit=unit.name, id=pid, kind="function", span=span, loops=(), patterns=(),
        accesses=tuple(accesses), reads=tuple(dict.fromkeys(reads)), writes=tuple(dict.fromkeys(writes)),
        flops=0.0, memory_accesses=0.0, calls=tuple(dict.fromkeys(c.callee for c in calls)), inner_calls=calls,
    )


def _inner_calls(stmt: ir.Do, counter: TripCounter) -> tuple[InnerCall, ...]:
    """The procedures a loop phase calls, with the executions per phase
    execution that the program's invocation counts use."""
    out = []
    for s, w in inner_call_sites(stmt, counter):
        if isinstance(s, ir.Call):
            out.append(InnerCall(s.name, s.span.first, s.args, w))
        out.extend(InnerCall(x.name, s.span.first, x.args, w) for x in ir.external_calls(s))
    return tuple(out)


