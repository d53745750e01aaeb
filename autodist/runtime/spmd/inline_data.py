"""The data of a phase run inline: which arrays every rank gets whole, which
only in part.

A phase the vectorized path cannot run (a GOTO, a CALL, I/O in the loop)
runs inline: every rank runs all of it on replicated data.  An array the
phase writes, or reads where the model does not see it (a CALL, a condition,
a loop bound, a whole-array item, a function that may read COMMON), is
gathered whole and redistributed after.  An array it only reads in
assignments and output lists is *lent*: every rank receives the elements the
phase reads and does not hold
(:func:`~autodist.owner.needs.phase_needs` with every rank running every
statement, the model's definition), into whole-array storage whose other
elements are never read, and gets its own storage back after, with nothing
moved (the array did not change).  A WRITE of part of a column inside a time
loop then moves that part, as predicted, not the whole array.
"""

from __future__ import annotations

from ... import ir
from ...analysis.model import Phase
from ...layout.model import replicated
from ...layout.routines import EXCHANGE
from ...layout.sections import IndexSet, disjoint_pieces
from ...owner.needs import phase_needs
from ..comm.builders import builder
from ..comm.storage import StorageMap


def _array_names(e: ir.Expr) -> set[str]:
    return {x.name for x in e.walk() if isinstance(x, (ir.Index, ir.Name))}


def lendable(unit: ir.Unit, phase: Phase, do: ir.Do) -> frozenset[str]:
    """The arrays of the phase (loop ``do`` of ``unit``) every reference of
    which is an element read in an assignment or an output list, as the
    phase's reference patterns describe them."""
    seen: set[str] = set()
    hidden: set[str] = set(phase.writes)
    calls = bool(phase.calls) or bool(phase.inner_calls)
    for s in ir.walk((do,)):
        if isinstance(s, ir.Assign):
            described = [s.value] + (list(s.target.subscripts) if isinstance(s.target, ir.Index) else [])
            other: list[ir.Expr] = [] if isinstance(s.target, (ir.Index, ir.Name)) else [s.target]
        elif isinstance(s, ir.Io) and s.kind in (ir.IoKind.PRINT, ir.IoKind.WRITE):
            described = list(s.items)
            other = [e for e in s.exprs() if all(e is not item for item in s.items)] + [e for _, e in s.specs]
            if isinstance(s.fmt, ir.Expr):
                other.append(s.fmt)
        else:
            described, other = [], list(s.exprs())
        for e in other:
            hidden |= _array_names(e)
        for e in described:
            for x in e.walk():
                if isinstance(x, ir.Name):
                    hidden.add(x.name)  # a whole array (or a scalar: not an array anyway)
                elif isinstance(x, ir.Index):
                    seen.add(x.name)
                elif isinstance(x, ir.FuncRef) and x.kind == ir.FuncKind.STATEMENT:
                    return frozenset()  # its body may read any array of the unit
                elif isinstance(x, ir.FuncRef) and x.kind != ir.FuncKind.INTRINSIC:
                    calls = True
                    hidden |= {a.name for a in x.args if isinstance(a, (ir.Name, ir.Index))}
                elif isinstance(x, (ir.Substring, ir.OpaqueExpr)):
                    hidden |= _array_names(x)
    out = set()
    for name in seen - hidden:
        sym = unit.symbol(name)
        if sym is None or not sym.is_array or sym.type.base == "character":
            continue
        if calls and (sym.common is not None or sym.dummy or sym.equivalenced):
            continue  # a called procedure may read it (or its actual) where the phase does not show it
        out.add(name)
    return frozenset(out)


def lend(ex, phase: Phase, name: str, arr, region: str):
    """Give ``arr`` (the phase's ``name``, read-only in it, :func:`lendable`)
    the elements every rank reads in the phase as whole-array storage;
    returns what :meth:`RtArray.give_back` needs."""
    nranks = ex.nprocs
    layout, bounds = arr.layout, arr.bounds

    def build():
        per = phase_needs(phase, {name: layout}, {name: bounds}, nranks, everywhere=True)
        own = arr.ownership
        pieces = [disjoint_pieces(per[name][r], own.owned(r) if own.holds(r) else None)
                  if name in per else () for r in range(nranks)]
        if not any(pieces):
            return None
        whole = tuple(StorageMap(IndexSet.interval(lo, hi)) for lo, hi in bounds)
        return builder(EXCHANGE)(layout, pieces, ex.comms.comm, arr.storage_maps(), whole,
                                 tuple(hi - lo + 1 for lo, hi in bounds), arr.dtype, region)

    plan = ex.comms.plan(("lend", region, name, layout, arr.ghosts, bounds), build)
    src = arr.local
    saved = arr.borrow_whole()
    if plan is not None:
        plan.execute(src, arr.local, ex.comms.stats, region)
    return saved



class InlineData:
    """The arrays made whole on every rank for one inline run of a phase, and
    how each goes back after it: lent arrays get their storage back, the
    others are redistributed (both collective, in the same order everywhere)."""

    def __init__(self, ex, phase: Phase, lendable: frozenset[str], region: str):
        self.ex, self.phase, self.lendable, self.region = ex, phase, lendable, region
        self.undo: list[tuple[object, bool, object]] = []

    def take(self, arrays: list[tuple[str | None, object]]) -> None:
        """Make whole every array of ``(name, array)`` (one array may come
        under several names: it is lent only when every name may be)."""
        names: dict[int, set[str | None]] = {}
        for name, arr in arrays:
            names.setdefault(id(arr), set()).add(name)
        for name, arr in arrays:
            if any(arr is a for a, _, _ in self.undo):
                continue
            if names[id(arr)] <= self.lendable and not arr.fixed:
                self.undo.append((arr, True, lend(self.ex, self.phase, name, arr, self.region)))
            else:
                self.undo.append((arr, False, arr.layout))
                arr.remap(replicated(arr.bounds), region=self.region)

    def restore(self, redistribute: bool = True) -> None:
        """Put every array back (the lent ones always: they did not change)."""
        for arr, lent, what in reversed(self.undo):
            if lent:
                arr.give_back(what)
            elif redistribute:
                arr.remap(what, region=self.region)
        self.undo = []
