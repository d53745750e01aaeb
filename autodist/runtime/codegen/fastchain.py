"""The vectorized loop chains of a phase's fast function (a part of
:class:`~autodist.runtime.codegen.fastgen.FastGen`): the context of a chain
(its canonical axes, the vector ranges its statements share), its IFs as
masks, its statements as whole-array operations and its reductions (see
:mod:`autodist.runtime.codegen.vectorize` for what the code does)."""

from __future__ import annotations

from dataclasses import dataclass

from ... import ir
from ...layout.sections import IndexSet
from . import intrinsic_code as ic
from .emitter import Emitter
from .fastrefs import subscript_rest
from .vectorize import IfNode, LoopNode, StmtNode


@dataclass
class VectorGroup:
    """Statements of the chain that share their vector ranges; ``fancy`` when
    a range is not an arithmetic progression (positions are index arrays)."""

    gid: int
    sets: tuple
    fancy: bool = False


def _arithmetic(s: IndexSet | None) -> bool:
    return s is None or not s or s.is_interval or (len(s.runs) == 1 and s.runs[0][1] - s.runs[0][0] == 1)


class VectorChain:
    """The chains; mixed into ``FastGen``, whose state it uses."""

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
                self.groups[key] = VectorGroup(len(self.groups), key[1:], not all(_arithmetic(x) for x in key[1:]))
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
                        free |= ir.names(subscript_rest(sub, vs[0], a.coef(vs[0])))
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
                    rest = subscript_rest(sub, vs[0], a.coef(vs[0]))
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
