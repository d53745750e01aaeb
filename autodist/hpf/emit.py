"""Writing HPF directives: model -> text -> comment lines, and layouts -> directives.

* :func:`directive_text` writes one :mod:`~autodist.hpf.model` directive in
  the form it was read (statement or attribute form, descriptive and
  transcriptive marks), :func:`directive_lines` writes many as fixed- or
  free-form comment lines (see :mod:`autodist.hpf.lines`).  Reading the text
  back with :func:`autodist.hpf.parse.parse_text` gives an equal model.
* :func:`layout_directives` writes the PROCESSORS, TEMPLATE, ALIGN, DISTRIBUTE
  and DYNAMIC directives that give a set of arrays their
  :class:`~autodist.layout.model.Layout`; :func:`redistribute_directives`,
  :func:`realign_directives` and :func:`independent_directive` write the
  executable ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from .. import ir
from ..layout.model import Axis, Fixed, Format, Layout, Replicated
from . import model as m
from .lines import FIXED_WIDTH, format_lines

# --------------------------------------------------------------------------- expressions

_PREC = {"+": 1, "-": 1, "*": 2, "/": 2, "**": 3}


def _wrap(e: ir.Expr) -> str:
    return f"({expr_text(e)})"


def _operand(e: ir.Expr, op: str, right: bool) -> str:
    """An operand of a binary operator, parenthesized so it reads back as the same tree."""
    if isinstance(e, ir.UnOp) or (isinstance(e, ir.Const) and isinstance(e.value, int) and e.value < 0):
        return _wrap(e)
    if isinstance(e, ir.BinOp) and e.op in _PREC:
        mine, theirs = _PREC[op], _PREC[e.op]
        if theirs < mine:
            return _wrap(e)
        if theirs == mine and (right != (op == "**")):
            return _wrap(e)
    return expr_text(e)


def expr_text(e: ir.Expr) -> str:
    """An expression as HPF text (no blanks), re-read by the parser as the same tree."""
    if isinstance(e, ir.Const):
        return str(e.value)
    if isinstance(e, ir.Name):
        return e.name
    if isinstance(e, ir.BinOp):
        return f"{_operand(e.left, e.op, False)}{e.op}{_operand(e.right, e.op, True)}"
    if isinstance(e, ir.UnOp):
        inner = e.operand
        plain = not (isinstance(inner, ir.BinOp) and _PREC.get(inner.op) == 1) and not isinstance(inner, ir.UnOp)
        return f"{e.op}{expr_text(inner) if plain else _wrap(inner)}"
    if isinstance(e, (ir.FuncRef, ir.Index)):
        args = e.args if isinstance(e, ir.FuncRef) else e.subscripts
        return f"{e.name}({','.join(subscript_text(a) for a in args)})"
    if isinstance(e, m.Triplet):
        parts = [expr_text(e.lower) if e.lower is not None else "", expr_text(e.upper) if e.upper is not None else ""]
        if e.stride is not None:
            parts.append(expr_text(e.stride))
        return ":".join(parts)
    raise ValueError(f"cannot write expression {e!r} in a directive")


def subscript_text(s: m.AlignSubscript) -> str:
    return "*" if isinstance(s, m.Star) else expr_text(s)


def _shape_text(s: m.Shape) -> str:
    if not s.shape:
        return s.name
    dims = [expr_text(x.upper) if x.lower is None else f"{expr_text(x.lower)}:{expr_text(x.upper)}" for x in s.shape]
    return f"{s.name}({', '.join(dims)})"


def _format_text(f: m.DistFormat) -> str:
    return f.kind if f.k is None else f"{f.kind}({expr_text(f.k)})"


def _source_text(source: tuple[m.AlignSource, ...] | None) -> str:
    if source is None:
        return ""
    return "(" + ", ".join(s if isinstance(s, str) else ("*" if isinstance(s, m.Star) else ":") for s in source) + ")"


def _with_text(target: str, subs: tuple[m.AlignSubscript, ...] | None, descriptive: bool = False) -> str:
    star = "*" if descriptive else ""
    if subs is None:
        return f"WITH {star}{target}"
    return f"WITH {star}{target}({', '.join(subscript_text(s) for s in subs)})"


def _dist_text(formats: tuple[m.DistFormat, ...] | None, descriptive: bool, onto: str | None, onto_d: bool) -> str:
    if formats is None:
        text = "*"
    else:
        text = ("*" if descriptive else "") + "(" + ", ".join(_format_text(f) for f in formats) + ")"
    if onto is not None:
        text += " ONTO " + ("*" + onto if onto_d else onto)
    return text


def _single(names: tuple[str, ...], what: str) -> str:
    if len(names) != 1:
        raise ValueError(f"the statement form of {what} names exactly one object, not {names}")
    return names[0]


def directive_text(d: m.Directive) -> str:
    """One directive as text without sentinel, in the form recorded in the model."""
    if isinstance(d, m.Processors):
        return "PROCESSORS " + ", ".join(_shape_text(s) for s in d.arrangements)
    if isinstance(d, m.Template):
        return "TEMPLATE " + ", ".join(_shape_text(s) for s in d.templates)
    if isinstance(d, (m.Align, m.Realign)):
        word = "ALIGN" if isinstance(d, m.Align) else "REALIGN"
        with_clause = _with_text(d.target, d.subscripts, getattr(d, "descriptive", False))
        if d.attribute:
            src = _source_text(d.source)
            return f"{word} {src + ' ' if src else ''}{with_clause} :: {', '.join(d.alignees)}"
        return f"{word} {_single(d.alignees, word)}{_source_text(d.source)} {with_clause}"
    if isinstance(d, (m.Distribute, m.Redistribute)):
        word = "DISTRIBUTE" if isinstance(d, m.Distribute) else "REDISTRIBUTE"
        stuff = _dist_text(d.formats, getattr(d, "descriptive", False), d.onto, getattr(d, "onto_descriptive", False))
        if d.attribute:
            return f"{word} {stuff} :: {', '.join(d.distributees)}"
        name = _single(d.distributees, word)
        return f"{word} {name}{stuff}" if stuff.startswith("(") else f"{word} {name} {stuff}"
    if isinstance(d, (m.Inherit, m.Dynamic)):
        word = "INHERIT" if isinstance(d, m.Inherit) else "DYNAMIC"
        return f"{word} {':: ' if d.attribute else ''}{', '.join(d.names)}"
    if isinstance(d, m.Independent):
        text = "INDEPENDENT"
        if d.loops:
            text += f"({', '.join(d.loops)})"
        if d.new:
            text += f", NEW({', '.join(d.new)})"
        if d.reduction:
            text += f", REDUCTION({', '.join(d.reduction)})"
        if d.home is not None:
            text += f", ON HOME({expr_text(d.home)})"
        return text
    if isinstance(d, m.Unsupported):
        return d.text
    raise ValueError(f"not a directive: {d!r}")


def directive_lines(directives: Iterable[m.Directive], form: str = "fixed", width: int = FIXED_WIDTH) -> list[str]:
    """Directives as comment lines (``CHPF$``/``!HPF$``, continued when long), no line endings."""
    out: list[str] = []
    for d in directives:
        out.extend(format_lines(directive_text(d), form, width))
    return out


def prefix_text(prefixes: Iterable[m.Prefix]) -> str:
    """Program-unit prefixes as written before SUBROUTINE/FUNCTION, e.g. ``EXTRINSIC(HPF_LOCAL) PURE``."""
    return " ".join(str(p) for p in prefixes)


def independent_directive(
    new: Iterable[str] = (), reduction: Iterable[str] = (), loops: Iterable[str] = (), home: ir.Expr | None = None
) -> m.Independent:
    """``INDEPENDENT [, NEW(...)] [, REDUCTION(...)]`` for the DO loop that follows."""
    return m.Independent(tuple(loops), tuple(new), tuple(reduction), home)


# --------------------------------------------------------------------------- layouts

_DUMMIES = ("I", "J", "K", "L", "M", "N")


def _dummy(d: int) -> str:
    return _DUMMIES[d] if d < len(_DUMMIES) else f"I{d + 1}"


def _int(v: int) -> ir.Const:
    return ir.Const(v, ir.INTEGER)


def axis_expr(a: Axis, dummy: str) -> ir.Expr:
    """``stride * dummy + offset`` the way people write it: ``I``, ``2*I-1``, ``11-I``."""
    name: ir.Expr = ir.Name(dummy)
    term = name if abs(a.stride) == 1 else ir.BinOp("*", _int(abs(a.stride)), name)
    if a.stride > 0:
        if a.offset == 0:
            return term
        return ir.BinOp("+" if a.offset > 0 else "-", term, _int(abs(a.offset)))
    if a.offset == 0:
        return ir.UnOp("-", term)
    return ir.BinOp("-", _int(a.offset), term)


def _bounds_shape(name: str, bounds: Sequence[tuple[int, int]]) -> m.Shape:
    return m.Shape(name, tuple(m.Extent(_int(hi), None if lo == 1 else _int(lo)) for lo, hi in bounds))


def _formats(fs: Sequence[Format]) -> tuple[m.DistFormat, ...]:
    return tuple(m.DistFormat(f.kind, None if f.k is None else _int(f.k)) for f in fs)


def _align_parts(lay: Layout) -> tuple[tuple[m.AlignSource, ...], tuple[m.AlignSubscript, ...]]:
    followed = {a.dim for a in lay.align if isinstance(a, Axis)}
    source = tuple(_dummy(d) if d in followed else m.STAR for d in range(lay.rank))
    subs: list[m.AlignSubscript] = []
    for a in lay.align:
        if isinstance(a, Axis):
            subs.append(axis_expr(a, _dummy(a.dim)))
        elif isinstance(a, Replicated):
            subs.append(m.STAR)
        else:
            assert isinstance(a, Fixed)
            subs.append(_int(a.index))
    return source, tuple(subs)


def _is_direct(name: str, lay: Layout) -> bool:
    """Distributed as itself: identity alignment onto a template of its own bounds."""
    return (
        lay.template_name in ("", name)
        and lay.template == lay.bounds
        and lay.align == tuple(Axis(d) for d in range(lay.rank))
    )


def procs_name(lay: Layout) -> str:
    """The arrangement a layout is distributed onto: its ``procs_name``, else ``P4``, ``P2X2`` ..."""
    return lay.procs_name or "P" + "X".join(str(g) for g in lay.grid)


@dataclass(frozen=True)
class _Group:
    """Arrays on one template.  ``template`` is the name ALIGN and DISTRIBUTE use: a
    TEMPLATE to declare (``declare``), or an array distributed as itself."""

    template: str
    declare: bool
    aligned: tuple[str, ...]  # the arrays that get an ALIGN
    layout: Layout  # of one of them (template, formats, grid are shared)

    @property
    def arrays(self) -> tuple[str, ...]:
        return self.aligned if self.declare or self.template in self.aligned else (self.template,) + self.aligned


def _groups(arrays: Mapping[str, Layout], avoid: Iterable[str]) -> list[_Group]:
    clash = {n.upper() for n in avoid} | {n.upper() for n in arrays}
    taken = set(clash)
    keyed: dict[object, list[str]] = {}
    for name in sorted(arrays):
        lay = arrays[name]
        key = lay.template_name or (lay.template, lay.formats, lay.grid, lay.procs_name)
        keyed.setdefault(key, []).append(name)
    taken |= {k for k in keyed if isinstance(k, str)}
    groups: list[_Group] = []
    counter = 0
    for key, names in keyed.items():
        first = arrays[names[0]]
        for n in names[1:]:
            other = arrays[n]
            if (other.template, other.formats, other.grid) != (first.template, first.formats, first.grid):
                raise ValueError(f"{names[0]} and {n} share template {key} but disagree on its shape or distribution")
        anchor = next((n for n in names if _is_direct(n, arrays[n]) and (len(names) == 1 or n == key)), None)
        if anchor is not None:  # distributed as itself, the others aligned with it
            groups.append(_Group(anchor, False, tuple(n for n in names if n != anchor), first))
            continue
        tname = first.template_name
        if not tname or tname in clash:
            counter += 1
            while f"T{counter}" in taken:
                counter += 1
            tname = f"T{counter}"
        groups.append(_Group(tname, True, tuple(names), first))
    return groups


def layout_directives(
    arrays: Mapping[str, Layout],
    *,
    dynamic: Iterable[str] = (),
    remaps: Iterable[Mapping[str, Layout]] = (),
    avoid: Iterable[str] = (),
) -> tuple[m.Directive, ...]:
    """The specification directives that give each array its layout.

    Arrays sharing a template (the same ``template_name``, or without one the
    same template bounds, distribution and arrangement) share one TEMPLATE and
    DISTRIBUTE, each with its own ALIGN; an array alone on a template of its own
    bounds with identity alignment is distributed directly
    (``DISTRIBUTE A(BLOCK,*) ONTO P4``), and so is an array whose name is the
    group's ``template_name`` (the others are aligned with it, as the resolver
    reports ``ALIGN B(I) WITH A(I)``).  A template is never named like one of
    ``arrays`` or ``avoid``: it is renamed ``T1``, ``T2`` ... then.  Arrays whose template is not
    distributed at all get no directive (autodist reads them as replicated)
    unless they are ``dynamic``: those are declared DYNAMIC, with their
    template.  ``remaps`` are the later layouts (of REDISTRIBUTE/REALIGN) whose
    arrangements and templates must be declared too; use ``template_name`` in
    them.  Generated names avoid ``avoid`` (the unit's own names).
    """
    dyn = {n.upper() for n in dynamic}
    shown = {n: lay for n, lay in arrays.items() if n in dyn or any(f.distributed for f in lay.formats)}
    groups = _groups(shown, avoid)
    procs: dict[str, tuple[int, ...]] = {}
    templates: dict[str, tuple[tuple[int, int], ...]] = {}
    later_templates: dict[str, Layout] = {}

    def need_procs(lay: Layout) -> None:
        if not lay.grid:
            return
        name = procs_name(lay)
        if procs.setdefault(name, lay.grid) != lay.grid:
            raise ValueError(f"arrangement {name} is used with shapes {procs[name]} and {lay.grid}")

    for g in groups:
        if any(f.distributed for f in g.layout.formats):
            need_procs(g.layout)
        if g.declare:
            templates[g.template] = g.layout.template
    for later in remaps:
        for name, lay in later.items():
            need_procs(lay)
            if lay.template_name and not _is_direct(name, lay) and lay.template_name not in templates:
                later_templates.setdefault(lay.template_name, lay)
                templates[lay.template_name] = lay.template
    out: list[m.Directive] = []
    if procs:
        out.append(m.Processors(tuple(m.Shape(n, tuple(m.Extent(_int(e)) for e in shape)) for n, shape in procs.items())))
    if templates:
        out.append(m.Template(tuple(_bounds_shape(n, b) for n, b in templates.items())))
    for g in groups:
        out.extend(_aligns(g.aligned, shown, g.template, realign=False))
    dist_of = [(g.template, g.layout) for g in groups] + list(later_templates.items())
    for tname, lay in dist_of:
        onto = procs_name(lay) if lay.grid else None
        out.append(m.Distribute((tname,), _formats(lay.formats), onto))
    names: list[str] = []
    for g in groups:
        moving = [a for a in g.arrays if a in dyn]
        aligned_moving = any(a in dyn for a in g.aligned if a != g.template)
        names.extend(moving + [g.template] if aligned_moving and g.template not in moving else moving)
    if names:
        out.append(m.Dynamic(tuple(names)))
    return tuple(out)


def _aligns(names: Sequence[str], arrays: Mapping[str, Layout], template: str, realign: bool) -> list[m.Directive]:
    """ALIGN (or REALIGN) directives; arrays with the same alignment share one attribute-form directive."""
    by_parts: dict[object, list[str]] = {}
    for n in names:
        by_parts.setdefault(_align_parts(arrays[n]), []).append(n)
    cls = m.Realign if realign else m.Align
    out: list[m.Directive] = []
    for (source, subs), same in by_parts.items():
        if len(same) == 1:
            out.append(cls((same[0],), source or None, template, subs))
        else:
            out.append(cls(tuple(same), source or None, template, subs, attribute=True))
    return out


def redistribute_directives(arrays: Mapping[str, Layout]) -> tuple[m.Redistribute, ...]:
    """REDISTRIBUTE the templates (or directly distributed arrays) of ``arrays`` to their layouts.

    Arrays on a named template give one ``REDISTRIBUTE T(...) ONTO P`` per
    template; an array without ``template_name`` must be distributed directly.
    """
    seen: dict[str, Layout] = {}
    for name in sorted(arrays):
        lay = arrays[name]
        if _is_direct(name, lay):
            target = name
        elif lay.template_name:
            target = lay.template_name
        else:
            raise ValueError(f"the layout of {name} needs a template_name to be redistributed")
        if target in seen and (seen[target].formats, seen[target].grid) != (lay.formats, lay.grid):
            raise ValueError(f"arrays on template {target} disagree on its distribution")
        seen.setdefault(target, lay)
    return tuple(
        m.Redistribute((t,), _formats(lay.formats), procs_name(lay) if lay.grid else None) for t, lay in seen.items()
    )


def realign_directives(arrays: Mapping[str, Layout]) -> tuple[m.Directive, ...]:
    """REALIGN each array with its layout's (named, already declared) template."""
    out: list[m.Directive] = []
    by_template: dict[str, list[str]] = {}
    for name in sorted(arrays):
        t = arrays[name].template_name
        if not t:
            raise ValueError(f"the layout of {name} needs a template_name to be realigned")
        by_template.setdefault(t, []).append(name)
    for t, names in by_template.items():
        out.extend(_aligns(names, arrays, t, realign=True))
    return tuple(out)
