"""Runtime speed at P = 1: the vectorized runtime against gfortran -O2, phase by phase.

    python benchmarks/bench_runtime.py [--repeat N] [--sizes adi=256,1024 jacobi=128,512]

For ADI and Jacobi (the samples, with N scaled), it times

* the gfortran -O2 binary of the same source, with ``SYSTEM_CLOCK`` calls
  added around every loop phase of the main program (a temporary copy), so
  that each phase's own time is known;
* the runtime in this process on one rank (``Executor`` on ``COMM_SELF``),
  which records each phase's computation time,

and prints, per phase and in total, seconds per execution side by side and
the ratio runtime / gfortran (target: within 5x for the vectorized phases).
Times are the best of ``--repeat`` runs.  The runtime's results are checked
against gfortran's printed output on the way.
"""

from __future__ import annotations

import argparse
import io
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autodist.runtime.job.runner import prepare  # noqa: E402

#: How to scale each sample: PARAMETER substitutions as functions of N.
SCALE = {
    "adi": lambda n: [("N = 256, NITER = 10", f"N = {n}, NITER = 10"), ("X(128,128)", f"X({n // 2},{n // 2})"),
                      ("'X(128,128) =", f"'X({n // 2},{n // 2}) ="[:14])],
    "jacobi": lambda n: [("N = 128, NITER = 50", f"N = {n}, NITER = 50"), ("U(64,1)", f"U({n // 2},1)")],
}


def scaled(sample: str, n: int) -> str:
    text = (ROOT / "fortran_samples" / f"{sample}.f").read_text()
    for old, new in SCALE[sample](n):
        text = text.replace(old, new, 1)
    return text


def timed_copy(text: str, phases: list[tuple[int, int]]) -> str:
    """The source with SYSTEM_CLOCK calls around each phase (first, last line)
    of the main program and a report of the accumulated ticks at its END."""
    lines = text.splitlines()
    decl = [
        "      INTEGER*8 ADTK0, ADTK1, ADTKR",
        f"      INTEGER*8 ADTKT({len(phases)})",
        f"      INTEGER ADTKN({len(phases)}), ADTKI",
        f"      DATA ADTKT /{len(phases)}*0/, ADTKN /{len(phases)}*0/",
    ]
    before: dict[int, list[str]] = {}
    after: dict[int, list[str]] = {}
    for k, (first, last) in enumerate(phases, 1):
        before.setdefault(first, []).append("      CALL SYSTEM_CLOCK(ADTK0, ADTKR)")
        after.setdefault(last, []).extend([
            "      CALL SYSTEM_CLOCK(ADTK1, ADTKR)",
            f"      ADTKT({k}) = ADTKT({k}) + (ADTK1 - ADTK0)",
            f"      ADTKN({k}) = ADTKN({k}) + 1",
        ])
    end = max(i for i, line in enumerate(lines, 1) if re.match(r"^\s+END\s*$", line, re.I))
    report = ["      CALL SYSTEM_CLOCK(ADTK1, ADTKR)",
              f"      DO 99999 ADTKI = 1, {len(phases)}",
              "      WRITE (*,*) 'ADTK', ADTKI, ADTKN(ADTKI),",
              "     &  DBLE(ADTKT(ADTKI)) / DBLE(ADTKR)",
              "99999 CONTINUE"]
    decl_end = max(i for i, line in enumerate(lines, 1) if re.match(r"^\s+INTEGER\s+I\b", line, re.I))
    out = []
    for i, line in enumerate(lines, 1):
        out.extend(before.get(i, []))
        if i == end:
            out.extend(report)
        out.append(line)
        out.extend(after.get(i, []))
        if i == decl_end:
            out.extend(decl)
    return "\n".join(out) + "\n"


def gfortran_phases(text: str, phases, repeat: int, tmp: Path) -> tuple[dict[int, float], float, str]:
    src = tmp / "timed.f"
    src.write_text(timed_copy(text, [(p.span.first, p.span.last) for p in phases]))
    exe = tmp / "timed"
    subprocess.run(["gfortran", "-O2", "-o", str(exe), str(src)], check=True, capture_output=True)
    best: dict[int, float] = {}
    total = float("inf")
    printed = ""
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
        total = min(total, time.perf_counter() - t0)
        printed = "\n".join(line for line in out.splitlines() if "ADTK" not in line)
        for line in out.splitlines():
            if "ADTK" in line:
                _, k, n, sec = line.split()
                k, n = int(k), int(n)
                per = float(sec) / n if n else 0.0
                best[k] = min(best.get(k, float("inf")), per)
    return best, total, printed


def runtime_phases(path: Path, repeat: int) -> tuple[dict[int, float], float, str, dict]:
    from mpi4py import MPI

    from autodist.runtime.spmd.executor import Executor

    program, analysis, translations = prepare([str(path)])
    best: dict[int, float] = {}
    total = float("inf")
    printed = ""
    modes = {}
    for _ in range(repeat):
        out = io.StringIO()
        ex = Executor(program, analysis, MPI.COMM_SELF, out=out, translations=translations)
        t0 = time.perf_counter()
        ex.run()
        total = min(total, time.perf_counter() - t0)
        printed = out.getvalue().rstrip("\n")
        main = program.main.name
        for region, reg in ex.comms.stats.regions.items():
            if region.startswith(main + ":"):
                pid = int(region.split(":")[1])
                n = ex.executions.get(region, 1)
                best[pid] = min(best.get(pid, float("inf")), reg.compute_time / n)
        modes = ex.phase_modes
    return best, total, printed, modes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sizes", nargs="*", default=["adi=256,1024", "jacobi=128,512"])
    args = ap.parse_args(argv)
    if shutil.which("gfortran") is None:
        print("gfortran is not installed: nothing to compare with", file=sys.stderr)
        return 1
    print(f"{'program':<14} {'phase':>5} {'vectorized':<12} {'gfortran s/exec':>16} {'runtime s/exec':>15} {'ratio':>7}")
    for spec in args.sizes:
        sample, sizes = spec.split("=")
        for n in (int(x) for x in sizes.split(",")):
            with tempfile.TemporaryDirectory(prefix="autodist-bench-") as tmp:
                tmpd = Path(tmp)
                path = tmpd / f"{sample}.f"
                path.write_text(scaled(sample, n))
                program, analysis, _ = prepare([str(path)])
                phases = [p for p in analysis.procedure(program.main.name).phases if p.kind == "loop"]
                g, gtotal, gout = gfortran_phases(path.read_text(), phases, args.repeat, tmpd)
                r, rtotal, rout, modes = runtime_phases(path, args.repeat)
                same = "same output" if gout.split() == rout.split() else "OUTPUT DIFFERS"
                name = f"{sample} N={n}"
                vec_g = vec_r = 0.0
                for k, ph in enumerate(phases, 1):
                    mode = modes.get(f"{program.main.name}:{ph.id}", ("?", "", ()))
                    vec = ",".join("".join(c) for c in mode[2]) or "-"
                    gt, rt = g.get(k, 0.0), r.get(ph.id, 0.0)
                    if mode[2]:
                        vec_g += gt * ph_execs(analysis, program, ph)
                        vec_r += rt * ph_execs(analysis, program, ph)
                    ratio = f"{rt / gt:7.1f}" if gt > 0 else "      -"
                    print(f"{name:<14} {ph.id:>5} {vec:<12} {gt:16.3e} {rt:15.3e} {ratio}")
                print(f"{name:<14} {'vect':>5} {'(phases)':<12} {vec_g:16.3e} {vec_r:15.3e} "
                      f"{(vec_r / vec_g if vec_g else 0):7.1f}")
                print(f"{name:<14} {'all':>5} {'(program)':<12} {gtotal:16.3e} {rtotal:15.3e} "
                      f"{rtotal / gtotal:7.1f}   {same}")
    return 0


def ph_execs(analysis, program, ph) -> float:
    return analysis.procedure(program.main.name).executions(ph.id)


if __name__ == "__main__":
    sys.exit(main())
