"""What translating one unit needs to know about the others: modified dummies
(from the analysis), COMMON block slots, storage association and the routines of the ``--link``
libraries; the error for a construct outside the runtime's subset."""

from __future__ import annotations

from dataclasses import dataclass

from ... import ir
from ...analysis.model import ProgramAnalysis
from ...errors import UnsupportedError
from .association import StoragePlan, storage_plan
from .procedures import Target, procedure_bindings


def unsupported(what: str, span: ir.Span | None) -> UnsupportedError:
    return UnsupportedError(f"{what} is outside the runtime's subset",
                            span.file if span else None, span.first if span else None)


@dataclass(frozen=True)
class ProgramFacts:
    """What translating one unit needs to know about the others."""

    units: dict[str, ir.Unit]
    modified: dict[str, frozenset[int]]  # unit -> positions of dummies it may modify
    commons: dict[str, tuple[tuple[str, ir.Type, tuple[int, ...] | None], ...]]  # block -> slots
    linked: frozenset[str] = frozenset()  # routines outside the program that --link libraries define
    storage: StoragePlan = StoragePlan()  # COMMON blocks and EQUIVALENCE classes kept as byte storage
    procedures: dict[tuple[str, str], tuple[Target, ...]] | None = None  # (unit, dummy procedure) -> routines


def program_facts(program: ir.Program, analysis: ProgramAnalysis, linked: frozenset[str] = frozenset()
                  ) -> ProgramFacts:
    """Modified dummies (transitively through calls, from the analysis), COMMON
    block slots (as the first unit declaring a block has them), the storage
    association plan, the routines that may reach each dummy procedure, and
    ``linked``: the routines the ``--link`` libraries give."""
    units = {u.name: u for u in program.units}
    mods = {p.name: p.effects.writes_args for p in analysis.procedures}
    commons: dict[str, tuple] = {}
    for u in program.units:
        for c in u.commons:
            slots = []
            for m in c.members:
                sym = u.symbol(m)
                shape = None
                if sym is not None and sym.is_array:
                    shape = sym.shape
                slots.append((m, sym.type if sym else ir.REAL, shape))
            commons.setdefault(c.name, tuple(slots))
    return ProgramFacts(units, mods, commons, linked, storage_plan(program), procedure_bindings(program))
