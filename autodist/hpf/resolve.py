"""The meaning of a unit's HPF directives: a :class:`Layout` for every array.

:func:`resolve_unit` reads the specification directives of one
:class:`autodist.ir.Unit` and returns a :class:`UnitMapping`; every executable
``REDISTRIBUTE``/``REALIGN`` is applied to a mapping by :func:`apply_executable`.
Both are pure.

The model behind it is HPF's: every object (array or template) is *placed* on
a *root* -- a template, or an array's own implicit template when it is not
aligned to anything.  ``ALIGN A WITH B`` composes A's alignment with B's
placement, so A is ultimately aligned with B's root.  A ``DISTRIBUTE``
distributes a root; REDISTRIBUTE of a root moves every object placed on it;
REALIGN moves only the object realigned (HPF 2.0 §8.5: realigning an object
does not remap any other).

Default arrangement: a DISTRIBUTE without ``ONTO`` uses all ``nprocs``
processors, factored over its distributed dimensions as squarely as possible
(:func:`autodist.layout.grids.default_grid`: the smallest largest factor,
larger factors first): 16 on two dimensions is 4x4, 8 is 4x2, 12 is 4x3.  Declared arrangements may be larger than
``nprocs`` (``P2(20,10)`` on 4 ranks): the layout keeps the abstract shape,
mapping abstract processors onto ranks is the runtime's business.

An array that no directive names is replicated (listed in
:attr:`UnitMapping.replicated`).  An array whose mapping cannot be known here
(INHERIT or ``DISTRIBUTE A *`` without the actual argument's layout, bounds
that depend on dummy arguments without ``values``) is listed in
:attr:`UnitMapping.unresolved` with the reason, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping

from .. import ir
from ..layout.grids import default_grid
from ..layout.model import REPLICATED, Axis, Fixed, Format, Layout, Target
from . import model as m
from .emit import directive_text, expr_text
from .independent import independent_loops
from .parse import parse_directive, parse_prefix
from .values import Bounds, DirectiveEnv, UnknownValue, hpf_error

@dataclass(frozen=True)
class Root:
    """A distributable template: a declared TEMPLATE or an array's own implicit one."""

    name: str
    bounds: Bounds
    formats: tuple[Format, ...]
    grid: tuple[int, ...] = ()
    procs: str = ""  # arrangement name ("" for the default arrangement)


@dataclass(frozen=True)
class Placement:
    """Where an object lies on its root: one target per root dimension."""

    root: str
    align: tuple[Target, ...]


@dataclass(frozen=True)
class UnitMapping:
    """The resolved mapping of one program unit at one point of its execution."""

    unit: str
    nprocs: int
    processors: Mapping[str, tuple[int, ...]]
    templates: Mapping[str, Bounds]
    arrays: Mapping[str, Bounds]
    roots: Mapping[str, Root]
    placements: Mapping[str, Placement]
    dynamic: frozenset[str] = frozenset()
    distributed: frozenset[str] = frozenset()  # named in a DISTRIBUTE (may not be REALIGNed)
    unresolved: Mapping[str, str] = field(default_factory=dict)
    replicated: tuple[str, ...] = ()
    independent: Mapping[int, m.Independent] = field(default_factory=dict)
    unsupported: tuple[m.Unsupported, ...] = ()
    prefixes: tuple[m.Prefix, ...] = ()
    values: Mapping[str, int] = field(default_factory=dict)
    #: what was read leniently (an HPF compiler's acceptance beyond the rules), per directive
    notes: tuple[str, ...] = ()

    def layout(self, name: str) -> Layout:
        """The layout of array ``name`` (KeyError when unknown or unresolved)."""
        name = name.upper()
        if name not in self.arrays or name not in self.placements:
            raise KeyError(name)
        place = self.placements[name]
        root = self.roots[place.root]
        return Layout(
            bounds=self.arrays[name],
            template=root.bounds,
            align=place.align,
            formats=root.formats,
            grid=root.grid,
            template_name=root.name,
            procs_name=root.procs,
        )

    @property
    def layouts(self) -> dict[str, Layout]:
        """Every resolved array's layout, by name."""
        return {n: self.layout(n) for n in self.arrays if n in self.placements}


# --------------------------------------------------------------------------- alignment


@dataclass(frozen=True)
class _AlignSpec:
    """The parts of an ALIGN or REALIGN that say where one alignee goes."""

    source: tuple[m.AlignSource, ...] | None
    target: str
    subscripts: tuple[m.AlignSubscript, ...] | None
    text: str
    span: ir.Span | None


def _spec(d: m.Align | m.Realign) -> _AlignSpec:
    return _AlignSpec(d.source, d.target, d.subscripts, directive_text(d), d.span)


def _relations(alignee: str, bounds: Bounds, spec: _AlignSpec, tbounds: Bounds, env: DirectiveEnv,
               notes: list[str] | None = None) -> list[Target]:
    """Per dimension of the align target, where the alignee lies along it: ``Axis(dim,
    a, b)`` (target index ``a*i + b`` for alignee index ``i`` of dimension ``dim``),
    ``Fixed(c)`` or ``REPLICATED``; checked to stay inside the target's bounds.

    HPF asks a ':' of the alignee and its triplet in the target for equal
    extents; an alignee dimension shorter than its triplet (a work array
    declared one short of a padded template) was accepted by HPF compilers
    and is read as aligned from the triplet's first element, with a note in
    ``notes``.  A longer one does not fit and is an error."""
    span, what = spec.span, f"{spec.text}:"
    rank = len(bounds)
    source = spec.source
    if source is None:
        if rank and spec.subscripts is not None:
            raise hpf_error(f"{what} {alignee} has rank {rank} and needs an align-source list", span)
        source = tuple(m.COLON for _ in range(rank))
    if len(source) != rank:
        raise hpf_error(f"{what} {len(source)} align-source entries for {alignee} of rank {rank}", span)
    subs = spec.subscripts if spec.subscripts is not None else tuple(m.COLON for _ in tbounds)
    if len(subs) != len(tbounds):
        raise hpf_error(f"{what} {spec.target} has rank {len(tbounds)} but {len(subs)} subscripts are given", span)
    dummies = [s for s in source if isinstance(s, str)]
    if len(set(dummies)) != len(dummies):
        raise hpf_error(f"{what} an align-dummy is named twice in the align-source list", span)
    colons = [d for d, s in enumerate(source) if isinstance(s, m.Triplet)]
    triplets = [k for k, s in enumerate(subs) if isinstance(s, m.Triplet)]
    if len(colons) != len(triplets):
        raise hpf_error(f"{what} {len(colons)} ':' in the align-source list but {len(triplets)} triplets in {spec.target}", span)
    colon_of = dict(zip(triplets, colons))
    used: dict[str, int] = {}
    rel: list[Target] = []
    for k, s in enumerate(subs):
        tlo, thi = tbounds[k]
        if isinstance(s, m.Star):
            rel.append(REPLICATED)
            continue
        if isinstance(s, m.Triplet):
            d = colon_of[k]
            lo = tlo if s.lower is None else env.eval(s.lower, span)
            hi = thi if s.upper is None else env.eval(s.upper, span)
            st = 1 if s.stride is None else env.eval(s.stride, span)
            if st == 0:
                raise hpf_error(f"{what} zero stride in a triplet", span)
            count = ir.trips(lo, hi, st)
            ext = bounds[d][1] - bounds[d][0] + 1
            if count > ext and notes is not None:
                where = f"{spec.span.file}:{spec.span.first}: " if spec.span is not None else ""
                notes.append(f"{where}{what} an alignee dimension of {ext} elements against the triplet of "
                             f"{spec.target} dimension {k + 1} ({count} elements) is aligned from the triplet's "
                             f"first element (HPF asks for equal extents; HPF compilers accepted it)")
            elif count != ext:
                raise hpf_error(f"{what} triplet of {spec.target} dimension {k + 1} has {count} elements but {alignee} dimension {d + 1} has {ext}", span)
            rel.append(Axis(d, st, lo - st * bounds[d][0]))
        else:
            try:
                form = ir.affine(s, dummies, lambda x: env.eval(x, span))
            except UnknownValue as why:  # ALIGN J(I), K(*) WITH T(I): I is no align-dummy of K
                if notes is not None:
                    where = f"{spec.span.file}:{spec.span.first}: " if spec.span is not None else ""
                    notes.append(f"{where}{what} the subscript {expr_text(s)} of {spec.target} dimension {k + 1} "
                                 f"is no align-dummy of {alignee} and no constant ({why}): {alignee} is replicated "
                                 f"along it, where any value puts it (HPF compilers accepted it)")
                rel.append(REPLICATED)
                continue
            if form is None or len(form.vars) > 1:
                raise hpf_error(f"{what} subscript {expr_text(s)} of {spec.target} is not affine in one align-dummy", span)
            if form.is_const:
                rel.append(Fixed(form.const))
            else:
                v = form.vars[0]
                if v in used:
                    raise hpf_error(f"{what} align-dummy {v} appears in two subscripts of {spec.target}", span)
                used[v] = k
                rel.append(Axis(source.index(v), form.coef(v), form.const))
        # the alignee must land inside the target
        r = rel[-1]
        if isinstance(r, Fixed):
            reach = [r.index]
        else:
            assert isinstance(r, Axis)
            lo_i, hi_i = bounds[r.dim]
            reach = [r(lo_i), r(hi_i)] if hi_i >= lo_i else []
        bad = [x for x in reach if not tlo <= x <= thi]
        if bad:
            raise hpf_error(f"{what} {alignee} reaches index {bad[0]} of {spec.target} dimension {k + 1}, outside {tlo}:{thi}", span)
    return rel


def _compose(rel: list[Target], target: Placement, tbounds: Bounds, root: Root, spec: _AlignSpec, alignee: str) -> Placement:
    """The alignee's placement on the target's root: ``rel`` followed by the target's placement."""
    out: list[Target] = []
    for r, t in enumerate(target.align):
        if not isinstance(t, Axis):
            out.append(t)
            continue
        x = rel[t.dim]
        if isinstance(x, Fixed):
            out.append(Fixed(t(x.index)))
        elif isinstance(x, Axis):
            out.append(Axis(x.dim, t.stride * x.stride, t.stride * x.offset + t.offset))
        else:
            lo, hi = sorted((t(tbounds[t.dim][0]), t(tbounds[t.dim][1])))
            if abs(t.stride) != 1 or (lo, hi) != root.bounds[r]:
                raise hpf_error(
                    f"{spec.text}: {alignee} is replicated over part of template {root.name} only, "
                    "which a layout cannot express",
                    spec.span,
                )
            out.append(REPLICATED)
    return Placement(target.root, tuple(out))


# --------------------------------------------------------------------------- resolution


@dataclass
class _State:
    """Mutable scratch of one resolution; the result is frozen into a UnitMapping."""

    env: DirectiveEnv
    processors: dict[str, tuple[int, ...]] = field(default_factory=dict)
    templates: dict[str, Bounds] = field(default_factory=dict)
    arrays: dict[str, Bounds] = field(default_factory=dict)
    roots: dict[str, Root] = field(default_factory=dict)
    placements: dict[str, Placement] = field(default_factory=dict)
    unresolved: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _object_bounds(st: _State, name: str, what: str, span: ir.Span | None) -> Bounds | None:
    """Bounds of a template or array named in a directive; None when unknown here."""
    if name in st.templates:
        return st.templates[name]
    if name in st.arrays:
        return st.arrays[name]
    if name in st.unresolved:
        return None
    sym = st.env.unit.symbol(name)
    if sym is not None and sym.kind == ir.SymbolKind.VARIABLE and not sym.is_array:
        return ()  # a scalar
    raise hpf_error(f"{what} names {name}, which is not a declared array or template", span)


def _distribution(d: m.Distribute | m.Redistribute, name: str, bounds: Bounds, st: _State) -> Root:
    """The root ``name`` distributed as ``d`` says (formats, arrangement, checks)."""
    processors = st.processors
    span, what = d.span, directive_text(d)
    assert d.formats is not None
    if len(d.formats) != len(bounds):
        raise hpf_error(f"{what}: {len(d.formats)} distribution formats for {name} of rank {len(bounds)}", span)
    formats = []
    for f in d.formats:
        k = None if f.k is None else st.env.eval(f.k, span)
        if k is not None and k < 1:
            raise hpf_error(f"{what}: block size {k} must be positive", span)
        formats.append(Format(f.kind, k))
    ndist = sum(f.distributed for f in formats)
    onto = d.onto if d.onto not in (None, "*") else None
    if onto is not None:
        if onto not in processors:
            raise hpf_error(f"{what}: ONTO {onto}, but no PROCESSORS {onto} is declared", span)
        grid = processors[onto]
        if len(grid) != ndist:
            raise hpf_error(f"{what}: {onto} has rank {len(grid)} but {name} has {ndist} distributed dimensions", span)
    else:
        grid = default_grid(st.env.nprocs, ndist)
    g = iter(grid)
    for t, f in enumerate(formats):
        if f.kind == "BLOCK" and f.k is not None:
            p = next(g)
            extent = bounds[t][1] - bounds[t][0] + 1
            if f.k * p < extent:
                raise hpf_error(f"{what}: BLOCK({f.k}) on {p} processors covers {f.k * p} of the {extent} elements of {name} dimension {t + 1}", span)
        elif f.distributed:
            next(g)
    return Root(name, bounds, tuple(formats), tuple(grid), onto or "")


def _place(st: _State, name: str, spec: _AlignSpec, bounds: Bounds, place_of) -> Placement | None:
    """Placement of ``name`` aligned by ``spec``; None when the target is unresolved."""
    tbounds = _object_bounds(st, spec.target, spec.text, spec.span)
    if spec.target == name:
        raise hpf_error(f"{spec.text}: {name} is aligned with itself", spec.span)
    target = place_of(spec.target)
    if tbounds is None or target is None:
        return None
    rel = _relations(name, bounds, spec, tbounds, st.env, st.notes)
    return _compose(rel, target, tbounds, st.roots[target.root], spec, name)


def _from_actual(name: str, bounds: Bounds, actual: Layout, span: ir.Span | None) -> tuple[Root, Placement]:
    if actual.rank != len(bounds):
        raise hpf_error(f"{name} has rank {len(bounds)} but its actual argument has rank {actual.rank}", span)
    for d, ((lo, hi), (alo, ahi)) in enumerate(zip(bounds, actual.bounds)):
        if hi - lo > ahi - alo:
            raise hpf_error(f"{name} dimension {d + 1} is longer than its actual argument's", span)
    shift = [alo - lo for (lo, _), (alo, _) in zip(bounds, actual.bounds)]
    align = tuple(Axis(a.dim, a.stride, a.offset + a.stride * shift[a.dim]) if isinstance(a, Axis) else a for a in actual.align)
    root = Root(name, actual.template, actual.formats, actual.grid, actual.procs_name)
    return root, Placement(name, align)


def _bounds_from_actual(sym: ir.Symbol, actual: Layout | None, env: DirectiveEnv) -> Bounds:
    """Bounds of an adjustable or assumed-size dummy: unknown extents from the actual argument."""
    if actual is None or actual.rank != sym.rank:
        raise UnknownValue("no actual argument of the same rank")
    out = []
    for d, (alo, ahi) in zip(sym.dims or (), actual.bounds):
        lo = env.eval(d.lower, sym.span)
        try:
            hi = env.eval(d.upper, sym.span) if d.upper is not None else lo + ahi - alo
        except UnknownValue:
            hi = lo + ahi - alo
        out.append((lo, hi))
    return tuple(out)


def _spec_directives(unit: ir.Unit) -> tuple[list[m.Directive], list[m.Directive]]:
    spec: list[m.Directive] = []
    execs: list[m.Directive] = []
    for raw in unit.directives:
        for d in parse_directive(raw):
            if isinstance(d, m.Independent):
                continue  # read by _loops: it may stand right before the first DO
            (execs if isinstance(d, m.EXECUTABLE) else spec).append(d)
    return spec, execs


def resolve_unit(
    unit: ir.Unit,
    nprocs: int,
    actuals: Mapping[str, Layout] | None = None,
    values: Mapping[str, int] | None = None,
) -> UnitMapping:
    """The mapping of every array of ``unit`` on entry (after its specification directives).

    ``actuals`` gives the layouts of the actual arguments of dummies that
    INHERIT or are transcriptive (``DISTRIBUTE A *``); ``values`` gives
    integers for names that are not PARAMETERs (dummy scalars known at the call
    site).  Executable directives written in the specification part apply
    right after it, in order.
    """
    if nprocs < 1:
        raise ValueError("nprocs must be positive")
    actuals = {k.upper(): v for k, v in (actuals or {}).items()}
    st = _State(DirectiveEnv(unit, nprocs, {k.upper(): v for k, v in (values or {}).items()}))
    spec, execs = _spec_directives(unit)
    unsupported = [d for d in spec if isinstance(d, m.Unsupported)]

    for sym in unit.arrays:
        try:
            st.arrays[sym.name] = st.env.bounds_of(sym.name, sym.span)
        except UnknownValue as u:
            try:
                st.arrays[sym.name] = _bounds_from_actual(sym, actuals.get(sym.name), st.env)
            except UnknownValue:
                st.unresolved[sym.name] = f"bounds not known here ({u})"

    def declare(kind: str, shapes: tuple[m.Shape, ...], span: ir.Span | None, into: dict) -> None:
        for s in shapes:
            if s.name in st.processors or s.name in st.templates:
                raise hpf_error(f"{kind} {s.name}: {s.name} is already declared as a processor arrangement or template", span)
            if unit.symbol(s.name) is not None:
                raise hpf_error(f"{kind} {s.name}: {s.name} is already declared as a variable", span)
            try:
                shape = st.env.shape(s, span)
                if kind == "PROCESSORS":
                    if any(hi < lo for lo, hi in shape):
                        raise hpf_error(f"PROCESSORS {s.name}: an extent is not positive", span)
                    into[s.name] = tuple(hi - lo + 1 for lo, hi in shape)
                else:
                    into[s.name] = shape
            except UnknownValue as u:
                if kind == "PROCESSORS":
                    raise hpf_error(f"PROCESSORS {s.name}: extent not known ({u})", span) from None
                st.unresolved[s.name] = f"template bounds not known here ({u})"

    for d in spec:
        if isinstance(d, m.Processors):
            declare("PROCESSORS", d.arrangements, d.span, st.processors)
    for d in spec:
        if isinstance(d, m.Template):
            declare("TEMPLATE", d.templates, d.span, st.templates)

    dynamic: set[str] = set()
    inherit: dict[str, ir.Span | None] = {}
    distributes: dict[str, m.Distribute] = {}
    aligns: dict[str, _AlignSpec] = {}
    named: set[str] = set()
    for d in spec:
        if isinstance(d, (m.Dynamic, m.Inherit)):
            word = "DYNAMIC" if isinstance(d, m.Dynamic) else "INHERIT"
            for n in d.names:
                _object_bounds(st, n, word, d.span)
                named.add(n)
                if isinstance(d, m.Dynamic):
                    dynamic.add(n)
                else:
                    sym = unit.symbol(n)
                    if sym is None or not sym.dummy:
                        raise hpf_error(f"INHERIT {n}: {n} is not a dummy argument", d.span)
                    inherit[n] = d.span
        elif isinstance(d, m.Distribute):
            for n in d.distributees:
                _object_bounds(st, n, "DISTRIBUTE", d.span)
                if n in distributes:
                    raise hpf_error(f"{n} is distributed twice (first at line {_line(distributes[n])})", d.span)
                if d.transcriptive and not (unit.symbol(n) and unit.symbol(n).dummy):  # type: ignore[union-attr]
                    raise hpf_error(f"DISTRIBUTE {n} *: only a dummy argument can be transcriptive", d.span)
                distributes[n] = d
                named.add(n)
        elif isinstance(d, m.Align):
            for n in d.alignees:
                _object_bounds(st, n, "ALIGN", d.span)
                if n in aligns:
                    raise hpf_error(f"{n} appears in two ALIGN directives (first at line {_line(aligns[n])})", d.span)
                aligns[n] = _spec(d)
                named.add(n)
    for n, a in aligns.items():
        if n in distributes:
            raise hpf_error(f"{n} is both aligned (line {_line(a)}) and distributed", distributes[n].span)
        if n in inherit:
            raise hpf_error(f"{n} both INHERITs its mapping and is aligned", a.span)
    for n, dspan in inherit.items():
        if n in distributes:
            raise hpf_error(f"{n} both INHERITs its mapping and is distributed", distributes[n].span)

    # roots: templates and arrays that are not aligned
    for n, b in list(st.templates.items()) + list(st.arrays.items()):
        if n in aligns:
            continue
        if n in inherit or (n in distributes and distributes[n].transcriptive):
            if n in actuals:
                st.roots[n], st.placements[n] = _from_actual(n, b, actuals[n], (inherit[n] if n in inherit else distributes[n].span))
            else:
                st.unresolved[n] = "mapping inherited from the actual argument, which was not given"
            continue
        st.roots[n] = Root(n, b, tuple(Format("*") for _ in b))
        st.placements[n] = Placement(n, tuple(Axis(i) for i in range(len(b))))
    for n, d in distributes.items():
        if n in st.roots and not d.transcriptive:
            st.roots[n] = _distribution(d, n, st.roots[n].bounds, st)

    # aligned objects, following chains A -> B -> T
    visiting: list[str] = []

    def place_of(n: str) -> Placement | None:
        if n in st.placements:
            return st.placements[n]
        if n in st.unresolved or n not in aligns:
            return None
        if n in visiting:
            raise hpf_error(f"alignment cycle: {' -> '.join(visiting[visiting.index(n):] + [n])}", aligns[n].span)
        visiting.append(n)
        spec_n = aligns[n]
        bounds = st.arrays.get(n, st.templates.get(n, ()))
        try:
            place = _place(st, n, spec_n, bounds, place_of)
        finally:
            visiting.pop()
        if place is None:
            st.unresolved[n] = f"aligned with {spec_n.target}, whose mapping is not known here"
        else:
            st.placements[n] = place
            if n not in st.arrays and n not in st.templates:
                st.arrays[n] = ()  # an aligned scalar
        return place

    for n in aligns:
        if n not in st.unresolved:
            place_of(n)

    replicated = tuple(s.name for s in unit.arrays if s.name not in named and s.name in st.arrays)
    independent, body_unsupported = independent_loops(unit)
    prefixes = tuple(parse_prefix(p, unit.span) for p in unit.prefixes)
    result = UnitMapping(
        unit=unit.name,
        nprocs=nprocs,
        processors=dict(st.processors),
        templates=dict(st.templates),
        arrays=dict(st.arrays),
        roots=dict(st.roots),
        placements=dict(st.placements),
        dynamic=frozenset(dynamic),
        distributed=frozenset(distributes),
        unresolved=dict(st.unresolved),
        replicated=replicated,
        independent=independent,
        unsupported=tuple(unsupported) + body_unsupported,
        prefixes=prefixes,
        values=dict(st.env.values),
        notes=tuple(dict.fromkeys(st.notes)),
    )
    for d in execs:
        result = apply_executable(d, result, unit)  # type: ignore[arg-type]
    return result


def _line(x: m.Directive | _AlignSpec) -> str:
    return str(x.span.first) if x.span else "?"


# --------------------------------------------------------------------------- executable directives


def apply_executable(d: m.Redistribute | m.Realign, state: UnitMapping, unit: ir.Unit) -> UnitMapping:
    """The mapping after executing one REDISTRIBUTE or REALIGN."""
    env = DirectiveEnv(unit, state.nprocs, state.values)
    st = _State(env, dict(state.processors), dict(state.templates), dict(state.arrays), dict(state.roots),
                dict(state.placements), dict(state.unresolved))
    what = directive_text(d)
    if isinstance(d, m.Redistribute):
        names = d.distributees
    elif isinstance(d, m.Realign):
        names = d.alignees
    else:
        raise TypeError(f"not an executable directive: {d!r}")
    for n in names:
        _object_bounds(st, n, what.split()[0], d.span)
        if n not in state.dynamic:
            raise hpf_error(f"{what}: {n} is not DYNAMIC", d.span)
        if isinstance(d, m.Redistribute):
            if n in st.unresolved:
                continue
            place = st.placements[n]
            if place.root != n:
                raise hpf_error(f"{what}: {n} is aligned with another object; redistribute its template instead", d.span)
            st.roots[n] = _distribution(d, n, st.roots[n].bounds, st)
        else:
            if n in state.distributed:
                raise hpf_error(f"{what}: {n} is distributed, so it cannot be realigned", d.span)
            bounds = st.arrays.get(n, st.templates.get(n, ()))
            place = _place(st, n, _spec(d), bounds, lambda t: st.placements.get(t))
            if place is None:
                st.unresolved[n] = f"realigned with {d.target}, whose mapping is not known here"
                st.placements.pop(n, None)
            else:
                st.placements[n] = place
                st.unresolved.pop(n, None)
    return replace(state, roots=dict(st.roots), placements=dict(st.placements), unresolved=dict(st.unresolved),
                   notes=tuple(dict.fromkeys(state.notes + tuple(st.notes))))
