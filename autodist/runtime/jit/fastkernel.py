"""The compiled kernel of a loop phase under one plan: plain loops in Fortran order.

:class:`JitFastGen` is the fast path's code generator
(:class:`~autodist.runtime.codegen.fastgen.FastGen`) with no loop chain
vectorized: every DO of the phase stays a loop, in the source's order, over
the values this rank runs (the plan's iteration sets, baked into the source
as constants), with the same ownership guards, the same storage positions
and the same hoisted subscript checks — the code the Python path runs for
the loops it does not vectorize, which numba compiles.  What differs is how
the code is written, not what it computes:

* the kernel takes every array's storage as an argument (``S_X``), flat (a
  view in Fortran order: see :meth:`JitFastGen.positions`), then the
  members of the sets that are not intervals (``_K0``, ...), then the
  interval of the plan's free loop variable (``_BLO``, ``_BHI``: see
  ``GenPlan.free``), then the phase's scalars;
* a loop over an interval is ``range`` of :func:`~.helpers.clip` (the loop's
  range cut to the set), over another set the array of its members the loop
  visits (:func:`~.helpers.values_in`);
* checks fault at numbered sites (:mod:`.faults`).
"""

from __future__ import annotations

from ... import ir
from ...layout.sections import IndexSet
from ..codegen.fastgen import FastGen, GenPlan, Storage, _FastExpr
from ..codegen.vectorize import LoopNode, PhaseShape
from ..codegen.facts import ProgramFacts
from .expr import JitExpr
from .faults import Sites

_WIDE = 1 << 62  # the bounds of a loop no set restricts


def _typed(*codes: str) -> str:
    """Helper arguments with their integer constants as int64 values: numba
    compiles a helper anew for every tuple of literal arguments it is called
    with (17 specializations of ``clip`` for one 4-rank program), and once for
    int64 ones."""
    out = []
    for c in codes:
        c = str(c)
        out.append(f"np.int64({c})" if c.lstrip("-").isdigit() else c)
    return ", ".join(out)


class _JitFastExpr(JitExpr, _FastExpr):
    def __init__(self, gen: "JitFastGen"):
        super().__init__(gen)
        self.sites = gen.sites
        self.chains = gen.chains


class JitFastGen(FastGen):
    """Writes the compiled kernel of one phase under one plan (see the module docstring)."""

    def __init__(self, shape: PhaseShape, plan: GenPlan, facts: ProgramFacts, name: str):
        self.sites = Sites()
        self.chains: set[int] = set()
        super().__init__(shape, plan, facts, name)
        self.ex = _JitFastExpr(self)
        self.chain_roots = {}  # nothing vectorized
        self._values: dict[str, bool] = {}  # loop values variable -> holds set members (not a range)

    def head(self) -> list[str]:
        params = [f"S_{n}" for n in self.plan.store] + [f"_K{k}" for k in range(len(self.plan.constants))]
        params += ["_BLO", "_BHI"] if self.plan.free else []
        params += [f"v_{n}" for n in self.shape.ins]
        return [f"def {self.name}({', '.join(params)}):"]

    def positions(self, e: ir.Index) -> str:
        """The element's position in its storage taken flat, in Fortran order,
        the storage's extents written in as constants: ``S_X[np.uint64(p0 +
        256 * p1)]``.  Indexed so, the compiler knows how far apart the
        columns of an array lie and vectorizes the loops (2-D indexing of
        arrays of run-time strides, negative positions wrapping around, kept
        the ADI sweeps scalar: 2 ns an element instead of 0.3)."""
        st = self.plan.store[e.name]
        codes = [self.positions_one(e.name, d, sub) for d, sub in enumerate(e.subscripts)]
        return f"np.uint64({flat_position(codes, storage_shape(st))})"

    def const(self, value: IndexSet | None) -> str:
        code = super().const(value)
        return code.replace("_K[", "_K").replace("]", "")

    def _member(self, code: str, s: IndexSet) -> str:
        if not s or s.is_interval:
            return super()._member(code, s)
        return f"member({code}, {self.const(s)})"

    def check(self, code: str, bounds: tuple[int, int], what: str) -> None:
        site = self.sites.index(what, self.em.where)
        self.em(f"check({site}, {code}, {bounds[0]}, {bounds[1]})")

    def span_check(self, r: str, c1: int, c0: str, bounds: tuple[int, int], what: str) -> None:
        site = self.sites.index(what, self.em.where)
        if self._values[r]:
            for end in (f"{r}[0]", f"{r}[len({r}) - 1]"):
                self.em(f"check({site}, {c1} * {end} + {c0}, {bounds[0]}, {bounds[1]})")
        else:
            self.em(f"span_check({_typed(site)}, {r}[0], {r}[1], {r}[2], {_typed(c1, c0, bounds[0], bounds[1])})")

    def python_loop(self, n: LoopNode, visit) -> None:
        em = self.em
        if not self.stmts_under(n):
            return
        s, _ = self.loop_set(n)
        if s is not None and not s:
            return
        a, b, st = self.bounds(n.do)
        em.where = (n.do.span.file, n.do.span.first)
        site = self.sites.message("DO loop with a zero step", em.where)
        r = em.fresh("r")
        if s is None or s.is_interval:
            lo, hi = (-_WIDE, _WIDE) if s is None else ("_BLO", "_BHI") if n.var == self.plan.free else (s.lo, s.hi)
            em(f"{r} = clip({_typed(site, a, b, st, lo, hi)})")
            self._values[r] = False
            # the step is a constant of the fast path: written as one, the loop compiles as a counted loop
            em(f"if len(range({r}[0], {r}[1], {st})):")
            header = f"for v_{n.var} in range({r}[0], {r}[1], {st}):"
        else:
            em(f"if {st} == 0:")
            em(f"    raise JitFault({site}, 0, 0, 0, -1)")
            em(f"{r} = values_in({a}, {b}, {st}, {self.const(s)})")
            self._values[r] = True
            em(f"if len({r}):")
            header = f"for v_{n.var} in {r}:"
        with em.indent():
            self.open_loops.append(n)
            self.loop_checks(n, r)
            em(header)
            with em.indent():
                for c in n.children:
                    visit(c)
                em("pass")
            self.open_loops.pop()


def storage_shape(st: Storage) -> tuple[int, ...]:
    """The extents of the storage the plan's code indexes (see ``Storage``)."""
    return tuple(max(hi - lo + 1, 0) for lo, hi in zip(st.slo, st.shi))


def flat_position(codes: list[str], extents: tuple[int, ...]) -> str:
    """``p0 + e0 * (p1 + e1 * p2)``: positions along each dimension taken flat in Fortran order."""
    acc = codes[-1]
    for code, ext in zip(reversed(codes[:-1]), reversed(extents[:-1])):
        acc = f"{code} + {ext} * ({acc})"
    return acc


def kernel_source(shape: PhaseShape, plan: GenPlan, facts: ProgramFacts, name: str) -> tuple[str, Sites]:
    """The module body of the phase's kernel under ``plan`` (its own constants
    list is filled), and its fault sites."""
    gen = JitFastGen(shape, plan, facts, name)
    fn = gen.source()
    from .expr import chain_source

    chains = "".join(chain_source(n) + "\n" for n in sorted(gen.chains))
    return f"{chains}@njit\n{fn}", gen.sites


def ins_types(shape: PhaseShape) -> list[ir.Type]:
    """The Fortran types of the phase's scalars in the order the kernel takes them."""
    return [shape.unit.symbol(n).type for n in shape.ins]
