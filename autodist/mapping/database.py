"""The procedure database (DDT §6): what the bottom-up analysis found for each
procedure, kept in a JSON file (``--db``) and reused across runs.

For every procedure it stores the database entries (initial mapping, final
mapping, cost per invocation) and the chosen mapping of each of its phases.
An entry is reused only when its *key* matches: a hash of the procedure's
source text, of its callees' keys, and of everything its costs depend on
(machine profile, processor count, call semantics, analysis assumptions, and
the program's static candidates).  Anything else is recomputed and stored.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..errors import UsageError
from ..layout.model import Axis, Fixed, Format, Layout, Replicated
from . import select as sel
from .model import Mapping, PhaseCost

FORMAT_VERSION = 1


# --------------------------------------------------------------------------- layouts as JSON


def layout_to_json(lay: Layout) -> dict[str, Any]:
    align: list[Any] = []
    for a in lay.align:
        if isinstance(a, Axis):
            align.append({"axis": [a.dim, a.stride, a.offset]})
        elif isinstance(a, Fixed):
            align.append({"fixed": a.index})
        else:
            align.append("replicated")
    return {
        "bounds": [list(b) for b in lay.bounds],
        "template": [list(b) for b in lay.template],
        "align": align,
        "formats": [f.kind if f.k is None else [f.kind, f.k] for f in lay.formats],
        "grid": list(lay.grid),
        "template_name": lay.template_name,
        "procs_name": lay.procs_name,
    }


def layout_from_json(d: dict[str, Any]) -> Layout:
    align: list[Any] = []
    for a in d["align"]:
        if a == "replicated":
            align.append(Replicated())
        elif "fixed" in a:
            align.append(Fixed(a["fixed"]))
        else:
            align.append(Axis(*a["axis"]))
    formats = tuple(Format(f) if isinstance(f, str) else Format(f[0], f[1]) for f in d["formats"])
    return Layout(tuple(tuple(b) for b in d["bounds"]), tuple(tuple(b) for b in d["template"]), tuple(align),
                  formats, tuple(d["grid"]), template_name=d.get("template_name", ""),
                  procs_name=d.get("procs_name", ""))


def mapping_to_json(m: Mapping) -> dict[str, Any]:
    return {a: layout_to_json(l) for a, l in m.layouts}


def mapping_from_json(d: dict[str, Any]) -> Mapping:
    return Mapping.of({a: layout_from_json(l) for a, l in d.items()})


# --------------------------------------------------------------------------- stored solutions


@dataclass
class StoredSolution:
    """A procedure's result read back from the database: the same interface
    as :class:`.dynamic.ProcSolution` for the plan's expansion."""

    procedure: str
    method: str
    total: float
    choices: dict[str, tuple[Mapping, str | None]]  # phase name -> mapping, callee entry name
    remaps: tuple[sel.Remap, ...]
    entry_map: dict[str, Layout]
    entries: list = field(default_factory=list)
    _opt: Any = field(default=None, repr=False)

    def chosen(self, phase_name: str) -> tuple[Mapping, PhaseCost | None, Any]:
        mapping, entry_name = self.choices[phase_name]
        proc = self._opt.an.procedure(self.procedure)
        ph = proc.phase(int(phase_name.rsplit(":", 1)[1]))
        if ph.kind == "call":
            callee = self._opt.solutions.get(ph.callee)
            entry = next((e for e in callee.entries if e.name == entry_name), None) if callee else None
            return mapping, None, entry
        return mapping, self._opt.ev.phase(proc, ph, mapping, self._opt.machine).cost, None

    def entry_layouts(self) -> dict[str, Layout]:
        return dict(self.entry_map)

    def phase_names(self) -> tuple[str, ...]:
        return tuple(self.choices)

    def solver_report(self) -> dict:
        return {"procedure": self.procedure, "method": self.method, "objective": self.total,
                "note": "reused from the procedure database"}


# --------------------------------------------------------------------------- the database


class ProcedureDatabase:
    """A JSON file of procedure results keyed by source and context hashes."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.records: dict[str, dict[str, Any]] = {}
        self.reused: list[str] = []
        self.stored: list[str] = []
        if self.path.exists():
            try:
                doc = json.loads(self.path.read_text())
            except (OSError, json.JSONDecodeError) as exc:
                raise UsageError(f"not a procedure database ({exc})", str(self.path)) from None
            if not isinstance(doc, dict) or doc.get("format") != FORMAT_VERSION:
                raise UsageError("not a procedure database written by this autodist (format differs)",
                                 str(self.path))
            self.records = doc.get("procedures", {})

    # ---------------------------------------------------------------- keys

    def key(self, opt, proc, callee_keys: dict[str, str]) -> str:
        unit = opt.an.program.unit(proc.name)
        lines = opt.an.program.source_lines(unit.span.file)[unit.span.first - 1: unit.span.last]
        context = {
            "autodist": __version__,
            "source": hashlib.sha256("\n".join(lines).encode()).hexdigest(),
            "callees": sorted((c, callee_keys.get(c, "")) for c in {p.callee for p in proc.phases if p.callee}),
            "machine": {k: v for k, v in opt.machine.as_dict().items() if k not in ("name", "description")},
            "procs": opt.nranks,
            "semantics": opt.semantics,
            "options": [opt.an.options.default_trip_count, opt.an.options.branch_probability,
                        opt.an.options.profile.source if opt.an.options.profile else None,
                        list(opt.an.options.trip_values)],
            "statics": [s.describe() + repr(s.evaluation.mapping.layouts) for s in opt.statics],
        }
        return hashlib.sha256(json.dumps(context, sort_keys=True, default=str).encode()).hexdigest()

    # ---------------------------------------------------------------- records

    def get(self, name: str, key: str, opt) -> StoredSolution | None:
        rec = self.records.get(name)
        if rec is None or rec.get("key") != key:
            return None
        from .dynamic import ProcEntry

        entries = [ProcEntry(e["name"], mapping_from_json(e["entry"]), mapping_from_json(e["exit"]),
                             e["cost"], e["static"]) for e in rec["entries"]]
        remaps = tuple(sel.Remap(r["array"], r["source"], r["target"], layout_from_json(r["from"]),
                                 layout_from_json(r["to"]), r["count"], r["cost"]) for r in rec["remaps"])
        choices = {p: (mapping_from_json(c["mapping"]), c.get("entry")) for p, c in rec["choices"].items()}
        entry_map = {a: layout_from_json(l) for a, l in rec["entry_layouts"].items()}
        self.reused.append(name)
        return StoredSolution(name, rec["method"], rec["total"], choices, remaps, entry_map, entries, opt)

    def put(self, name: str, key: str, sol, opt) -> None:
        choices = {}
        for p in sol.phase_names():
            mapping, _cost, entry = sol.chosen(p)
            choices[p] = {"mapping": mapping_to_json(mapping), "entry": entry.name if entry is not None else None}
        self.records[name] = {
            "key": key,
            "method": sol.method,
            "total": sol.total,
            "entries": [{"name": e.name, "entry": mapping_to_json(e.entry), "exit": mapping_to_json(e.exit),
                         "cost": e.cost, "static": e.static} for e in sol.entries],
            "choices": choices,
            "remaps": [{"array": r.array, "source": r.source, "target": r.target, "from": layout_to_json(r.key_from),
                        "to": layout_to_json(r.key_to), "count": r.count, "cost": r.cost} for r in sol.remaps],
            "entry_layouts": {a: layout_to_json(l) for a, l in sol.entry_layouts().items()},
        }
        self.stored.append(name)

    def save(self) -> None:
        from ..fileio import write_atomically

        doc = {"format": FORMAT_VERSION, "procedures": self.records}
        write_atomically(self.path, (json.dumps(doc, indent=1, sort_keys=True) + "\n",))
