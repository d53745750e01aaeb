"""A sweep against independent ``compare`` runs, side by side.

    python benchmarks/bench_sweep.py [--points 100] [--procs 16] [--source fortran_samples/adi.f]

The sweep: ``autodist sweep SOURCE --procs 16 --vary
remote_access_time=1e-9:1e-3:log:N`` (analysis and alignment once, one
evaluator per processor count, crossovers bisected).  The baseline: for every
one of the same N values a profile file with that remote access time and a
full ``autodist compare SOURCE --procs 16`` in this process (read, analyse,
align, price, select: what a user without ``sweep`` would do), plus the one
``compare --procs 1`` each point needs for its speedup.  Both run in this
process (no interpreter start-up counted).  The chosen solution of every
point must agree; the ratio of the times is printed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autodist.cli import main  # noqa: E402
from autodist.machine import load_profile  # noqa: E402
from autodist.sweep.axes import vary_profile  # noqa: E402


def quiet_main(argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main(argv)
    if status != 0:
        raise SystemExit(f"autodist {' '.join(argv)} failed with status {status}")
    return out.getvalue()


def write_profile(path: Path, base, rat: float) -> None:
    data = vary_profile(base, {"remote_access_time": rat}).as_dict()
    data["distributions"] = list(data["distributions"])
    path.write_text(json.dumps(data))  # JSON is YAML


def main_bench() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--points", type=int, default=100)
    ap.add_argument("--procs", type=int, default=16)
    ap.add_argument("--source", default=str(ROOT / "fortran_samples" / "adi.f"))
    ap.add_argument("--machine", default=str(ROOT / "machine_profiles" / "ddt1997.yaml"))
    opts = ap.parse_args()
    n, procs = opts.points, opts.procs

    t0 = time.perf_counter()
    doc = json.loads(quiet_main(["sweep", opts.source, "--machine", opts.machine, "--procs", str(procs),
                                 "--vary", f"remote_access_time=1e-9:1e-3:log:{n}", "--json", "-", "-q"]))
    t_sweep = time.perf_counter() - t0
    values = [p["remote_access_time"] for p in doc["points"]]
    sweep_chosen = [p["chosen"] for p in doc["points"]]

    base = load_profile(opts.machine)
    compare_chosen = []
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        for k, rat in enumerate(values):
            prof = Path(tmp) / f"p{k}.yaml"
            write_profile(prof, base, rat)
            run = json.loads(quiet_main(["compare", opts.source, "--machine", str(prof), "--procs", f"1,{procs}",
                                         "--format", "json", "-q"]))["runs"]
            compare_chosen.append(run[-1]["chosen"])
        t_compare = time.perf_counter() - t0

    agree = sum(a == b for a, b in zip(sweep_chosen, compare_chosen))
    print(f"{Path(opts.source).name}, P = {procs}, remote_access_time 1e-9..1e-3 s/byte, {n} points")
    print(f"{'':<34}{'total (s)':>10}  {'per point (ms)':>14}")
    print(f"{'sweep (one command)':<34}{t_sweep:>10.2f}  {1000 * t_sweep / n:>14.1f}")
    print(f"{'compare --procs 1,P (per point)':<34}{t_compare:>10.2f}  {1000 * t_compare / n:>14.1f}")
    print(f"ratio compare / sweep: {t_compare / t_sweep:.1f}x")
    print(f"crossovers found by the sweep: {[c['text'] for c in doc['crossovers']]}")
    print(f"chosen solution agrees at {agree}/{n} points")
    if agree != n:
        raise SystemExit("the sweep and compare disagree")


if __name__ == "__main__":
    main_bench()
