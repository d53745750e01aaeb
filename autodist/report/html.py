"""The page of ``autodist explain --html``: one self-contained HTML file.

The pictures are embedded as base64 PNGs (the timeline with an image map: a
click on a phase column goes to the phase), the tables sort on a click on
their heading (a few lines of inline JavaScript), every phase links to its
lines in the program's source, which the page holds (one anchor per line:
``src-FILE-LINE``, ``FILE`` the file's position in the program).  Nothing is
loaded from the network.

Anchors a reader (or a test) can rely on: ``phase-INSTANCE-ID`` for each
phase's row, ``array-ID`` for each array (global ids with characters other
than letters, digits and ``_`` replaced by ``_``), ``layout``, ``why``,
``what-if``, ``phases``, ``source`` for the sections.
"""

from __future__ import annotations

import base64
import re
from html import escape

from .explain import Explanation, PhaseView, Timeline
from .explain_text import hint, phase_ranges, sensitivity_text
from .timeline import Picture

STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:1.5em auto;max-width:98%;
color:#222;line-height:1.35}
h1{font-size:1.4em;margin-bottom:.2em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:1.6em}
h3{font-size:1.05em}nav a{margin-right:1em}.summary{font-size:1.05em}
table{border-collapse:collapse;margin:.5em 0 1em 0;font-size:.9em}
th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
th{background:#f0f0f0;cursor:pointer;user-select:none;white-space:nowrap}
th[data-dir=asc]::after{content:" \\25B2"}th[data-dir=desc]::after{content:" \\25BC"}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr:target{background:#fff3b0}.pic{overflow-x:auto;border:1px solid #ddd;padding:4px;margin-bottom:.5em}
pre.src{font-size:.85em;line-height:1.25;overflow-x:auto;border:1px solid #ddd;padding:.4em;background:#fafafa}
pre.src span{display:block;white-space:pre}pre.src span.ph{background:#eef5ff}
pre.src span:target{background:#fff3b0}pre.src a.ln{color:#999;text-decoration:none;display:inline-block;
width:4em;text-align:right;margin-right:1em}pre.src a.tag{float:right;font-size:.85em;color:#0645ad}
.neg{color:#1a7f37}.pos{color:#b42318}code{background:#f3f3f3;padding:0 .2em}
"""

SCRIPT = """
function sortKey(td){var v=td.getAttribute('data-sort');if(v===null)v=td.textContent.trim();
var n=Number(v);return (v!==''&&!isNaN(n))?[0,n]:[1,v.toLowerCase()];}
document.querySelectorAll('table.sortable th').forEach(function(th){th.addEventListener('click',function(){
var tr=th.parentNode,t=tr.closest('table'),b=t.tBodies[0],i=Array.prototype.indexOf.call(tr.children,th);
var asc=th.getAttribute('data-dir')!=='asc';tr.querySelectorAll('th').forEach(function(h){h.removeAttribute('data-dir');});
th.setAttribute('data-dir',asc?'asc':'desc');var rows=Array.prototype.slice.call(b.rows);
rows.sort(function(x,y){var a=sortKey(x.cells[i]),c=sortKey(y.cells[i]);
var r=a[0]-c[0]||(a[1]<c[1]?-1:a[1]>c[1]?1:0);return asc?r:-r;});rows.forEach(function(r){b.appendChild(r);});});});
"""


def anchor(text: str) -> str:
    """An id-safe form of a name."""
    return re.sub(r"[^A-Za-z0-9_]", "_", text)


def phase_id(key: str) -> str:
    """``phase-ADI-4`` for the phase ``ADI:4``."""
    inst, _, n = key.rpartition(":")
    return f"phase-{anchor(inst)}-{n}"


def _num(x: float, fmt: str = ".4g") -> str:
    return f'<td class="num" data-sort="{x!r}">{format(x, fmt)}</td>'


def _delta(x: float) -> str:
    cls = "pos" if x > 0 else "neg" if x < 0 else ""
    return f'<td class="num {cls}" data-sort="{x!r}">{x:+.4g}</td>'


def _table(head: list[str], rows: list[str], cls: str = "sortable") -> str:
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    return f'<table class="{cls}"><thead><tr>{th}</tr></thead><tbody>\n' + "\n".join(rows) + "\n</tbody></table>"


class _Page:
    def __init__(self, e: Explanation):
        self.e = e
        self.files = {f: k for k, (f, _) in enumerate(e.sources)}

    def src(self, file: str, first: int, last: int | None = None) -> str:
        """A link to source lines (plain text when the file is not in the page)."""
        text = f"{file}:{first}" + (f"-{last}" if last is not None and last != first else "")
        k = self.files.get(file)
        if k is None:
            return escape(text)
        return f'<a href="#src-{k}-{first}">{escape(text)}</a>'

    def phase_link(self, key: str, label: str | None = None) -> str:
        return f'<a href="#{phase_id(key)}">{escape(label or key)}</a>'

    def contributions(self, cs) -> str:
        parts = []
        for c in cs:
            what = escape(c.label) if c.key == "remapping" else self.phase_link(c.key, c.label)
            parts.append(f"{what} {c.delta:+.4g} s")
        return "; ".join(parts) or "a tie"

    # ------------------------------------------------------------------ sections

    def header(self) -> str:
        e, t = self.e, self.e.timeline
        d = e.decision
        other = "static" if e.chosen == "dynamic" else "dynamic"
        other_total = e.static_total if other == "static" else e.dynamic_total
        why = (f"the {escape(d.other)} solution costs {d.delta:+.4g} s: {self.contributions(d.contributions)}"
               if d.contributions else f"the {escape(d.other)} solution costs the same")
        return (f"<h1>autodist explain: {escape(', '.join(e.files))}</h1>\n"
                f'<p class="summary">{len(t.phases)} phases, {t.array_count} arrays; {e.procs} processors of '
                f"machine <b>{escape(e.machine)}</b> (<code>{escape(e.machine_source)}</code>), mode {escape(e.mode)}."
                f"<br>Chosen: the <b>{escape(e.chosen)}</b> solution{escape(e.idle)}, {t.total:.4g} s per run (computation "
                f"{t.computation:.4g} s, movement {t.movement:.4g} s, remapping {t.remapping:.4g} s); "
                f"{other} {other_total:.4g} s &mdash; {why}.</p>\n"
                '<nav><a href="#layout">Layout over the program</a><a href="#why">Why</a>'
                '<a href="#what-if">What would change it</a><a href="#phases">Phases</a>'
                '<a href="#source">Source</a></nav>')

    def picture(self, pic: Picture, name: str, alt: str, t: Timeline | None = None) -> str:
        data = base64.b64encode(pic.png).decode("ascii")
        usemap = f' usemap="#map-{name}"' if t is not None and pic.areas else ""
        out = (f'<div class="pic"><img src="data:image/png;base64,{data}" width="{pic.width}" '
               f'height="{pic.height}" alt="{escape(alt)}"{usemap}></div>')
        if usemap:
            areas = []
            for index, x0, y0, x1, y1 in pic.areas:
                p = t.phases[index]
                tip = f"{p.label}: {p.computation:.4g} s computation, {p.movement:.4g} s movement"
                areas.append(f'<area shape="rect" coords="{x0},{y0},{x1},{y1}" href="#{phase_id(p.key)}" '
                             f'title="{escape(tip)}" alt="{escape(p.label)}">')
            out += f'<map name="map-{name}">' + "".join(areas) + "</map>"
        return out

    def remaps(self, t: Timeline) -> str:
        if not t.remaps:
            return "<p>No remapping: every array keeps one layout.</p>"
        rows = []
        for m in t.remaps:
            p = t.phases[m.before]
            where = "after" if m.at > m.before else "before"
            src = t.phases[m.source].key if m.source is not None else None
            rows.append(f"<tr><td>{escape(m.name)}</td><td>{escape(m.src)}</td><td>{escape(m.dst)}</td>"
                        f"<td>{where} {self.phase_link(p.key, p.label)}</td>"
                        f"<td>{self.phase_link(src) if src else 'entry'}</td>"
                        f"{_num(m.count, 'g')}{_num(float(m.bytes), '.0f')}{_num(m.cost)}</tr>")
        return _table(["array", "from", "to", "where", "coming from", "times per run", "bytes each",
                       "cost (s per run)"], rows)

    def layout(self, pictures: list[Picture]) -> str:
        out = ['<h2 id="layout">The layout over the program</h2>',
               "<p>Phases along x in execution order, grouped by procedure, with the loops that hold them; "
               "arrays along y, each cell coloured by the array's layout in the phase (blank: the phase does "
               "not use it); red marks: remaps, paid on the boundary before the phase; bars: predicted "
               "computation and movement of each phase and the remapping at each boundary (seconds per run). "
               "Click a phase to see it.</p>"]
        for k, (t, pic) in enumerate(zip(self.e.timelines, pictures)):
            role = "chosen" if k == 0 else "for comparison"
            out.append(f"<h3>The {escape(t.kind)} solution ({role}): {t.total:.4g} s per run</h3>")
            out.append(self.picture(pic, t.kind, f"timeline of the {t.kind} solution", t))
            out.append(self.remaps(t))
            if t.loops:
                out.append("<p>Loops around phases: " + "; ".join(
                    f"{escape(b.text)} ({self.src(t.phases[b.first].span.file, b.line)}) around "
                    f"{self.phase_link(t.phases[b.first].key)} to {self.phase_link(t.phases[b.last].key)}"
                    for b in t.loops) + ".</p>")
        return "\n".join(out)

    def why(self) -> str:
        e = self.e
        d = e.decision
        out = ['<h2 id="why">Why</h2>',
               f"<p>The {escape(d.chosen)} solution costs {d.total:.4g} s per run, the {escape(d.other)} one "
               f"{d.other_total:.4g} s ({d.delta:+.4g} s): {self.contributions(d.contributions)}.</p>",
               "<h3>Distributed arrays and their runner-ups</h3>",
               "<p>Per array its layout in the chosen solution and, per other layout, the cheapest solution "
               "giving it that layout; &Delta; is its cost minus the chosen one's, then the phases that "
               "contribute most to the difference (positive: the runner-up pays more there). Arrays of one "
               "template change layout together.</p>"]
        rows = []
        for a in e.arrays:
            uses = "; ".join(f"{escape(k)} in {escape(phase_ranges(v))}" for k, v in a.phases) or escape(a.layout)
            first = (f'<td id="array-{anchor(a.array)}">{escape(a.name)}</td><td>{escape(a.template or "")}'
                     f"{' with ' + escape(', '.join(a.together)) if a.together else ''}</td><td>{uses}</td>")
            if not a.alternatives:
                rows.append(f"<tr>{first}<td>none among the candidates</td><td></td><td></td><td></td></tr>")
            for k, alt in enumerate(a.alternatives):
                cells = first if k == 0 else f"<td>{escape(a.name)}</td><td></td><td></td>"
                rows.append(f"<tr>{cells}<td>{escape(alt.solution)}</td><td>{escape(alt.layout)}</td>"
                            f"{_delta(alt.delta)}<td>{self.contributions(alt.contributions)}</td></tr>")
        out.append(_table(["array", "template", "chosen layout", "runner-up", "its layout", "\u0394 (s)",
                           "phases that contribute most"], rows))
        out.append("<h3>Replicated arrays</h3>")
        if e.replicated:
            rows = [f'<tr><td id="array-{anchor(r.array)}">{escape(r.name)}</td><td>{escape(r.category)}</td>'
                    f"<td>{escape(r.detail)}</td></tr>" for r in e.replicated]
            out.append(_table(["array", "reason", "detail"], rows))
        else:
            out.append("<p>None.</p>")
        return "\n".join(out)

    def what_if(self, picture: Picture | None) -> str:
        e = self.e
        out = ['<h2 id="what-if">What would change it</h2>',
               "<p>Each assumption the prediction rests on, the value used and the nearest values on either "
               "side at which the best mapping changes, found on a grid around the value and bisected on the "
               "cost model as <code>autodist sweep</code> does.</p>"]
        if not e.sensitivities:
            out.append("<p>Not examined.</p>")
        else:
            if picture is not None:
                out.append(self.picture(picture, "what-if", "predicted speedups against each assumption"))
            rows = []
            for s in e.sensitivities:
                lo, hi = s.span
                flips = escape(sensitivity_text(s).split(": ", 1)[1])
                rows.append(f'<tr id="assumption-{anchor(s.key)}"><td>{escape(s.axis.label)}</td>'
                            f"<td>{escape(s.key)}</td><td data-sort=\"{s.current!r}\">{escape(s.axis.format(s.current))}"
                            f"</td><td>{escape(s.axis.format(lo))} to {escape(s.axis.format(hi))}</td>"
                            f"<td>{flips}</td><td>{escape(hint(s.key))}</td></tr>")
            out.append(_table(["assumption", "key", "value used", "examined", "what changes", "to find out"],
                              rows))
        out.append("<h3>Loops with unknown trip counts</h3>")
        if e.unknown_trips:
            rows = [f"<tr><td>{escape(u.procedure)}</td><td>{self.src(u.file, u.line)}</td><td>"
                    f"<code>{escape(u.text)}</code></td>"
                    + (_num(u.assumed, "g") if u.assumed is not None else "<td>?</td>")
                    + f"<td>{self.phase_link(f'{u.procedure}:{u.phase}') if u.phase else 'around phases'}</td></tr>"
                    for u in e.unknown_trips]
            out.append(f"<p>{escape(hint('default_trip_count'))}.</p>")
            out.append(_table(["procedure", "line", "loop", "trips assumed", "phase"], rows))
        else:
            out.append("<p>None: every trip count is known.</p>")
        return "\n".join(out)

    def phases(self) -> str:
        t = self.e.timeline
        into: dict[int, list[str]] = {}
        for m in t.remaps:
            into.setdefault(m.before, []).append(m.name)
        names = dict(t.arrays)
        rows = []
        for p in t.phases:
            what = (f"CALL {escape(p.callee)}" if p.kind == "call" and p.callee
                    else "function call" if p.kind == "function" else "loop")
            layouts = ", ".join(f"{escape(names.get(gid, gid))} {escape(key)}" for gid, key in p.cells)
            rows.append(f'<tr id="{phase_id(p.key)}"><td class="num" data-sort="{p.index}">{p.index + 1}</td>'
                        f"<td>{escape(p.instance)}</td><td class=\"num\">{p.phase}</td><td>{what}</td>"
                        f"<td>{self.src(p.span.file, p.span.first, p.span.last)}</td>"
                        f"{_num(p.executions, 'g')}{_num(p.computation)}{_num(p.movement)}"
                        f"<td>{escape(', '.join(dict.fromkeys(into.get(p.index, []))))}</td><td>{layouts}</td></tr>")
        return ('<h2 id="phases">Phases</h2>\n<p>The phases of the chosen solution in timeline order; costs in '
                "seconds per run.</p>\n" + _table(["#", "procedure", "phase", "kind", "lines", "runs", "computation",
                                                   "movement", "remapped before", "layouts"], rows))

    def source(self) -> str:
        marks: dict[tuple[str, int], list[PhaseView]] = {}
        inside: set[tuple[str, int]] = set()
        for p in self.e.timeline.phases:
            marks.setdefault((p.span.file, p.span.first), []).append(p)
            inside.update((p.span.file, n) for n in range(p.span.first, p.span.last + 1))
        out = ['<h2 id="source">Source</h2>']
        for k, (f, lines) in enumerate(self.e.sources):
            out.append(f'<h3 id="file-{k}">{escape(f)}</h3>\n<pre class="src">')
            body = []
            for n, text in enumerate(lines, 1):
                cls = ' class="ph"' if (f, n) in inside else ""
                tags = "".join(f'<a class="tag" href="#{phase_id(p.key)}">phase {p.phase} of {escape(p.instance)}'
                               "</a>" for p in marks.get((f, n), []))
                body.append(f'<span id="src-{k}-{n}"{cls}><a class="ln" href="#src-{k}-{n}">{n}</a>'
                            f"{escape(text.rstrip(chr(10) + chr(13)))}{tags}</span>")
            out.append("".join(body) + "</pre>")
        return "\n".join(out)


def explain_html(e: Explanation, timelines: list[Picture], what_if: Picture | None) -> str:
    """The whole page: ``timelines`` are the pictures of ``e.timelines`` (in order)."""
    page = _Page(e)
    title = escape(", ".join(e.files))
    parts = [page.header(), page.layout(timelines), page.why(), page.what_if(what_if), page.phases(),
             page.source()]
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>autodist explain: {title}</title>'
            f"<style>{STYLE}</style></head><body>\n" + "\n".join(parts)
            + f"\n<script>{SCRIPT}</script>\n</body></html>\n")
