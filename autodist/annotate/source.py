"""Write a mapping decision into the original source as HPF directives.

For every program unit: the specification directives (PROCESSORS, TEMPLATE,
ALIGN, DISTRIBUTE, DYNAMIC) of the arrays it declares go after its
specification part; ``REDISTRIBUTE``/``REALIGN`` go before the phases where a
dynamic solution remaps (on the control-flow edge: before the phase's first
statement, inside the enclosing loops); ``INDEPENDENT`` (with ``NEW`` for
private scalars and ``REDUCTION`` for reductions) goes right before every loop
found parallel.  Every other byte of the source is left as it was, so the
result compiles with any Fortran 77 compiler (directives are comments).  A
C-preprocessed file gets its directives in its own text (:mod:`.preprocessed`).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from .. import ir
from ..analysis.model import ProgramAnalysis
from ..frontend.lexical import scan
from ..frontend.source import lines_with_endings
from ..frontend.text import without_ending
from ..hpf import model as m
from ..hpf.emit import directive_lines, independent_directive, layout_directives, realign_directives, redistribute_directives
from ..hpf.splice import Insertion, is_directive_line, splice, strip_directives
from ..layout.model import Axis, Layout
from ..mapping.arrays import ArrayTable
from ..mapping.evaluate import localize
from ..mapping.plan import Solution
from . import preprocessed

FREE_SUFFIXES = (".f90", ".f95", ".f03", ".f08")


def form_of(path: str) -> str:
    return "free" if path.lower().endswith(FREE_SUFFIXES) else "fixed"


@dataclass(frozen=True)
class Annotated:
    """The annotated text of each changed file (lines with their endings)."""

    files: tuple[tuple[str, tuple[str, ...]], ...]
    directives: int  # directive statements written
    #: directives not written, and why (they belong inside an INCLUDE file,
    #: which other units may share)
    notes: tuple[str, ...] = ()


def _identity(lay: Layout) -> bool:
    return lay.template == lay.bounds and lay.align == tuple(Axis(d) for d in range(lay.rank))


def _local_layouts(unit: ir.Unit, mapping, table: ArrayTable) -> dict[str, Layout]:
    out = {}
    for gid, lay in mapping.layouts:
        name = table.local_name(gid, unit.name)
        sym = unit.symbol(name) if name else None
        if sym is None or not sym.is_array:
            continue
        bounds = tuple(d.bounds for d in sym.dims) if sym.dims else None
        if bounds is None or any(b is None for b in bounds):
            continue
        out[name] = localize(lay, bounds)  # type: ignore[arg-type]
    return out


def _named(name: str, lay: Layout, versions: list[Layout] | None, group: str, taken: frozenset[str]) -> Layout:
    """Give a layout the template name the directives will use.

    A remapped array (``versions``: every layout it takes) whose versions are
    all identity alignments is distributed as itself and REDISTRIBUTEd; one
    with another alignment gets a template per version (``T_A``, ``T1_A``, ...,
    with ``_`` appended while the name is one of ``taken``, the unit's own
    names) and is REALIGNed between them."""
    if versions is not None:
        if all(_identity(v) for v in versions):
            tname = name
        else:
            k = versions.index(lay)
            tname = f"T{k}_{name}" if k else f"T_{name}"
            while tname.upper() in taken:
                tname += "_"
    else:
        tname = group or lay.template_name or "T"
    return dataclasses.replace(lay, template_name=tname)


def _unit_insertions(an: ProgramAnalysis, unit: ir.Unit, instance: str, solution: Solution, table: ArrayTable,
                     events: list, existing: list[ir.Directive], ignore_directives: bool,
                     independent: bool, notes: list[str]) -> tuple[list[Insertion], int]:
    """The directives of one instance of a unit (line numbers of its file).
    A directive whose place is inside an INCLUDE file is not written (the
    file may be shared by other units, with other mappings): ``notes`` says
    which."""
    form = form_of(unit.span.file)
    out: list[Insertion] = []
    count = 0
    user_arrays = set() if ignore_directives else _directive_names(existing)
    entry = _local_layouts(unit, solution.entry_of(instance), table)
    entry = {n: l for n, l in entry.items() if n not in user_arrays}
    events = [r for r in events if r.name in entry or r.name not in user_arrays]
    dynamic = {r.name for r in events if (s := unit.symbol(r.name)) is not None and s.is_array}
    later: dict[int, dict[str, Layout]] = {}
    versions: dict[str, list[Layout]] = {}
    for n, lay in entry.items():
        versions.setdefault(n, []).append(lay)
    for r in events:
        sym = unit.symbol(r.name)
        if sym is None or not sym.is_array:  # not an array of this unit: a callee's local of that name
            continue
        bounds = tuple(d.bounds for d in sym.dims)  # type: ignore[union-attr]
        if any(b is None for b in bounds):  # bounds not constant: no directives for it here, as on entry
            continue
        dst = localize(r.dst, bounds)
        if dst not in versions.setdefault(r.name, []):
            versions[r.name].append(dst)
        later.setdefault(r.target, {})[r.name] = dst
    group = _template_names(entry, dynamic)
    avoid = tuple(s.name for s in unit.symbols) + tuple(_declared_names(existing))
    taken = frozenset(a.upper() for a in avoid)
    named_entry = {n: _named(n, lay, versions[n] if n in dynamic else None, group.get(n, ""), taken)
                   for n, lay in entry.items()}
    later_named = {pid: {n: _named(n, lay, versions[n], "", taken) for n, lay in lays.items()}
                   for pid, lays in later.items()}
    procs = _arrangement_names([*named_entry.values(), *(l for lays in later_named.values() for l in lays.values())],
                               set(avoid) | {l.template_name for l in named_entry.values()})
    named_entry = {n: dataclasses.replace(l, procs_name=procs[l.grid]) for n, l in named_entry.items()}
    later_named = {pid: {n: dataclasses.replace(l, procs_name=procs[l.grid]) for n, l in lays.items()}
                   for pid, lays in later_named.items()}
    spec = layout_directives(named_entry, dynamic=sorted(dynamic), remaps=list(later_named.values()), avoid=avoid)
    if spec:
        out.append(Insertion(unit.decl_end, tuple(directive_lines(spec, form)), "after"))
        count += len(spec)
    proc = an.procedure(unit.name)
    for pid, lays in sorted(later_named.items()):
        if pid == 0:
            continue
        ph = proc.phase(pid)
        directives: list[m.Directive] = []
        redis = {n: l for n, l in lays.items() if l.template_name == n}  # distributed as itself
        realign = {n: l for n, l in lays.items() if n not in redis}
        if redis:
            directives.extend(redistribute_directives(redis))
        if realign:
            directives.extend(realign_directives(realign))
        if not directives:
            continue
        if ph.span.file != unit.span.file:
            notes.append(_not_written(directives, ph.span, unit.name))
            continue
        out.append(Insertion(ph.span.first, tuple(directive_lines(directives, form)), "before"))
        count += len(directives)
    if independent:
        count += _independents(proc, unit, out, form, existing, notes)
    return out, count


def _not_written(directives: list, span: ir.Span, unit: str) -> str:
    what = ", ".join(sorted({type(d).__name__.upper() for d in directives}))
    return (f"{span.file}:{span.first} ({unit}): {what} not written: the line is in an INCLUDE file, "
            f"which other units may share")


#: Fixed form: a statement's text ends at column 72 (what follows is ignored).
FIXED_WIDTH = 72


def _rename_call(line: str, callee: str, new: str, form: str) -> str:
    return _renamed(line, rf"(?i)(\bCALL\s+){re.escape(callee)}\b", new, form)


def _renamed(line: str, pattern: str, name: str, form: str) -> str:
    """``line`` with the first match of ``pattern`` replaced by its group 1 and
    ``name``.  In fixed form, code the longer name pushes past column 72 goes
    on a continuation line (in the same element, joined by the line's own
    ending); a sequence field past column 72 stays past it, an inline comment
    ends the last line."""
    new = re.sub(pattern, lambda mt: mt.group(1) + name, line, count=1)
    if new == line or form != "fixed" or "\t" in line:
        return new
    body = without_ending(new)
    ending = new[len(body):] or "\n"
    _, bang, _ = scan(body)
    if bang is not None:  # an inline comment takes the rest of the line
        code, tail, comment = body[:bang].rstrip(), "", body[bang:]
    else:  # past the old line's column 72: a sequence field
        width = FIXED_WIDTH + len(body) - len(without_ending(line))
        code, tail, comment = body[:width].rstrip(), body[width:], ""
    if len(code) <= FIXED_WIDTH:
        return new
    chunks = [code[:FIXED_WIDTH]]
    rest = code[FIXED_WIDTH:]
    while rest:
        chunks.append("     &" + rest[:FIXED_WIDTH - 6])
        rest = rest[FIXED_WIDTH - 6:]
    if tail:
        chunks[0] = chunks[0].ljust(FIXED_WIDTH) + tail
    if comment:
        chunks[-1] += " " + comment
    return ending.join(chunks) + new[len(body):]


def _clone_text(lines: list[str], unit: ir.Unit, clone: str, form: str) -> list[str]:
    """The unit's lines with its header naming the clone."""
    out = list(lines)
    for k, line in enumerate(out):
        new = _renamed(line, rf"(?i)(\b(?:SUBROUTINE|FUNCTION)\s+){re.escape(unit.name)}\b", clone, form)
        if new != line:
            out[k] = new
            break
    return out


def annotate(an: ProgramAnalysis, solution: Solution, table: ArrayTable, *,
             ignore_directives: bool = False, independent: bool = True) -> Annotated:
    """Directives for ``solution`` spliced into the sources of ``an.program``;
    procedures called with different mappings are cloned (``CALC1_1``, ...)."""
    program = an.program
    per_file: dict[str, list[Insertion]] = {}
    strip: dict[str, list[ir.Span]] = {}
    count = 0
    notes: list[str] = []
    remaps_by_proc: dict[str, list] = {}
    for r in solution.remaps:
        remaps_by_proc.setdefault(r.procedure, []).append(r)
    clones_of: dict[str, list[str]] = {}
    for proc_name, clone in solution.clones:
        clones_of.setdefault(proc_name, []).append(clone)
    renames: dict[str, dict[int, tuple[str, str]]] = {}  # caller instance -> line -> (callee, clone)
    for caller, line, inst in solution.call_sites:
        unit_name = solution.unit_of(inst)
        if inst != unit_name:
            renames.setdefault(caller, {})[line] = (unit_name, inst)
    original = {f: lines_with_endings(f, program.source_lines(f)) for f in program.files}
    file_lines = {f: list(lines) for f, lines in original.items()}
    for unit in program.units:
        file = unit.span.file
        existing = list(unit.directives) + [s for s in unit.statements() if isinstance(s, ir.Directive)]
        if ignore_directives:
            strip.setdefault(file, []).extend(d.span for d in existing)
        ins, n = _unit_insertions(an, unit, unit.name, solution, table, remaps_by_proc.get(unit.name, []),
                                  existing, ignore_directives, independent, notes)
        per_file.setdefault(file, []).extend(ins)
        count += n
        for line, (callee, clone) in renames.get(unit.name, {}).items():
            file_lines[file][line - 1] = _rename_call(file_lines[file][line - 1], callee, clone, form_of(file))
        for clone in clones_of.get(unit.name, []):
            ins, n = _unit_insertions(an, unit, clone, solution, table, remaps_by_proc.get(clone, []),
                                      existing, ignore_directives, independent, [])
            count += n
            first, last = unit.span.first, unit.span.last
            body = list(program.source_lines(file))[first - 1:last]
            for line, (callee, inner) in renames.get(clone, {}).items():
                body[line - first] = _rename_call(body[line - first], callee, inner, form_of(file))
            local = [dataclasses.replace(i, line=i.line - first + 1) for i in ins if first <= i.line <= last]
            text = _clone_text(splice(body, local, form_of(file)), unit, clone, form_of(file))
            per_file[file].append(Insertion(last, tuple(text), "after"))
    out = []
    for file in program.files:
        ins = per_file.get(file, [])
        gone = strip.get(file, [])
        lines = file_lines[file]
        if not ins and not gone and lines == original[file]:
            continue
        if gone:
            lines = strip_directives(lines, gone)
            ins = _shift(ins, gone)
        if file in program.preprocessing.files:
            ins = preprocessed.place(file, lines, ins, program.preprocessing)
        text = splice(lines, ins, form_of(file))
        if file in program.preprocessing.files:
            preprocessed.check(file, text, len(lines), ins, program.preprocessing)
        out.append((file, tuple(text)))
    return Annotated(tuple(out), count, tuple(dict.fromkeys(notes)))


def _arrangement_names(layouts, taken: set[str]) -> dict[tuple[int, ...], str]:
    """A PROCESSORS name per arrangement shape: ``P`` when the unit uses one
    shape, ``P4``, ``P2X2`` ... when it uses several; never a name the unit
    already uses (``_`` is appended)."""
    shapes = sorted({l.grid for l in layouts if l.grid}, key=lambda g: (len(g), g))
    taken = {t.upper() for t in taken}
    out: dict[tuple[int, ...], str] = {(): "P"}
    for g in shapes:
        options = ["P", "PROCS"] if len(shapes) == 1 else ["P" + "X".join(str(x) for x in g)]
        name = next((n for n in options if n not in taken), options[-1])
        while name in taken:
            name += "_"
        taken.add(name)
        out[g] = name
    return out


def _template_names(entry: dict[str, Layout], dynamic: set[str]) -> dict[str, str]:
    """Arrays that are not remapped share a TEMPLATE when they share the
    template's shape and distribution; each distinct one gets its own name."""
    names: dict[tuple, str] = {}
    used: dict[str, int] = {}
    out = {}
    for name in sorted(entry):
        if name in dynamic:
            continue
        lay = entry[name]
        base = lay.template_name or "T"
        key = (base, lay.template, lay.formats, lay.grid)
        if key not in names:
            used[base] = used.get(base, 0) + 1
            names[key] = base if used[base] == 1 else f"{base}_{used[base]}"
        out[name] = names[key]
    return out


def _parsed(directives: list[ir.Directive]):
    """The HPF directives of ``directives`` as parsed (those that do not parse left out)."""
    from ..hpf.parse import parse_directive

    for d in directives:
        try:
            yield from parse_directive(d)
        except Exception:
            continue


def _declared_names(directives: list[ir.Directive]) -> set[str]:
    """Processor arrangements and templates the unit's own directives declare
    (kept in the output: the names written must differ from theirs)."""
    names: set[str] = set()
    for x in _parsed(directives):
        if isinstance(x, m.Processors):
            names.update(a.name.upper() for a in x.arrangements)
        elif isinstance(x, m.Template):
            names.update(t.name.upper() for t in x.templates)
    return names


def _directive_names(directives: list[ir.Directive]) -> set[str]:
    """Arrays and templates the user's own mapping directives name."""
    names: set[str] = set()
    for x in _parsed(directives):
        if isinstance(x, (m.Align, m.Distribute, m.Dynamic, m.Inherit)):
            for attr in ("alignees", "distributees", "names", "objects"):
                names.update(getattr(x, attr, ()) or ())
    return {n.upper() for n in names if isinstance(n, str)}


def _independents(proc, unit: ir.Unit, insertions: list[Insertion], form: str, existing, notes: list[str]) -> int:
    marked = {(d.span.file, d.span.last + 1) for d in existing if "INDEPENDENT" in d.text.upper()}
    n = 0
    for ph in proc.phases:
        for lp in ph.loops:
            file = lp.do.span.file if lp.do is not None else ph.span.file
            if not lp.parallel or (file, lp.line) in marked or (lp.do is not None and lp.do.lowered):
                continue  # an array assignment is parallel as it stands
            reductions = tuple(name for name, _ in lp.reductions if "(" not in name)
            new = tuple(n for n in lp.private + lp.private_arrays if not ir.is_lowered(n))
            d = independent_directive(new=new, reduction=reductions)
            if file != unit.span.file:
                notes.append(_not_written([d], ir.Span(file, lp.line, lp.line), unit.name))
                continue
            insertions.append(Insertion(lp.line, tuple(directive_lines([d], form)), "before"))
            n += 1
    return n


def _shift(insertions: list[Insertion], removed: list[ir.Span]) -> list[Insertion]:
    """Line numbers after removing the lines of ``removed``."""
    gone = sorted({ln for sp in removed for ln in range(sp.first, sp.last + 1)})
    import bisect

    return [dataclasses.replace(i, line=i.line - bisect.bisect_left(gone, i.line)) for i in insertions]


__all__ = ["annotate", "Annotated", "form_of", "is_directive_line"]
