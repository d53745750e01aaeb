"""What a legal program's subscripts say about its sizes.

A Fortran 77 program references an array element only inside the array's
declared bounds.  So a reference that surely runs when a read runs tells
the kill analysis (:mod:`.kills`) an inequality between the sizes the
program is written in: NPB SP's line solves write their work array over
``0..GRID_POINTS(1)-1`` (the boundary rows by a callee, the interior by a
loop), update it at ``I = 1, 2`` and at ``I = GRID_POINTS(1)-3`` of an array
declared ``LHS(5, 0:IMAXP, 0:IMAXP)``, and the second update is legal only
when ``GRID_POINTS(1) >= 3``: then the reads at 1 and 2 are inside what was
written.  Nothing else gives that bound (the grid size is read from input).

:func:`region_facts` collects, in one pass over the statements a walk goes
through, the *facts* ``form >= 0`` of every array reference of an
assignment: one per side of each subscript whose affine form is in
variables that keep their values in the region, against the declared bound
of a local or COMMON array (a dummy may be declared ``X(1)`` and indexed
past it, the old "any size" idiom).  A subscript in the variables of the
loops around the reference is taken at the values the loop surely takes
when it runs: its first value, and its last one for a unit step (when the
bounds of the loops inside do not depend on it: they run at every value).

A fact holds at a read when the reference surely runs whenever the read
does:

* *needs*: each loop around the reference runs: it is one of the loops
  around the read, or its range holds the range of one of them (which is
  not empty, as the read runs), or its range is surely not empty;
* *segment*: the reference comes before the read, or after it with no
  statement between them that may not complete (a CALL or function
  reference, which may STOP; STOP, RETURN, I/O, a DO WHILE, which may not
  end).  The statements are numbered in the order the walk meets them, a
  new segment after each such statement; a fact from a reference at its
  loop's last value counts from the end of that loop.  In a region with a
  jump (GO TO, arithmetic IF, I/O END=/ERR=) or an unmodelled statement,
  a reference before the read may have been jumped over: no facts.

References under an IF or in a DO WHILE give no facts (they may not run).
:func:`proves` decides ``form >= 0`` from facts (Fourier-Motzkin,
:mod:`.polyhedra`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import ir
from .boxes import Bounds, Box, aff, base, le
from .polyhedra import feasible


@dataclass(frozen=True)
class Need:
    """A loop that runs when the reference runs: the DO statement and its
    range ``lo <= hi`` (None when its bounds are not stable affine forms)."""

    loop: int  # id of the DO statement
    lo: ir.Affine | None
    hi: ir.Affine | None


@dataclass(frozen=True)
class Fact:
    """``form >= 0`` once the loops of ``needs`` run, from a reference in
    ``segment`` (taken at the last value of the loops of ``last``, by id)."""

    form: ir.Affine
    needs: tuple[Need, ...]
    segment: int
    last: frozenset[int] = frozenset()


@dataclass
class Facts:
    """The facts of one region and the segment of each of its statements."""

    facts: list[Fact] = field(default_factory=list)
    segments: dict[int, int] = field(default_factory=dict)  # id(stmt) -> segment
    _proved: dict = field(default_factory=dict)
    _groups: dict | None = None  # needs -> [(segment, form)], first segment first
    _at: dict = field(default_factory=dict)

    def at(self, stmt: ir.Stmt | None, loops: list[tuple[int, Bounds | None]]) -> tuple[ir.Affine, ...]:
        """The facts that hold when a read of ``stmt`` runs inside ``loops``
        (the DO statements around it in the region, by id, with their
        ranges when known)."""
        if not self.facts or stmt is None:
            return ()
        seg = self.segments.get(id(stmt))
        if seg is None:
            return ()
        key = (seg, tuple(loops))
        hit = self._at.get(key)
        if hit is not None:
            return hit
        if self._groups is None:
            groups: dict = {}
            for f in self.facts:
                g = groups.setdefault(f.needs, {})
                g[f.form] = min(g.get(f.form, f.segment), f.segment)
            self._groups = {n: sorted(((sg, form) for form, sg in g.items()), key=lambda x: x[0])
                            for n, g in groups.items()}
        out: dict = {}
        for needs, group in self._groups.items():
            if group[0][0] > seg or not all(_met(n, loops) for n in needs):
                continue
            for sg, form in group:
                if sg > seg:
                    break
                out[form] = None
        self._at[key] = hit = tuple(out)
        return hit

    def proves(self, form: ir.Affine, known: tuple[ir.Affine, ...]) -> bool:
        key = (form, known)
        hit = self._proved.get(key)
        if hit is None:
            hit = self._proved[key] = proves(form, known)
        return hit

    def contains(self, c: Box, r: Box, decl: list | None, known: tuple[ir.Affine, ...]) -> bool:
        """Does ``c`` contain the read box ``r`` given ``known`` (and, as
        :func:`.boxes.within`, that ``r`` lies inside the declared bounds ``decl``)?"""
        if len(c) != len(r) or (decl is not None and len(decl) != len(r)):
            return False
        for k, ((cl, ch), (rl, rh)) in enumerate(zip(c, r)):
            dl, dh = decl[k] if decl is not None else (None, None)
            if not (le(cl, rl) or (dl is not None and cl == dl) or self.proves(rl - cl, known)):
                return False
            if not (le(rh, ch) or (dh is not None and ch == dh) or self.proves(ch - rh, known)):
                return False
        return True


def _met(need: Need, loops: list[tuple[int, Bounds | None]]) -> bool:
    if need.lo is not None and need.hi is not None and le(need.lo, need.hi):
        return True  # surely runs
    for node, rng in loops:
        if node == need.loop:
            return True
        if rng is not None and need.lo is not None and need.hi is not None \
                and le(need.lo, rng[0]) and le(rng[1], need.hi):
            return True  # need.lo <= lo <= hi <= need.hi
    return False


#: at most this many facts are given to the Fourier-Motzkin test
MAX_FACTS = 24


def proves(form: ir.Affine, known: tuple[ir.Affine, ...]) -> bool:
    """Does ``form >= 0`` follow from ``known >= 0`` (integers)?"""
    if form.is_const:
        return form.const >= 0
    for f in known:
        d = form - f
        if d.is_const and d.const >= 0:
            return True
    # the facts sharing variables with the form, transitively
    names = set(form.vars)
    chosen: list[ir.Affine] = []
    rest = list(known)
    grew = True
    while grew and len(chosen) < MAX_FACTS:
        grew = False
        for f in list(rest):
            if names & set(f.vars):
                chosen.append(f)
                rest.remove(f)
                names |= set(f.vars)
                grew = True
    if not chosen:
        return False
    # form <= -1 contradicts the facts?
    neg = -form
    system = [(dict(neg.terms), neg.const - 1)] + [(dict(f.terms), f.const) for f in chosen[:MAX_FACTS]]
    return not feasible([], system)


# ---------------------------------------------------------------- collecting


def _declared(unit: ir.Unit, name: str) -> list[tuple[ir.Affine | None, ir.Affine | None]] | None:
    sym = unit.symbol(name)
    if sym is None or not sym.is_array or sym.dummy or not sym.dims:
        return None
    out = []
    for d in sym.dims:
        lo = aff(d.lower) if d.lower is not None else None
        hi = aff(d.upper) if d.upper is not None else None
        out.append((lo, hi))
    return out


def _barrier(s: ir.Stmt) -> bool:
    """May ``s`` not complete (so that what follows it does not run)?"""
    return isinstance(s, (ir.Call, ir.Stop, ir.Return, ir.Io, ir.Goto, ir.ComputedGoto, ir.ArithIf, ir.Opaque)) \
        or bool(ir.external_calls(s))


def _jumpy(region: tuple[ir.Stmt, ...]) -> bool:
    return any(ir.branch_targets(s) or isinstance(s, ir.Opaque) for s in ir.walk(region))


_CACHE: dict = {}
#: the caches are emptied past this many entries
MAX_CACHED = 20_000


def region_facts(unit: ir.Unit, region: tuple[ir.Stmt, ...], unstable: set[str],
                 stop_at: ir.Stmt | None = None, pins: tuple = ()) -> Facts:
    """The facts of ``region`` (see the module's doc); ``unstable`` the
    variables the region may change; ``stop_at`` a statement the walk skips
    (treated as one that may not complete).  Cached by the identities of
    ``pins`` (the objects the facts are computed from), when given."""
    key = tuple(id(x) for x in pins)
    if pins:
        hit = _CACHE.get(key)
        if hit is not None and all(a is b for a, b in zip(hit[0], pins)):
            return hit[1]
    out = _Collector(unit, unstable, stop_at).run(region)
    if pins:
        if len(_CACHE) > MAX_CACHED:
            _CACHE.clear()
        _CACHE[key] = (pins, out)
    return out


class _Collector:
    def __init__(self, unit: ir.Unit, unstable: set[str], stop_at: ir.Stmt | None):
        self.unit = unit
        self.unstable = unstable
        self.stop_at = stop_at
        self.out = Facts()
        self.seg = 0
        self.collect = True

    def run(self, region: tuple[ir.Stmt, ...]) -> Facts:
        self.collect = not _jumpy(region)
        self.visit(region, [], True)
        if not self.collect:
            self.out.facts.clear()
        return self.out

    def stable(self, a: ir.Affine | None, inner: set[str]) -> bool:
        return a is not None and not any(base(v) in self.unstable or v in inner for v in a.vars)

    def visit(self, stmts: tuple[ir.Stmt, ...], loops: list, runs: bool) -> None:
        # loops: (DO statement, Need, step, start, end as affine forms) around
        for s in stmts:
            self.out.segments[id(s)] = self.seg
            if s is self.stop_at:
                self.seg += 1
                continue
            if isinstance(s, ir.Do):
                self.do(s, loops, runs)
            elif isinstance(s, ir.DoWhile):
                for b in s.blocks():
                    self.visit(b, loops, False)
                self.seg += 1
            elif isinstance(s, ir.If):
                if ir.external_calls(s):
                    self.seg += 1
                for b in s.blocks():
                    self.visit(b, loops, False)
            elif _barrier(s):
                self.seg += 1
                if runs and isinstance(s, ir.Assign):
                    self.reference_facts(s, loops)  # after the function references of the statement
            elif runs and isinstance(s, ir.Assign):
                self.reference_facts(s, loops)

    def do(self, s: ir.Do, loops, runs: bool) -> None:
        from .loops import step_of

        step = step_of(s)
        a, b = aff(s.start), aff(s.end)
        inner = {lp[0].var for lp in loops} | {s.var}
        lo = hi = None
        if step is not None and self.stable(a, inner) and self.stable(b, inner):
            lo, hi = (a, b) if step > 0 else (b, a)
        if ir.external_calls(s):
            self.seg += 1
        first = len(self.out.facts)
        self.visit(s.body, loops + [(s, Need(id(s), lo, hi), step, a, b)], runs)
        # a reference at the loop's last value has run once the loop is over
        for k in range(first, len(self.out.facts)):
            f = self.out.facts[k]
            if id(s) in f.last and f.segment < self.seg:
                self.out.facts[k] = Fact(f.form, f.needs, self.seg, f.last)

    def reference_facts(self, s: ir.Assign, loops) -> None:
        if not self.collect:
            return
        names = {lp[0].var for lp in loops}
        for e, dl, dh in _subscripts(self.unit, s):
            for value, lasts, needs in self.values(e, loops, names):
                for f in ((value - dl) if dl is not None else None, (dh - value) if dh is not None else None):
                    if f is None or f.is_const or not self.stable(f, names):
                        continue
                    self.out.facts.append(Fact(f, needs, self.seg, lasts))

    def values(self, e: ir.Affine, loops, names: set[str]):
        """``e`` at the values the loops around surely take: (form, the loops
        taken at their last value, the loops that must run).  A loop's
        variable is taken at its first or last value only when the bounds of
        the loops inside it do not depend on it (else they may not run there)."""
        needs = tuple(lp[1] for lp in loops)
        out = [(e, frozenset())]
        for k in range(len(loops) - 1, -1, -1):
            d, _, step, start, end = loops[k]
            inside = [b for lp in loops[k + 1:] for b in lp[3:5]]
            if any(b is None or b.coef(d.var) for b in inside):
                out = [(form, lasts) for form, lasts in out if not form.coef(d.var)]
                continue
            nxt = []
            for form, lasts in out:
                if not form.coef(d.var):
                    nxt.append((form, lasts))
                    continue
                if start is None or any(v in names for v in start.vars):
                    continue  # a triangular nest: its first value depends on another loop
                nxt.append((_subst(form, d.var, start), lasts))
                if step in (1, -1) and end is not None and not any(v in names for v in end.vars):
                    nxt.append((_subst(form, d.var, end), lasts | {id(d)}))
            out = nxt
        return [(form, lasts, needs) for form, lasts in out]


_SUBSCRIPTS: dict = {}


def _subscripts(unit: ir.Unit, s: ir.Stmt) -> list[tuple[ir.Affine, ir.Affine | None, ir.Affine | None]]:
    """The affine subscripts of the references of ``s`` to arrays with
    declared bounds, each with its dimension's bounds (cached)."""
    hit = _SUBSCRIPTS.get(id(s))
    if hit is not None and hit[0] is s and hit[1] is unit:
        return hit[2]
    out: dict = {}
    for x in ir.stmt_exprs(s):
        if not isinstance(x, ir.Index):
            continue
        decl = _declared(unit, x.name)
        if decl is None or len(decl) != len(x.subscripts):
            continue
        for sub, (dl, dh) in zip(x.subscripts, decl):
            if dl is None and dh is None:
                continue
            e = aff(sub)
            if e is not None:
                out[(e, dl, dh)] = None
    if len(_SUBSCRIPTS) > MAX_CACHED:
        _SUBSCRIPTS.clear()
    _SUBSCRIPTS[id(s)] = (s, unit, list(out))
    return list(out)


def _subst(a: ir.Affine, var: str, by: ir.Affine) -> ir.Affine:
    c = a.coef(var)
    rest = ir.Affine(a.const, tuple((v, k) for v, k in a.terms if v != var))
    return rest + by.scale(c)


__all__ = ["Fact", "Facts", "Need", "proves", "region_facts"]
