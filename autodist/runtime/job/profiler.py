"""``autodist profile``: a sequential run under the runtime that measures
what the cost model otherwise assumes.

Two runs at P = 1, in this process:

* an instrumented run of the translated code with vectorization off, so that
  every DO loop entry (and its trip count), every DO WHILE iteration and
  every IF / ELSE IF evaluation (and whether it held) is counted exactly;
* a normal run (vectorized where the runtime can, every kernel compiled
  before it first runs, as a warm ``autodist run`` runs it) whose time per
  execution of each loop phase is the phase's measured time (numba's
  compiling is not in it).

The result is :class:`~autodist.analysis.model.ProfileData` (keys
``file:line`` of the DO / IF / ELSE IF statement, ``UNIT:id`` for phases):
average trips per entry, fraction of evaluations taken, seconds per
execution.  A logical IF whose body jumps backwards (a loop built with GOTO)
also gets a loop entry under its own key: trips = evaluations /
(evaluations - taken), the number of times round per entry.
"""

from __future__ import annotations

import io
import tempfile

from ... import ir
from ...analysis.model import BranchStats, LoopStats, ProfileData
from . import link


class Profiler:
    """Counters the instrumented code calls (through the executor)."""

    def __init__(self) -> None:
        self.loops: dict[str, list[float]] = {}  # key -> [entries, trips]
        self.branches: dict[str, list[float]] = {}  # key -> [evaluations, taken]

    def loop(self, file: str, line: int, trips) -> None:
        rec = self.loops.setdefault(f"{file}:{line}", [0.0, 0.0])
        rec[0] += 1
        if trips is not None:
            rec[1] += trips

    def trip(self, file: str, line: int) -> None:
        self.loops.setdefault(f"{file}:{line}", [0.0, 0.0])[1] += 1

    def branch(self, file: str, line: int, taken) -> bool:
        rec = self.branches.setdefault(f"{file}:{line}", [0.0, 0.0])
        rec[0] += 1
        if taken:
            rec[1] += 1
        return bool(taken)


def _goto_loops(program: ir.Program) -> set[str]:
    """Keys of logical IFs whose body is a backward GO TO."""
    out = set()
    for u in program.units:
        lines = {s.label: s.span.first for s in u.statements() if s.label is not None}
        for s in u.statements():
            if isinstance(s, ir.If) and s.logical and len(s.branches[0].body) == 1:
                g = s.branches[0].body[0]
                if isinstance(g, ir.Goto) and lines.get(g.target, s.span.first + 1) <= s.span.first:
                    out.add(f"{s.span.file}:{s.span.first}")
    return out


def profile_program(files, include_dirs=(), links=(), defines=(), cpp=None) -> tuple[ProfileData, str, dict[str, str]]:
    """Measured frequencies and phase times of a program (calling the
    routines of ``links``, the ``--link`` files; preprocessed with
    ``defines`` where ``cpp`` says), its output, and how each timed phase
    ran ("jit", "numpy" or "inline": the path most of its executions took)."""
    with tempfile.TemporaryDirectory(prefix="autodist-link-") as folder:
        foreign = link.load(link.build(link.link_files(links), folder), folder)
        return _profile(files, include_dirs, foreign, defines, cpp)


def _profile(files, include_dirs, foreign, defines, cpp) -> tuple[ProfileData, str, dict[str, str]]:
    from mpi4py import MPI

    from ..spmd.executor import Executor, RunOptions, translate_program
    from .runner import prepare

    program, analysis, translations = prepare(files, include_dirs, foreign=foreign, defines=defines, cpp=cpp)
    prof = Profiler()
    counted = translate_program(program, analysis, instrument=True, foreign=foreign)
    out = io.StringIO()
    Executor(program, analysis, MPI.COMM_SELF, RunOptions(vectorize=False, instrument=True), out=out,
             profiler=prof, translations=counted, foreign=foreign).run()
    timed = Executor(program, analysis, MPI.COMM_SELF, RunOptions(jit_after=0.0), out=io.StringIO(),
                     translations=translations, foreign=foreign)
    timed.run()
    loops = {k: LoopStats(trips / entries if entries else 0.0, entries) for k, (entries, trips) in prof.loops.items()}
    branches = {k: BranchStats(taken / n if n else 0.0, n) for k, (n, taken) in prof.branches.items()}
    for key in _goto_loops(program):
        if key in prof.branches:
            n, taken = prof.branches[key]
            if n > taken:
                loops[key] = LoopStats(n / (n - taken), n - taken)
    times = {}
    regions = timed.comms.stats.regions
    for region, (mode, _, _) in timed.phase_modes.items():
        count = timed.executions.get(region, 0)
        if mode != "call" and region in regions and count:
            times[region] = regions[region].compute_time / count
    paths = {region: max(rec[0], key=rec[0].get) for region, rec in timed.phase_paths.items()
             if region in times and rec[0]}
    return ProfileData(loops, branches, times, source=",".join(program.files)), out.getvalue(), paths
