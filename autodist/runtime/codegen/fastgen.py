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
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ... import ir
from ...layout.sections import IndexSet
from . import intrinsic_code as ic
from .emitter import Code, Emitter, ExprGen
from .facts import ProgramFacts
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


def _rest(sub: ir.Expr, var: str, coef: int) -> ir.Expr:
    """``sub - coef * var`` of an affine subscript, as an expression."""
    a = ir.affine(sub)
    assert a is not None
    out: ir.Expr = ir.Const(a.const, ir.INTEGER)
    for v, c in a.terms:
        if v == var:
            continue
        term: ir.Expr = ir.Name(v) if c == 1 else ir.BinOp("*", ir.Const(c, ir.INTEGER), ir.Name(v))
        out = term if isinstance(out, ir.Const) and out.value == 0 else ir.BinOp("+", out, term)
    return out


@dataclass
class _Group:
    """Statements of the chain that share their vector ranges; ``fancy`` when
    a range is not an arithmetic progression (positions are index arrays)."""

    gid: int
    sets: tuple
    fancy: bool = False


def _arithmetic(s: IndexSet | None) -> bool:
    return s is None or not s or s.is_interval or (len(s.runs) == 1 and s.runs[0][1] - s.runs[0][0] == 1)


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


class FastGen:
    """Writes the fast function of one phase under one plan."""

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
        self.group: _Group | None = None
        self.groups: dict[tuple, _Group] = {}
        self.stmt_group: dict[int, _Group] = {}
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
        head = [f"def {self.name}(_c{''.join(', v_' + n for n in sh.ins)}):"]
        head += [f"    S_{name} = _c.store[{name!r}]" for name in self.plan.store]
        first = len(head)
        head += ["    " + line for line, _ in self.prelude]
        shift = len(head)
        self.linemap = {k + shift: v for k, v in body.linemap.items()}
        for k, (_, where) in enumerate(self.prelude):
            if where is not None:
                self.linemap[first + k + 1] = where
        return "\n".join(head + body.lines) + "\n"

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

    # ---------------------------------------------------------------- references

    def positions(self, e: ir.Index) -> str:
        return ", ".join(self.positions_one(e.name, d, sub) for d, sub in enumerate(e.subscripts))

    def position_code(self, sub: ir.Expr, offset: int) -> str:
        """Code of ``sub - offset``, folded when ``sub`` is affine in integer
        scalars (``v_J - 2`` rather than ``(v_J - 1) - 1``)."""
        a = ir.affine(sub)
        if a is None or any(self.ex.type_of_name(v).base != "integer" or v in self.ex.subst for v, _ in a.terms):
            code = self.ex.int_expr(sub)
            return f"{code} - {offset}" if offset else code
        terms = [(f"v_{v}" if c == 1 else f"{c} * v_{v}") for v, c in a.terms]
        const = a.const - offset
        if not terms:
            return str(const)
        code = " + ".join(terms).replace("+ -", "- ")
        return f"{code} + {const}" if const > 0 else (f"{code} - {-const}" if const < 0 else code)

    def reference(self, e: ir.Index) -> Code:
        t = self.ex.type_of_name(e.name)
        if self.group is None or not any(ir.names(s) & self.chain for s in e.subscripts):
            code = f"S_{e.name}[{self.positions(e)}]"
            k = ic.kind(t)
            if k == "i":
                code = f"int({code})"
            elif k == "l":
                code = f"bool({code})"
            return (code, t, False)
        code, order = self.vector_view(e)
        axes = self.axes
        canon = [v for v in axes if v in order]
        if order != canon:
            code = f"{code}.transpose({tuple(order.index(v) for v in canon)})"
        if len(canon) < len(axes):
            code = f"{code}[{', '.join(':' if v in canon else 'None' for v in axes)}]"
        return (code, t, True)

    def vector_view(self, e: ir.Index) -> tuple[str, list[str]]:
        """``S_X[...]`` over the current group's ranges, and the chain
        variables of its axes in order."""
        grp = self.group
        assert grp is not None
        st = self.plan.store[e.name]
        items: list[str] = []
        order: list[str] = []
        for d, sub in enumerate(e.subscripts):
            a = ir.affine(sub)
            vs = [v for v in (a.vars if a else ()) if v in self.chain]
            if not vs:
                saved, self.group = self.group, None
                items.append(self.positions_one(e.name, d, sub))
                self.group = saved
                continue
            v = vs[0]
            c1 = a.coef(v)
            rest = _rest(sub, v, c1)
            saved, self.group = self.group, None
            c0 = self.ex.int_expr(rest)
            self.group = saved
            what = f"{e.name} dimension {d + 1}"
            sel = (f"_sel(_vr{grp.gid}_{v}, {c1}, {c0}, {st.bounds[d][0]}, {st.bounds[d][1]}, "
                   f"{st.slo[d]}, {st.shi[d]}, {what!r})")
            items.append(self.selectors.get(sel, sel))
            order.append(v)
        self.last_items = f"S_{e.name}, ({', '.join(items)},)"
        if grp.fancy:
            return f"_fancy_get({self.last_items})", order
        return f"S_{e.name}[{', '.join(items)}]", order

    def positions_one(self, name: str, d: int, sub: ir.Expr) -> str:
        st = self.plan.store[name]
        saved, self.group = self.group, None
        if (ir.names(sub) & self.assigned) - self.loop_vars:
            code = self.ex.int_expr(sub)
            self.em(f"_check({code}, {st.bounds[d][0]}, {st.bounds[d][1]}, {name + ' dimension ' + str(d + 1)!r})")
        code = self.position_code(sub, st.slo[d])
        self.group = saved
        return code

    # ---------------------------------------------------------------- checks

    def _refs(self, node: StmtNode) -> list[ir.Index]:
        out = [x for e in node.stmt.exprs() for x in e.walk() if isinstance(x, ir.Index)]
        for n in self._ifs_over(node):
            for cond, _ in n.branches:
                if cond is not None:
                    out += [x for x in cond.walk() if isinstance(x, ir.Index)]
        return out

    def _ifs_over(self, node: StmtNode) -> list[IfNode]:
        out: list[IfNode] = []

        def walk(nodes, stack) -> bool:
            for n in nodes:
                if n is node:
                    out.extend(stack)
                    return True
                if isinstance(n, LoopNode) and walk(n.children, stack):
                    return True
                if isinstance(n, IfNode):
                    for _, ch in n.branches:
                        if walk(ch, stack + [n]):
                            return True
            return False
        walk([self.shape.root], [])
        return out

    def hoisted_checks(self) -> None:
        """Subscripts without loop variables: checked once per execution."""
        seen = set()
        for node in self.shape.stmts:
            if not self.plan.executes.get(node.id, False):
                continue
            self.em.where = (node.stmt.span.file, node.stmt.span.first)
            for x in self._refs(node):
                st = self.plan.store[x.name]
                for d, sub in enumerate(x.subscripts):
                    if ir.names(sub) & self.assigned or (x.name, d, sub) in seen:
                        continue
                    seen.add((x.name, d, sub))
                    self.em(f"_check({self.ex.int_expr(sub)}, {st.bounds[d][0]}, {st.bounds[d][1]}, "
                            f"{x.name + ' dimension ' + str(d + 1)!r})")

    def loop_checks(self, n: LoopNode, r: str) -> None:
        """On entry to a Python loop: subscripts whose innermost loop variable
        is this one stay inside the declared bounds over the whole range."""
        v = n.var
        seen = set()
        for node in self.stmts_under(n):
            self.em.where = (node.stmt.span.file, node.stmt.span.first)
            for x in self._refs(node):
                st = self.plan.store[x.name]
                for d, sub in enumerate(x.subscripts):
                    names = ir.names(sub)
                    if v not in names or names & self.chain or (names & self.assigned) - self.loop_vars:
                        continue
                    if [u for u in node.loops if u in names][-1] != v or (x.name, d, sub) in seen:
                        continue
                    seen.add((x.name, d, sub))
                    a = ir.affine(sub)
                    c0 = self.ex.int_expr(_rest(sub, v, a.coef(v)))
                    self.em(f"_check_span({r}[0], {r}[-1], {a.coef(v)}, {c0}, {st.bounds[d][0]}, "
                            f"{st.bounds[d][1]}, {x.name + ' dimension ' + str(d + 1)!r})")

    # ---------------------------------------------------------------- the chain

    def vector_context(self, root: LoopNode) -> None:
        em = self.em
        loops = [self.shape.loop_at(line) for line in self.chain_roots[root.line]]
        inner = loops[-1]
        stmts = self.stmts_under(inner)
        if not stmts:
            return
        self.cur = loops
        self.chain = {lp.var for lp in loops}
        self.axes = [lp.var for lp in reversed(loops)]  # canonical axes: the innermost loop first
        self.vector_privates = {n.stmt.target.name for n in stmts if isinstance(n.stmt.target, ir.Name)
                                and n.stmt.target.name in self.shape.privates}
        for node in stmts:
            key = (root.line,) + tuple(self._var_set(node, lp.var) for lp in loops)
            if key not in self.groups:
                self.groups[key] = _Group(len(self.groups), key[1:], not all(_arithmetic(x) for x in key[1:]))
            self.stmt_group[node.id] = self.groups[key]
        # the set-up is hoisted to the start when it depends on nothing the
        # loops around or the phase itself change
        free = set()
        for lp in loops:
            free |= ir.names(lp.do.start) | ir.names(lp.do.end)
        for node in stmts:
            for x in self._refs(node):
                for sub in x.subscripts:
                    a = ir.affine(sub)
                    vs = [u for u in (a.vars if a else ()) if u in self.chain]
                    if vs:
                        free |= ir.names(_rest(sub, vs[0], a.coef(vs[0])))
        hoist = not (free & self.assigned)
        setup = Emitter()
        setup.level = 0 if hoist else em.level
        axes = self.axes
        for grp in sorted({self.stmt_group[s.id].gid: self.stmt_group[s.id] for s in stmts}.values(),
                          key=lambda g: g.gid):
            for lp, s in zip(loops, grp.sets):
                a, b, st = self.bounds(lp.do)
                setup(f"_vr{grp.gid}_{lp.var} = _vec_range({a}, {b}, {st}, {self.const(s)})")
            setup(f"_n{grp.gid} = {' * '.join(f'_vr{grp.gid}_{lp.var}.n' for lp in loops)}")
            for v in [lp.var for lp in loops]:
                dims = ["1"] * len(axes)
                dims[axes.index(v)] = "-1"
                setup(f"_V{grp.gid}_{v} = _vr{grp.gid}_{v}.array().reshape(({', '.join(dims)},))")
            setup(f"_shape{grp.gid} = ({''.join(f'_vr{grp.gid}_{v}.n, ' for v in axes)})")
        # selectors of references whose offsets are fixed during the phase
        for node in stmts:
            self.group = self.stmt_group[node.id]
            setup.where = (node.stmt.span.file, node.stmt.span.first)
            for x in self._refs(node):
                st = self.plan.store[x.name]
                for d, sub in enumerate(x.subscripts):
                    a = ir.affine(sub)
                    vs = [u for u in (a.vars if a else ()) if u in self.chain]
                    if not vs:
                        continue
                    rest = _rest(sub, vs[0], a.coef(vs[0]))
                    if ir.names(rest) & self.assigned:
                        continue
                    saved, self.group = self.group, None
                    c0 = self.ex.int_expr(rest)
                    self.group = saved
                    sel = (f"_sel(_vr{self.group.gid}_{vs[0]}, {a.coef(vs[0])}, {c0}, {st.bounds[d][0]}, "
                           f"{st.bounds[d][1]}, {st.slo[d]}, {st.shi[d]}, {x.name + ' dimension ' + str(d + 1)!r})")
                    if sel not in self.selectors:
                        name = f"_s{len(self.selectors)}"
                        self.selectors[sel] = name
                        setup(f"{name} = {sel} if _n{self.group.gid} else None")
            self.group = None
        if hoist:
            self.prelude.extend((line, setup.linemap.get(k + 1)) for k, line in enumerate(setup.lines))
        else:
            for k, line in enumerate(setup.lines):
                em.lines.append(line)
                if k + 1 in setup.linemap:
                    em.linemap[len(em.lines)] = setup.linemap[k + 1]
        gids = {self.stmt_group[s.id].gid for s in stmts}
        self.one_group = gids.pop() if len(gids) == 1 else None
        if self.one_group is not None:
            em(f"if _n{self.one_group}:")
            em.level += 1
        for c in inner.children:
            self.vector_node(c, None)
        em("pass")
        if self.one_group is not None:
            em.level -= 1
        self.one_group = None
        self.cur, self.chain, self.axes, self.vector_privates = [], set(), [], set()

    def vector_node(self, n, mask: dict[int, str] | None) -> None:
        if isinstance(n, LoopNode):
            self.python_loop(n, lambda c: self.vector_node(c, mask))
        elif isinstance(n, StmtNode):
            self.vector_stmt(n, mask)
        elif isinstance(n, IfNode):
            self.vector_if(n, mask)

    def vector_if(self, n: IfNode, mask: dict[int, str] | None) -> None:
        """Masks of every branch, per group, computed before any branch runs."""
        em = self.em
        under = self.stmts_under(n)
        if not under:
            return
        groups = sorted({self.stmt_group[s.id].gid: self.stmt_group[s.id] for s in under}.values(),
                        key=lambda g: g.gid)
        branch_masks: list[dict[int, str]] = [dict() for _ in n.branches]
        for grp in groups:
            self.group = grp
            em(f"if _n{grp.gid}:")
            with em.indent():
                taken = None
                for k, (cond, _) in enumerate(n.branches):
                    parts = []
                    if mask is not None and grp.gid in mask:
                        parts.append(mask[grp.gid])
                    if taken is not None:
                        parts.append(f"~{taken}")
                    if cond is not None:
                        c = em.fresh("c")
                        em(f"{c} = _expand({self.ex.typed(cond, ir.LOGICAL)}, _shape{grp.gid})")
                        parts.append(c)
                        nt = em.fresh("t")
                        em(f"{nt} = {c if taken is None else f'({taken} | {c})'}")
                        taken = nt
                    m = em.fresh("m")
                    em(f"{m} = {' & '.join(parts) if parts else '_expand(True, _shape' + str(grp.gid) + ')'}")
                    branch_masks[k][grp.gid] = m
            self.group = None
        for (_, body), bm in zip(n.branches, branch_masks):
            for c in body:
                self.vector_node(c, bm)

    def vector_stmt(self, node: StmtNode, mask: dict[int, str] | None) -> None:
        if not self.plan.executes.get(node.id, False):
            return
        em = self.em
        s = node.stmt
        grp = self.stmt_group[node.id]
        self.ex.span = s.span
        em.where = (s.span.file, s.span.first)
        m = mask.get(grp.gid) if mask else None
        g = self.guard(node)
        self.group = grp
        conds = ([] if self.one_group == grp.gid else [f"_n{grp.gid}"]) + ([g] if g else [])
        em(f"if {' and '.join(conds) or 'True'}:")
        with em.indent():
            t = self.ex.type_of_name(s.target.name)  # type: ignore[union-attr]
            if isinstance(s.target, ir.Name):
                name = s.target.name
                if node.reduction is not None and name in self.shape.reductions:
                    self.reduction_stmt(node, t, m)
                else:
                    value = self.ex.typed(s.value, t)
                    if not m and isinstance(s.value, ir.Index):
                        value = f"np.array({value})"  # a view of the storage: keep the values
                    em(f"v_{name} = {f'np.where({m}, {value}, v_{name})' if m else value}")
            else:
                inplace = None if (m or grp.fancy) else self.compound(s, t)
                if inplace is not None:
                    op, other = inplace
                    view, order = self.vector_view(s.target)
                    if order == self.axes:
                        em(f"{view} {op}= {other}")
                        self.group = None
                        return
                value = self.ex.typed(s.value, t)
                view, order = self.vector_view(s.target)
                axes = self.axes
                if order != axes:
                    perm = tuple(axes.index(v) for v in order)
                    value = f"np.transpose(_expand({value}, _shape{grp.gid}), {perm})"
                    m = f"np.transpose({m}, {perm})" if m else None
                if m:
                    value = f"np.where({m}, {value}, {view})"
                if grp.fancy:
                    em(f"_fancy_set({self.last_items}, {value})")
                else:
                    em(f"{view} = {value}")
        self.group = None

    def compound(self, s: ir.Assign, t: ir.Type) -> tuple[str, str] | None:
        """``X = X op e`` (or ``e op X`` for + and *) as an in-place numpy
        operation: the same IEEE operation on the same operands, one
        temporary less.  None when the form or the types do not allow it."""
        v = s.value
        if not isinstance(v, ir.BinOp) or v.op not in ("+", "-", "*", "/") or ic.kind(t) not in ("r4", "r8"):
            return None
        if v.left == s.target:
            other = v.right
        elif v.right == s.target and v.op in ("+", "*"):
            other = v.left
        else:
            return None
        ot = self.ex.type_of(other)
        if ic.widest_type(t, ot) != t:
            return None
        return v.op, self.ex.typed(other, t)

    def reduction_stmt(self, node: StmtNode, t: ir.Type, mask: str | None) -> None:
        s = node.stmt
        name = s.target.name  # type: ignore[union-attr]
        v = s.value
        gid = self.group.gid  # type: ignore[union-attr]
        if node.reduction in ("+", "*"):
            assert isinstance(v, ir.BinOp)
            other = v.right if v.left == s.target else v.left
            term = f"_expand({self.ex.typed(other, t)}, _shape{gid})"
            if v.op == "-":
                term = f"(-{term})"
            fn = "_red_sum" if node.reduction == "+" else "_red_prod"
            self.em(f"v_{name} = {fn}(v_{name}, {term}, {mask or 'None'})")
            return
        assert isinstance(v, ir.FuncRef)
        fn = "_red_max" if node.reduction == "max" else "_red_min"
        for o in v.args:
            if o != s.target:
                self.em(f"v_{name} = {fn}(v_{name}, {self.ex.typed(o, t)}, {mask or 'None'})")


def fast_source(shape: PhaseShape, plan: GenPlan, facts: ProgramFacts, name: str = "_phase"
                ) -> tuple[str, dict[int, tuple[str, int]]]:
    """The source of the phase function and its map back to Fortran lines."""
    gen = FastGen(shape, plan, facts, name)
    src = gen.source()
    return src, gen.linemap
