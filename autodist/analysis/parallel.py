"""Is a DO loop parallel?  Which scalars are private, which are reductions?

A loop is parallel when it carries no dependence: no array dependence between
iterations (see :mod:`.dependence`), no scalar carried from one iteration to
the next (see :mod:`.scalars`), no I/O, no exit from the loop, no call to a
procedure that may write what other iterations use, no construct the front end
could not model.  The reason names the first obstacle found: which reference
pair, which distance.
"""

from __future__ import annotations

from functools import cached_property

from .. import ir
from . import dependence as dep
from .actuals import element_block
from .loops import bounds_text, walk_ctx
from .model import Dependence, Effects, LoopInfo, Slot
from .boxes import association, box_substitution
from .privatecalls import ProgramFacts
from .privatize import private_arrays as private_arrays_of
from .scalars import find_reductions, first_access, reads_of_stmt, scalar_writes, writes_of_stmt


class UnitContext:
    """Facts about one unit that loop classification needs, computed once."""

    def __init__(self, unit: ir.Unit, effects: dict[str, Effects], read_elsewhere: frozenset[str] = frozenset(),
                 units: dict[str, ir.Unit] | None = None, facts: ProgramFacts | None = None):
        self.unit = unit
        self.effects = effects
        self.units = units or {}  # the program's units by name: the dummies of callees
        self.facts = facts  # the whole program's kill summaries: privatization across calls
        self.read_elsewhere = read_elsewhere  # COMMON arrays of this unit that other units read
        self.order: list[tuple[ir.Stmt, tuple[ir.Do, ...], bool]] = [
            (c.stmt, c.loops, c.conditional) for c in walk_ctx(unit.body)
        ]
        self.index = {id(s): k for k, (s, _, _) in enumerate(self.order)}

    @cached_property
    def equivalence_groups(self) -> dict[str, frozenset[str]]:
        groups: dict[str, set[str]] = {}
        for items in self.unit.equivalences:
            names = {e.name for e in items if isinstance(e, (ir.Name, ir.Index))}
            merged = set(names)
            for n in names:
                merged |= groups.get(n, set())
            for n in merged:
                groups[n] = merged
        return {k: frozenset(v) for k, v in groups.items()}

    def is_array(self, name: str) -> bool:
        sym = self.unit.symbol(name)
        return sym is not None and sym.is_array

    def visible_outside(self, name: str) -> bool:
        sym = self.unit.symbol(name)
        if name == self.unit.result or name == self.unit.name:
            return True
        return sym is not None and (sym.dummy or sym.common is not None or sym.save)

    def subtree_end(self, stmt: ir.Stmt) -> int:
        """Index in ``order`` just after ``stmt`` and everything nested in it."""
        k = self.index[id(stmt)]
        n = 1 + sum(1 for _ in ir.walk(tuple(b for block in stmt.blocks() for b in block)))
        return k + n

    def live_after(self, do: ir.Do, name: str, outer: tuple[ir.Do, ...]) -> int | None:
        """Line of a read of ``name`` that may see the value the loop leaves, or None."""
        if self.visible_outside(name):
            return do.span.last
        end = self.subtree_end(do)
        tail = self.order[end:]
        if outer:  # the next iteration of enclosing loops comes back to their start
            start = self.index[id(outer[0])] + 1
            tail = tail + self.order[start: self.index[id(do)]]
        for stmt, _, conditional in tail:
            if isinstance(stmt, ir.If) or isinstance(stmt, ir.DoWhile):
                if name in ir.stmt_names(stmt):
                    return stmt.span.first
                continue
            if isinstance(stmt, ir.Do):
                if name in ir.stmt_names(stmt):
                    return stmt.span.first
                if stmt.var == name and not conditional:
                    return None
                continue
            if name in reads_of_stmt(stmt):
                return stmt.span.first
            if isinstance(stmt, ir.Call) and any(name in ir.names(a) for a in stmt.args):
                return stmt.span.first
            if name in writes_of_stmt(stmt) and not conditional:
                return None
        return None


def _obstacles(do: ir.Do, uc: UnitContext) -> list[Dependence]:
    out: list[Dependence] = []
    inside = ir.labels(do.body)
    for s in ir.walk(do.body):
        line = s.span.first
        if isinstance(s, ir.Io) and s.kind != ir.IoKind.FORMAT:
            out.append(Dependence("io", s.kind.upper(), line, line, None, f"{s.kind.upper()} statement at line {line}"))
        elif isinstance(s, ir.Opaque):
            out.append(Dependence("opaque", "", line, line, None, f"unmodelled statement at line {line} ({s.reason})"))
        elif isinstance(s, (ir.Stop, ir.Return)):
            what = "STOP" if isinstance(s, ir.Stop) else "RETURN"
            out.append(Dependence("exit", what, line, line, None, f"{what} at line {line} leaves the loop"))
        elif isinstance(s, (ir.Goto, ir.ComputedGoto, ir.ArithIf)):
            if any(t not in inside for t in ir.branch_targets(s)):
                out.append(Dependence("exit", "GOTO", line, line, None, f"jump out of the loop at line {line}"))
        if isinstance(s, ir.Call) and uc.facts is not None and s.name in uc.facts.summaries:
            eff = uc.effects.get(s.name)
            summ = uc.facts.summaries[s.name]
            if eff is None or eff.io or eff.stops or summ.opaque:
                why = ("it may do I/O or stop" if eff is not None and (eff.io or eff.stops)
                       else "it has constructs not modelled")
                out.append(Dependence("call", s.name, line, line, None, f"CALL {s.name} at line {line} ({why})"))
        elif isinstance(s, ir.Call):
            eff = uc.effects.get(s.name)
            if eff is None or not (eff.pure or _call_as_references(s, do, uc)):
                why = "an external procedure" if eff is None else "it may write its arguments or COMMON"
                out.append(Dependence("call", s.name, line, line, None, f"CALL {s.name} at line {line} ({why})"))
        for e in s.exprs():
            for x in e.walk():
                if isinstance(x, ir.FuncRef) and x.kind == ir.FuncKind.EXTERNAL:
                    eff = uc.effects.get(x.name)
                    if eff is None or not eff.pure:
                        out.append(Dependence("call", x.name, line, line, None,
                                              f"function {x.name} at line {line} may have side effects"))
    return out


def _refs(do: ir.Do, uc: UnitContext, skip: set[int], variant: set[str]) -> list[dep.Ref]:
    """Array references in the body, subscripts made non-affine where they use
    scalars that change inside the loop."""
    refs: list[dep.Ref] = []
    for ctx in walk_ctx(do.body):
        s = ctx.stmt
        if id(s) in skip:
            continue
        inner = tuple(lp.var for lp in ctx.loops)
        inner_bounds = tuple(dep.bound_of(lp) for lp in ctx.loops)
        written: list[ir.Index] = []
        if isinstance(s, ir.Assign) and isinstance(s.target, ir.Index):
            written.append(s.target)
        if isinstance(s, ir.Io):
            written.extend(i for i in s.targets() if isinstance(i, ir.Index))
        # an array (or an element: sequence association) passed to a procedure may
        # be read anywhere: a reference with unknown subscripts (an impure callee
        # is an obstacle already, unless it is judged by the program's kill
        # summaries (call_refs) or writes only array arguments (see
        # _call_as_references): then an element actual whose dummy stays in the
        # leading dimensions is a reference to that block, written if the callee
        # writes the dummy)
        if uc.facts is not None:
            for name, subs, write in call_refs(s, uc):
                refs.append(dep.Ref(name, _variant_free(subs, variant, do.var, inner), write, s.span.first,
                                    inner, inner_bounds))
        elif isinstance(s, ir.Call) and s.name in uc.effects and not uc.effects[s.name].pure:
            refs.extend(_call_refs(s, uc, inner, inner_bounds, variant, do.var))
        else:
            for name in passed_arrays(s, uc):
                rank = uc.unit.symbol(name).rank  # type: ignore[union-attr]
                refs.append(dep.Ref(name, (None,) * rank, False, s.span.first, inner, inner_bounds))
        seen_written = {id(w) for w in written}
        for w in written:
            refs.append(_ref(w, True, s.span.first, inner, inner_bounds, variant, do.var))
        for e in s.exprs():
            for x in e.walk():
                if isinstance(x, ir.Index) and id(x) not in seen_written and uc.is_array(x.name):
                    refs.append(_ref(x, False, s.span.first, inner, inner_bounds, variant, do.var))
    return refs


def _variant_free(subs: tuple, variant: set[str], var: str, inner: tuple[str, ...]) -> tuple:
    return tuple(None if a is None or any(v in variant and v != var and v not in inner for v in a.vars) else a
                 for a in subs)


def _sites(s: ir.Stmt) -> list[tuple[str, tuple[ir.Expr, ...]]]:
    out = [(s.name, s.args)] if isinstance(s, ir.Call) else []
    return out + [(f.name, f.args) for f in ir.external_calls(s)]


def _slot_symbol(uc: UnitContext, slot) -> ir.Symbol | None:
    if slot[1] == ir.WHOLE_BLOCK:
        return None
    return uc.facts.commons.symbol_at(uc.unit, slot)  # type: ignore[union-attr]


def call_refs(s: ir.Stmt, uc: UnitContext) -> list[tuple[str, tuple, bool]]:
    """The array references a statement's calls make, as far as the callee's
    effects tell: an actual argument the callee reads or writes (an element
    actual whose leading dimensions are the dummy's shape: the callee works at
    the element's trailing subscripts, ``RHS(?, I, J, K)``), a COMMON array of
    this unit a callee reads or writes (unknown subscripts)."""
    facts = uc.facts
    assert facts is not None
    out = []
    for name, args in _sites(s):
        eff = uc.effects.get(name)
        callee = facts.units.get(name)
        for k, a in enumerate(args):
            if not (isinstance(a, (ir.Name, ir.Index)) and uc.is_array(a.name)):
                continue
            mine = uc.unit.symbol(a.name)
            subs: tuple = (None,) * mine.rank  # type: ignore[union-attr]
            if callee is not None and k < len(callee.args):
                dummy = callee.symbol(callee.args[k])
                how = association(mine, dummy, a, box_substitution(uc.unit, callee, args, facts.commons)) \
                    if dummy is not None else None
                if isinstance(how, tuple) and how:
                    subs = (None,) * (mine.rank - len(how)) + tuple(ir.affine(x) for x in a.subscripts[-len(how):])  # type: ignore[union-attr]
            if eff is None or k in eff.reads_args:
                out.append((a.name, subs, False))
            if eff is not None and k in eff.writes_args:
                out.append((a.name, subs, True))
        if eff is None:
            continue
        for slot in sorted(eff.reads_common | eff.writes_common_slots):
            sym = _slot_symbol(uc, slot)
            if sym is None or not sym.is_array:
                continue
            if slot in eff.reads_common:
                out.append((sym.name, (None,) * sym.rank, False))
            if slot in eff.writes_common_slots:
                out.append((sym.name, (None,) * sym.rank, True))
    return out


def _call_facts(do: ir.Do, uc: UnitContext) -> tuple[list[Dependence], set[str], set[str]]:
    """Obstacles from what the loop's calls write, and the arrays and COMMON
    scalars they write (candidates for privatization)."""
    deps: list[Dependence] = []
    arrays: set[str] = set()
    scalars: set[str] = set()
    for s in ir.walk(do.body):
        line = s.span.first
        for name, args in _sites(s):
            eff = uc.effects.get(name)
            if eff is None:
                continue
            for k, a in enumerate(args):
                if k not in eff.writes_args:
                    continue
                if isinstance(a, (ir.Name, ir.Index)) and uc.is_array(a.name):
                    arrays.add(a.name)
                else:
                    deps.append(Dependence("call", name, line, line, None,
                                           f"CALL {name} at line {line} may assign its argument {k + 1}"))
            for slot in sorted(eff.writes_common_slots):
                sym = _slot_symbol(uc, slot)
                if sym is None:
                    deps.append(Dependence("call", name, line, line, None,
                                           f"CALL {name} at line {line} writes COMMON /{slot[0]}/ not declared "
                                           f"(or declared differently) here"))
                elif sym.is_array:
                    arrays.add(sym.name)
                else:
                    scalars.add(sym.name)
            if eff.writes_common and not eff.writes_common_slots:
                deps.append(Dependence("call", name, line, line, None,
                                       f"CALL {name} at line {line} may write COMMON (a procedure outside the program)"))
    return deps, arrays, scalars


def passed_arrays(s: ir.Stmt, uc: UnitContext) -> list[str]:
    """Arrays passed as actual arguments (whole, or from an element on) by a
    CALL or an external function reference in ``s``."""
    out = []
    calls: list[tuple[ir.Expr, ...]] = []
    if isinstance(s, ir.Call):
        calls.append(s.args)
    for e in s.exprs():
        for x in e.walk():
            if isinstance(x, ir.FuncRef) and x.kind == ir.FuncKind.EXTERNAL:
                calls.append(x.args)
    for args in calls:
        for a in args:
            if isinstance(a, (ir.Name, ir.Index)) and uc.is_array(a.name):
                out.append(a.name)
    return out


def _call_as_references(s: ir.Call, do: ir.Do, uc: UnitContext) -> bool:
    """A call of a procedure that writes only its array arguments (no COMMON,
    no I/O, no STOP) is not an obstacle by itself: what it reads and writes
    through its dummies are references of the caller (:func:`_call_refs`).
    Not when it writes a scalar actual, or reads COMMON the loop writes."""
    eff = uc.effects[s.name]
    if eff.writes_common or eff.io or eff.stops or s.name not in uc.units:
        return False
    for k in eff.writes_args:
        if k >= len(s.args):
            return False
        a = s.args[k]
        if not (isinstance(a, (ir.Name, ir.Index)) and uc.is_array(a.name)):
            return False
    if eff.reads_common:
        for x in ir.walk(do.body):
            for n in writes_of_stmt(x):
                sym = uc.unit.symbol(n)
                if sym is not None and sym.common is not None:
                    return False
    return True


def _call_refs(s: ir.Call, uc: UnitContext, inner: tuple[str, ...], inner_bounds: tuple[dep.Bound, ...],
               variant: set[str], var: str) -> list[dep.Ref]:
    """The references a call makes through its array arguments: a whole
    array anywhere, an element actual the block its dummy covers
    (``U(1,I,J)`` into ``X(5)``: ``U(?,I,J)``), else from the element on
    (anywhere); read and/or written as the callee does its dummy."""
    eff = uc.effects[s.name]
    callee = uc.units.get(s.name)
    out = []
    for k, a in enumerate(s.args):
        if not (isinstance(a, (ir.Name, ir.Index)) and uc.is_array(a.name)):
            continue
        rank = uc.unit.symbol(a.name).rank  # type: ignore[union-attr]
        subs: tuple = (None,) * rank
        covered = element_block(uc.unit, a, callee, k)
        if covered is not None and isinstance(a, ir.Index):
            exact = _ref(a, False, s.span.first, inner, inner_bounds, variant, var).subscripts
            subs = (None,) * covered + tuple(exact[covered:])
        written = k in eff.writes_args
        if written:
            out.append(dep.Ref(a.name, subs, True, s.span.first, inner, inner_bounds))
        if k in eff.reads_args or not written:
            out.append(dep.Ref(a.name, subs, False, s.span.first, inner, inner_bounds))
    return out


def _ref(x: ir.Index, write: bool, line: int, inner: tuple[str, ...], inner_bounds: tuple[dep.Bound, ...],
         variant: set[str], var: str) -> dep.Ref:
    subs = []
    for s in x.subscripts:
        a = ir.affine(s)
        if a is not None and any(v in variant and v != var and v not in inner for v in a.vars):
            a = None
        subs.append(a)
    return dep.Ref(x.name, tuple(subs), write, line, inner, inner_bounds)


def classify_loop(do: ir.Do, outer: tuple[ir.Do, ...], uc: UnitContext, depth: int,
                  parent: int | None, trip_count: float | None, trip_known: bool,
                  iterations: float) -> LoopInfo:
    """Parallel or not, and why; private scalars and reductions."""
    deps = _obstacles(do, uc)

    inner_loops = [s for s in ir.walk(do.body) if isinstance(s, ir.Do)]
    inner_vars = {lp.var for lp in inner_loops}
    loop_vars = inner_vars | {do.var}
    reductions = find_reductions(do.body, {do.var})
    red_names = {r.name for r in reductions}
    skip = {id(s) for r in reductions for s in r.stmts}
    for r in reductions:
        for s in r.stmts:
            if isinstance(s, ir.If):
                skip.add(id(s.branches[0].body[0]))

    private: list[str] = []
    writes = scalar_writes(do.body)
    call_arrays: set[str] = set()
    why_private: dict[str, str] = {}
    if uc.facts is not None:
        call_deps, call_arrays, call_scalars = _call_facts(do, uc)
        deps.extend(call_deps)
        for name in sorted(call_scalars - set(writes)):
            writes[name] = do.span.first
    for name, line in writes.items():
        if name in loop_vars or name in red_names or uc.is_array(name):
            continue
        sym = uc.unit.symbol(name)
        if uc.facts is not None and sym is not None and sym.common is not None:
            ok, why = uc.facts.private(uc.unit, do, name)
            if ok:
                private.append(name)
                why_private[name] = why
            else:
                deps.append(Dependence("scalar", name, line, line, 1, f"scalar {why} (line {line})"))
            continue
        first = first_access(do.body, name)
        live = uc.live_after(do, name, outer)
        if first == "def" and live is None:
            private.append(name)
            continue
        if first != "def":
            why = f"scalar {name} is read before it is assigned in an iteration (line {line})"
        else:
            why = f"scalar {name} assigned at line {line} is used after the loop (line {live})"
        deps.append(Dependence("scalar", name, line, line, 1, why))

    # array dependences
    ranges: dict[str, tuple[float, float]] = {}
    for o in outer:
        lv = dep.loop_var(o, ranges)
        ranges[o.var] = lv.range
    tested = dep.loop_var(do, ranges)
    ranges[do.var] = tested.range
    inner_info: dict[str, dep.LoopVar] = {}
    for lp in inner_loops:  # pre-order: outer inner loops first
        lv = dep.loop_var(lp, ranges)
        inner_info[lp.var] = lv
        ranges.setdefault(lp.var, lv.range)
    variant = set(writes) - loop_vars
    written_arrays = {s.target.name for s in ir.walk(do.body)
                      if isinstance(s, ir.Assign) and isinstance(s.target, ir.Index)}
    red_arrays = {r.name.split("(")[0] for r in reductions}
    if uc.facts is not None:
        found = []
        for a in sorted((written_arrays | call_arrays) - red_arrays):
            ok, why = uc.facts.private(uc.unit, do, a)
            if ok:
                found.append(a)
                why_private[a] = why
        private_arrays = tuple(found)
    else:
        private_arrays = private_arrays_of(uc.unit, do, written_arrays - red_arrays, uc.read_elsewhere)
    all_refs = _refs(do, uc, skip, variant)
    nest = tuple(dep.bound_of(o) for o in outer) + (dep.bound_of(do),)
    if private_arrays:
        # NEW only for the arrays it frees the loop of (an array each iteration
        # writes apart, or one only written, needs no private copy)
        carried = {d.name for d in _array_deps(all_refs, tested, inner_info, uc, nest)[0]}
        private_arrays = tuple(a for a in private_arrays if a in carried)
    refs = [r for r in all_refs if r.array not in private_arrays]
    array_deps, proved = _array_deps(refs, tested, inner_info, uc, nest)
    deps.extend(array_deps)

    parallel = not deps
    independent_by = tuple(t.name for t in dep.TESTS if t.name in proved) if parallel else ()
    if parallel:
        notes = ["no loop-carried dependence"]
        if independent_by:
            notes[0] += f" (independent by {', '.join(independent_by)})"
        if private or private_arrays:
            notes.append("private " + ", ".join(sorted(private) + [f"{a}(:)" for a in private_arrays]))
        if reductions:
            notes.append("reduction " + ", ".join(f"{r.name}({r.op})" for r in reductions))
        reason = "; ".join(notes)
    else:
        reason = deps[0].text
    return LoopInfo(
        var=do.var, line=do.span.first, last_line=do.span.last, depth=depth, parent=parent,
        bounds=bounds_text(do), trip_count=trip_count, trip_known=trip_known,
        iterations=iterations, parallel=parallel, reason=reason,
        private=tuple(sorted(private)), reductions=tuple((r.name, r.op) for r in reductions),
        dependences=tuple(deps), step=tested.step, private_arrays=private_arrays, do=do,
        independent_by=independent_by,
        private_reasons=tuple((n, why_private[n]) for n in private_arrays if n in why_private) if parallel else (),
    )


def _array_deps(refs: list[dep.Ref], tested: dep.LoopVar, inner: dict[str, dep.LoopVar],
                uc: UnitContext, nest: tuple[dep.Bound, ...]) -> tuple[list[Dependence], set[str]]:
    """The array dependences the loop carries, and the names of the tests
    that proved the independence of the pairs that carry none."""
    out: list[Dependence] = []
    proved: set[str] = set()
    by_array: dict[str, list[dep.Ref]] = {}
    for r in refs:
        by_array.setdefault(r.array, []).append(r)
    groups = uc.equivalence_groups
    # aliasing through EQUIVALENCE: any write to a member conflicts with any access to another
    for name, rs in by_array.items():
        partners = groups.get(name, frozenset()) - {name}
        for p in partners:
            if p in by_array and (any(r.write for r in rs) or any(r.write for r in by_array[p])):
                line = rs[0].line
                out.append(Dependence("flow", name, line, by_array[p][0].line, None,
                                      f"{name} and {p} share storage (EQUIVALENCE)"))
                return out, proved
    for name, rs in by_array.items():
        if not any(r.write for r in rs):
            continue
        found = None
        for i, r1 in enumerate(rs):
            for r2 in rs[i:]:
                if not (r1.write or r2.write):
                    continue
                for direction in ("<", ">"):
                    o = dep.carried(r1, r2, tested, inner, direction, nest)
                    if o.dependent:
                        found = _describe(r1, r2, direction, o.distance, tested.name)
                        break
                    if o.test is not None:
                        proved.add(o.test)
                if found:
                    break
            if found:
                break
        if found:
            out.append(found)
    return out, proved


def _ref_text(r: dep.Ref) -> str:
    return f"{r.array}({','.join('?' if s is None else str(s) for s in r.subscripts)})"


def _describe(r1: dep.Ref, r2: dep.Ref, direction: str, distance: int | None, var: str) -> Dependence:
    # order the pair in execution order: source runs in the earlier iteration
    src, snk = (r1, r2) if direction == "<" else (r2, r1)
    if src.write and snk.write:
        kind = "output"
    elif src.write:
        kind = "flow"
    else:
        kind = "anti"
    dist = f"distance {distance}" if distance is not None else "distance unknown"
    verb = {"flow": "reads what", "anti": "overwrites what", "output": "overwrites what"}[kind]
    text = (f"{_ref_text(snk)} (line {snk.line}) {verb} {_ref_text(src)} (line {src.line}) "
            f"{'wrote' if src.write else 'read'} in an earlier iteration of {var} ({kind}, {dist})")
    return Dependence(kind, src.array, src.line, snk.line, distance, text)


def summarize_effects(unit: ir.Unit, callee_effects: dict[str, Effects],
                      commons: ir.CommonLayouts = ir.CommonLayouts()) -> Effects:
    """What a unit may read and modify, given the effects of the units it calls
    (a member of a block declared differently elsewhere is the whole block)."""
    args = {a: k for k, a in enumerate(unit.args)}
    writes: set[str] = set()
    reads: set[str] = set()
    reads_slots: set[Slot] = set()
    writes_slots: set[Slot] = set()
    reads_args: set[int] = set()
    writes_args: set[int] = set()
    writes_common = False
    io = False
    stops = False
    for s in unit.statements():
        if isinstance(s, ir.Assign):
            if (name := ir.assigned_name(s.target)) is not None:
                writes.add(name)
        elif isinstance(s, ir.Do):
            writes.add(s.var)
        elif isinstance(s, ir.Io):
            if s.kind != ir.IoKind.FORMAT:
                io = True
            writes |= {name for t in s.targets() if (name := ir.assigned_name(t)) is not None}
        elif isinstance(s, ir.Stop):
            stops = True
        elif isinstance(s, ir.Opaque):
            io = True  # unknown: be conservative
        elif isinstance(s, ir.Call):
            eff = callee_effects.get(s.name)
            if eff is None:
                writes_common = True
                io = True
                writes.update(a.name for a in s.args if isinstance(a, (ir.Name, ir.Index)))
            else:
                writes_common |= eff.writes_common
                io |= eff.io
                stops |= eff.stops
                reads_slots |= eff.reads_common
                writes_slots |= eff.writes_common_slots
                for k, a in enumerate(s.args):
                    if isinstance(a, (ir.Name, ir.Index)):
                        if k in eff.writes_args:
                            writes.add(a.name)
                        if k in eff.reads_args:
                            reads.add(a.name)
        for e in s.exprs():
            for x in e.walk():
                if isinstance(x, (ir.Name, ir.Index)):
                    reads.add(x.name)
                if isinstance(x, ir.FuncRef) and x.kind == ir.FuncKind.EXTERNAL:
                    eff = callee_effects.get(x.name)
                    if eff is None or not eff.pure:
                        writes_common = True
                    if eff is not None:
                        reads_slots |= eff.reads_common
                        writes_slots |= eff.writes_common_slots
    for names, slots, positions in ((writes, writes_slots, writes_args), (reads, reads_slots, reads_args)):
        for t in names:
            if t in args:
                positions.add(args[t])
            slot = commons.slot(unit.symbol(t))
            if slot is not None:
                slots.add(slot)
    writes_common = writes_common or bool(writes_slots)
    return Effects(frozenset(writes_args), writes_common, io, stops,
                   frozenset(reads_args), frozenset(reads_slots), frozenset(writes_slots))
