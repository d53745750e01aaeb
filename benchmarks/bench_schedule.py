"""Schedule planning time vs array size N and rank count P, without launching ranks.

    python benchmarks/bench_schedule.py [--sizes 3 4 5 6 7] [--ranks 2 8 32 128 512 1024]

Pure functions of autodist.layout, caches cleared before every measurement
(cold planning, best of --repeat).  For each pattern, two views:

* all ranks: the exact elements/messages of every rank
  (``redistribution_volume`` / ``exchange_volume``: what the cost model calls);
* one rank: rank P/2's schedule (``sends`` + ``receives`` with their sections:
  what the runtime plans on each rank).

Expected: flat in N (closed forms, never per element) and linear in P.  At
small N many ranks own nothing and have nothing to plan, so compare the last
decade of N (every rank then holds data).  The last pattern, BLOCK -> CYCLIC(3) in 1-D, is dense when blocks are longer than
3 * P (every rank talks to every rank: P^2 pairs), so its all-ranks column
grows with P^2 there; that is the size of the answer, not of a search.
"""

from __future__ import annotations

import argparse
import sys
import time
from math import isqrt
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from autodist.layout import clear_caches  # noqa: E402
from autodist.layout.model import BLOCK, COLLAPSED, Format, simple  # noqa: E402
from autodist.layout.schedule import Halo, exchange_schedule, redistribution_schedule  # noqa: E402
from autodist.layout.volume import exchange_volume, redistribution_volume  # noqa: E402


def grid2(p: int) -> tuple[int, int]:
    a = isqrt(p)
    while p % a:
        a -= 1
    return (p // a, a)


def patterns(N: int, P: int):
    n = max(isqrt(N), 1)
    b2, b1 = ((1, n), (1, n)), ((1, N),)
    rows, cols = simple(b2, (BLOCK, COLLAPSED), (P,)), simple(b2, (COLLAPSED, BLOCK), (P,))
    grid = simple(b2, (BLOCK, BLOCK), grid2(P))
    blk, cyc = simple(b1, (BLOCK,), (P,)), simple(b1, (Format("CYCLIC", 3),), (P,))
    halo = Halo(((1, 1), (0, 0)))
    return {
        "(BLOCK,*)->(*,BLOCK)": (lambda: redistribution_volume(rows, cols, P),
                                 lambda: redistribution_schedule(rows, cols, P)),
        "(BLOCK,*)->(BLOCK,BLOCK)": (lambda: redistribution_volume(rows, grid, P),
                                     lambda: redistribution_schedule(rows, grid, P)),
        "halo (BLOCK,*) 1 row": (lambda: exchange_volume(rows, halo, P),
                                 lambda: exchange_schedule(rows, halo, P)),
        "BLOCK->CYCLIC(3) 1-D": (lambda: redistribution_volume(blk, cyc, P),
                                 lambda: redistribution_schedule(blk, cyc, P)),
    }


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        clear_caches()
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[3, 4, 5, 6, 7], help="log10 of N")
    ap.add_argument("--ranks", type=int, nargs="+", default=[2, 8, 32, 128, 512, 1024])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sizes = [10**e for e in args.sizes]
    names = list(patterns(10, 2))
    times: dict = {}
    patterns(10, 2)["halo (BLOCK,*) 1 row"][0]()  # warm up imports
    for N in sizes:
        for P in args.ranks:
            for name, (volume, schedule) in patterns(N, P).items():
                r = P // 2

                def one_rank():
                    s = schedule()
                    s.sends(r)
                    s.receives(r)

                times[name, N, P] = (best_of(volume, args.repeat), best_of(one_rank, args.repeat))

    for name in names:
        print(f"\n{name}: planning time in ms, all ranks' counts | one rank's schedule")
        print(f"{'N':>9} " + " ".join(f"{'P=' + str(P):>15}" for P in args.ranks))
        for N in sizes:
            cells = [f"{times[name, N, P][0] * 1e3:7.2f}|{times[name, N, P][1] * 1e3:<7.2f}" for P in args.ranks]
            print(f"{N:>9} " + " ".join(f"{c:>15}" for c in cells))
        if len(sizes) > 1:
            lo, hi = sizes[-2], sizes[-1]
            flat = [times[name, hi, P][v] / times[name, lo, P][v] for P in args.ranks for v in (0, 1)]
            print(f"  N {lo:.0e} -> {hi:.0e} (x{hi // lo}): time x{min(flat):.2f} .. x{max(flat):.2f} (flat: ~1)")
        if len(args.ranks) > 1:
            p0, p1 = args.ranks[-3] if len(args.ranks) > 2 else args.ranks[0], args.ranks[-1]
            grow = [times[name, sizes[-1], p1][v] / times[name, sizes[-1], p0][v] for v in (0, 1)]
            print(f"  P {p0} -> {p1} at N={sizes[-1]:.0e}: all ranks x{grow[0]:.1f}, one rank x{grow[1]:.1f} "
                  f"(linear: x{p1 / p0:.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
