"""The text and JSON of ``autodist explain``: the facts of the page, in short."""

from __future__ import annotations

import re

from typing import Any

from ..sweep.axes import PROCS
from ..sweep.sensitivity import ANALYSIS, MEANINGS, Sensitivity
from .explain import REPLICATED, Explanation, Timeline
from .sweep import crossover_text

#: Phases per block of the text timeline.
TEXT_WIDTH = 40
#: Longer programs get their timeline only in the pictures.
TEXT_PHASES = 3 * TEXT_WIDTH
#: Changes of layout named in a change of mapping.
MAX_CHANGES = 3
#: Loops with unknown trip counts listed in the text (all are in the JSON and the page).
TEXT_TRIPS = 5


def _s(x: float) -> str:
    return f"{x:.4g} s"


def _d(x: float) -> str:
    return f"{x:+.4g} s"


def phase_ranges(keys) -> str:
    """``ADI 1-6, CALC 2,4`` from phase keys ``INSTANCE:id``."""
    ids: dict[str, set[int]] = {}
    for k in keys:
        inst, _, n = k.rpartition(":")
        ids.setdefault(inst, set()).add(int(n))
    parts = []
    for inst, ns in ids.items():
        runs: list[list[int]] = []
        for n in sorted(ns):
            if runs and n == runs[-1][-1] + 1:
                runs[-1].append(n)
            else:
                runs.append([n])
        parts.append(f"{inst} " + ",".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else ",".join(map(str, r)) for r in runs))
    return ", ".join(parts)


def hint(key: str) -> str:
    """What a user can do about an assumption."""
    if key == PROCS:
        return "choose the processor count with --procs"
    if key == "default_trip_count":
        return "measure the trip counts with 'autodist profile' (--profile) or pass --trip-count N"
    if key == "branch_probability":
        return "measure the branch frequencies with 'autodist profile' (--profile)"
    return "measure this machine with 'autodist calibrate' (--machine)"


def _value(axis, v: float) -> str:
    """``2.97 us/byte``, ``16 processors``, ``default trip count 6``, ``0.5``."""
    if axis.integer:
        return axis.phrase(v)
    return axis.format(v) if axis.unit else f"{v:.3g}"


def _verb(kind: str) -> str:
    return "pays" if kind == "dynamic" else "wins"


def _layouts(mapping: str) -> dict[str, str]:
    """``A,B(BLOCK,*) C(*,BLOCK)/(BLOCK,*)`` (:func:`autodist.sweep.mapping_text`) -> array -> layouts;
    on fewer processors than all (``... on 4``) every layout says on how many."""
    used = re.search(r" on (\d+)$", mapping)
    if used:
        mapping = mapping[:used.start()]
    out = {}
    for token in mapping.split():
        names, paren, layouts = token.partition("(")
        for name in names.split(","):
            out[name] = paren + layouts + (f" on {used[1]}" if used else "")
    return out


def mapping_change(old: str, new: str) -> str:
    """What differs between two mappings: ``S2.U,S2.U2 (*,BLOCK) -> (*,CYCLIC)``."""
    a, b = _layouts(old), _layouts(new)
    groups: dict[tuple[str, str], list[str]] = {}
    for name in sorted(set(a) | set(b)):
        if a.get(name) != b.get(name):
            groups.setdefault((a.get(name, "-"), b.get(name, "-")), []).append(name)
    parts = [f"{','.join(v)} {x} -> {y}" for (x, y), v in groups.items()]
    more = f"; {len(parts) - MAX_CHANGES} more" if len(parts) > MAX_CHANGES else ""
    return "; ".join(parts[:MAX_CHANGES]) + more if parts else "the same layouts"


def flip_text(s: Sensitivity, c) -> str:
    """A change of decision seen from the value used: above it as ``sweep``
    says it (``static wins above 2.97 us/byte (dynamic below)``), below it
    from the other side (``dynamic pays below 0.358 us/byte (static above)``);
    a change of the chosen mapping names the arrays whose layouts change."""
    axis, (a, b) = s.axis, c.bracket
    old, new = c.below, c.above
    where = "" if axis.key == PROCS else f" on {s.result.procs} processors"
    if not c.solution_changes:
        if c is s.below:
            at = f"up to {_value(axis, a)}" if axis.integer else f"below {_value(axis, c.at)}"
            return f"{at} the chosen {old.chosen} mapping changes: {mapping_change(new.best.mapping, old.best.mapping)}{where}"
        at = f"from {_value(axis, b)}" if axis.integer else f"above {_value(axis, c.at)}"
        return f"{at} the chosen {new.chosen} mapping changes: {mapping_change(old.best.mapping, new.best.mapping)}{where}"
    if c is not s.below:
        return crossover_text(s.result, c)
    if axis.integer:
        return f"{old.chosen} {_verb(old.chosen)} up to {_value(axis, a)} ({new.chosen} from {int(b)}){where}"
    if not c.refined:
        return (f"{old.chosen} {_verb(old.chosen)} below a {axis.label} between {_value(axis, a)} and "
                f"{_value(axis, b)}{where}")
    return f"{old.chosen} {_verb(old.chosen)} below {_value(axis, c.at)} ({new.chosen} above){where}"


def sensitivity_text(s: Sensitivity) -> str:
    """``remote access time 1 us/byte: static wins above 2.97 us/byte (dynamic below) on 16 processors``."""
    axis = s.axis
    head, lo, hi = axis.phrase(s.current), _value(axis, s.span[0]), _value(axis, s.span[1])
    if not s.matters:
        return f"{head}: does not change the prediction ({lo} to {hi})"
    if not s.flips:
        return f"{head}: the decision holds from {lo} to {hi}"
    return f"{head}: " + "; ".join(flip_text(s, c) for c in s.flips)


def _letters(keys: tuple[str, ...]) -> dict[str, str]:
    out = {REPLICATED: "r"}
    letters = iter("abcdefghijklmnopqstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    for k in keys:
        if k != REPLICATED:
            out[k] = next(letters, "?")
    return out


def timeline_text(t: Timeline) -> list[str]:
    """The timeline as characters: a column per phase, a letter per layout,
    ``>`` before a phase where the array is remapped, ``|`` between procedures."""
    letters = _letters(t.keys)
    marks = {(round(m.at + 0.5), t.row(m.array)) for m in t.remaps}
    starts = {first for _, first, _ in t.groups}
    width = max([len(n) for _, n in t.arrays] + [6]) + 2
    lines: list[str] = []
    for lo in range(0, len(t.phases), TEXT_WIDTH):
        block = t.phases[lo:lo + TEXT_WIDTH]
        groups = [(inst, max(a, lo), min(b, lo + TEXT_WIDTH - 1)) for inst, a, b in t.groups
                  if b >= lo and a < lo + TEXT_WIDTH]
        head = [" "] * (2 * len(block))
        for inst, a, b in groups:
            room = 2 * (b - a) + 1
            for k, ch in enumerate(inst[:room]):
                head[2 * (a - lo) + 1 + k] = ch
        lines.append(" " * width + "".join(head).rstrip())
        digits = max(len(str(p.phase)) for p in block)
        for row in range(digits):
            lines.append(" " * width + "".join(" " + str(p.phase).rjust(digits)[row] for p in block))
        for r, (_, name) in enumerate(t.arrays):
            cells = []
            for p in block:
                sep = ">" if (p.index, r) in marks else ("|" if p.index in starts and p.index else " ")
                keys = {k for g, k in p.cells if t.row(g) == r}
                cells.append(sep + ("." if not keys else letters[min(keys)] if len(keys) == 1 else "+"))
            lines.append(f"  {name:<{width - 2}}" + "".join(cells))
        lines.append("")
    legend = "  ".join(f"{letters[k]} = {k}" for k in t.keys)
    lines.append(f"  {legend}  . = not used  > = remapped before the phase  | = next procedure")
    return lines


def _remap_lines(t: Timeline) -> list[str]:
    groups: dict[tuple, list[str]] = {}
    cost: dict[tuple, float] = {}
    for m in t.remaps:
        key = (m.before, m.at, m.src, m.dst, m.count)
        groups.setdefault(key, []).append(m.name)
        cost[key] = cost.get(key, 0.0) + m.cost
    out = []
    for (before, at, src, dst, count), names in groups.items():
        where = "after" if at > before else "before"
        out.append(f"  {','.join(names)} {src} -> {dst} {where} {t.phases[before].label}: "
                   f"{count:g} times, {_s(cost[(before, at, src, dst, count)])}")
    return out


def explain_text(e: Explanation) -> str:
    """The terminal version: the decision, the timeline, why, what would change it."""
    t = e.timeline
    files = ", ".join(e.files[:3]) + (", ..." if len(e.files) > 3 else "")
    other = "static" if e.chosen == "dynamic" else "dynamic"
    other_total = e.static_total if other == "static" else e.dynamic_total
    lines = [f"{files}: {len(t.phases)} phases, {t.array_count} arrays, {e.procs} processors of {e.machine} "
             f"(mode {e.mode})",
             f"Chosen: the {e.chosen} solution{e.idle}, {_s(t.total)} per run (computation {_s(t.computation)}, "
             f"movement {_s(t.movement)}, remapping {_s(t.remapping)}); {other} {_s(other_total)}"]
    d = e.decision
    if d.contributions:
        lines.append(f"  the {d.other} solution costs {_d(d.delta)}: "
                     + ", ".join(f"{c.label} {_d(c.delta)}" for c in d.contributions))
    elif abs(d.delta) <= 1e-12 * max(abs(d.total), 1e-300):
        lines.append(f"  the {d.other} solution costs the same (no remapping pays)")
    lines += ["", f"Layout over the program ({t.kind} solution):"]
    if len(t.phases) <= TEXT_PHASES:
        lines += timeline_text(t)
    else:
        lines.append(f"  ({len(t.phases)} phases: the picture is in --html and --png)")
    lines += _remap_lines(t)
    for b in t.loops:
        lines.append(f"  {'  ' * b.depth}loop {b.text} (line {b.line} of {b.instance}) around phases "
                     f"{t.phases[b.first].phase}-{t.phases[b.last].phase}")
    lines += ["", "Why:"]
    done: set[str] = set()
    for a in e.arrays:
        if a.array in done:
            continue
        same = [b for b in e.arrays if b.template == a.template and b.layout == a.layout
                and b.alternatives == a.alternatives]
        done.update(b.array for b in same)
        keys = dict.fromkeys(k for b in same for k, _ in b.phases)
        uses = ", ".join(f"{k} in phases {phase_ranges([p for b in same for kk, v in b.phases if kk == k for p in v])}"
                         for k in keys) or a.layout
        lines.append(f"  {', '.join(b.name for b in same)} (template {a.template}): {uses}")
        for alt in a.alternatives:
            why = "; ".join(f"{c.label} {_d(c.delta)}" for c in alt.contributions) or "a tie"
            lines.append(f"    runner-up {alt.solution}: {alt.layout}, {_d(alt.delta)} ({why})")
        if not a.alternatives:
            lines.append("    no other layout among the candidates")
    if e.replicated:
        lines.append("  Replicated:")
        same: dict[tuple[str, str], list[str]] = {}
        for r in e.replicated:
            same.setdefault((r.category, r.detail), []).append(r.name)
        for (cat, detail), names in same.items():
            lines.append(f"    {', '.join(dict.fromkeys(names))}: {cat} ({detail})")
    lines += ["", "What would change it:"]
    for s in e.sensitivities:
        lines.append(f"  {sensitivity_text(s)}")
    if not e.sensitivities:
        lines.append("  (not examined)")
    if e.unknown_trips:
        assumed = sorted({u.assumed for u in e.unknown_trips if u.assumed is not None})
        values = ", ".join(f"{v:g}" for v in assumed) or "?"
        lines.append(f"  {len(e.unknown_trips)} loop(s) with unknown trip counts, assumed {values}: "
                     + "; ".join(f"{u.procedure} line {u.line} {u.text}" for u in e.unknown_trips[:TEXT_TRIPS])
                     + ("; ..." if len(e.unknown_trips) > TEXT_TRIPS else ""))
        lines.append(f"    {hint('default_trip_count')}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- JSON


def _contributions(cs) -> list[dict[str, Any]]:
    return [{"key": c.key, "label": c.label, "delta": c.delta} for c in cs]


def timeline_json(t: Timeline) -> dict[str, Any]:
    key = {p.index: p.key for p in t.phases}
    return {
        "kind": t.kind, "total_cost": t.total, "computation": t.computation, "movement": t.movement,
        "remapping": t.remapping,
        "arrays": [{"id": g, "name": n} for g, n in t.arrays],
        "phases": [{"index": p.index, "key": p.key, "instance": p.instance, "procedure": p.unit, "id": p.phase,
                    "kind": p.kind, "file": p.span.file, "first_line": p.span.first, "last_line": p.span.last,
                    "executions": p.executions, "computation": p.computation, "movement": p.movement,
                    "callee": p.callee, "parallel_loops": list(p.parallel_loops), "layouts": dict(p.cells)}
                   for p in t.phases],
        "remaps": [{"array": m.array, "name": m.name, "before_phase": key[m.before],
                    "on_return": m.at > m.before, "from_phase": key.get(m.source) if m.source is not None else None,
                    "from": m.src, "to": m.dst, "count": m.count, "bytes": m.bytes, "cost": m.cost}
                   for m in t.remaps],
        "loops": [{"instance": b.instance, "first_phase": key[b.first], "last_phase": key[b.last], "depth": b.depth,
                   "line": b.line, "text": b.text} for b in t.loops],
        "procedures": [{"instance": i, "first_phase": key[a], "last_phase": key[b]} for i, a, b in t.groups],
    }


def sensitivity_json(s: Sensitivity) -> dict[str, Any]:
    axis = s.axis
    flips = []
    for side, c in (("below", s.below), ("above", s.above)):
        if c is None:
            continue
        flips.append({"side": side, "at": c.at, "bracket": list(c.bracket), "refined": c.refined,
                      "kind": "solution" if c.solution_changes else "mapping",
                      "from": {"chosen": c.below.chosen, "mapping": c.below.best.mapping},
                      "to": {"chosen": c.above.chosen, "mapping": c.above.best.mapping},
                      "text": flip_text(s, c)})
    return {"key": s.key, "meaning": MEANINGS.get(s.key, s.key), "analysis": s.key in ANALYSIS,
            "value": int(s.current) if axis.integer else s.current, "unit": axis.unit,
            "examined": [axis.values[0], axis.values[-1]], "points": len(axis.values), "matters": s.matters,
            "flips": flips, "text": sensitivity_text(s), "hint": hint(s.key)}


def explain_json(e: Explanation, machine: dict[str, Any]) -> dict[str, Any]:
    d = e.decision
    return {
        "program": list(e.files),
        "machine": {"name": e.machine, "file": e.machine_source, **machine},
        "procs": e.procs, "mode": e.mode, "chosen": e.chosen,
        "static_total": e.static_total, "dynamic_total": e.dynamic_total,
        "decision": {"chosen": d.chosen, "total_cost": d.total, "other": d.other, "other_total": d.other_total,
                     "delta": d.delta, "contributions": _contributions(d.contributions)},
        "timelines": [timeline_json(t) for t in e.timelines],
        "arrays": [{"id": a.array, "name": a.name, "template": a.template, "together": list(a.together),
                    "layout": a.layout, "phases": {k: list(v) for k, v in a.phases},
                    "alternatives": [{"solution": x.solution, "layout": x.layout, "total_cost": x.total,
                                      "delta": x.delta, "contributions": _contributions(x.contributions)}
                                     for x in a.alternatives]} for a in e.arrays],
        "replicated": [{"id": r.array, "name": r.name, "category": r.category, "detail": r.detail}
                       for r in e.replicated],
        "unknown_trip_counts": [{"procedure": u.procedure, "file": u.file, "line": u.line, "loop": u.text,
                                 "assumed": u.assumed, "phase": u.phase} for u in e.unknown_trips],
        "assumptions": [sensitivity_json(s) for s in e.sensitivities],
    }
