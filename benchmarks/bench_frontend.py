"""Front-end speed: lines per second on every sample and on a generated long program.

    python benchmarks/bench_frontend.py [--repeat N] [--lines N]

For each input it prints, side by side: the total time of ``read_program``, the
part of it spent inside fparser2 (parsing the units), the time autodist adds
(scanning lines and statements, INCLUDEs, directives, symbol tables, nesting,
IR), the ratio added/fparser2, and, for reference, fparser2 alone on the raw file
(``ignore_comments=True``; it may fail or drop units on real F77, which is why
the front end exists).  Times are the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fparser.common.readfortran import FortranFileReader  # noqa: E402
from fparser.common.sourceinfo import FortranFormat  # noqa: E402

from autodist.frontend import parse as frontend_parse  # noqa: E402
from autodist.frontend import read_program  # noqa: E402

SAMPLES = ["adi", "jacobi", "transpose", "shallow", "tred2", "rhs"]


def generated_program(lines: int, seed: int = 1) -> str:
    """A long fixed-form program: many subroutines sharing COMMON blocks, with
    shared-termination nests, comments between DO statements, HPF directives,
    IF blocks, GOTOs and statement functions, until ``lines`` lines are reached."""
    rng = random.Random(seed)
    out = [
        "C     GENERATED FOR THE FRONT-END BENCHMARK",
        "      PROGRAM BIG",
        "      PARAMETER (N = 64)",
        "      COMMON /FLD/ A(N,N), B(N,N), C(N,N)",
        "      CALL S0",
        "      END",
    ]
    k = 0
    while len(out) < lines:
        out += [
            f"      SUBROUTINE S{k}",
            "      PARAMETER (N = 64, M = N / 2)",
            "      COMMON /FLD/ A(N,N), B(N,N), C(N,N)",
            "      REAL T, S",
            "      SQ(X) = X * X",
            "CHPF$ DISTRIBUTE A(BLOCK, *)",
            "      S = 0.0",
        ]
        for phase in range(rng.randint(6, 12)):
            label = 10 * (phase + 1)
            out += [
                f"C     PHASE {phase} OF S{k}",
                f"      DO {label} J = 2, N - 1",
                "C        THE INNER LOOP IS PARALLEL",
                "CHPF$ INDEPENDENT, NEW(T)",
                f"      DO {label} I = 2, N - 1",
                f"         T = B(I-1,J) + B(I+1,J) + {rng.randint(1, 9)}.0 * C(I,J)",
                "         IF (T .GT. 100.0) THEN",
                "            T = 100.0",
                "         ELSE IF (T .LT. -100.0) THEN",
                "            T = -100.0",
                "         END IF",
                f"         IF (ABS(T) .LT. 1.0E-6) GO TO {label}",
                "         A(I,J) = SQ(T) + MAX(A(I,J-1), 0.0)",
                "         S = S + A(I,J)",
                f"{label:>5} CONTINUE",
            ]
        out += [
            "      IF (S .LT. 0.0) WRITE (*,*) 'NEGATIVE SUM', S",
            "      RETURN",
            "      END",
        ]
        k += 1
    return "\n".join(out) + "\n"


def timed_read(path: Path) -> tuple[float, float]:
    """(total seconds, seconds inside fparser2) of one read_program."""
    spent = [0.0]
    original = frontend_parse._run

    def counting(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - t0

    frontend_parse._run = counting
    try:
        t0 = time.perf_counter()
        read_program([path])
        total = time.perf_counter() - t0
    finally:
        frontend_parse._run = original
    return total, spent[0]


def fparser_alone(path: Path) -> float | None:
    from fparser.two.parser import ParserFactory

    parser = ParserFactory().create(std="f2008")
    t0 = time.perf_counter()
    try:
        reader = FortranFileReader(str(path), ignore_comments=True)
        reader.set_format(FortranFormat(False, False))
        parser(reader)
    except Exception:
        return None
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per input; the best is shown")
    ap.add_argument("--lines", type=int, default=12000, help="length of the generated program")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "generated.f"
        big.write_text(generated_program(args.lines))
        inputs = [(name, ROOT / "fortran_samples" / f"{name}.f") for name in SAMPLES] + [("generated", big)]
        header = (
            f"{'input':<10} {'lines':>6} {'total s':>8} {'lines/s':>8} {'fparser2 s':>10} "
            f"{'added s':>8} {'added/fp2':>9} {'fp2 alone s':>11}"
        )
        print(header)
        print("-" * len(header))
        sums = [0, 0.0, 0.0]
        for name, path in inputs:
            nlines = len(path.read_text().splitlines())
            runs = [timed_read(path) for _ in range(args.repeat)]
            total, inside = min(runs)
            alone = min((t for t in (fparser_alone(path) for _ in range(args.repeat)) if t is not None), default=None)
            added = total - inside
            sums[0] += nlines
            sums[1] += total
            sums[2] += inside
            print(
                f"{name:<10} {nlines:>6} {total:>8.3f} {nlines / total:>8.0f} {inside:>10.3f} "
                f"{added:>8.3f} {added / inside:>9.2f} {('%.3f' % alone) if alone else 'fails':>11}"
            )
        lines, total, inside = sums
        print("-" * len(header))
        print(
            f"{'all':<10} {lines:>6} {total:>8.3f} {lines / total:>8.0f} {inside:>10.3f} "
            f"{total - inside:>8.3f} {(total - inside) / inside:>9.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
