"""Alignment: DDT's min-cut heuristic against the exact 0-1 ILP on generated DAGs.

    python benchmarks/bench_align.py [--sizes 10,20,50,100,200,500] [--time-limit 20]

Two families of DAGs, one table:

* ``program``: shaped like real phases.  Each array (rank 1-3) follows a hidden
  alignment to a 3-D template; loop nests over a sliding window of arrays write
  one array from one to three others with subscripts ``I``, ``J``, ``K`` (+-1) along
  the hidden template dimensions; now and then a reference is transposed, reads a
  diagonal (competing edges) or a constant; half the nests have a parallel loop.
* ``random``: every array linked to four random others, random dimensions and
  weights: no structure at all (far harder for both solvers).

For each DAG: the heuristic's cut and time, the ILP's cut, status, proven bound,
gap and time (within ``--time-limit``), and their ratios side by side.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from autodist.ir import Affine  # noqa: E402
from autodist.mapping.align import align_heuristic, align_ilp  # noqa: E402
from autodist.mapping.dag import Dag, DagBuilder  # noqa: E402

VARS = ("I", "J", "K")


def program_dag(arrays: int, seed: int) -> Dag:
    rng = random.Random(seed)
    ranks = [3] + [rng.choices((1, 2, 3), weights=(3, 5, 2))[0] for _ in range(arrays - 1)]
    hidden = [rng.sample(range(3), r) for r in ranks]  # array dim -> template dim
    b = DagBuilder()
    for i, r in enumerate(ranks):
        b.add_array(f"A{i}", r)

    def subscripts(i: int, shuffle: bool, diagonal: bool) -> list[Affine]:
        dims = list(hidden[i])
        if shuffle:
            rng.shuffle(dims)
        out = []
        for t in dims:
            if diagonal:
                t = dims[0]
            if rng.random() < 0.05:
                out.append(Affine(rng.randint(1, 9)))
            else:
                out.append(Affine(rng.choice((0, 0, 0, -1, 1)), ((VARS[t], 1),)))
        return out

    for nest in range(arrays):
        window = range(max(0, nest - 4), min(arrays, nest + 4))
        members = rng.sample(list(window), min(len(window), rng.randint(2, 5)))
        written = []
        for _ in range(rng.randint(2, 4)):
            lhs = rng.choice(members)
            written.append(lhs)
            lhs_subs = subscripts(lhs, False, False)
            for rhs in rng.sample(members, min(len(members), rng.randint(1, 3))):
                noise = rng.random()
                rhs_subs = subscripts(rhs, noise < 0.1, 0.1 <= noise < 0.15)
                b.add_pattern(f"A{lhs}", lhs_subs, f"A{rhs}", rhs_subs, loop_vars=VARS)
        if rng.random() < 0.5:
            t = rng.randrange(3)
            dims = [(f"A{i}", hidden[i].index(t)) for i in set(written) if t in hidden[i]]
            b.add_parallel(VARS[t], dims)
    return b.build()


def random_dag(arrays: int, seed: int) -> Dag:
    rng = random.Random(seed)
    ranks = [3] + [rng.randint(1, 3) for _ in range(arrays - 1)]
    b = DagBuilder()
    for i, r in enumerate(ranks):
        b.add_array(f"A{i}", r)
    for i in range(arrays):
        for _ in range(4):
            j = rng.randrange(arrays)
            if j != i:
                b.add_edge((f"A{i}", rng.randrange(ranks[i])), (f"A{j}", rng.randrange(ranks[j])), rng.randint(1, 5))
    return b.build()


def fmt(value, spec: str = ".0f") -> str:
    return "-" if value is None else format(value, spec)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10,20,50,100,200,500")
    parser.add_argument("--random-sizes", default="10,20,50,100",
                        help="sizes for the unstructured family (empty: none)")
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    runs = [("program", int(n)) for n in args.sizes.split(",") if n]
    runs += [("random", int(n)) for n in args.random_sizes.split(",") if n]

    header = (f"{'kind':8} {'arrays':>6} {'nodes':>5} {'edges':>5} | {'heur cut':>9} {'heur s':>7} | "
              f"{'ILP cut':>8} {'status':>11} {'bound':>8} {'gap':>6} {'ILP s':>7} | "
              f"{'heur/ILP cost':>13} {'ILP/heur time':>13}")
    print(f"alignment: heuristic (min-cut) vs 0-1 ILP, time limit {args.time_limit:g} s")
    print(header)
    print("-" * len(header))
    for kind, n in runs:
        dag = (program_dag if kind == "program" else random_dag)(n, args.seed)
        t0 = time.perf_counter()
        heuristic = align_heuristic(dag)
        t_heur = time.perf_counter() - t0
        t0 = time.perf_counter()
        ilp = align_ilp(dag, args.time_limit)
        t_ilp = time.perf_counter() - t0  # model build + solve
        r = ilp.solve
        ratio = heuristic.cut / ilp.cut if ilp.cut else (1.0 if heuristic.cut == 0 and ilp.cut == 0 else None)
        print(f"{kind:8} {n:>6} {len(dag.nodes):>5} {len(dag.weights):>5} | "
              f"{heuristic.cut:>9.0f} {t_heur:>7.3f} | {fmt(ilp.cut):>8} {r.status:>11} "
              f"{fmt(r.bound):>8} {fmt(r.gap, '.3f'):>6} {t_ilp:>7.2f} | "
              f"{fmt(ratio, '.3f'):>13} {t_ilp / max(t_heur, 1e-9):>13.1f}", flush=True)
    print("heur/ILP cost > 1: the heuristic cuts that much more weight than the ILP's answer "
          "(the optimum when status is optimal).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
