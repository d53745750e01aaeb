"""Predicted vs measured: run a solution with the MPI runtime and set the
measurements next to the cost model's predictions (DDT Figures 9 and 11).

For one solution of a plan: annotate the program with it, run the annotated
program on ``plan.procs`` ranks (:func:`autodist.runtime.job.api.run_file`), and
pair every phase and remap with what was measured: computation and
communication time (the most loaded rank, summed over the executions),
elements received (the most loaded rank; they must agree exactly for regular
patterns), and the whole run.  Times are compared as ratios: the whole run's,
and that of its phases and remaps -- what the cost model prices -- apart from
the rest of the run (the runtime's set-up of the program's storage, its
dispatch between phases, output and the scalar code between phases), which it
does not.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from .annotate.source import annotate
from .errors import RuntimeFault
from .fileio import write_atomically
from .mapping.plan import Plan, Solution
from .pipeline import StageClock


@dataclass(frozen=True)
class PhaseMeasure:
    procedure: str
    phase: int
    lines: tuple[int, int]
    executions: float
    mode: str  # how the runtime ran it
    predicted_computation: float  # seconds, all executions
    measured_computation: float
    predicted_communication: float
    measured_communication: float
    predicted_elements: float  # most loaded rank, all executions
    measured_elements: int


@dataclass(frozen=True)
class RemapMeasure:
    procedure: str
    array: str
    count_predicted: float
    count_measured: int
    predicted_elements: float  # most loaded rank, all remappings
    measured_elements: int
    predicted_time: float
    measured_time: float


@dataclass(frozen=True)
class SolutionMeasure:
    kind: str
    procs: int
    predicted_total: float
    measured_total: float
    phases: tuple[PhaseMeasure, ...]
    remaps: tuple[RemapMeasure, ...]
    status: int
    message: str = ""
    #: seconds of the run inside its phases and remaps (the slowest rank's sum)
    measured_priced: float = float("nan")
    #: the whole times of every run made (this measure is the run of median time)
    run_totals: tuple[float, ...] = ()

    @property
    def ratio(self) -> float:
        return self.measured_total / self.predicted_total if self.predicted_total else float("nan")

    @property
    def priced_ratio(self) -> float:
        """Measured over predicted time of what the model prices: the phases and remaps."""
        return self.measured_priced / self.predicted_total if self.predicted_total else float("nan")

    @property
    def measured_outside(self) -> float:
        """Seconds of the run outside its phases and remaps."""
        return self.measured_total - self.measured_priced

    @property
    def elements_agree(self) -> bool:
        return all(round(p.predicted_elements) == p.measured_elements for p in self.phases) and all(
            round(r.predicted_elements) == r.measured_elements for r in self.remaps)


def _elem_size(plan: Plan, array: str) -> int:
    try:
        return plan.table.array(array).elem_size
    except KeyError:
        return plan.machine.element_size


def measure_solution(plan: Plan, solution: Solution, include_dirs=(), timeout: float = 600.0,
                     clock: StageClock | None = None, runs: int = 1) -> SolutionMeasure:
    """Annotate ``solution``, run it ``runs`` times on ``plan.procs`` ranks,
    pair predictions and the measurements of the run of median time (a
    program of milliseconds varies by tens of percent from run to run);
    ``clock`` (the pipeline's) times the stages ``annotate`` and ``measure``."""
    from .runtime.job.api import run_file

    clock = clock or StageClock()
    an = plan.analysis
    result = clock.run("annotate", annotate, an, solution, plan.table)
    files = dict(result.files)
    main_unit = an.program.main
    main_file = main_unit.span.file if main_unit is not None else an.program.files[0]
    with tempfile.TemporaryDirectory(prefix="autodist-measure-") as tmp:
        paths = []
        for f in an.program.files:
            if f not in files and f not in {u.span.file for u in an.program.units}:
                continue  # an INCLUDE'd file: found through include_dirs
            lines = files.get(f) or tuple(an.program.source_lines(f))
            dst = Path(tmp) / Path(f).name
            write_atomically(dst, lines)
            paths.append(dst)
        if len(paths) != 1:
            raise RuntimeFault("--measure runs single-file programs (the runtime takes one source file)")
        include = tuple(include_dirs) + (str(Path(main_file).resolve().parent),)
        pre = an.program.preprocessing  # the annotated text is preprocessed as the original was
        def run():
            # every kernel compiled before it first runs; numba's time is not in the
            # report's seconds, but a rank waiting for another that compiles would count
            # it as communication: a run that compiled anything runs again, from the cache
            options = dict(include_dirs=include + pre.include_dirs, defines=pre.defines,
                           cpp=bool(pre.files) or None, timeout=timeout, jit_after=0.0)
            got = run_file(paths[0], plan.procs, **options)
            jit = got.raw.get("jit", {})
            if got.status == 0 and sum(r.get("kernels_compiled", 0) for r in jit.get("ranks", [jit])):
                got = run_file(paths[0], plan.procs, **options)
            return got

        reps = [clock.run("measure", run)]
        while len(reps) < runs and reps[-1].status == 0:
            reps.append(clock.run("measure", run))
    rep = reps[-1] if reps[-1].status != 0 else sorted(reps, key=lambda r: r.seconds)[(len(reps) - 1) // 2]
    if rep.status != 0:
        last = rep.stderr.strip().splitlines()[-1] if rep.stderr.strip() else f"exit status {rep.status}"
        return SolutionMeasure(solution.kind, plan.procs, solution.total, float("nan"), (), (), rep.status, last)
    # the annotated file has extra directive lines, not extra phases: match by id
    measured = {(p.procedure, p.id): p for p in rep.phases}
    phases = []
    for d in solution.phases:
        if d.kind != "loop" or d.cost is None:
            continue
        m = measured.get((solution.unit_of(d.procedure), d.phase))
        if m is None:
            continue
        elems = sum(n for _, n in d.cost.elements_per_array)
        phases.append(PhaseMeasure(
            d.procedure, d.phase, (d.span.first, d.span.last), d.executions, m.mode,
            d.cost.computation * d.executions, max((r.compute_time for r in m.ranks), default=0.0),
            d.cost.movement * d.executions, max((r.comm_time for r in m.ranks), default=0.0),
            elems * d.executions, max(m.elements_received, default=0),
        ))
    remaps = []
    by_array: dict[tuple[str, str], list] = {}
    for r in solution.remaps:
        by_array.setdefault((solution.unit_of(r.procedure), r.name), []).append(r)
    for (proc, array), events in sorted(by_array.items()):
        recs = [x for x in rep.remaps if x.procedure == proc and x.array == array]
        size = _elem_size(plan, events[0].array)
        predicted = sum(e.count * e.bytes / size for e in events)
        count_measured = sum(x.executions for x in recs)
        measured_elems = max((sum(x.ranks[k].elements_received for x in recs) for k in range(rep.nprocs)), default=0)
        measured_time = max((sum(x.ranks[k].comm_time + x.ranks[k].compute_time for x in recs)
                             for k in range(rep.nprocs)), default=0.0)
        remaps.append(RemapMeasure(proc, array, sum(e.count for e in events), count_measured, predicted,
                                   measured_elems, sum(e.cost for e in events), measured_time))
    priced = max((r["compute_time"] + r["comm_time"] for r in rep.raw.get("totals", [])), default=float("nan"))
    return SolutionMeasure(solution.kind, plan.procs, solution.total, rep.seconds, tuple(phases), tuple(remaps),
                           rep.status, measured_priced=priced, run_totals=tuple(r.seconds for r in reps))


def measure_table(ms: SolutionMeasure) -> str:
    """Predicted and measured side by side, one line per phase and remap."""
    runs = ""
    if len(ms.run_totals) > 1:
        runs = (f", the median of {len(ms.run_totals)} runs from {min(ms.run_totals):.3g} to "
                f"{max(ms.run_totals):.3g} s")
    head = (f"P = {ms.procs}, {ms.kind} solution: predicted {ms.predicted_total:.6g} s, "
            f"measured {ms.measured_total:.6g} s (ratio {ms.ratio:.3g}{runs})")
    if ms.status != 0:
        return head + f"\n  the run failed: {ms.message}\n"
    lines = [head,
             f"  in its phases and remaps {ms.measured_priced:.6g} s (ratio {ms.priced_ratio:.3g}); outside them "
             f"{ms.measured_outside:.6g} s (the runtime's storage set-up and dispatch, output, scalar code: "
             "not priced)",
             f"  {'phase':<12}{'mode':<12}{'runs':>6}{'comp pred':>12}{'comp meas':>12}{'ratio':>9}"
             f"{'comm pred':>12}{'comm meas':>12}{'elems pred':>12}{'elems meas':>12}"]
    for p in ms.phases:
        ratio = p.measured_computation / p.predicted_computation if p.predicted_computation else float("nan")
        mark = "" if round(p.predicted_elements) == p.measured_elements else "  !"
        lines.append(f"  {p.procedure + ':' + str(p.phase):<12}{p.mode:<12}{p.executions:>6g}"
                     f"{p.predicted_computation:>12.4g}{p.measured_computation:>12.4g}{ratio:>9.3g}"
                     f"{p.predicted_communication:>12.4g}{p.measured_communication:>12.4g}"
                     f"{p.predicted_elements:>12.0f}{p.measured_elements:>12d}{mark}")
    for r in ms.remaps:
        mark = "" if round(r.predicted_elements) == r.measured_elements else "  !"
        lines.append(f"  remap {r.array:<6}{'':<12}{r.count_measured:>6d}{'':>12}{'':>12}{'':>9}"
                     f"{r.predicted_time:>12.4g}{r.measured_time:>12.4g}"
                     f"{r.predicted_elements:>12.0f}{r.measured_elements:>12d}{mark}")
    lines.append("  elements moved: " + ("predicted = measured" if ms.elements_agree
                                         else "differ where marked '!'"))
    return "\n".join(lines) + "\n"


def measure_json(ms: SolutionMeasure) -> dict:
    return {
        "kind": ms.kind, "procs": ms.procs, "predicted_total": ms.predicted_total,
        "measured_total": ms.measured_total, "ratio": ms.ratio, "status": ms.status, "message": ms.message,
        "measured_priced": ms.measured_priced, "priced_ratio": ms.priced_ratio,
        "measured_outside": ms.measured_outside, "run_totals": list(ms.run_totals),
        "elements_agree": ms.elements_agree,
        "phases": [p.__dict__ | {"lines": list(p.lines)} for p in ms.phases],
        "remaps": [r.__dict__ for r in ms.remaps],
    }
