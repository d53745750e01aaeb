"""Control flow of a translated procedure (part of
:class:`~autodist.runtime.codegen.units.UnitTranslator`): statement lists
and their jumps (a dispatch loop in a list that holds a target label, an
exception for a jump out of a nested loop), DO loops (trip count fixed on
entry, REAL control variables as Fortran counts them) and IF blocks.
"""

from __future__ import annotations

from ... import ir
from . import intrinsic_code as ic
from .facts import unsupported
from .ranges import Interval, fixed_in, loop_interval
from .scan import labels_in


class ControlFlow:
    """Statement lists, jumps, DO loops and IF blocks (a mixin of the translator)."""

    #: The values of the DO variables (by their code) of the loops around the
    #: code being emitted, where known and fixed in the body (see ranges.py).
    loop_ranges: dict[str, Interval] = {}

    def fixed_variable(self, name: str) -> bool:
        """Whether only the unit's own statements can assign scalar ``name``: a
        local variable, not in COMMON, not a dummy, not EQUIVALENCEd."""
        s = self.sym(name)
        return (s is not None and self.scalar_var(name) and not s.dummy and s.common is None
                and not s.equivalenced)

    def block(self, stmts: tuple[ir.Stmt, ...]) -> None:
        targets = labels_in(stmts) & self.all_targets
        if not targets:
            before = len(self.em.lines)
            for s in stmts:
                self.stmt(s)
            if len(self.em.lines) == before:  # nothing that runs (no statement, or only a FORMAT)
                self.em("pass")
            return
        em = self.em
        pc = em.fresh("pc")
        segments: list[list[ir.Stmt]] = [[]]
        seg_of: dict[int, int] = {}
        for s in stmts:
            if s.label in targets and segments[-1]:
                segments.append([])
            if s.label in targets:
                seg_of[s.label] = len(segments) - 1
            segments[-1].append(s)
        em(f"{pc} = 0")
        self.dispatch_loop(pc, segments, seg_of)

    def dispatch_loop(self, pc: str, segments: list[list[ir.Stmt]], seg_of: dict[int, int]) -> None:
        """The dispatch loop of a statement list with jump targets: a jump from
        a nested loop is a :class:`_Goto` caught here."""
        em = self.em
        em("while True:")
        with em.indent():
            em("try:")
            with em.indent():
                self.segments(pc, segments, seg_of)
            em("except _Goto as _g:")
            with em.indent():
                table = "{" + ", ".join(f"{lab}: {k}" for lab, k in sorted(seg_of.items())) + "}"
                em(f"{pc} = {table}.get(_g.label, -1)")
                em(f"if {pc} < 0:")
                with em.indent():
                    em("raise")

    def segments(self, pc: str, segments: list[list[ir.Stmt]], seg_of: dict[int, int]) -> None:
        """The segments of a dispatch loop, each run from the one ``pc`` names on, then ``break``."""
        em = self.em
        self.dispatch.append((pc, seg_of))
        self.loop_depth_at.append(self.loop_depth)
        for k, seg in enumerate(segments):
            em(f"if {pc} <= {k}:")
            with em.indent():
                for s in seg:
                    self.stmt(s)
        self.dispatch.pop()
        self.loop_depth_at.pop()
        em("break")

    def loop(self) -> "_Loop":
        """Around the code of a loop construct (``for``/``while`` and what follows
        it, e.g. its ``else:``): a Python loop between the code inside and the
        dispatchers outside."""
        return _Loop(self)

    @property
    def all_targets(self) -> set[int]:
        if not hasattr(self, "_targets"):
            self._targets = ir.jump_targets(self.unit.body)
        return self._targets

    def goto(self, label: int) -> None:
        """A jump: ``continue`` into the dispatcher of the innermost statement
        list when no Python loop lies between, else an exception that the
        list holding the label catches."""
        for k in range(len(self.dispatch) - 1, -1, -1):
            pc, seg_of = self.dispatch[k]
            if label in seg_of:
                if k == len(self.dispatch) - 1 and self.loop_depth_at[k] == self.loop_depth:
                    self.em(f"{pc} = {seg_of[label]}")
                    self.em("continue")
                else:
                    self.em(f"raise _Goto({label})")
                return
        raise unsupported(f"GO TO {label} (no such label where the jump can reach it)", self.ex.span)

    def trip_range(self, start: ir.Expr, end: ir.Expr, step: ir.Expr | None,
                   what: str) -> tuple[str, Interval | None]:
        """Emit the Python ``range`` of an integer DO (or implied DO) and
        return its name (the trip count fixed on entry, a zero step a fault)
        and the values the variable takes on its trips when they are known.
        After the loop the variable is ``r.start + len(r) * r.step``."""
        em = self.em
        lo, hi = self.ex.int_expr(start), self.ex.int_expr(end)
        by = "1" if step is None else self.ex.int_expr(step)
        r = em.fresh("r")
        if by == "1":
            em(f"{r} = range({lo}, {hi} + 1)")
        else:
            st = em.fresh("st")
            em(f"{st} = {by}")
            em(f"if {st} == 0:")
            with em.indent():
                em(f"raise {self.fault_code(f'{what} with a zero step')}")
            em(f"{r} = range({lo}, {hi} + (1 if {st} > 0 else -1), {st})")
        return r, loop_interval(lo, hi, by, self.loop_ranges)

    def fault_code(self, message: str) -> str:
        """The code of the fault ``message`` raised where the code stands."""
        return f"_fault({message!r})"

    def do(self, s: ir.Do) -> None:
        em = self.em
        var_t = self.ex.type_of_name(s.var)
        if ic.kind(var_t) != "i":
            self.real_do(s, var_t)
            return
        synced = self.calls_out(tuple(e for e in (s.start, s.end, s.step) if e is not None))
        if synced:
            self.store_commons()
        r, values = self.trip_range(s.start, s.end, s.step, "DO loop")
        if synced:
            self.load_commons()
        self.count_loop_entry(s.span, f"len({r})")
        ranged = values is not None and self.fixed_variable(s.var) and fixed_in(s.var, s.body)
        with self.loop():
            em(f"for v_{s.var} in {r}:")
            with em.indent():
                if ranged:
                    outer = self.loop_ranges
                    self.loop_ranges = {**outer, f"v_{s.var}": values}
                try:
                    self.block(s.body)
                finally:
                    if ranged:
                        self.loop_ranges = outer
            em("else:")
            with em.indent():
                em(f"v_{s.var} = {r}.start + len({r}) * {r}.step")

    def real_do(self, s: ir.Do, t: ir.Type) -> None:
        """A DO loop with a REAL variable (obsolescent): the trip count is
        computed once, the variable incremented by the step each time."""
        em = self.em
        a, b = self.ex.typed(s.start, t), self.ex.typed(s.end, t)
        st = "1" if s.step is None else self.ex.typed(s.step, t)
        n, step = em.fresh("n"), em.fresh("st")
        em(f"{step} = {ic.convert(st, ir.INTEGER, t, False) if s.step is None else st}")
        em(f"v_{s.var} = {a}")
        em(f"{n} = max(0, int(({b} - v_{s.var} + {step}) / {step}))")
        self.count_loop_entry(s.span, n)
        k = em.fresh("k")
        with self.loop():
            em(f"for {k} in range({n}):")
            with em.indent():
                self.block(s.body)
                em(f"v_{s.var} = v_{s.var} + {step}")

    def do_while(self, s: ir.DoWhile) -> None:
        em = self.em
        self.count_loop_entry(s.span)
        synced = self.calls_out((s.cond,))
        with self.loop():
            em(f"while {'True' if synced else self.ex.typed(s.cond, ir.LOGICAL)}:")
            with em.indent():
                if synced:  # the condition, evaluated at the top of every trip
                    em(f"if not {self.evaluated(s.cond, ir.LOGICAL)}:")
                    with em.indent():
                        em("break")
                self.count_trip(s.span)
                self.block(s.body)

    def if_(self, s: ir.If) -> None:
        if self.calls_out(s.exprs()):
            self.if_chain(s.branches)
            return
        em = self.em
        first = True
        for b in s.branches:
            self.at(b.span)
            if b.cond is None:
                em("else:")
            else:
                c = self.ex.typed(b.cond, ir.LOGICAL)
                if self.instrument:
                    c = f"_rt.branch({b.span.file!r}, {b.span.first}, {c})"
                em(f"{'if' if first else 'elif'} {c}:")
            first = False
            with em.indent():
                self.block(b.body)

    def if_chain(self, branches: tuple[ir.Branch, ...]) -> None:
        """IF / ELSE IF as nested ifs, each condition evaluated (COMMON scalars
        synced around the FUNCTIONs it calls) only when the ones before are false."""
        em = self.em
        b = branches[0]
        self.at(b.span)
        if b.cond is None:
            self.block(b.body)
            return
        c = self.evaluated(b.cond, ir.LOGICAL)
        if self.instrument:
            c = f"_rt.branch({b.span.file!r}, {b.span.first}, {c})"
        em(f"if {c}:")
        with em.indent():
            self.block(b.body)
        if len(branches) > 1:
            em("else:")
            with em.indent():
                self.if_chain(branches[1:])



class _Loop:
    def __init__(self, tr) -> None:
        self.tr = tr

    def __enter__(self) -> None:
        self.tr.loop_depth += 1

    def __exit__(self, *exc) -> None:
        self.tr.loop_depth -= 1
