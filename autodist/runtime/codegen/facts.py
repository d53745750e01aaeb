"""What translating one unit needs to know about the others: modified dummies
(from the analysis), COMMON block slots, storage association, the dummy arrays
that reach as far as their actuals, and the routines of the ``--link``
libraries; the error for a construct outside the runtime's subset."""

from __future__ import annotations

from dataclasses import dataclass, field

from ... import ir
from ...analysis.model import ProgramAnalysis
from ...errors import UnsupportedError
from .association import StoragePlan, storage_plan, used_whole
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
    # unit -> its dummy arrays whose last dimension reaches as far as the actual's
    # storage (no statement sees them whole: see spmd.dummies.dummy_bounds)
    stretching: dict[str, frozenset[str]] = field(default_factory=dict)

    def stretches(self, unit: str, dummy: str) -> bool:
        return dummy in self.stretching.get(unit, ())


def program_facts(program: ir.Program, analysis: ProgramAnalysis, linked: frozenset[str] = frozenset()
                  ) -> ProgramFacts:
    """Modified dummies (transitively through calls, from the analysis), COMMON
    block slots (as the first unit declaring a block has them), the storage
    association plan, the routines that may reach each dummy procedure, and
    ``linked``: the routines the ``--link`` libraries give; the dummy arrays
    no statement of their unit uses whole (they may reach past their declared
    last dimension)."""
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
    stretching = {u.name: frozenset(d for d in u.args if (sym := u.symbol(d)) is not None and sym.is_array)
                  - used_whole(u) for u in program.units if u.args}
    return ProgramFacts(units, mods, commons, linked, storage_plan(program), procedure_bindings(program),
                        stretching)
