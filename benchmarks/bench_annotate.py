"""Whole `annotate` time per sample, split by stage.

    python benchmarks/bench_annotate.py [--procs P] [--machine NAME]

For every sample, side by side: reading (front end), analysis, alignment,
static candidates and dynamic selection (the mapping plan), and writing the
directives; the total and the share of the mapping stage.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autodist.analysis import analyze  # noqa: E402
from autodist.frontend import read_program  # noqa: E402
from autodist.annotate.source import annotate  # noqa: E402
from autodist.machine import resolve_profile  # noqa: E402
from autodist.mapping.arrays import build_array_table  # noqa: E402
from autodist.mapping.candidates import align_program  # noqa: E402
from autodist.mapping.plan import make_plan  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--procs", type=int, default=16)
    ap.add_argument("--machine", default="ddt1997")
    args = ap.parse_args(argv)
    machine = resolve_profile(args.machine)[0]
    print(f"{'sample':<11}{'read s':>8}{'analyze s':>11}{'align s':>9}{'plan s':>8}{'write s':>9}{'total s':>9}"
          f"{'mapping %':>11}")
    for path in sorted((ROOT / "fortran_samples").glob("*.f")):
        t0 = time.perf_counter()
        program = read_program([path])
        t1 = time.perf_counter()
        an = analyze(program)
        t2 = time.perf_counter()
        table = build_array_table(an.program)
        alignment = align_program(an, table, machine.solver_time_limit)
        t3 = time.perf_counter()
        plan = make_plan(an, machine, args.procs, table=table, alignment=alignment)
        t4 = time.perf_counter()
        annotate(an, plan.solution("best"), plan.table)
        t5 = time.perf_counter()
        total = t5 - t0
        print(f"{path.stem:<11}{t1 - t0:>8.3f}{t2 - t1:>11.3f}{t3 - t2:>9.3f}{t4 - t3:>8.3f}{t5 - t4:>9.3f}"
              f"{total:>9.3f}{100 * (t4 - t2) / total:>10.0f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
