"""Whole programs under ``autodist run`` against their gfortran -O2 binary: cold and warm kernel cache.

    python benchmarks/bench_programs.py [PROGRAM ...] [--np 1,4] [--timeout SEC] [--annotated]

A PROGRAM is a Fortran file or a folder of them (its ``*.f`` files, the folder
searched for INCLUDE files, a ``wtime.c`` in it linked with ``--link``, as the
NAS Parallel Benchmarks' serial sources have it); by default
``tests/programs/jit/blocks.f``.  For each program it prints

* gfortran: seconds of the -O2 binary (best of 3);
* per number of ranks of ``--np``: the whole ``autodist run`` command's
  seconds with the kernel cache cold (a new, empty cache, so numba compiles
  every kernel the run makes hot) and warm (a second run, which loads
  them), the warm run's program time (the report's ``seconds``), numba's
  seconds (compiling or loading), and whether the output says
  ``Verification = SUCCESSFUL`` (NPB) or equals gfortran's last line.

With ``--annotated`` the program is first annotated with
``autodist annotate --procs N`` and the annotated files run.  A run that does
not finish within ``--timeout`` shows as ``timeout`` (its report, written all
the same, gives the time until then).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def sources(program: Path) -> tuple[list[Path], list[str], list[Path]]:
    """Fortran files, -I folders and --link files of a program."""
    if program.is_dir():
        files = sorted(program.glob("*.f"))
        links = sorted(program.glob("wtime.c"))
        return files, [str(program)], links
    return [program], [str(program.parent)], []


def gfortran_seconds(files, includes, links, tmp: Path) -> tuple[float, str]:
    exe = tmp / "prog"
    subprocess.run(["gfortran", "-O2", "-w", "-std=legacy", *[f"-I{i}" for i in includes], "-o", str(exe),
                    *map(str, files), *map(str, links)], check=True, capture_output=True)
    best, out = float("inf"), ""
    for _ in range(3):
        t0 = time.perf_counter()
        got = subprocess.run([str(exe)], capture_output=True, text=True, cwd=tmp)
        best = min(best, time.perf_counter() - t0)
        out = got.stdout
    return best, out


def autodist_run(files, includes, links, nprocs: int, cache: Path, timeout: float, tmp: Path) -> dict:
    report = tmp / f"r{nprocs}.json"
    report.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", "autodist", "run", "-q", "-np", str(nprocs), "--timeout", str(timeout),
           "--report", str(report), *[a for i in includes for a in ("-I", i)],
           *[a for f in links for a in ("--link", str(f))], *map(str, files)]
    env = {**os.environ, "AUTODIST_CACHE": str(cache), "PYTHONPATH": str(ROOT)}
    t0 = time.perf_counter()
    try:
        got = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout + 120, cwd=tmp)
        out, err, rc = got.stdout, got.stderr, got.returncode
    except subprocess.TimeoutExpired:
        out, err, rc = "", "killed", -1
    whole = time.perf_counter() - t0
    doc = json.loads(report.read_text()) if report.exists() else {}
    return {"whole": whole, "rc": rc, "out": out, "err": err.strip().splitlines()[-1:] if err else [],
            "seconds": doc.get("seconds"), "completed": doc.get("completed"),
            "numba": doc.get("jit", {}).get("compile_seconds")}


def verdict(out: str, ref: str, rc: int, completed) -> str:
    if rc != 0 or completed is False:
        return "timeout" if completed is False else f"exit {rc}"
    if "Verification" in ref:
        return "SUCCESSFUL" if "Verification = SUCCESSFUL" in " ".join(out.split()) else "NOT successful"
    last = [line.split() for line in out.strip().splitlines()[-1:]]
    return "same last line" if last == [line.split() for line in ref.strip().splitlines()[-1:]] else "differs"


def annotate(files, includes, nprocs: int, tmp: Path) -> list[Path]:
    out = tmp / f"annotated{nprocs}"
    shutil.rmtree(out, ignore_errors=True)
    cmd = [sys.executable, "-m", "autodist", "annotate", "-q", "--procs", str(nprocs),
           *[a for i in includes for a in ("-I", i)], *map(str, files), "-o", str(out) + "/"]
    subprocess.run(cmd, check=True, capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    return sorted(out.glob("*.f"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("programs", nargs="*", default=[str(ROOT / "tests" / "programs" / "jit" / "blocks.f")])
    ap.add_argument("--np", default="1", help="numbers of ranks, comma separated (default 1)")
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--annotated", action="store_true", help="run the files autodist annotate writes")
    args = ap.parse_args(argv)
    ranks = [int(x) for x in args.np.split(",")]
    print(f"{'program':<14}{'gfortran':>10}{'np':>4}{'cold':>10}{'warm':>10}{'program':>10}{'numba':>8}  result")
    for prog in map(Path, args.programs):
        files, includes, links = sources(prog)
        with tempfile.TemporaryDirectory(prefix="bench-programs-") as t:
            tmp = Path(t)
            g, ref = gfortran_seconds(files, includes, links, tmp)
            for n in ranks:
                run_files = annotate(files, includes, n, tmp) if args.annotated else files
                cache = tmp / f"cache{n}"
                cold = autodist_run(run_files, includes, links, n, cache, args.timeout, tmp)  # fills the cache
                warm = autodist_run(run_files, includes, links, n, cache, args.timeout, tmp)
                fmt = lambda x: "-" if x is None else f"{x:.3g}"  # noqa: E731
                print(f"{prog.name:<14}{g:>10.3g}{n:>4}{fmt(cold and cold['whole']):>10}{fmt(warm['whole']):>10}"
                      f"{fmt(warm['seconds']):>10}{fmt(warm['numba']):>8}  "
                      f"{verdict(warm['out'], ref, warm['rc'], warm['completed'])} {' '.join(warm['err'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
