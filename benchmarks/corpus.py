"""Coverage of real programs: `analyze` and `annotate` over every program of a folder.

    python benchmarks/corpus.py DIR [--timeout 60] [--procs 16] [--machine NAME] [--build]
                                    [--output] [--run NP] [--json FILE]

A program is each subfolder of DIR (all its Fortran files, INCLUDE files found
next to them) or each Fortran file directly in DIR.  For each program, in a
fresh process with a time limit, `autodist analyze` and then `autodist annotate
-o TMPDIR` run as a user runs them; with --build, the annotated program is
compiled with gfortran (-std=legacy) to check it still builds (n/a when
gfortran cannot build the original either: code for an HPF compiler); with
--output, the original and the annotated program are built and run with
gfortran and their standard output compared (a differing line that reports a
time, a rate or the clock accepted); with --run NP, `autodist run -np NP --verify` executes the program on NP ranks, as
written ("run") and as annotated ("run-ann"), and compares it with the
gfortran-compiled original, every array and every printed line but those that
report a time, a rate or the clock (a file named `stdin` in the program's folder
is its standard input, else it reads an empty one; C files in the folder, a timer
say, are given with --link).  Printed per program: the
outcome of each step (ok, refused = a one-line error and exit 2, INTERNAL =
exit 3, timeout, FAILED = gfortran's error; for output same or DIFFERS; for run
also WRONG = a result other than gfortran's), the
seconds (wall clock; the totals also give CPU seconds, which do not grow with
the machine's load), and the first line of the message; then the totals.  Keep the corpus
itself outside the repository.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

SUFFIXES = {".f", ".for", ".f77", ".ftn", ".F", ".FOR", ".FTN", ".fpp", ".FPP",
            ".f90", ".f95", ".F90", ".F95"}  # what autodist reads (fixed, free form, preprocessed)
OUTCOMES = {0: "ok", 1: "ok", 2: "refused", 3: "INTERNAL"}


@dataclass
class Step:
    outcome: str
    seconds: float
    message: str = ""
    cpu: float = 0.0  # user + system seconds of the process (the wall time grows with the machine's load)


@dataclass
class Program:
    name: str
    files: list[str]
    steps: dict[str, Step] = field(default_factory=dict)


def programs(root: Path) -> list[Program]:
    out = []
    root = root.resolve()  # the builds run in scratch folders: a relative DIR would not reach the sources
    for entry in sorted(root.iterdir()):
        if entry.is_dir():
            files = sorted(str(p) for p in entry.rglob("*") if p.suffix in SUFFIXES and p.is_file())
            if files:
                out.append(Program(entry.name, files))
        elif entry.suffix in SUFFIXES:
            out.append(Program(entry.name, [str(entry)]))
    return out


def _message(stderr: str) -> str:
    lines = [l for l in stderr.splitlines() if l.startswith("autodist: error") or "internal error" in l
             or l.startswith("Error:")]
    text = lines[0] if lines else (stderr.strip().splitlines() or [""])[-1]
    return text.replace("autodist: error: ", "")[:200]


def _run(cmd: list[str], timeout: float, cwd: str | None = None, stdin: Path | None = None,
         outcomes: dict[int, str] = OUTCOMES) -> Step:
    t0, c0 = time.perf_counter(), _children_cpu()
    try:
        with open(stdin if stdin is not None else "/dev/null", "rb") as given:
            done = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=timeout, cwd=cwd,
                                  stdin=given)
    except subprocess.TimeoutExpired:
        return Step("timeout", time.perf_counter() - t0, f"no answer in {timeout:g} s", _children_cpu() - c0)
    seconds = time.perf_counter() - t0
    outcome = outcomes.get(done.returncode, f"exit {done.returncode}")
    return Step(outcome, seconds, "" if outcome == "ok" else _message(done.stderr), _children_cpu() - c0)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


STEPS = ("analyze", "annotate", "build", "output", "run", "run-ann")
RUN_OUTCOMES = {0: "ok", 1: "WRONG", 2: "refused", 3: "INTERNAL"}
BUILD_OUTCOMES = {0: "ok", 1: "FAILED"}


def _verify_message(stderr: str) -> str:
    lines = [l for l in stderr.splitlines() if "verify" in l and "same results" not in l]
    return (lines[0] if lines else _message(stderr)).replace("autodist: ", "")[:200]


def _includes(files: list[str]) -> list[str]:
    return [f"-I{d}" for d in sorted({str(Path(f).parent.resolve()) for f in files})]


def check(prog: Program, args) -> None:
    autodist = [sys.executable, "-m", "autodist"]
    inc = _includes(prog.files)
    common = ["-q", *inc, "--machine", args.machine]
    prog.steps["analyze"] = _run([*autodist, "analyze", "-q", *inc, *prog.files], args.timeout)
    if args.run:
        run(prog, args, autodist, inc, list(prog.files), "run")
    if prog.steps["analyze"].outcome != "ok":
        return
    with tempfile.TemporaryDirectory(prefix="autodist-corpus-") as tmp:
        out = Path(tmp) / "out"
        out.mkdir()
        prog.steps["annotate"] = _run([*autodist, "annotate", *common, "--procs", str(args.procs), *prog.files,
                                       "-o", str(out)], args.timeout)
        if prog.steps["annotate"].outcome != "ok":
            return
        written = {Path(f).name: out / Path(f).name for f in prog.files}
        sources = [str(written[Path(f).name]) if written[Path(f).name].exists() else f for f in prog.files]
        if args.build and shutil.which("gfortran") is not None:
            gfortran = ["gfortran", "-std=legacy", "-w", "-c", *inc]
            built = _run([*gfortran, *sources], args.timeout, cwd=tmp, outcomes=BUILD_OUTCOMES)
            if built.outcome != "ok":  # an original gfortran cannot build either (HPF-compiler code) is not ours
                scratch = Path(tmp) / "original"
                scratch.mkdir()
                original = _run([*gfortran, *prog.files], args.timeout, cwd=str(scratch), outcomes=BUILD_OUTCOMES)
                if original.outcome != "ok":
                    built = Step("n/a", built.seconds, "gfortran does not build the original either: " + original.message)
            prog.steps["build"] = built
            if args.output and built.outcome == "ok":
                prog.steps["output"] = same_output(prog, args, inc, sources, Path(tmp))
        if args.run:
            run(prog, args, autodist, inc, sources, "run-ann")


def _program_output(files: list[str], cfiles: list[str], inc: list[str], folder: Path, stdin: Path | None,
                    timeout: float) -> tuple[Step, str]:
    """Build ``files`` and ``cfiles`` with gfortran and run it in ``folder``: the step
    and its standard output."""
    folder.mkdir()
    exe = folder / "a.out"
    built = _run(["gfortran", "-std=legacy", "-w", "-O1", *inc, *files, *cfiles, "-o", str(exe)], timeout,
                 cwd=str(folder), outcomes=BUILD_OUTCOMES)
    if built.outcome != "ok":
        return built, ""
    t0 = time.perf_counter()
    try:
        with open(stdin if stdin is not None else "/dev/null", "rb") as given:
            done = subprocess.run([str(exe)], capture_output=True, text=True, errors="replace", timeout=timeout,
                                  cwd=str(folder), stdin=given)
    except subprocess.TimeoutExpired:
        return Step("timeout", time.perf_counter() - t0, f"no answer in {timeout:g} s"), ""
    return Step("ok", time.perf_counter() - t0), done.stdout


_TIMING = re.compile(r"time|mflop|mop/s|second|minute|elapsed|cpu|\d:\d\d:\d\d|\b\d{6}\.\d{3}\b", re.IGNORECASE)


def same_output(prog: Program, args, inc: list[str], sources: list[str], tmp: Path) -> Step:
    """The annotated program, built and run with gfortran, prints what the original prints
    (a line that differs is accepted when it reports a time, a rate or the clock, which
    differ from run to run, or when two runs of the original print it differently)."""
    folder = Path(prog.files[0]).parent
    stdin = folder / "stdin"
    stdin = stdin if stdin.is_file() else None
    cfiles = [str(c.resolve()) for c in sorted(folder.glob("*.c"))]
    before, want = _program_output(list(prog.files), cfiles, inc, tmp / "run-original", stdin, args.timeout)
    if before.outcome != "ok":
        return Step("n/a", before.seconds, "the original does not run: " + before.message)
    after, got = _program_output([str(Path(f).resolve()) for f in sources], cfiles, inc, tmp / "run-annotated",
                                 stdin, args.timeout)
    if after.outcome != "ok":
        return Step("FAILED", after.seconds, after.message)
    a, b = want.splitlines(), got.splitlines()
    first = _first_unexplained(a, b, set())
    if first is not None:
        # lines the original itself prints differently from run to run (a program that
        # sizes its repetitions by the clock, or warns about its timing on some runs only)
        # are accepted too
        again, also = _program_output(list(prog.files), cfiles, inc, tmp / "run-original-again", stdin, args.timeout)
        if again.outcome == "ok":
            c = also.splitlines()
            varying = {line for block in _blocks(a, c) for side in block for line in side}
            first = _first_unexplained(a, b, varying)
    if first is None:
        accepted = sum(max(len(x), len(y)) for x, y in _blocks(a, b))
        return Step("same", after.seconds, f"{len(a)} lines, {accepted} timing or varying lines differ" if accepted else "")
    return Step("DIFFERS", after.seconds, f"first difference at output line {first + 1}")


def _blocks(a: list[str], b: list[str]):
    """The stretches where ``b`` differs from ``a``: pairs (lines of ``a``, lines of ``b``)."""
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            yield a[i1:i2], b[j1:j2]


def _first_unexplained(a: list[str], b: list[str], varying: set[str]) -> int | None:
    """The index in ``a`` of the first difference from ``b`` that is neither a line the
    original prints differently from run to run (``varying``) nor a pair of lines that
    both report a time, a rate or the clock; None when every difference is explained."""
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        xs, ys = a[i1:i2], b[j1:j2]
        if all(x in varying or y in varying or (_TIMING.search(x) and _TIMING.search(y))
               for x, y in zip(xs, ys)) and all(line in varying for line in xs[len(ys):] + ys[len(xs):]):
            continue
        return min(i1, len(a) - 1) if a else 0
    return None


#: Lines with a time of day (a time stamp) differ from run to run: --run leaves them out,
#: and the lines that report a time, a rate or the clock (those --output accepts when they
#: differ); every array is still compared.
CLOCK = r"\d:\d\d:\d\d|\b\d{6}\.\d{3}\b"  # H:MM:SS, or DATE_AND_TIME's hhmmss.sss printed as it is


def run(prog: Program, args, autodist: list[str], inc: list[str], sources: list[str], step: str) -> None:
    """`autodist run --verify` of ``sources`` (the program as written or as annotated) in a
    scratch folder (the files a program writes land there), its INCLUDE files found in the
    original folders: the step named ``step``."""
    folder = Path(prog.files[0]).parent
    stdin = folder / "stdin"
    links = [arg for c in sorted(folder.glob("*.c")) for arg in ("--link", str(c.resolve()))]
    with tempfile.TemporaryDirectory(prefix="autodist-corpus-run-") as tmp:
        prog.steps[step] = _run(
            [*autodist, "run", "-q", *inc, "-np", str(args.run), "--verify", "--timeout", f"{args.timeout:g}",
             *(arg for pattern in (CLOCK, f"(?i:{_TIMING.pattern})", *args.verify_skip) for arg in ("--verify-skip", pattern)),
             *links, *(str(Path(f).resolve()) for f in sources)],
            args.timeout + 30, cwd=tmp, stdin=stdin if stdin.is_file() else None, outcomes=RUN_OUTCOMES)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per step (default 60)")
    ap.add_argument("--procs", type=int, default=16, help="processors for annotate (default 16)")
    ap.add_argument("--machine", default="ddt1997", help="machine profile (default ddt1997)")
    ap.add_argument("--build", action="store_true", help="compile the annotated program with gfortran")
    ap.add_argument("--output", action="store_true",
                    help="with --build: build and run the original and the annotated program with gfortran and"
                         " compare what they print (differing lines with times, rates or the clock accepted)")
    ap.add_argument("--run", type=int, metavar="NP", help="also run each program on NP ranks with --verify")
    ap.add_argument("--verify-skip", action="append", default=[], metavar="REGEX",
                    help="with --run: printed lines --verify leaves out (autodist run --verify-skip; repeatable), "
                         "e.g. the lines where programs print their timings; lines with a time of day "
                         "(H:MM:SS), a time, a rate or the clock always are")
    ap.add_argument("--json", type=Path, help="write the results as JSON")
    args = ap.parse_args(argv)
    if not args.dir.is_dir():
        ap.error(f"{args.dir}: not a folder")
    progs = programs(args.dir)
    width = max((len(p.name) for p in progs), default=8)
    for prog in progs:
        check(prog, args)
        cols = []
        for name in STEPS:
            st = prog.steps.get(name)
            cols.append(f"{name} {st.outcome:<8} {st.seconds:6.1f}s" if st else f"{name} {'-':<8} {'':7}")
        why = next((s.message for s in prog.steps.values() if s.message), "")
        print(f"{prog.name:<{width}}  {len(prog.files):3d} file(s)  " + "  ".join(cols) + (f"  {why}" if why else ""),
              flush=True)
    print()
    for name in STEPS:
        got = [p.steps[name] for p in progs if name in p.steps]
        if not got:
            continue
        counts = {o: sum(s.outcome == o for s in got) for o in dict.fromkeys(s.outcome for s in got)}
        slowest = max(got, key=lambda s: s.seconds)
        busiest = max(got, key=lambda s: s.cpu)
        print(f"{name:<8}: {len(got)} run, " + ", ".join(f"{n} {o}" for o, n in counts.items())
              + f"; slowest {slowest.seconds:.1f} s wall ({slowest.cpu:.1f} s CPU); most CPU {busiest.cpu:.1f} s")
    print(f"programs: {len(progs)}")
    if args.json:
        args.json.write_text(json.dumps([asdict(p) for p in progs], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
