"""Global arrays: one identity per piece of storage, across procedures.

A COMMON array is the same storage in every unit that declares the block (by
block and position) when every unit declares the block alike; the arrays of a
block declared differently somewhere are storage associated and each stays
replicated in its unit (HPF maps no sequential variable).  A dummy array is bound to the actual arrays passed at the
call sites.  Mapping decisions are made per global array, so a mapping chosen
for ``U`` in ``CALC1`` is the mapping of ``U`` in the main program.

An array that must not be distributed is marked with the reason: it is
EQUIVALENCEd, its shape is not known at analysis time, it is passed to a
dummy of another shape or rank (an assumed-size ``T(*)`` for a ``T(10,20)``),
or a section (``T(I,1)`` into a dummy running past the leading dimensions whose
subscripts are constants), it is in a COMMON block declared differently elsewhere, or it is a CHARACTER array.  Such arrays stay
replicated and the reports say why.

An element actual whose dummy stays within the leading dimensions
(``U(1,I,J)`` into ``X(5)``, ``LHS(1,1,AA,I)`` into ``A(5,5)``: see
:mod:`autodist.analysis.actuals`) does not stop its array from being
distributed along its other dimensions: the dummy is not that storage but a
block of it, which the owner of the element holds whole when the leading
dimensions are not distributed.  The dummy is replicated (per call, HPF's
inherited mapping: no directive), with that reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from .. import ir
from ..analysis.actuals import element_block

#: How the reason of a dummy bound to a block of its actual's elements begins.
INHERITS = "a block of"


@dataclass(frozen=True)
class GlobalArray:
    id: str  # "X" (local of one unit: "UNIT.X" unless main), "/UVP/1" (COMMON slot)
    name: str  # display name
    bounds: tuple[tuple[int, int], ...] | None
    elem_size: int
    type: ir.Type
    members: tuple[tuple[str, str], ...]  # (unit, local name)
    replicate_reason: str | None = None

    @property
    def rank(self) -> int:
        return len(self.bounds) if self.bounds is not None else 0

    @property
    def distributable(self) -> bool:
        return self.replicate_reason is None and self.bounds is not None


@dataclass(frozen=True)
class ArrayTable:
    """Global arrays of a program and the binding of every unit's local names."""

    arrays: tuple[GlobalArray, ...]
    binding: tuple[tuple[tuple[str, str], str], ...]  # ((unit, local), global id)
    notes: tuple[str, ...] = field(default=())

    @cached_property
    def _bind(self) -> dict[tuple[str, str], str]:
        return dict(self.binding)

    @cached_property
    def _by_id(self) -> dict[str, GlobalArray]:
        return {a.id: a for a in self.arrays}

    def global_id(self, unit: str, local: str) -> str | None:
        return self._bind.get((unit, local))

    def array(self, gid: str) -> GlobalArray:
        return self._by_id[gid]

    def local_name(self, gid: str, unit: str) -> str | None:
        for u, n in self.array(gid).members:
            if u == unit:
                return n
        return None


def _bounds(sym: ir.Symbol) -> tuple[tuple[int, int], ...] | None:
    if sym.dims is None:
        return None
    out = []
    for d in sym.dims:
        b = d.bounds
        if b is None:
            return None
        out.append(b)
    return tuple(out)


def _call_sites(unit: ir.Unit):
    """(statement, procedure name, actual arguments) of every procedure
    reference of ``unit``: its CALL statements and its references to
    external functions (``S = S + DOT(N, V(1,J), V(1,J))``)."""
    for s in unit.statements():
        if isinstance(s, ir.Call):
            yield s, s.name, s.args
        for f in ir.external_calls(s):
            yield s, f.name, f.args


def build_array_table(program: ir.Program) -> ArrayTable:
    """Identify storage across units: COMMON by block and position, dummies by
    their actual arguments at every CALL and function reference (when every
    call site passes the same whole array with the same shape)."""
    parent: dict[tuple[str, str], tuple[str, str]] = {}

    def find(x):
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    def union(a, b):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[rb] = ra

    syms: dict[tuple[str, str], ir.Symbol] = {}
    reasons: dict[tuple[str, str], str] = {}
    common_slot: dict[ir.Slot, tuple[str, str]] = {}
    commons = ir.common_layouts(program)
    main = program.main
    for u in program.units:
        for s in u.arrays:
            key = (u.name, s.name)
            syms[key] = s
            parent.setdefault(key, key)
            if s.equivalenced:
                reasons[key] = "EQUIVALENCEd"
            elif s.type.base == "character":
                reasons[key] = "CHARACTER array"
            elif s.type.base == "derived":
                reasons[key] = "array of a derived type (opaque)"
            elif _bounds(s) is None and not s.dummy:
                reasons[key] = "bounds not known at analysis time"
            slot = commons.slot(s)
            if slot is not None and slot[1] == ir.WHOLE_BLOCK:
                reasons[key] = commons.block(s.common).reason  # type: ignore[union-attr,arg-type]
            elif slot is not None:
                if slot in common_slot:
                    other = common_slot[slot]
                    if _bounds(syms[other]) != _bounds(s):
                        reasons[key] = reasons[other] = (
                            f"COMMON {ir.block_label(s.common)} declared with different bounds "  # type: ignore[arg-type]
                            f"in {other[0]} and {u.name}")
                    union(other, key)
                else:
                    common_slot[slot] = key

    # dummies bound to actuals
    notes: list[str] = []
    actuals: dict[tuple[str, str], set[tuple[str, str]]] = {}
    mismatched: dict[tuple[str, str], str] = {}
    inherited: dict[tuple[str, str], str] = {}
    for u in program.units:
        for s, name, args in _call_sites(u):
            callee = program.unit(name)
            if callee is None:
                for a in args:
                    if isinstance(a, ir.Name) and (u.name, a.name) in syms:
                        key = (u.name, a.name)
                        reasons.setdefault(key, f"passed to external procedure {name}")
                continue
            for k, a in enumerate(args):
                if k >= len(callee.args):
                    break
                dkey = (callee.name, callee.args[k])
                if dkey not in syms:
                    continue
                if isinstance(a, ir.Name) and (u.name, a.name) in syms:
                    akey = (u.name, a.name)
                    actuals.setdefault(dkey, set()).add(akey)
                    ab, db = _bounds(syms[akey]), _bounds(syms[dkey])
                    if syms[akey].rank != syms[dkey].rank or (
                            db is not None and ab != db and [hi - lo for lo, hi in ab or ()] != [hi - lo for lo, hi in db]):
                        mismatched[dkey] = (f"passed {a.name} of another shape at {s.span.file}:{s.span.first}")
                elif isinstance(a, ir.Index) and (u.name, a.name) in syms:
                    if element_block(u, a, callee, k) is not None:
                        # the dummy covers leading dimensions of the actual from one
                        # element on: the actual keeps its mapping, the call runs where
                        # that block lives and the dummy inherits it (replicated per call)
                        inherited.setdefault(dkey, f"{INHERITS} {a.name} from an element at "
                                                   f"{s.span.file}:{s.span.first}: the call runs where it lives")
                        continue
                    mismatched[dkey] = f"receives an array section {a.name}(...) at {s.span.file}:{s.span.first}"
                    reasons.setdefault((u.name, a.name), f"passed as a section to {callee.name}")
    for dkey, why in inherited.items():
        if dkey in actuals:  # also bound to whole arrays elsewhere: one storage cannot be both
            mismatched.setdefault(dkey, why)
        elif dkey not in mismatched:
            reasons[dkey] = why
    for dkey, acts in actuals.items():
        if dkey in mismatched:
            reasons[dkey] = mismatched[dkey]
            for akey in acts:
                reasons.setdefault(akey, f"passed to {dkey[0]} as {dkey[1]} with another shape")
            continue
        roots = {find(a) for a in acts}
        if len(roots) == 1:
            union(next(iter(acts)), dkey)
        else:
            notes.append(f"{dkey[0]}: dummy {dkey[1]} receives different arrays "
                         f"({', '.join(sorted(f'{u}.{n}' for u, n in acts))}); mapped on its own")
    for dkey, why in mismatched.items():
        if dkey not in actuals:
            reasons[dkey] = why

    groups: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for key in syms:
        groups.setdefault(find(key), []).append(key)
    arrays: list[GlobalArray] = []
    binding: list[tuple[tuple[str, str], str]] = []
    for members in groups.values():
        members.sort(key=lambda k: (k[0] != (main.name if main else ""), k))
    rep_names: dict[str, int] = {}
    for members in groups.values():
        rep_names[members[0][1]] = rep_names.get(members[0][1], 0) + 1
    for members in groups.values():
        rep = members[0]
        sym = syms[rep]
        bounds = next((b for b in (_bounds(syms[m]) for m in members) if b is not None), None)
        gid = rep[1] if rep_names[rep[1]] == 1 else f"{rep[0]}.{rep[1]}"
        reason = next((reasons[m] for m in members if m in reasons), None)
        if bounds is None and reason is None:
            reason = "bounds not known at analysis time"
        arrays.append(GlobalArray(gid, rep[1], bounds, sym.type.size or 8, sym.type, tuple(members), reason))
        binding.extend((m, gid) for m in members)
    # COMMON arrays are also reachable as /BLOCK/k from units that do not declare them
    gid_of = dict(binding)
    for slot, key in common_slot.items():
        for u in program.units:
            pseudo = (u.name, f"/{slot[0]}/{slot[1]}")
            binding.append((pseudo, gid_of[key]))
    arrays.sort(key=lambda a: a.id)
    return ArrayTable(tuple(arrays), tuple(sorted(binding)), tuple(notes))
