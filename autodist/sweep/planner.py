"""Plans of one program on many variants of one machine, reusing everything
the varied values do not change.

What depends on what:

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
from typing import Callable

from ..analysis import analyze
from ..analysis.model import AnalysisOptions, ProgramAnalysis
from ..machine import MachineProfile
from ..mapping.arrays import build_array_table
from ..mapping.candidates import align_program
from ..mapping.evaluate import Evaluator
from ..mapping.plan import Plan, Solution, make_plan
from .axes import vary_profile

#: Profile keys whose change needs a new analysis (they set frequencies).
ANALYSIS_KEYS = ("default_trip_count", "branch_probability")
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


def mapping_text(sol: Solution) -> str:
    """The layouts a solution gives each array, grouped: ``A,B,X(*,BLOCK)``
    for a static one, ``A,B,X(BLOCK,*)/(*,BLOCK)`` when a dynamic one
    remaps them (in the order the phases use the layouts)."""
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
    return " ".join(f"{','.join(v)}{k}" for k, v in groups.items()) or "replicated"


def outcome(sol: Solution) -> Outcome:
    return Outcome(sol.total, sol.computation, sol.movement, sol.remapping,
                   sum(r.count for r in sol.remaps), mapping_text(sol))


def default_options(machine: MachineProfile) -> AnalysisOptions:
    return AnalysisOptions(default_trip_count=machine.default_trip_count,
                           branch_probability=machine.branch_probability)


def default_build(an: ProgramAnalysis, machine: MachineProfile, procs: int, **reuse) -> Plan:
    return make_plan(an, machine, procs, **reuse)


class Planner:
    """Makes plans for ``(changes to the profile, processor count)``.

    ``options(machine)`` gives the analysis options on a machine (frequency
    assumptions, a profile run's data); ``build(an, machine, procs, table=,
    alignment=, evaluator=)`` makes one plan (the commands pass their own,
    which add the user's directives and the procedure-call semantics).
    """

    def __init__(self, program, base: MachineProfile,
                 options: Callable[[MachineProfile], AnalysisOptions] = default_options,
                 build: Callable[..., Plan] = default_build):
        self.program = program
        self.base = base
        self.options = options
        self.build = build
        self._machines: dict[tuple, MachineProfile] = {}
        self._analyses: dict[tuple, tuple[ProgramAnalysis, object, object]] = {}
        self._evaluators: dict[tuple, Evaluator] = {}
        self._sequential: dict[tuple, float] = {}
        self.plans_made = 0

    @property
    def analyses_made(self) -> int:
        """How many times the program was analysed and aligned."""
        return len(self._analyses)

    @staticmethod
    def _key(changes: dict[str, float]) -> tuple:
        return tuple(sorted(changes.items()))

    def machine(self, changes: dict[str, float]) -> MachineProfile:
        key = self._key(changes)
        if key not in self._machines:
            self._machines[key] = vary_profile(self.base, changes)
        return self._machines[key]

    def _analysis(self, machine: MachineProfile):
        key = tuple(getattr(machine, k) for k in ANALYSIS_KEYS)
        if key not in self._analyses:
            an = analyze(self.program, self.options(machine))
            table = build_array_table(an.program)
            alignment = align_program(an, table, machine.solver_time_limit)
            self._analyses[key] = (an, table, alignment)
        return key, self._analyses[key]

    def plan(self, changes: dict[str, float], procs: int) -> Plan:
        """The plan at one point."""
        machine = self.machine(changes)
        akey, (an, table, alignment) = self._analysis(machine)
        ekey = (akey, procs)
        if ekey not in self._evaluators:
            measured = an.options.profile.phase_times if an.options.profile is not None else None
            self._evaluators[ekey] = Evaluator(an, table, procs, dict(measured) if measured else None)
        plan = self.build(an, machine, procs, table=table, alignment=alignment, evaluator=self._evaluators[ekey])
        self.plans_made += 1
        return plan

    def sequential(self, changes: dict[str, float]) -> float:
        """Predicted time on one processor of the same machine (the
        reference of speedups)."""
        compute = {k: v for k, v in changes.items() if k not in MOVEMENT_KEYS}
        key = self._key(compute)
        if key not in self._sequential:
            self._sequential[key] = self.plan(compute, 1).solution("best").total
        return self._sequential[key]
