"""Whole `annotate` time per sample, split by stage.

    python benchmarks/bench_annotate.py [--procs P] [--machine NAME]

For every sample, side by side: reading (front end), analysis, alignment,
static candidates and dynamic selection (the mapping plan), and writing the
directives; the total and the share of the mapping stage.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autodist.annotate.source import annotate  # noqa: E402
from autodist.frontend import read_program  # noqa: E402
from autodist.machine import resolve_profile  # noqa: E402
from autodist.pipeline import Pipeline  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--procs", type=int, default=16)
    ap.add_argument("--machine", default="ddt1997")
    args = ap.parse_args(argv)
    machine = resolve_profile(args.machine)[0]
    print(f"{'sample':<11}{'read s':>8}{'analyze s':>11}{'align s':>9}{'plan s':>8}{'write s':>9}{'total s':>9}"
          f"{'mapping %':>11}")
    for path in sorted((ROOT / "fortran_samples").glob("*.f")):
        pipe = Pipeline(read=lambda path=path: read_program([path]))
        plan = pipe.plan(machine, args.procs)
        pipe.stage("annotate", annotate, plan.analysis, plan.solution("best"), plan.table)
        t = {stage: seconds for stage, seconds, _ in pipe.clock.times()}
        align = t["arrays"] + t["alignment"]
        mapping = t["evaluation"] + t["plan"]
        total = sum(t.values())
        print(f"{path.stem:<11}{t['read']:>8.3f}{t['analysis']:>11.3f}{align:>9.3f}{mapping:>8.3f}"
              f"{t['annotate']:>9.3f}{total:>9.3f}{100 * (align + mapping) / total:>10.0f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
