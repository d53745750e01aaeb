"""Array references and index checks of a phase's fast function (a part of
:class:`~autodist.runtime.codegen.fastgen.FastGen`): storage positions of
subscripts, vector views and selectors, and the bound checks of every
subscript, hoisted out of the loops they do not depend on (see
:mod:`autodist.runtime.codegen.fastgen`)."""

from __future__ import annotations

from ... import ir
from . import intrinsic_code as ic
from .emitter import Code
from .vectorize import IfNode, LoopNode, StmtNode


def subscript_rest(sub: ir.Expr, var: str, coef: int) -> ir.Expr:
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


class References:
    """Subscripts and checks; mixed into ``FastGen``, whose state it uses."""

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
            rest = subscript_rest(sub, v, c1)
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
            self.check(code, st.bounds[d], f"{name} dimension {d + 1}")
        code = self.position_code(sub, st.slo[d])
        self.group = saved
        return code

    # ---------------------------------------------------------------- checks

    def check(self, code: str, bounds: tuple[int, int], what: str) -> None:
        """Emit the check of one subscript against its declared ``bounds``."""
        self.em(f"_check({code}, {bounds[0]}, {bounds[1]}, {what!r})")

    def span_check(self, r: str, c1: int, c0: str, bounds: tuple[int, int], what: str) -> None:
        """Emit the check of ``c1 * v + c0`` at both ends of the values ``r`` of a loop."""
        self.em(f"_check_span({r}[0], {r}[-1], {c1}, {c0}, {bounds[0]}, {bounds[1]}, {what!r})")

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
                    self.check(self.ex.int_expr(sub), st.bounds[d], f"{x.name} dimension {d + 1}")

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
                    c0 = self.ex.int_expr(subscript_rest(sub, v, a.coef(v)))
                    self.span_check(r, a.coef(v), c0, st.bounds[d], f"{x.name} dimension {d + 1}")
