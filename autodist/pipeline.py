"""The pipeline driver: read -> analysis -> arrays -> alignment -> evaluation -> plan.

Every command, the sweep planner and ``--measure`` get their plans from one
:class:`Pipeline` over one program.  It runs each stage when its result is
first asked for and keeps the result for every later request with the same
inputs:

========== ===================================================== =================================
stage      result                                                cached by
========== ===================================================== =================================
read       the :class:`~autodist.ir.Program`                     (read once)
analysis   :class:`~autodist.analysis.model.ProgramAnalysis`     the profile's :data:`ANALYSIS_KEYS`
arrays     :class:`~autodist.mapping.arrays.ArrayTable`          the analysis
alignment  :class:`~autodist.mapping.candidates.Alignment`       the analysis
directives the layouts the source's own directives impose        the analysis, the processors
evaluation :class:`~autodist.mapping.evaluate.Evaluator`         the analysis, the processors
plan       :class:`~autodist.mapping.plan.Plan`                  the profile, the processors
========== ===================================================== =================================

So a sweep over a speed parameter at one processor count analyses and aligns
once and then only re-prices and re-selects; a sweep over processor counts
aligns once.  The alignment is made with the solver time limit of the first
profile that asks for it.

Every stage runs through a :class:`StageClock`, which times it (``-v`` prints
the times: ``autodist: stage analysis 0.120 s``) and marks a bug raised inside
it (any exception that is not an :class:`~autodist.errors.AutodistError`) with
the stage's name, which the CLI reports as ``internal error in stage X``.
Other steps of a command (annotating, measuring) run through the same clock.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from . import ir
from .analysis import analyze
from .analysis.model import AnalysisOptions, ProgramAnalysis
from .annotate.written import user_layouts
from .errors import STAGE_ATTRIBUTE, AutodistError, stage_of
from .layout.model import Layout
from .machine import MachineProfile
from .mapping.arrays import ArrayTable, build_array_table
from .mapping.candidates import Alignment, align_program
from .mapping.evaluate import Evaluator
from .mapping.model import Progress
from .mapping.plan import Plan, make_plan

#: Profile keys the analysis reads (they set phase frequencies): profiles that
#: differ only in other keys share the analysis, the arrays and the alignment.
ANALYSIS_KEYS = ("default_trip_count", "branch_probability")

class StageClock:
    """Runs named stages: times each run and names the stage in internal errors."""

    def __init__(self) -> None:
        self._seconds: dict[str, float] = {}
        self._runs: dict[str, int] = {}

    def run(self, stage: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        except AutodistError:
            raise
        except Exception as exc:
            if stage_of(exc) is None:  # the innermost stage names it
                setattr(exc, STAGE_ATTRIBUTE, stage)
            raise
        finally:
            self._seconds[stage] = self._seconds.get(stage, 0.0) + time.perf_counter() - start
            self._runs[stage] = self._runs.get(stage, 0) + 1

    def times(self) -> list[tuple[str, float, int]]:
        """``(stage, seconds, runs)`` per stage, in the order they first ran."""
        return [(s, self._seconds[s], self._runs[s]) for s in self._seconds]

    def lines(self) -> list[str]:
        """``autodist: stage plan 1.234 s (25 runs)``, one per stage."""
        return [f"autodist: stage {s} {t:.3f} s" + (f" ({n} runs)" if n > 1 else "") for s, t, n in self.times()]


def default_options(machine: MachineProfile | None) -> AnalysisOptions:
    """The analysis options a profile implies (defaults without one)."""
    if machine is None:
        return AnalysisOptions()
    return AnalysisOptions(default_trip_count=machine.default_trip_count,
                           branch_probability=machine.branch_probability)


def measured_times(options: AnalysisOptions) -> dict[str, float] | None:
    """Sequential phase times from a profile run (``"UNIT:id" -> seconds``)."""
    prof = options.profile
    return dict(prof.phase_times) if prof is not None and prof.phase_times else None


class Pipeline:
    """The stages over one program (given, or read by the ``read`` stage).

    ``options(machine)`` gives the analysis options on a profile (``None``
    for no profile; it may read only the profile's :data:`ANALYSIS_KEYS`);
    ``semantics`` (``"hpf"`` or ``"forge"``) and ``respect_directives`` (the
    source's own HPF directives constrain the plan) are the plan's settings;
    ``db`` is a :class:`~autodist.mapping.database.ProcedureDatabase` every
    plan reuses and fills (set it when it is opened); ``progress`` is told how
    far each plan's static search and selection are (a command shows it).
    """

    def __init__(self, program: ir.Program | None = None, *, read: Callable[[], ir.Program] | None = None,
                 options: Callable[[MachineProfile | None], AnalysisOptions] = default_options,
                 semantics: str = "hpf", respect_directives: bool = False, db=None,
                 clock: StageClock | None = None, progress: Progress | None = None):
        if (program is None) == (read is None):
            raise ValueError("a pipeline needs a program or a way to read one (not both)")
        self._program = program
        self._read = read
        self.options = options
        self.semantics = semantics
        self.respect_directives = respect_directives
        self.db = db
        self.clock = clock or StageClock()
        self.progress = progress
        self._analyses: dict[tuple | None, ProgramAnalysis] = {}
        self._tables: dict[tuple | None, ArrayTable] = {}
        self._alignments: dict[tuple | None, Alignment] = {}
        self._fixed: dict[tuple, dict[str, Layout] | None] = {}
        self._evaluators: dict[tuple, Evaluator] = {}
        self._plans: dict[tuple, Plan] = {}

    def stage(self, stage: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run one step of a command as a named, timed stage."""
        return self.clock.run(stage, fn, *args, **kwargs)

    @property
    def analyses_made(self) -> int:
        """How many times the program was analysed (and aligned)."""
        return len(self._analyses)

    @property
    def plans_made(self) -> int:
        return len(self._plans)

    @staticmethod
    def _key(machine: MachineProfile | None) -> tuple | None:
        return None if machine is None else tuple(getattr(machine, k) for k in ANALYSIS_KEYS)

    # ------------------------------------------------------------------ stages

    @property
    def program(self) -> ir.Program:
        if self._program is None:
            self._program = self.stage("read", self._read)  # type: ignore[arg-type]
        return self._program

    def analysis(self, machine: MachineProfile | None = None) -> ProgramAnalysis:
        key = self._key(machine)
        if key not in self._analyses:
            program = self.program
            self._analyses[key] = self.stage("analysis", lambda: analyze(program, self.options(machine)))
        return self._analyses[key]

    def arrays(self, machine: MachineProfile | None = None) -> ArrayTable:
        key = self._key(machine)
        if key not in self._tables:
            an = self.analysis(machine)
            self._tables[key] = self.stage("arrays", build_array_table, an.program)
        return self._tables[key]

    def alignment(self, machine: MachineProfile) -> Alignment:
        key = self._key(machine)
        if key not in self._alignments:
            an, table = self.analysis(machine), self.arrays(machine)
            self._alignments[key] = self.stage("alignment", align_program, an, table, machine.solver_time_limit)
        return self._alignments[key]

    def directives(self, machine: MachineProfile, procs: int) -> dict[str, Layout] | None:
        """The layouts the source's own directives impose (None unless
        ``respect_directives``)."""
        key = (self._key(machine), procs)
        if key not in self._fixed:
            self._fixed[key] = None
            if self.respect_directives:
                an, table = self.analysis(machine), self.arrays(machine)
                self._fixed[key] = self.stage("directives", user_layouts, an.program, table, procs)
        return self._fixed[key]

    def evaluator(self, machine: MachineProfile, procs: int) -> Evaluator:
        key = (self._key(machine), procs)
        if key not in self._evaluators:
            an, table = self.analysis(machine), self.arrays(machine)
            self._evaluators[key] = self.stage("evaluation", Evaluator, an, table, procs, measured_times(an.options))
        return self._evaluators[key]

    def plan(self, machine: MachineProfile, procs: int) -> Plan:
        """The static and dynamic solutions on ``procs`` processors of ``machine``."""
        key = (machine, procs)
        if key not in self._plans:
            an, table = self.analysis(machine), self.arrays(machine)
            alignment = self.alignment(machine)
            fixed = self.directives(machine, procs)
            evaluator = self.evaluator(machine, procs)
            self._plans[key] = self.stage(
                "plan", make_plan, an, machine, procs, semantics=self.semantics, fixed=fixed,
                measured=measured_times(an.options), table=table, alignment=alignment, evaluator=evaluator,
                db=self.db, progress=self.progress)
        return self._plans[key]


__all__ = ["ANALYSIS_KEYS", "Pipeline", "StageClock", "default_options", "measured_times"]
