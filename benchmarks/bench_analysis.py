"""Analysis speed next to parsing: every sample and a generated long program.

    python benchmarks/bench_analysis.py [--lines N] [--repeat N]

For each input, side by side: fparser2's parse (inside the front end), the
rest of the front end, and autodist's analysis (phases, dependence tests,
privatization, control flow), each in seconds, with lines per second for the
whole and the ratio analysis / fparser2.  Times are the best of ``--repeat``.

Then the scaling of analysis alone on one long main program full of GOTOs and
IF blocks (the control-flow chain), at 1x, 2x and 4x ``--scaling-lines``:
seconds per 1,000 lines and its ratio to the smallest size (about 1 when the
analysis is linear in the program's size).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_frontend import generated_program, timed_read  # noqa: E402

from autodist.analysis import analyze  # noqa: E402
from autodist.frontend import read_program  # noqa: E402


def best(fn, repeat: int):
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return min(times), result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=10_000, help="size of the generated program")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--scaling-lines", type=int, default=5_000, help="smallest jump-heavy program")
    args = ap.parse_args(argv)
    inputs = sorted((ROOT / "fortran_samples").glob("*.f"))
    tmp = Path(tempfile.mkdtemp())
    gen = tmp / "generated.f"
    gen.write_text(generated_program(args.lines))
    inputs.append(gen)
    print(f"{'input':<11}{'lines':>7}{'fparser2 s':>12}{'front end s':>13}{'analysis s':>12}"
          f"{'lines/s':>10}{'analysis/fp2':>14}")
    for path in inputs:
        n = len(path.read_text().splitlines())
        total_fp = min(timed_read(path)[1] for _ in range(args.repeat))
        t_read, program = best(lambda: read_program([path]), args.repeat)
        t_an, _ = best(lambda: analyze(program), args.repeat)
        rest = max(t_read - total_fp, 0.0)
        whole = t_read + t_an
        print(f"{path.stem:<11}{n:>7}{total_fp:>12.3f}{rest:>13.3f}{t_an:>12.3f}"
              f"{n / whole:>10.0f}{t_an / total_fp:>14.2f}")
    print(f"\n{'jumps':<11}{'lines':>7}{'analysis s':>12}{'s/kline':>10}{'ratio':>8}")
    base = None
    for k in (1, 2, 4):
        path = tmp / f"jumps{k}.f"
        path.write_text(jump_program(args.scaling_lines * k))
        program = read_program([path])
        n = len(path.read_text().splitlines())
        t_an, _ = best(lambda: analyze(program), 1)
        per = t_an / n * 1000
        base = base or per
        print(f"{path.stem:<11}{n:>7}{t_an:>12.3f}{per:>10.4f}{per / base:>8.2f}")
    return 0


def jump_program(lines: int) -> str:
    """One main program of ``lines`` lines: loops, skipping IF-GOTOs, IF blocks."""
    out = ["      PROGRAM JUMPS", "      INTEGER N, I", "      PARAMETER (N=100)", "      REAL A(N), B(N), C(N), S"]
    label = 100
    for b in range(max(1, lines // 14)):
        out += [f"      DO {label} I = 2, N", f"        A(I) = B(I-1) + {b}.0", f" {label:4d} CONTINUE",
                f"      IF (S .GT. 1.0E6) GOTO {label + 1}", f"      C({b % 99 + 1}) = S + A({b % 99 + 1})",
                f" {label + 1:4d} CONTINUE", "      IF (S .LT. 0.0) THEN", "        B(1) = S", "      ELSE",
                "        B(2) = S", "      END IF", f"      S = S + C({b % 99 + 1})"]
        label += 2
    return "\n".join(out + ["      PRINT *, S", "      END"]) + "\n"


if __name__ == "__main__":
    sys.exit(main())
