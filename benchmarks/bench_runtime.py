"""Runtime speed: gfortran -O2, the numpy path and the compiled path, phase by phase.

    python benchmarks/bench_runtime.py [--repeat N] [--ranks 1,2]
                                       [--sizes adi=256,1024 branchy=20000,200000]

For ADI and Jacobi (the samples) and ``branchy`` (benchmarks/programs: loops
the vectorized path cannot take — a GO TO in a gather, a recurrence through a
CALL — next to two it can), with N scaled, it times

* the gfortran -O2 binary of the same source, with ``SYSTEM_CLOCK`` calls
  added around every loop phase of the main program (a temporary copy), so
  that each phase's own time is known;
* the runtime with ``--no-jit`` (vectorized numpy, translated Python where
  that cannot run) and with compiled kernels (numba, ``--jit-after 0``, after
  one run that fills the kernel cache), on each number of ranks of
  ``--ranks``: on one rank in this process (``Executor`` on ``COMM_SELF``),
  on more through ``autodist run`` (the report's per-phase times, the most
  loaded rank's);

and prints, per phase and for the whole program (the report's ``seconds``,
the run without starting Python and reading the program), seconds per
execution side by side and the ratios to gfortran (gfortran runs on one
core: at P ranks the ratio is the runtime's time over the sequential
binary's).  On more than one rank the program runs with the mapping
``autodist annotate --procs P`` chooses, and its program time leaves out
numba's import and loading of the cached kernels, which each run (a new
process) pays and the ``load`` row shows.  Times are the best of ``--repeat`` runs.  The runtime's output is
checked against gfortran's on the way.
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
    "branchy": lambda n: [("N = 20000, NITER = 10", f"N = {n}, NITER = 10")],
}


def scaled(sample: str, n: int) -> str:
    where = ROOT / "fortran_samples" / f"{sample}.f"
    text = (where if where.exists() else ROOT / "benchmarks" / "programs" / f"{sample}.f").read_text()
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


def runtime_phases(path: Path, repeat: int, jit: bool) -> tuple[dict[int, float], float, str, dict]:
    """One rank, in this process: best seconds per execution of each main-program
    phase, best program time, what it printed, and how each phase ran."""
    from mpi4py import MPI

    from autodist.runtime.spmd.executor import Executor, RunOptions

    program, analysis, translations = prepare([str(path)])
    best: dict[int, float] = {}
    total = float("inf")
    printed = ""
    paths = {}
    main = program.main.name
    for k in range(repeat + (1 if jit else 0)):  # with kernels: a first run compiles (or loads) them
        out = io.StringIO()
        ex = Executor(program, analysis, MPI.COMM_SELF, RunOptions(jit=jit, jit_after=0.0), out=out,
                      translations=translations)
        t0 = time.perf_counter()
        ex.run()
        seconds = time.perf_counter() - t0
        printed = out.getvalue().rstrip("\n")
        paths = {region: _path(counts) for region, (counts, _) in ex.phase_paths.items()}
        if jit and k == 0:
            continue
        total = min(total, seconds)
        for region, reg in ex.comms.stats.regions.items():
            if region.startswith(main + ":"):
                pid = int(region.split(":")[1])
                n = ex.executions.get(region, 1)
                best[pid] = min(best.get(pid, float("inf")), reg.compute_time / max(n, 1))
    return best, total, printed, paths


def annotated(path: Path, nprocs: int) -> Path:
    """The program with the HPF directives ``autodist annotate`` chooses for ``nprocs``."""
    from autodist.cli import main

    out = path.with_name(f"{path.stem}_hpf{nprocs}.f")
    if main(["annotate", str(path), "--procs", str(nprocs), "-q", "-o", str(out)]) != 0:
        raise RuntimeError(f"autodist annotate failed on {path}")
    return out


def mpi_phases(path: Path, nprocs: int, repeat: int, jit: bool) -> tuple[dict[int, float], float, str, dict]:
    """The same on ``nprocs`` ranks, through ``autodist run`` and its report, for the
    mapping autodist chooses; the program time without numba's loading of the kernels
    (each run is a new process: it loads them from the cache, which the ``load`` row shows)."""
    from autodist.runtime.job.api import run_file

    best: dict[int, float] = {}
    total = float("inf")
    printed, paths = "", {}
    LOADS[jit] = float("inf")
    for k in range(repeat + (1 if jit else 0)):
        rep = run_file(str(path), nprocs, jit=jit, jit_after=0.0 if jit else None)
        if rep.status != 0:
            raise RuntimeError(rep.stderr)
        printed = rep.stdout.rstrip("\n")
        main = rep.phases[0].procedure if rep.phases else ""
        paths = {p.key: p.path for p in rep.phases}
        if jit and k == 0:
            continue
        load = rep.raw.get("jit", {}).get("compile_seconds", 0.0)
        LOADS[jit] = min(LOADS[jit], load)
        total = min(total, rep.seconds)  # numba's loading is not in the report's seconds
        for p in rep.phases:
            if p.procedure == main and p.executions:
                per = max(r.compute_time for r in p.ranks) / p.executions
                best[p.id] = min(best.get(p.id, float("inf")), per)
    return best, total, printed, paths


LOADS: dict[bool, float] = {}  # numba's seconds in the last mpi_phases run (best)


def _path(counts: dict) -> str:
    return "jit" if counts.get("jit") else max(counts, key=counts.get)


def _ratio(x: float, ref: float) -> str:
    return f"{x / ref:8.2f}" if ref > 0 and x < float("inf") else "       -"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ranks", default="1,2", help="numbers of ranks, comma separated (default 1,2)")
    ap.add_argument("--sizes", nargs="*", default=["adi=256,1024", "branchy=20000,200000"])
    args = ap.parse_args(argv)
    if shutil.which("gfortran") is None:
        print("gfortran is not installed: nothing to compare with", file=sys.stderr)
        return 1
    ranks = [int(x) for x in args.ranks.split(",")]
    print(f"{'program':<16} {'P':>2} {'phase':>5} {'path':<7} {'gfortran s':>11} {'numpy s':>11} {'jit s':>11} "
          f"{'numpy/gf':>8} {'jit/gf':>8}")
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
                name = f"{sample} N={n}"
                for nprocs in ranks:
                    runs = []
                    mapped = path if nprocs == 1 else annotated(path, nprocs)
                    for jit in (False, True):
                        if nprocs == 1:
                            runs.append(runtime_phases(path, args.repeat, jit))
                        else:
                            runs.append(mpi_phases(mapped, nprocs, args.repeat, jit))
                    (rn, tn, on, _), (rj, tj, oj, paths) = runs
                    same = all(o.split() == gout.split() for o in (on, oj))
                    for k, ph in enumerate(phases, 1):
                        gt = g.get(k, 0.0)
                        a, b = rn.get(ph.id, float("inf")), rj.get(ph.id, float("inf"))
                        path_jit = paths.get(f"{program.main.name}:{ph.id}", "?")
                        print(f"{name:<16} {nprocs:>2} {ph.id:>5} {path_jit:<7} {gt:11.3e} {a:11.3e} {b:11.3e} "
                              f"{_ratio(a, gt)} {_ratio(b, gt)}")
                    print(f"{name:<16} {nprocs:>2} {'all':>5} {'':<7} {gtotal:11.3e} {tn:11.3e} {tj:11.3e} "
                          f"{_ratio(tn, gtotal)} {_ratio(tj, gtotal)}   {'same output' if same else 'OUTPUT DIFFERS'}")
                    if nprocs > 1:
                        print(f"{name:<16} {nprocs:>2} {'load':>5} {'':<7} {'':>11} {'':>11} {LOADS[True]:11.3e}   "
                              f"(numba: import and kernels from the cache, per run)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
