"""Plans of one program on many variants of one machine, reusing everything
the varied values do not change.

What depends on what (the caching is the pipeline's, :mod:`autodist.pipeline`):

* the analysis depends on the profile's ``default_trip_count`` and
  ``branch_probability`` only (frequencies of phases); the array table and
  the alignment depend on the analysis;
* an :class:`~autodist.mapping.evaluate.Evaluator` (the machine-independent
  work of every phase under every layout it was asked about) depends on the
  analysis and the processor count; remap volumes are cached by layouts in
  :mod:`autodist.mapping.remap`;
* everything else (pricing the candidates, choosing the dynamic remappings)
  depends on the machine's speeds and is redone per point.

So a sweep of one speed parameter at one processor count analyses and aligns
once and then only re-prices and re-selects (about 50 ms a point on ADI).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..machine import MachineProfile
from ..mapping.plan import Plan, Solution
from ..pipeline import Pipeline
from .axes import vary_profile

#: Profile keys that price data movement only: on one processor nothing
#: moves, so the sequential time does not depend on them.
MOVEMENT_KEYS = ("remote_access_time", "latency", "bandwidth")


@dataclass(frozen=True)
class Outcome:
    """What a sweep keeps of one solution at one point."""

    total: float
    computation: float
    movement: float
    remapping: float
    remaps: float  # remappings per run
    mapping: str  # e.g. ``A,B,X(BLOCK,*)`` or ``A,B,X(BLOCK,*)/(*,BLOCK)``


def mapping_text(sol: Solution, procs: int = 0) -> str:
    """The layouts a solution gives each array, grouped: ``A,B,X(*,BLOCK)``
    for a static one, ``A,B,X(BLOCK,*)/(*,BLOCK)`` when a dynamic one
    remaps them (in the order the phases use the layouts); given the
    processor count ``procs``, one that leaves some idle says on how many it
    runs: ``A,B,X(*,BLOCK) on 4`` (the same text on 13 and on 16 processors:
    a sweep's crossovers are changes of the mapping)."""
    seen: dict[str, list[str]] = {}
    for _, m in sol.entry:
        for gid, lay in m.layouts:
            seen.setdefault(gid, [lay.distribute_str()])
    for ph in sol.phases:
        for gid, lay in ph.mapping.layouts:
            got = seen.setdefault(gid, [])
            if lay.distribute_str() not in got:
                got.append(lay.distribute_str())
    groups: dict[str, list[str]] = {}
    for gid, dists in sorted(seen.items()):
        groups.setdefault("/".join(dists), []).append(gid)
    text = " ".join(f"{','.join(v)}{k}" for k, v in groups.items()) or "replicated"
    used = sol.fewer(procs)
    return text + (f" on {used}" if used else "")


def outcome(sol: Solution, procs: int = 0) -> Outcome:
    return Outcome(sol.total, sol.computation, sol.movement, sol.remapping,
                   sum(r.count for r in sol.remaps), mapping_text(sol, procs))


class Planner:
    """Makes plans for ``(changes to the profile, processor count)``.

    ``source`` is the program, or a :class:`~autodist.pipeline.Pipeline`
    over it (the commands pass theirs, which carries the analysis options,
    the user's directives and the procedure-call semantics); the pipeline
    caches what the varied values do not change.
    """

    def __init__(self, source, base: MachineProfile):
        self.pipeline = source if isinstance(source, Pipeline) else Pipeline(source)
        self.base = base
        self._machines: dict[tuple, MachineProfile] = {}
        self._sequential: dict[tuple, float] = {}

    @property
    def analyses_made(self) -> int:
        """How many times the program was analysed and aligned."""
        return self.pipeline.analyses_made

    @property
    def plans_made(self) -> int:
        """How many different plans were made (a plan asked for again is reused)."""
        return self.pipeline.plans_made

    @staticmethod
    def _key(changes: dict[str, float]) -> tuple:
        return tuple(sorted(changes.items()))

    def machine(self, changes: dict[str, float]) -> MachineProfile:
        key = self._key(changes)
        if key not in self._machines:
            self._machines[key] = vary_profile(self.base, changes)
        return self._machines[key]

    def plan(self, changes: dict[str, float], procs: int) -> Plan:
        """The plan at one point."""
        return self.pipeline.plan(self.machine(changes), procs)

    def sequential(self, changes: dict[str, float]) -> float:
        """Predicted time on one processor of the same machine (the
        reference of speedups)."""
        compute = {k: v for k, v in changes.items() if k not in MOVEMENT_KEYS}
        key = self._key(compute)
        if key not in self._sequential:
            self._sequential[key] = self.plan(compute, 1).solution("best").total
        return self._sequential[key]
