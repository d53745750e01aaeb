"""Kill and upward-exposed-read summaries across calls: which storage a
procedure writes on every path before reading it, and which part of the
value it holds at entry the procedure may read.

A *target* is one variable of a unit (a local, a dummy or a COMMON member)
or a COMMON slot the unit does not declare.  :class:`Walker` goes through a
list of statements once, in order, keeping the sections of the target that
are surely written so far (boxes whose bounds are affine forms in the
unit's variables; the variables of the loops around a statement stand for
the current iteration) and checking every read against them:

* an assignment writes the box of its subscripts; under an IF, in a DO WHILE
  or after a jump it covers nothing;
* at the end of a DO loop, the boxes written in its body become boxes over
  the loop's range when each is exactly the set written (unit step, the
  loop variable with coefficient +-1 in one subscript), or one box per value
  of a loop of a few values (``DO K = 0, N-1, N-1``: the two boundary
  planes), the others are dropped unless the loop surely runs;
* a read inside a loop body is covered when its box (for the current
  iteration, or over the ranges of the loops around it) lies inside a
  union of covered boxes (boxes that touch are merged), bounds compared
  as affine forms, knowing that the read lies inside the target's declared
  bounds and what the subscripts of the references that surely run with
  it say about the sizes (:mod:`.legality`: a legal program's reference
  at ``GP-3`` of rows from 0 means ``GP >= 3``);
* a CALL maps the callee's summary (:class:`KillSummary`) through the
  argument association (a whole array of the same shape up to the last
  dimension, or an element ``A(1,1,K,I)`` whose leading dimensions are the
  dummy's shape: the callee works on ``A(:,:,K,I)``) or the COMMON slot:
  the callee's exposed reads are reads at the call, its kills are writes.

Anything not understood (a subscript that is not affine, a variable of a
bound that changes, an array passed with another shape, a procedure not in
the program receiving the target) makes a read exposed with an unknown
section and adds no kill: the answer errs towards "not private".

Procedures not in the program (C timers) are assumed not to touch COMMON,
as :func:`autodist.analysis.program._common_readers` assumes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import ir
from .boxes import (Box, aff, as_name, association, base, box_substitution, contains, declared_bounds, le,
                    mentions, merge, signature, subst, uses, vars_of, within)
from .legality import Facts, region_facts
from .model import Effects
from .scalars import scalar_writes

Key = tuple  # ("arg", k) or ("common", slot)
#: more covered pieces than this are not merged (a read they would cover is exposed)
MAX_MERGED = 120
#: at the end of a loop, more covered pieces than this are replaced by their unions
COMPACT = 24


@dataclass(frozen=True)
class Access:
    """What one procedure does to one storage: ``exposed`` the boxes of the
    value at entry it may read (None: unknown, any of it), ``killed`` the
    boxes it writes on every path; both in the procedure's own variables
    (dummies, COMMON scalars, constants)."""

    exposed: tuple[Box, ...] | None
    killed: tuple[Box, ...]
    writes: bool


@dataclass(frozen=True)
class KillSummary:
    """Per procedure: its dummies' and COMMON slots' accesses (storage it
    does not touch is absent); ``opaque`` when it (or a callee) has a
    construct not modelled or calls a procedure outside the program."""

    name: str
    args: dict[int, Access] = field(default_factory=dict)
    commons: dict[ir.Slot, Access] = field(default_factory=dict)
    opaque: bool = False
    #: dummy scalars and COMMON scalars (by slot) the procedure may assign
    scalars_written: frozenset = frozenset()


# ---------------------------------------------------------------- the walker


@dataclass
class Target:
    """What the walk follows: a variable of the unit (``name``) and/or a
    COMMON slot (``slot``), of rank ``rank``."""

    name: str | None
    slot: ir.Slot | None
    rank: int


@dataclass
class _Loop:
    var: str
    lo: ir.Affine | None  # smallest value (None: not affine)
    hi: ir.Affine | None
    exact: bool  # unit step: every value in [lo, hi] is taken
    runs: bool  # surely at least one trip
    unstable: set = field(default_factory=set)  # variables the body may change
    node: int = 0  # id of the DO statement


#: a loop of at most this many values, not one apart, covers each value's section
MAX_POINTS = 16


def _points(s: ir.Do, step: int | None, start: ir.Affine | None, end: ir.Affine | None) -> list[ir.Affine] | None:
    """The values of a loop that takes a few values not one apart, each
    exactly: the two ends of ``DO I = A, B, B - A`` (the boundary planes of a
    grid, ``DO K = 0, N-1, N-1``: a zero step is an error, so A differs from
    B) or the values of a constant non-unit step over constant bounds; None
    for other loops."""
    if start is None or end is None:
        return None
    if step is None:
        stride = aff(s.step) if s.step is not None else None
        return [start, end] if stride is not None and stride == end - start else None
    if step in (1, -1) or not (start.is_const and end.is_const):
        return None
    values = range(start.const, end.const + (1 if step > 0 else -1), step)
    return [ir.Affine(v) for v in values] if 0 < len(values) <= MAX_POINTS else None


class Walker:
    """One pass over statements for one target (see the module's doc)."""

    def __init__(self, unit: ir.Unit, target: Target, summaries: dict[str, KillSummary],
                 effects: dict[str, Effects], commons: ir.CommonLayouts, region: tuple[ir.Stmt, ...],
                 resets: frozenset[str] = frozenset(), stop_at: ir.Stmt | None = None):
        self.unit = unit
        self.t = target
        self.summaries = summaries
        self.effects = effects
        self.commons = commons
        self.resets = resets  # callees after which nothing is known to be written (see scratch)
        self.stop_at = stop_at  # a statement skipped, nothing known to be written after it
        self.covers: list[Box] = []
        self._merged: list[Box] | None = None
        self._index: dict | None = None  # covers by the variable terms of their bounds
        self.exposed: list[Box] = []
        #: reads that may see what ``stop_at`` or a call of ``resets`` left
        self.after: list[str] = []
        self.tainted = False
        self.jumpy = False
        self.unknown: list[str] = []  # why a read's section is not known
        self.wrote = False
        self.jumped = False
        self.unstable = self.unstable_of(region)
        self.killers: list[str] = []  # the calls whose kills were used
        self._holders: set[int] | None = None  # see _contains_reset
        self.region = region
        self._at: ir.Stmt | None = None  # the statement walked
        self._facts: Facts | None = None  # see _known

    # -- results

    @property
    def ok(self) -> bool:
        """No read sees a value from before the statements walked."""
        return not self.exposed and not self.unknown

    # -- boxes

    def unstable_of(self, stmts: tuple[ir.Stmt, ...]) -> set[str]:
        # a body is a tuple of the IR; one statement is asked about as (s,)
        anchor = stmts[0] if len(stmts) == 1 else stmts
        key = (id(self.unit), id(anchor), id(self.effects))
        hit = _UNSTABLE.get(key)
        if hit is None or hit[0] is not anchor or hit[1] is not self.effects:
            hit = (anchor, self.effects, _unstable(self.unit, stmts, self.effects, self.commons))
            _UNSTABLE[key] = hit
        return hit[2]

    def _stable(self, box: Box, loops: list[_Loop]) -> bool:
        """The variables of ``box`` keep their values in the loops around
        (a change elsewhere drops the boxes naming them: :meth:`changed`)."""
        inside = {lp.var for lp in loops}
        for v in vars_of(box):
            if v in inside:
                continue
            if any(base(v) in lp.unstable for lp in loops):
                return False
        return True

    def _stale(self) -> None:
        """The covers changed: what is derived from them is recomputed when asked."""
        self._merged = None
        self._index = None

    def _inside_cover(self, box: Box) -> bool:
        """Does one cover contain ``box``?  (Compared only with covers whose
        bounds have the same variable terms, dimension by dimension.)"""
        if self._index is None:
            self._index = {}
            for c in self.covers:
                self._index.setdefault(signature(c), []).append(c)
        return any(contains(c, box) for c in self._index.get(signature(box), ()))

    def changed(self, names: set[str]) -> None:
        """Variables assigned: the boxes naming them no longer say what they said."""
        if not names or not self.covers:
            return
        keep = [b for b in self.covers if not any(base(v) in names for v in vars_of(b))]
        if len(keep) != len(self.covers):
            self.covers = keep
            self._stale()

    def _box(self, x: ir.Expr, loops: list[_Loop]) -> Box | None:
        if isinstance(x, ir.Name):
            return () if self.t.rank == 0 else None
        if not isinstance(x, ir.Index) or len(x.subscripts) != self.t.rank:
            return None
        out = []
        for s in x.subscripts:
            a = aff(s)
            if a is None:
                return None
            out.append((a, a))
        box = tuple(out)
        return box if self._stable(box, loops) else None

    def _hull(self, box: Box, lp: _Loop) -> Box | None:
        """``box`` over every value of ``lp``'s variable."""
        if not mentions(box, lp.var):
            return box
        if lp.lo is None or lp.hi is None:
            return None
        out = []
        for lo, hi in box:
            c1, c2 = lo.coef(lp.var), hi.coef(lp.var)
            nlo = subst(lo, lp.var, lp.lo if c1 > 0 else lp.hi) if c1 else lo
            nhi = subst(hi, lp.var, lp.hi if c2 > 0 else lp.lo) if c2 else hi
            out.append((nlo, nhi))
        return tuple(out)

    def _covered(self, box: Box, loops: list[_Loop]) -> Box | None:
        """None when covered, else the box over all loops (``()`` for scalars)
        to record as exposed (raises _Unknown when it cannot be bounded)."""
        levels: list[Box] = []
        cur: Box | None = box
        for lp in [None] + list(reversed(loops)):
            if lp is not None:
                cur = self._hull(cur, lp)
                if cur is None:
                    raise _Unknown("a read's bounds are not affine")
            levels.append(cur)
        if not self.covers:
            return cur
        if any(self._inside_cover(x) for x in levels):
            return None
        if len(self.covers) > MAX_MERGED:
            return cur  # too many pieces to merge: not known to be covered
        if self._merged is None:
            self._merged = merge(self.covers)
        if any(contains(c, x) for x in levels for c in self._merged):
            return None
        decl = self._declared
        if decl is not None and any(within(c, x, decl) for x in levels for c in self._merged):
            return None
        known = self._known(loops)
        if known and any(self._facts.contains(c, x, decl, known)  # type: ignore[union-attr]
                         for x in levels for c in self._merged):
            return None
        return cur

    def _known(self, loops: list[_Loop]) -> tuple[ir.Affine, ...]:
        """What the subscripts of references that surely run with the read
        say about the sizes (:mod:`.legality`)."""
        if self._facts is None:
            anchor = self.region[0] if len(self.region) == 1 else self.region
            pins = (self.unit, anchor, self.effects, self.stop_at)
            self._facts = region_facts(self.unit, self.region, self.unstable, self.stop_at, pins)
        return self._facts.at(self._at, [(lp.node, (lp.lo, lp.hi) if lp.lo is not None and lp.hi is not None
                                          else None) for lp in loops])

    @property
    def _declared(self) -> list[tuple[ir.Affine | None, ir.Affine | None]] | None:
        """The declared bounds of the target when a read may be assumed to lie
        inside them (a local or COMMON array: a dummy may be declared ``X(1)``
        and read past it, the old "any size" idiom)."""
        if "_decl" not in self.__dict__:
            sym = self.unit.symbol(self.t.name) if self.t.name is not None else None
            decl = None
            if sym is not None and sym.is_array and not sym.dummy and sym.dims \
                    and all(d.upper is not None for d in sym.dims):
                decl = [(aff(d.lower), aff(d.upper)) for d in sym.dims]  # type: ignore[arg-type]
            self.__dict__["_decl"] = decl
        return self.__dict__["_decl"]

    def read(self, box: Box | None, loops: list[_Loop], what: str) -> None:
        if self.jumpy:
            self.after.append(f"{what} (jumps around the loop or its callers)")
            return
        if box is None:
            self.unknown.append(what)
            return
        try:
            left = self._covered(box, loops)
        except _Unknown as e:
            self.unknown.append(f"{what}: {e}")
            return
        if left is not None:
            if self.tainted:
                self.after.append(what)
            else:
                self.exposed.append(left)

    def write(self, box: Box | None, conditional: bool) -> None:
        self.wrote = True
        if box is None or self.jumped:
            return
        self.covers.append(box)
        self._merged = None
        if self._index is not None:
            self._index.setdefault(signature(box), []).append(box)

    def reset(self) -> None:
        self.covers = []
        self._stale()
        self.tainted = True

    # -- statements

    def walk(self, stmts: tuple[ir.Stmt, ...]) -> "Walker":
        for sf in self.unit.stmt_functions:
            if self.t.name is not None and any(isinstance(x, (ir.Name, ir.Index)) and x.name == self.t.name
                                               for x in sf.expr.walk()):
                self.unknown.append(f"statement function {sf.name} uses {self.t.name}")
        if (self.stop_at is not None or self.resets) and any(self._contains_reset(x) for x in stmts) and any(
                isinstance(x, (ir.Goto, ir.ComputedGoto, ir.ArithIf)) for x in ir.walk(stmts)):
            self.jumpy = True  # a jump may bring a read after the loop or the call: no read may happen
        self.block(stmts, [], False)
        return self

    def block(self, stmts: tuple[ir.Stmt, ...], loops: list[_Loop], conditional: bool) -> None:
        for s in stmts:
            self._at = s
            if self.stop_at is not None and s is self.stop_at:
                self.reset()
                continue
            if s.blocks() and self._untouched(s):
                # a nest that neither names the target nor calls, jumps or
                # holds what resets: only the scalars it assigns matter
                self.changed(self.unstable_of((s,)))
                continue
            if isinstance(s, ir.Do):
                self.do(s, loops, conditional)
            elif isinstance(s, ir.DoWhile):
                self.exprs(s, loops)
                self._loop_entry(s)
                before = len(self.covers)
                self.block(s.body, loops, True)
                del self.covers[before:]  # the body may not run
                self._stale()
                self._loop_exit(s)
            elif isinstance(s, ir.If):
                self.exprs(s, loops)
                for b in s.branches:
                    # what a branch writes covers its own later reads only
                    before = len(self.covers)
                    self.block(b.body, loops, True)
                    del self.covers[before:]
                    self._stale()
            elif isinstance(s, (ir.Goto, ir.ComputedGoto, ir.ArithIf, ir.Return)):
                self.exprs(s, loops)
                self.jumped = True
            elif isinstance(s, ir.Opaque):
                if self.t.name is not None and uses(s, self.t.name):
                    self.unknown.append(f"unmodelled statement at line {s.span.first}")
                self.jumped = True
            elif isinstance(s, ir.Io):
                self.changed(self.unstable_of((s,)))
                if self.t.name is not None and (uses(s, self.t.name) or any(
                        isinstance(x, (ir.Name, ir.Index)) and x.name == self.t.name for x in s.targets())):
                    self.unknown.append(f"I/O statement at line {s.span.first}")
            elif isinstance(s, ir.Call):
                self.exprs(s, loops)
                self.call(s.name, s.args, s.span.first, loops, conditional, True)
                self.changed(self.unstable_of((s,)) - {self.t.name})
            elif isinstance(s, ir.Assign):
                self.exprs(s, loops)
                self.changed(self.unstable_of((s,)))
                t = s.target
                if isinstance(t, (ir.Name, ir.Index)) and t.name == self.t.name:
                    self.write(self._box(t, loops), conditional)
                elif isinstance(t, ir.Substring) and self.t.name in ir.names(t):
                    self.unknown.append(f"substring assignment at line {s.span.first}")
            else:
                self.exprs(s, loops)

    def _untouched(self, s: ir.Stmt) -> bool:
        names, acts = _nest_facts(s)
        return not acts and (self.t.name is None or self.t.name not in names) and not self._contains_reset(s)

    def _contains_reset(self, s: ir.Stmt) -> bool:
        """Is ``s`` (or a statement nested in it) ``stop_at`` or a call of ``resets``?"""
        if self._holders is None:
            key = (id(self.unit), id(self.stop_at), self.resets)
            hit = _HOLDERS.get(key)
            if hit is None or hit[0] is not self.unit or hit[1] is not self.stop_at:
                hit = _HOLDERS[key] = (self.unit, self.stop_at, _reset_holders(self.unit.body, self.stop_at, self.resets))
            self._holders = hit[2]
        return id(s) in self._holders

    def _loop_entry(self, s: ir.Stmt) -> None:
        # in a second trip, what was written before the loop may have been
        # overwritten by the statement or call the walk does not follow
        if (self.stop_at is not None or self.resets) and self._contains_reset(s):
            if self.jumped or any(isinstance(x, (ir.Goto, ir.ComputedGoto, ir.ArithIf)) for x in ir.walk((s,))):
                self.jumpy = True
            self.reset()

    def _loop_exit(self, s: ir.Stmt) -> None:
        if (self.stop_at is not None or self.resets) and self._contains_reset(s):
            self.reset()

    def do(self, s: ir.Do, loops: list[_Loop], conditional: bool) -> None:
        self.exprs(s, loops)
        from .loops import step_of

        st = step_of(s)
        a, b = aff(s.start), aff(s.end)
        lo = hi = None
        if st is not None and a is not None and b is not None:
            lo, hi = (a, b) if st > 0 else (b, a)
            if not self._stable(((lo, hi),), loops):
                lo = hi = None
        body_unstable = self.unstable_of(s.body)
        if lo is not None and any(base(v) in body_unstable for v in lo.vars + hi.vars):  # type: ignore[union-attr]
            lo = hi = None
        points = _points(s, st, a, b)
        if points is not None and (not self._stable(tuple((p, p) for p in points), loops)
                                   or any(base(v) in body_unstable for p in points for v in p.vars)):
            points = None
        lp = _Loop(s.var, lo, hi, st in (1, -1) and lo is not None,
                   (lo is not None and le(lo, hi)) or points is not None,  # type: ignore[arg-type]
                   body_unstable, id(s))
        self.changed({s.var})
        if s.var == self.t.name:
            self.write(() if self.t.rank == 0 else None, conditional)
        self._loop_entry(s)
        before = len(self.covers)
        self.block(s.body, loops + [lp], conditional)
        new = self.covers[before:]
        del self.covers[before:]
        for box in new:
            if not mentions(box, s.var):
                if lp.runs:
                    self.covers.append(box)
                continue
            if points is not None:  # the loop takes these values and no other
                self.covers.extend(tuple((subst(l_, s.var, v), subst(h_, s.var, v)) for l_, h_ in box)
                                   for v in points)
                continue
            if not lp.exact:
                continue
            dims = [d for d, (l_, h_) in enumerate(box) if l_.coef(s.var) or h_.coef(s.var)]
            if len(dims) != 1:
                continue
            d = dims[0]
            l_, h_ = box[d]
            c = l_.coef(s.var)
            if l_ != h_ or c not in (1, -1):
                continue
            e_lo = subst(l_, s.var, lp.lo if c > 0 else lp.hi)  # type: ignore[arg-type]
            e_hi = subst(l_, s.var, lp.hi if c > 0 else lp.lo)  # type: ignore[arg-type]
            self.covers.append(box[:d] + ((e_lo, e_hi),) + box[d + 1:])
        if len(self.covers) > COMPACT:
            # element by element writes (A(1,1,K) = ..., A(1,2,K) = ...):
            # their unions, so that the reads of later loops find them
            self.covers = merge(self.covers)
        self._stale()
        self._loop_exit(s)

    def exprs(self, s: ir.Stmt, loops: list[_Loop]) -> None:
        """Reads in the statement's own expressions (an assignment's target
        excluded, its subscripts included), function references as calls."""
        exprs = s.exprs()
        if isinstance(s, ir.Assign):
            t = s.target
            exprs = (s.value,) + (tuple(t.children()) if not isinstance(t, ir.Name) else ())
        if isinstance(s, ir.Call):
            # the arguments: whole arrays and elements are associated (see call)
            exprs = tuple(a for a in s.args if not (isinstance(a, (ir.Name, ir.Index)) and a.name == self.t.name))
            exprs += tuple(sub for a in s.args if isinstance(a, ir.Index) and a.name == self.t.name
                           for sub in a.subscripts)
        for e in exprs:
            self._expr(e, s.span.first, loops)

    def _expr(self, e: ir.Expr, line: int, loops: list[_Loop]) -> None:
        stack = [e]
        while stack:
            x = stack.pop()
            if isinstance(x, ir.FuncRef) and x.kind == ir.FuncKind.EXTERNAL:
                for a in x.args:
                    if isinstance(a, (ir.Name, ir.Index)) and a.name == self.t.name:
                        if isinstance(a, ir.Index):
                            stack.extend(a.subscripts)
                    else:
                        stack.append(a)
                self.call(x.name, x.args, line, loops, True, False)
                continue
            if isinstance(x, (ir.Name, ir.Index)) and x.name == self.t.name:
                self.read(self._box(x, loops), loops, f"{x.name} at line {line}")
            stack.extend(x.children())

    # -- calls

    def call(self, name: str, args: tuple[ir.Expr, ...], line: int, loops: list[_Loop],
             conditional: bool, kills: bool) -> None:
        summ = self.summaries.get(name)
        accesses: list[tuple[Access, dict, int | None]] = []  # (access, symbol map, arg position)
        if summ is None:
            if any(isinstance(a, (ir.Name, ir.Index)) and a.name == self.t.name for a in args):
                self.unknown.append(f"{self.t.name} passed to {name} (not in the program) at line {line}")
                self.wrote = True
            return
        for k, a in enumerate(args):
            if isinstance(a, (ir.Name, ir.Index)) and a.name == self.t.name and k in summ.args:
                accesses.append((summ.args[k], {}, k))
        if self.t.slot is not None:
            if self.t.slot[1] == ir.WHOLE_BLOCK or any(s[0] == self.t.slot[0] and s[1] == ir.WHOLE_BLOCK
                                                       for s in summ.commons):
                if any(s[0] == self.t.slot[0] for s in summ.commons):
                    self.unknown.append(f"COMMON /{self.t.slot[0]}/ is storage associated (CALL {name} at line {line})")
                    return
            if self.t.slot in summ.commons:
                accesses.append((summ.commons[self.t.slot], {}, None))
        for acc, _, k in accesses:
            mapper = self.mapper(name, args, k)
            if acc.exposed is None:
                self.unknown.append(f"{name} at line {line} reads it (section not known)")
            else:
                for box in acc.exposed:
                    self.read(mapper(box, loops), loops, f"{name} at line {line}")
        if name in self.resets:
            # the call runs the loop whose writes go to private copies: what
            # it leaves is not known to be written by this walk
            self.reset()
            kills = False
        for acc, _, k in accesses:
            if acc.writes:
                self.wrote = True
            if kills and acc.killed:
                mapper = self.mapper(name, args, k)
                for box in acc.killed:
                    m = mapper(box, loops)
                    if m is not None and not self.jumped:
                        self.killers.append(f"CALL {name} at line {line}")
                    self.write(m, conditional)

    #: set by :func:`walker`: the program's units by name (for dummies' shapes)
    units: dict[str, ir.Unit] = {}

    def mapper(self, callee_name: str, args: tuple[ir.Expr, ...], k: int | None):
        """A function mapping a box of the callee into this unit (None: cannot)."""
        callee = self.units.get(callee_name)

        def none(box, loops):
            return None

        if callee is None:
            return none
        sub_box = box_substitution(self.unit, callee, args, self.commons)
        mine_sym = self.unit.symbol(self.t.name) if self.t.name is not None else None
        if k is None:  # COMMON: the same declaration in both
            csym = self.commons.symbol_at(callee, self.t.slot)
            if csym is None:
                return none
            if mine_sym is None:  # a slot this unit does not declare: sections are the callee's
                return lambda box, loops: box if not vars_of(box) else None
            cd = declared_bounds(csym, sub_box)
            md = declared_bounds(mine_sym, lambda a: a)
            if len(cd) != len(md) or any(x[0] is None or x[1] is None or x != y for x, y in zip(cd, md)):
                return none
            return lambda box, loops: self._checked(sub_box(box), loops)
        dummy = callee.symbol(callee.args[k])
        if dummy is None or mine_sym is None:
            return none
        how = association(mine_sym, dummy, args[k], sub_box)
        if how is None:
            return none
        if how == "scalar":
            return lambda box, loops: box if box == () else None
        fixed = tuple((s, s) for s in how)

        def mapped(box, loops):
            b = sub_box(box)
            return self._checked(b + fixed, loops) if b is not None else None

        return mapped

    def _checked(self, box: Box | None, loops: list[_Loop]) -> Box | None:
        return box if box is not None and self._stable(box, loops) else None


_NEST: dict = {}
_HOLDERS: dict = {}


def _nest_facts(s: ir.Stmt) -> tuple[frozenset[str], bool]:
    """The names ``s`` and the statements nested in it use, and whether one of
    them calls a procedure, jumps, returns or is not modelled (cached)."""
    hit = _NEST.get(id(s))
    if hit is not None and hit[0] is s:
        return hit[1], hit[2]
    names: set[str] = set()
    acts = False
    for x in ir.walk((s,)):
        if isinstance(x, (ir.Call, ir.Goto, ir.ComputedGoto, ir.ArithIf, ir.Return, ir.Opaque)):
            acts = True
        if isinstance(x, ir.Do):
            names.add(x.var)
        if isinstance(x, ir.Io):
            names |= {t.name for t in x.targets() if isinstance(t, (ir.Name, ir.Index))}
        for e in x.exprs():
            for y in e.walk():
                if isinstance(y, (ir.Name, ir.Index)):
                    names.add(y.name)
                elif isinstance(y, ir.FuncRef) and y.kind == ir.FuncKind.EXTERNAL:
                    acts = True
    out = frozenset(names)
    _NEST[id(s)] = (s, out, acts)
    return out, acts


def _reset_holders(body: tuple[ir.Stmt, ...], stop_at: ir.Stmt | None, resets: frozenset[str]) -> set[int]:
    """The ids of the statements of ``body`` that are, or hold, ``stop_at`` or a
    call of a procedure in ``resets`` (one pass, innermost first)."""
    out: set[int] = set()

    def visit(stmts) -> bool:
        found = False
        for x in stmts:
            hit = False
            for block in x.blocks():
                hit = visit(block) or hit
            hit = hit or x is stop_at or (isinstance(x, ir.Call) and x.name in resets) \
                or (bool(resets) and any(f.name in resets for f in ir.external_calls(x)))
            if hit:
                out.add(id(x))
                found = True
        return found

    if stop_at is not None or resets:
        visit(body)
    return out


_UNSTABLE: dict = {}


class _Unknown(Exception):
    pass


def _unstable(unit: ir.Unit, region: tuple[ir.Stmt, ...], effects: dict[str, Effects],
              commons: ir.CommonLayouts) -> set[str]:
    """Scalars whose value may change in ``region``: assigned, DO variables,
    READ, passed to a procedure that may write them, COMMON scalars a callee
    may write."""
    out = set(scalar_writes(region))
    written_slots: set = set()
    for s in ir.walk(region):
        if isinstance(s, ir.Assign) and (name := ir.assigned_name(s.target)) is not None:
            out.add(name)
        if isinstance(s, ir.Io):
            out |= {x.name for x in s.targets() if isinstance(x, (ir.Name, ir.Index))}
        calls: list[tuple[str, tuple[ir.Expr, ...]]] = []
        if isinstance(s, ir.Call):
            calls.append((s.name, s.args))
        calls.extend((f.name, f.args) for f in ir.external_calls(s))
        for name, args in calls:
            eff = effects.get(name)
            for k, a in enumerate(args):
                if isinstance(a, (ir.Name, ir.Index)) and (eff is None or k in eff.writes_args):
                    out.add(a.name)
            if eff is None:
                continue
            written_slots |= eff.writes_common_slots
            if eff.writes_common and not eff.writes_common_slots:
                written_slots.add(None)
    for sym in unit.symbols:
        slot = commons.slot(sym)
        if slot is not None and (slot in written_slots or None in written_slots
                                 or (slot[0], ir.WHOLE_BLOCK) in written_slots):
            out.add(sym.name)
    return out


def walker(unit: ir.Unit, target: Target, summaries: dict[str, KillSummary], effects: dict[str, Effects],
           commons: ir.CommonLayouts, units: dict[str, ir.Unit], region: tuple[ir.Stmt, ...],
           resets: frozenset[str] = frozenset(), stop_at: ir.Stmt | None = None) -> Walker:
    w = Walker(unit, target, summaries, effects, commons, region, resets, stop_at)
    w.units = units
    return w.walk(region)


def target_of(unit: ir.Unit, name: str, commons: ir.CommonLayouts) -> Target | None:
    sym = unit.symbol(name)
    if sym is None or sym.equivalenced or (sym.dims is not None and any(d.upper is None for d in sym.dims)):
        return None
    if str(sym.type).upper().startswith("CHARACTER"):
        return None
    return Target(name, commons.slot(sym), sym.rank if sym.is_array else 0)


# ---------------------------------------------------------------- summaries


def summarize(unit: ir.Unit, summaries: dict[str, KillSummary], effects: dict[str, Effects],
              commons: ir.CommonLayouts, units: dict[str, ir.Unit]) -> KillSummary:
    """The kill summary of ``unit`` (its callees' summaries given)."""
    eff = effects.get(unit.name)
    opaque = any(isinstance(s, ir.Opaque) for s in unit.statements()) or bool(unit.opaque_decls)
    slots: set = set()
    for s in unit.statements():
        calls = ([s.name] if isinstance(s, ir.Call) else []) + [f.name for f in ir.external_calls(s)]
        for c in calls:
            cs = summaries.get(c)
            if cs is None:
                if c in units:
                    opaque = True  # not summarized yet: cannot happen bottom-up
                elif any(isinstance(a, (ir.Name, ir.Index)) for a in (s.args if isinstance(s, ir.Call) else ())):
                    pass  # arguments to external procedures are handled per target
                continue
            opaque |= cs.opaque
            slots |= set(cs.commons)
    args: dict[int, Access] = {}
    com: dict[ir.Slot, Access] = {}
    body = unit.body
    for k, d in enumerate(unit.args):
        if eff is not None and k not in eff.reads_args and k not in eff.writes_args:
            continue
        t = target_of(unit, d, commons)
        args[k] = _access(unit, t, summaries, effects, commons, units, body, eff is not None and k in eff.writes_args)
    declared = {}
    for sym in unit.symbols:
        slot = commons.slot(sym)
        if slot is not None:
            declared[slot] = sym.name
    touched = set(declared) & ({commons.slot(unit.symbol(n)) for n in _names(unit)} | slots)
    for slot in sorted(touched | (slots - set(declared))):
        name = declared.get(slot)
        if name is not None:
            t = target_of(unit, name, commons)
        else:
            t = Target(None, slot, 0)
        writes = eff is None or slot in eff.writes_common_slots
        com[slot] = _access(unit, t, summaries, effects, commons, units, body, writes)
    scal = set()
    if eff is not None:
        for k in eff.writes_args:
            sym = unit.symbol(unit.args[k]) if k < len(unit.args) else None
            if sym is not None and not sym.is_array:
                scal.add(("arg", k))
    return KillSummary(unit.name, args, com, opaque, frozenset(scal))


def _names(unit: ir.Unit) -> set[str]:
    out = set()
    for s in unit.statements():
        out |= ir.stmt_names(s)
        for e in s.exprs():
            out |= {x.name for x in e.walk() if isinstance(x, (ir.Name, ir.Index))}
    return out


def _access(unit, t: Target | None, summaries, effects, commons, units, body, writes: bool) -> Access:
    if t is None:
        return Access(None, (), True)
    w = walker(unit, t, summaries, effects, commons, units, body)
    if w.unknown:
        return Access(None, (), writes or w.wrote)
    params = _params(unit) - {v for v in _params(unit) if base(v) in w.unstable}
    killed = tuple(b for b in merge(w.covers) if not vars_of(b) - params)
    # keep the largest boxes only
    killed = tuple(b for b in killed if not any(c != b and contains(c, b) for c in killed))
    exposed = tuple(dict.fromkeys(w.exposed))
    if any(vars_of(b) - params for b in exposed):
        return Access(None, killed, writes or w.wrote)
    return Access(exposed, killed, writes or w.wrote)


def _params(unit: ir.Unit) -> set[str]:
    """Variables a summary may name: scalar dummies and COMMON scalars."""
    out = {a for a in unit.args if unit.symbol(a) is not None and not unit.symbol(a).is_array}
    out |= {s.name for s in unit.symbols if s.common is not None and not s.is_array}
    return out | {v for v in _vars_all(unit) if "(" in v and (unit.symbol(base(v)) is not None
                                                            and unit.symbol(base(v)).common is not None)}


_VARS: dict[int, tuple[ir.Unit, set[str]]] = {}


def _vars_all(unit: ir.Unit) -> set[str]:
    hit = _VARS.get(id(unit))
    if hit is not None and hit[0] is unit:
        return hit[1]
    out: set[str] = set()
    for s in unit.statements():
        for e in s.exprs():
            for x in e.walk():
                p = as_name(x)
                if isinstance(p, ir.Name) and "(" in p.name:
                    out.add(p.name)
    _VARS[id(unit)] = (unit, out)
    return out
