"""The hostile-input fuzzer: many cases, one table.

    python -m tests.hostile.fuzz [--cases 1000] [--seed 0] [--jobs 2] [--kinds run,mapped] [--save DIR]

Draws ``--cases`` cases over the kinds of :mod:`tests.hostile.cases` (in the
proportions of ``KINDS``), runs each (:mod:`tests.hostile.check`), and prints
per kind how many ended well (exit 0), how many were refused with a clear
error (exit 2), how many ran without a gfortran reference, and every failure
by class: wrong result, internal error, unclear error, input changed, partial
output, hang.  Exit status 1 when anything failed.  ``--save DIR`` keeps the
files of each failing case for reproduction.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .cases import KINDS, case
from .check import execute, gfortran_refused, judge


def draw(n: int, seed: int, kinds: list[str]) -> list[tuple[str, int]]:
    rng = random.Random(seed)
    weights = [KINDS[k] for k in kinds]
    return [(rng.choices(kinds, weights)[0], seed * 100003 + i) for i in range(n)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.hostile.fuzz", description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--kinds", default=",".join(KINDS), help="comma-separated kinds (default: all)")
    ap.add_argument("--save", type=Path, default=None, metavar="DIR", help="keep the files of failing cases here")
    args = ap.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    unknown = set(kinds) - set(KINDS)
    if unknown:
        ap.error(f"unknown kinds: {', '.join(sorted(unknown))}")
    todo = draw(args.cases, args.seed, kinds)
    t0 = time.monotonic()
    tally: dict[str, Counter] = defaultdict(Counter)
    failures = []

    def one(item):
        c = case(*item)
        out = execute(c)
        return c, out, judge(c, out)

    with ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
        for k, (c, out, bad) in enumerate(pool.map(one, todo), 1):
            t = tally[c.kind]
            t["cases"] += 1
            t[bad or {0: "ok", 2: "refused"}.get(out.status, f"exit {out.status}")] += 1
            if gfortran_refused(out):
                t["no gfortran reference"] += 1
            if bad:
                failures.append((c, out, bad))
                if args.save is not None:
                    _save(args.save, c, out)
            if k % 50 == 0:
                print(f"... {k}/{len(todo)} cases, {len(failures)} failure(s), {time.monotonic() - t0:.0f} s",
                      file=sys.stderr, flush=True)
    _print(tally, failures, time.monotonic() - t0)
    return 1 if failures else 0


COLUMNS = ("cases", "ok", "refused", "no gfortran reference", "wrong result", "internal error", "unclear error",
           "input changed", "partial output", "hang")


def _print(tally, failures, seconds: float) -> None:
    others = sorted({key for t in tally.values() for key in t} - set(COLUMNS))
    cols = list(COLUMNS) + others
    print(f"{'kind':<10}" + "".join(f"{c:>{max(len(c), 5) + 2}}" for c in cols))
    total: Counter = Counter()
    for kind in sorted(tally):
        total.update(tally[kind])
        print(f"{kind:<10}" + "".join(f"{tally[kind][c]:>{max(len(c), 5) + 2}}" for c in cols))
    print(f"{'all':<10}" + "".join(f"{total[c]:>{max(len(c), 5) + 2}}" for c in cols))
    print(f"{sum(total[c] for c in ('cases',))} cases in {seconds:.0f} s; {len(failures)} failure(s)")
    for c, out, bad in failures:
        first = next((line for line in out.stderr.splitlines() if line.strip()), "")
        print(f"  {bad}: {c.describe()}\n      exit {out.status}, {out.seconds:.1f} s: {first[:300]}"
              + (f"; changed {', '.join(out.changed)}" if out.changed else ""))


def _save(root: Path, c, out) -> None:
    folder = root / f"{c.kind}-{c.seed}"
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in c.files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    (folder / "COMMAND").write_text("autodist " + " ".join(c.argv) + "\n")
    (folder / "STDERR").write_text(out.stderr)


if __name__ == "__main__":
    sys.exit(main())
