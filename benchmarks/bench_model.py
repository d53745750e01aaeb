"""The cost model against the runtime: predicted and measured time of the chosen solution.

    python benchmarks/bench_model.py [--machine PROFILE.yaml] [--ranks 2] [--runs 5] [SAMPLE...]

Without ``--machine`` the machine is calibrated first (``autodist calibrate
-np RANKS``, into a temporary profile).  For each sample (default: ADI,
Jacobi, shallow water) it plans on RANKS processors, runs the chosen
solution ``--runs`` times through the runtime (``compare --measure``'s
measure, the run of median time) and prints side by side:

* the predicted time and the measured time of the whole run, and their ratio;
* the measured time inside the phases and remaps (what the model prices) and
  its ratio to the prediction, and the rest of the run (the runtime's storage
  set-up, dispatch, output: not priced);
* the same prediction made from the program's measured phase times
  (``autodist profile`` then ``--profile``), and its ratio.

The issue's target is a ratio within 0.75-1.33.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SAMPLES = ("adi", "jacobi", "shallow")


def calibrate(ranks: int, folder: Path) -> Path:
    out = folder / "here.yaml"
    subprocess.run([sys.executable, "-m", "autodist", "calibrate", "-np", str(ranks), "-o", str(out), "-q"],
                   check=True)
    return out


def profile_data(source: Path, folder: Path) -> Path:
    out = folder / f"{source.stem}.profile.json"
    subprocess.run([sys.executable, "-m", "autodist", "profile", str(source), "-o", str(out), "-q"], check=True)
    return out


def measured(source: Path, machine, ranks: int, runs: int, profile: Path | None):
    from autodist.analysis.model import AnalysisOptions
    from autodist.analysis.profiledata import load_profile_data
    from autodist.frontend import read_program
    from autodist.measure import measure_solution
    from autodist.pipeline import Pipeline

    data = load_profile_data(profile) if profile else None
    pipe = Pipeline(read_program([str(source)]),
                    options=lambda m: AnalysisOptions(m.default_trip_count, m.branch_probability, data))
    plan = pipe.plan(machine, ranks)
    return plan, measure_solution(plan, plan.solution("best"), runs=runs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("samples", nargs="*", default=list(SAMPLES))
    ap.add_argument("--machine", help="a calibrated profile (default: calibrate now)")
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    from autodist.machine import resolve_profile

    with tempfile.TemporaryDirectory(prefix="bench-model-") as tmp:
        folder = Path(tmp)
        path = Path(args.machine) if args.machine else calibrate(args.ranks, folder)
        machine = resolve_profile(str(path))[0]
        print(f"machine {path} (recurrence_time {machine.recurrence_time:.3g} s, "
              f"parallel_overhead {machine.parallel_overhead:.3g} s); {args.ranks} ranks, "
              f"median of {args.runs} runs")
        head = (f"{'sample':<9}{'chosen':<46}{'pred':>10}{'meas':>10}{'ratio':>7}{'priced':>10}{'ratio':>7}"
                f"{'outside':>10}{'pred(prof)':>12}{'ratio':>7}")
        print(head)
        for name in args.samples:
            source = ROOT / "fortran_samples" / f"{name}.f"
            plan, m = measured(source, machine, args.ranks, args.runs, None)
            pplan, pm = measured(source, machine, args.ranks, args.runs, profile_data(source, folder))
            chosen = plan.solution("best").describe(args.ranks)
            print(f"{name:<9}{chosen[:45]:<46}{m.predicted_total:>10.3g}{m.measured_total:>10.3g}{m.ratio:>7.2f}"
                  f"{m.measured_priced:>10.3g}{m.priced_ratio:>7.2f}{m.measured_outside:>10.3g}"
                  f"{pm.predicted_total:>12.3g}{pm.priced_ratio:>7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
