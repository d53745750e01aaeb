"""Python source of one phase under one plan (the fast path's code generator).

:func:`fast_source` writes ``def _phase(_c, <scalars>)`` for a
:class:`~autodist.runtime.codegen.vectorize.PhaseShape` and the facts of one plan
(:class:`GenPlan`): the iteration set of every statement on this rank, the
storage every array is read and written in, the ownership guards.  Plan
facts are baked into the source as constants; only loop bounds and scalars
are evaluated when the function runs.  See :mod:`autodist.runtime.codegen.vectorize`
for what the generated code does.

Index checks: every subscript is checked against the declared bounds, once
per entry of the innermost Python loop whose variable it uses (both ends of
the range), once per phase execution when it uses no loop variable, and for
vectorized dimensions when the selector is built.  Selectors also check that
the indices are stored on this rank.

This module holds the plan facts, the function and the code outside the
vectorized chains (Python loops, scalar statements and IFs);
:mod:`.fastrefs` writes array references and index checks, :mod:`.fastchain`
the vectorized loop chains.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ... import ir
from ...layout.sections import IndexSet
from .emitter import Code, Emitter, ExprGen
from .facts import ProgramFacts
from .fastchain import VectorChain, VectorGroup
from .fastrefs import References
from .vectorize import IfNode, LoopNode, PhaseShape, StmtNode


@dataclass(frozen=True)
class Storage:
    """Where an array is read and written during the phase: storage position
    ``p`` along dimension ``d`` holds global index ``slo[d] + p`` (up to
    ``shi[d]``); ``bounds`` are the declared ones."""

    slo: tuple[int, ...]
    shi: tuple[int, ...]
    bounds: tuple[tuple[int, int], ...]


@dataclass
class GenPlan:
    """What the generated code needs to know about one rank's plan."""

    sets: dict[int, dict[str, IndexSet | None]]  # statement id -> loop var -> values this rank runs
    executes: dict[int, bool]  # statement id -> does this rank run it at all
    guards: dict[int, list[tuple[int, IndexSet]]]  # statement id -> (lhs dim, owned indices) checked at run time
    store: dict[str, Storage]
    constants: list = field(default_factory=list)  # IndexSets the code refers to as _K[k]
    #: a loop variable whose interval is an argument of the compiled kernel
    #: (``_BLO``, ``_BHI``) instead of constants in its code: the blocks of a
    #: pipelined phase (:mod:`autodist.runtime.spmd.blocking`) share one kernel
    free: str = ""


class _FastExpr(ExprGen):
    def __init__(self, gen: "FastGen"):
        super().__init__(gen.shape.unit, gen.facts, gen.em)
        self.gen = gen

    def name(self, name: str) -> Code:
        g = self.gen
        if g.group is not None and name in g.chain:
            return (f"_V{g.group.gid}_{name}", ir.INTEGER, True)
        if g.group is not None and name in g.vector_privates:
            return (f"v_{name}", self.type_of_name(name), True)
        return (f"v_{name}", self.type_of_name(name), False)

    def element(self, e: ir.Index) -> Code:
        return self.gen.reference(e)


class FastGen(References, VectorChain):
    """Writes the fast function of one phase under one plan: the function and
    the code outside the vectorized chains here, subscripts and index checks
    in :class:`~.fastrefs.References`, the chains in
    :class:`~.fastchain.VectorChain`."""

    def __init__(self, shape: PhaseShape, plan: GenPlan, facts: ProgramFacts, name: str = "_phase"):
        self.shape = shape
        self.plan = plan
        self.facts = facts
        self.name = name
        self.em = Emitter()
        self.ex = _FastExpr(self)
        self.loop_vars = {lp.var for lp in shape.loops()}
        self.chain_roots = {c[0]: c for c in shape.chains}
        # the chain being written: its loops, variables and canonical axes
        self.cur: list[LoopNode] = []
        self.chain: set[str] = set()
        self.axes: list[str] = []
        self.vector_privates: set[str] = set()
        self.group: VectorGroup | None = None
        self.groups: dict[tuple, VectorGroup] = {}
        self.stmt_group: dict[int, VectorGroup] = {}
        self.assigned = self._phase_assigned()
        self.open_loops: list[LoopNode] = []  # Python loops currently open (outer first)
        self.selectors: dict[str, str] = {}
        self.one_group: int | None = None  # the chain's statements share one range: tested once
        self.prelude: list[tuple[str, tuple[str, int] | None]] = []
        self.last_items = ""  # arguments of the last vector view (for _fancy_set)

    # ---------------------------------------------------------------- facts

    def _phase_assigned(self) -> set[str]:
        out = set(self.loop_vars)
        for node in self.shape.stmts:
            if isinstance(node.stmt.target, ir.Name):
                out.add(node.stmt.target.name)
        return out

    def _stmts(self, n) -> list[StmtNode]:
        out: list[StmtNode] = []

        def walk(x) -> None:
            if isinstance(x, StmtNode):
                out.append(x)
            elif isinstance(x, LoopNode):
                for c in x.children:
                    walk(c)
            elif isinstance(x, IfNode):
                for _, ch in x.branches:
                    for c in ch:
                        walk(c)
        walk(n)
        return out

    def stmts_under(self, n) -> list[StmtNode]:
        """Statements under ``n`` that this rank runs at all."""
        return [s for s in self._stmts(n) if self.plan.executes.get(s.id, False)]

    def const(self, value: IndexSet | None) -> str:
        if value is None:
            return "None"
        for k, v in enumerate(self.plan.constants):
            if v == value:
                return f"_K[{k}]"
        self.plan.constants.append(value)
        return f"_K[{len(self.plan.constants) - 1}]"

    def _var_set(self, node: StmtNode, var: str) -> IndexSet | None:
        return self.plan.sets.get(node.id, {}).get(var)

    # ---------------------------------------------------------------- the function

    def source(self) -> str:
        sh = self.shape
        body = self.em
        body.level = 1
        self.hoisted_checks()
        self.node(sh.root)
        if sh.root.var in sh.outs:
            self.final_value(sh.root)
        body(f"return ({''.join('v_' + n + ', ' for n in sh.outs)})")
        head = self.head()
        first = len(head)
        head += ["    " + line for line, _ in self.prelude]
        shift = len(head)
        self.linemap = {k + shift: v for k, v in body.linemap.items()}
        for k, (_, where) in enumerate(self.prelude):
            if where is not None:
                self.linemap[first + k + 1] = where
        return "\n".join(head + body.lines) + "\n"

    def head(self) -> list[str]:
        """The first lines of the function: its signature and the storage of every array."""
        head = [f"def {self.name}(_c{''.join(', v_' + n for n in self.shape.ins)}):"]
        return head + [f"    S_{name} = _c.store[{name!r}]" for name in self.plan.store]

    def final_value(self, lp: LoopNode) -> None:
        """The root loop variable after the loop, as the sequential loop leaves it."""
        do = lp.do
        a, b, st = self.bounds(do)
        r = self.em.fresh("rf")
        self.em(f"{r} = range({a}, {b} + (1 if {st} > 0 else -1), {st})")
        self.em(f"v_{lp.var} = {r}.start + len({r}) * {r}.step")

    def bounds(self, do: ir.Do) -> tuple[str, str, str]:
        a, b = self.ex.int_expr(do.start), self.ex.int_expr(do.end)
        st = "1" if do.step is None else self.ex.int_expr(do.step)
        return a, b, st

    # ---------------------------------------------------------------- nodes outside the chain

    def node(self, n) -> None:
        if isinstance(n, LoopNode):
            if n.line in self.chain_roots:
                self.vector_context(n)
            else:
                self.python_loop(n, self.node)
        elif isinstance(n, StmtNode):
            self.scalar_stmt(n)
        elif isinstance(n, IfNode):
            self.scalar_if(n)

    def loop_set(self, n: LoopNode) -> tuple[IndexSet | None, bool]:
        """The values of ``n``'s variable this rank visits, and whether the
        statements inside have sets of their own (then they are guarded)."""
        sets = [self._var_set(s, n.var) for s in self.stmts_under(n)]
        if not sets:
            return IndexSet.empty(), False
        if all(s is None for s in sets):
            return None, False
        if any(s is None for s in sets):
            return None, True
        first = sets[0]
        if all(s == first for s in sets):
            return first, False
        lo = min(s.lo for s in sets if s)
        hi = max(s.hi for s in sets if s)
        return IndexSet.interval(lo, hi), True

    def python_loop(self, n: LoopNode, visit) -> None:
        em = self.em
        if not self.stmts_under(n):
            return
        s, _ = self.loop_set(n)
        a, b, st = self.bounds(n.do)
        r = em.fresh("r")
        em(f"{r} = _loop_values({a}, {b}, {st}, {self.const(s)})")
        em(f"if {r}:")
        with em.indent():
            self.open_loops.append(n)
            self.loop_checks(n, r)
            em(f"for v_{n.var} in {r}:")
            with em.indent():
                for c in n.children:
                    visit(c)
                em("pass")
            self.open_loops.pop()

    def guard(self, node: StmtNode) -> str | None:
        """When this rank runs the statement in the current Python iteration
        (None: always)."""
        conds = []
        for lp in self.open_loops:
            own = self._var_set(node, lp.var)
            loop_set, differs = self.loop_set(lp)
            if own is not None and (differs or loop_set is None):
                conds.append(self._member(f"v_{lp.var}", own))
        for d, owned in self.plan.guards.get(node.id, []):
            sub = node.stmt.target.subscripts[d]  # type: ignore[union-attr]
            saved, self.group = self.group, None
            conds.append(self._member(self.ex.int_expr(sub), owned))
            self.group = saved
        return " and ".join(conds) if conds else None

    def _member(self, code: str, s: IndexSet) -> str:
        if not s:
            return "False"
        if s.is_interval:
            return f"({s.lo} <= {code} <= {s.hi})"
        return f"({code} in {self.const(s)})"

    def scalar_if(self, n: IfNode) -> None:
        em = self.em
        under = self.stmts_under(n)
        if not under:
            return
        guards = [self.guard(s) for s in under]
        opened = 0
        if all(g is not None for g in guards):
            em(f"if {' or '.join(f'({g})' for g in dict.fromkeys(guards))}:")
            em.level += 1
            opened += 1
        for cond, body in n.branches:
            if cond is None:
                em("if True:")
            else:
                em(f"if {self.ex.typed(cond, ir.LOGICAL)}:")
            with em.indent():
                for c in body:
                    self.node(c)
                em("pass")
            if cond is not None and (cond, body) != n.branches[-1]:
                em("else:")
                em.level += 1
                opened += 1
        em.level -= opened

    def scalar_stmt(self, node: StmtNode) -> None:
        if not self.plan.executes.get(node.id, False):
            return
        em = self.em
        s = node.stmt
        self.ex.span = s.span
        em.where = (s.span.file, s.span.first)
        g = self.guard(node)
        if g is not None:
            em(f"if {g}:")
            em.level += 1
        t = self.ex.type_of_name(s.target.name)  # type: ignore[union-attr]
        value = self.ex.typed(s.value, t)
        if isinstance(s.target, ir.Name):
            em(f"v_{s.target.name} = {value}")
        else:
            em(f"S_{s.target.name}[{self.positions(s.target)}] = {value}")
        if g is not None:
            em.level -= 1

def fast_source(shape: PhaseShape, plan: GenPlan, facts: ProgramFacts, name: str = "_phase"
                ) -> tuple[str, dict[int, tuple[str, int]]]:
    """The source of the phase function and its map back to Fortran lines."""
    gen = FastGen(shape, plan, facts, name)
    src = gen.source()
    return src, gen.linemap
