"""Storage association: where, in bytes, the variables that share storage sit.

Fortran lays a COMMON block out as its members in order, without gaps, and
EQUIVALENCE makes variables of one unit start at the same byte.  When a
COMMON block is declared with other members (names, types, shapes) in
different units, or a unit EQUIVALENCEs one of its members, the block is
*storage-associated*: the runtime keeps it as one byte buffer and every unit
sees its own members as typed views at their offsets.  An EQUIVALENCE class
of local variables is such a storage of its own.  :func:`storage_plan`
finds those storages and every name's :class:`Place` in them; blocks
declared identically everywhere and never EQUIVALENCEd are left out (the
runtime keeps them as today: scalars in lists, arrays under their layouts).

What is refused (:class:`~autodist.errors.UnsupportedError` naming the
EQUIVALENCE or COMMON statement): inconsistent EQUIVALENCE, one class tying
two COMMON blocks, an EQUIVALENCE extending a block before its start
(illegal Fortran), dummies in EQUIVALENCE, members without constant sizes.
Offsets follow the standard (no alignment padding, as gfortran's
``-fno-align-commons``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ... import ir
from ...errors import UnsupportedError

Bounds = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Place:
    """A variable in a storage: ``offset`` bytes from its start; ``bounds``
    None for a scalar."""

    storage: str  # "/NAME/" for a COMMON block ("//" blank COMMON), "UNIT#k" for a local EQUIVALENCE class
    offset: int
    type: ir.Type
    bounds: Bounds | None

    @property
    def why(self) -> str:
        """Why the variable is storage-associated (for the run report)."""
        if self.storage.startswith("/"):
            label = "blank COMMON" if self.storage == "//" else f"COMMON {self.storage}"
            return f"storage-associated ({label} is one storage of typed views): every rank holds it whole"
        return "EQUIVALENCEd (one storage of typed views): every rank holds it whole"


@dataclass(frozen=True)
class StoragePlan:
    """Every storage-associated storage (its size in bytes) and, per unit,
    the places of the names in them and the scalars the unit must keep in
    step with its storage after every statement (``aliased``: those whose
    storage the unit itself EQUIVALENCEs)."""

    sizes: dict[str, int] = field(default_factory=dict)
    places: dict[str, dict[str, Place]] = field(default_factory=dict)
    aliased: dict[str, frozenset[str]] = field(default_factory=dict)

    def place(self, unit: str, name: str) -> Place | None:
        return self.places.get(unit, {}).get(name)

    def associated(self, block: str) -> bool:
        """Whether COMMON ``block`` is one byte storage."""
        return f"/{block}/" in self.sizes

    def local_scalars(self, unit: ir.Unit) -> tuple[str, ...]:
        """The unit's EQUIVALENCEd scalars outside COMMON, in name order."""
        return tuple(sorted(n for n, p in self.places.get(unit.name, {}).items()
                            if p.bounds is None and not p.storage.startswith("/")))


def byte_size(sym: ir.Symbol, where: ir.Span) -> int:
    """Bytes the variable occupies (constant bounds needed)."""
    bounds = symbol_bounds(sym, where)
    n = 1
    for lo, hi in bounds or ():
        n *= max(hi - lo + 1, 0)
    return n * sym.type.size


def symbol_bounds(sym: ir.Symbol, where: ir.Span) -> Bounds | None:
    if sym.dims is None:
        return None
    out = []
    for d in sym.dims:
        if d.bounds is None:
            raise UnsupportedError(f"{sym.name} shares storage and needs constant bounds", where.file, where.first)
        out.append(d.bounds)
    return tuple(out)


def _block_layout(u: ir.Unit, c: ir.Common) -> list[tuple[str, int, ir.Symbol]]:
    """(member, byte offset, symbol) of a COMMON declaration, in order."""
    out, off = [], 0
    for m in c.members:
        sym = u.symbol(m) or ir.Symbol(m, ir.REAL)
        out.append((m, off, sym))
        off += byte_size(sym, c.span)
    return out


def _signature(u: ir.Unit, c: ir.Common) -> tuple:
    """The members' types and shapes (None where not constant)."""
    syms = [u.symbol(m) for m in c.members]
    return tuple((s.type, s.shape) if s is not None else None for s in syms)


def equivalence_span(program: ir.Program, u: ir.Unit) -> ir.Span:
    """The first EQUIVALENCE statement of ``u`` (its unit's first line when not found)."""
    try:
        lines = program.source_lines(u.span.file)
    except KeyError:
        return u.span
    for n in range(u.span.first, min(u.decl_end, len(lines)) + 1):
        text = lines[n - 1]
        if text[:1] not in "cC*!" and "EQUIVALENCE" in text.upper():
            return ir.Span(u.span.file, n, n)
    return u.span


def _item_offset(u: ir.Unit, e: ir.Expr, span: ir.Span) -> tuple[str, int]:
    """The variable an EQUIVALENCE item names and the item's byte offset in it."""
    def fail(why: str):
        return UnsupportedError(f"EQUIVALENCE item ({why}) is outside the runtime's subset", span.file, span.first)

    extra = 0
    if isinstance(e, ir.Substring):
        lo = e.lower
        if lo is not None and not (isinstance(lo, ir.Const) and type(lo.value) is int):
            raise fail("a substring start that is not a constant")
        extra, e = (lo.value - 1 if lo is not None else 0), e.base
    if isinstance(e, ir.FuncRef) and e.kind == "external" and (u.symbol(e.name) or ir.Symbol(e.name, ir.REAL)).is_array:
        e = ir.Index(e.name, e.args)  # an array declared after the EQUIVALENCE statement
    if isinstance(e, ir.Name):
        name, subs = e.name, ()
    elif isinstance(e, ir.Index):
        name, subs = e.name, e.subscripts
    else:
        raise fail("not a variable or an array element")
    sym = u.symbol(name)
    if sym is None or sym.dummy or sym.kind != "variable":
        raise fail(f"{name} is not a local variable")
    bounds = symbol_bounds(sym, span) or ()
    if subs and len(subs) != len(bounds):
        raise fail(f"{name} with {len(subs)} subscript(s)")
    pos, stride = 0, 1
    for s, (lo, hi) in zip(subs, bounds):
        if not (isinstance(s, ir.Const) and type(s.value) is int):
            raise fail(f"a subscript of {name} that is not a constant")
        pos += (s.value - lo) * stride
        stride *= hi - lo + 1
    return name, pos * sym.type.size + extra


def _classes(u: ir.Unit, span: ir.Span) -> list[dict[str, int]]:
    """The EQUIVALENCE classes of ``u``: each name's byte address relative to
    the class (a weighted union-find; inconsistent groups are an error)."""
    parent: dict[str, tuple[str, int]] = {}  # name -> (parent, address(name) - address(parent))

    def find(n: str) -> tuple[str, int]:
        p, d = parent.setdefault(n, (n, 0))
        if p == n:
            return n, 0
        r, dr = find(p)
        parent[n] = (r, d + dr)
        return r, d + dr

    for group in u.equivalences:
        items = [_item_offset(u, e, span) for e in group]
        n0, p0 = items[0]
        for n, p in items[1:]:
            r0, d0 = find(n0)
            r, d = find(n)
            # address(n) + p == address(n0) + p0
            want = d0 + p0 - p - d  # address(r) - address(r0)
            if r == r0:
                if want != 0:
                    raise UnsupportedError("inconsistent EQUIVALENCE", span.file, span.first)
                continue
            parent[r] = (r0, want)
    out: dict[str, dict[str, int]] = {}
    for n in list(parent):
        r, d = find(n)
        out.setdefault(r, {})[n] = d
    return list(out.values())


def storage_plan(program: ir.Program) -> StoragePlan:
    """The storage-associated storages of ``program`` (see the module docstring)."""
    sigs: dict[str, set] = {}
    for u in program.units:
        for c in u.commons:
            sigs.setdefault(c.name, set()).add(_signature(u, c))
    blocks = {b for b, s in sigs.items() if len(s) > 1}
    extents: dict[str, dict[str, int]] = {}  # unit -> block -> end of what the unit's EQUIVALENCE adds
    for u in program.units:
        if not u.equivalences:
            continue
        span = equivalence_span(program, u)
        home = {m: (c.name, off) for c in u.commons for m, off, _ in _block_layout(u, c)}
        for cls in _classes(u, span):
            tied = {home[n][0] for n in cls if n in home}
            if len(tied) > 1:
                raise UnsupportedError("an EQUIVALENCE tying COMMON blocks " + ", ".join(
                    f"/{b}/" for b in sorted(tied)) + " together is outside the runtime's subset",
                    span.file, span.first)
            if not tied:
                continue
            blk = tied.pop()
            anchor = next(n for n in sorted(cls) if n in home)
            shift = home[anchor][1] - cls[anchor]
            for n, d in cls.items():
                if n in home and home[n][1] != d + shift:
                    raise UnsupportedError(f"inconsistent EQUIVALENCE of {n} in COMMON /{blk}/",
                                           span.file, span.first)
                if d + shift < 0:
                    raise UnsupportedError(f"an EQUIVALENCE extending COMMON /{blk}/ before its start "
                                           f"({n}) is not Fortran", span.file, span.first)
                ends = extents.setdefault(u.name, {})
                ends[blk] = max(ends.get(blk, 0), d + shift + byte_size(u.symbol(n), span))
            blocks.add(blk)
    return _places(program, blocks, extents)


def _places(program: ir.Program, blocks: set[str], extents: dict[str, dict[str, int]]) -> StoragePlan:
    """The plan: the places of the members of ``blocks`` in every unit, with
    their EQUIVALENCE extensions, and of the local EQUIVALENCE classes."""
    plan = StoragePlan()
    for u in program.units:
        places: dict[str, Place] = {}
        extended: set[str] = set()
        for c in u.commons:
            if c.name not in blocks:
                continue
            key = f"/{c.name}/"
            layout = _block_layout(u, c)
            for m, off, sym in layout:
                places[m] = Place(key, off, sym.type, symbol_bounds(sym, c.span))
            end = layout[-1][1] + byte_size(layout[-1][2], c.span) if layout else 0
            end = max(end, extents.get(u.name, {}).get(c.name, 0))
            plan.sizes[key] = max(plan.sizes.get(key, 0), end)
            if c.name in extents.get(u.name, {}):
                extended.add(key)
        if u.equivalences:
            span = equivalence_span(program, u)
            home = {n: (places[n].storage, places[n].offset) for n in places}
            for cls in _classes(u, span):
                anchor = next((n for n in sorted(cls) if n in home), None)
                if anchor is not None:
                    key, shift = home[anchor][0], home[anchor][1] - cls[anchor]
                else:
                    key, shift = f"{u.name}#{len(extended)}", -min(cls.values())
                    plan.sizes[key] = max(d + shift + byte_size(u.symbol(n), span) for n, d in cls.items())
                extended.add(key)
                for n, d in cls.items():
                    sym = u.symbol(n)
                    places[n] = Place(key, d + shift, sym.type, symbol_bounds(sym, span))
        if places:
            plan.places[u.name] = places
            plan.aliased[u.name] = frozenset(n for n, p in places.items()
                                             if p.bounds is None and p.storage in extended)
    return plan


def used_whole(unit: ir.Unit) -> frozenset[str]:
    """The names ``unit`` uses whole other than as an actual argument (an I/O
    list item ``WRITE (*, *) X``, a Fortran 90 array expression): the names
    whose declared size is what the statement sees."""
    out: set[str] = set()
    for s in ir.walk(unit.body):
        passed: set[int] = set()
        for e in s.exprs():
            for x in e.walk():
                if isinstance(x, ir.FuncRef) and x.kind == "external":
                    passed.update(id(a) for a in x.args if isinstance(a, ir.Name))
        if isinstance(s, ir.Call):
            passed.update(id(a) for a in s.args if isinstance(a, ir.Name))
        out.update(x.name for x in ir.stmt_exprs(s) if isinstance(x, ir.Name) and id(x) not in passed)
    return frozenset(out)
