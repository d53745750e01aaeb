"""Running a hostile-input case and judging what autodist did.

:func:`execute` writes the case's files into a fresh folder, runs the
command there — in a forked child of this process for the commands that do
not start MPI (no interpreter start-up per case), else in a new interpreter —
with a time bound, and snapshots the folder before and after.  :func:`judge`
says what was wrong, if anything, in the classes the reliability promise is
about:

* ``wrong result`` — ``--verify`` found a mismatch with the sequential run or
  gfortran;
* ``internal error`` — exit 3 with "internal error", or any traceback;
* ``unclear error`` — exit 2 without exactly one ``autodist ... error:`` line;
* ``input changed`` — a file the command did not own changed or vanished;
* ``partial output`` — a failed command left one of its outputs behind;
* ``hang`` — the command did not end within the bound.
"""

from __future__ import annotations

import hashlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from autodist.runtime.job.launch import MPI_ENVIRONMENT

from .cases import ROOT, Case

#: Seconds a case may take before it counts as a hang (commands under a
#: --timeout stop themselves well before).
BOUND = 240.0

_ERROR_LINE = re.compile(r"^autodist(?: [a-z]+)?: (?:error|internal error)\b.*\S")
_INFO_LINE = re.compile(r"^autodist: (?:note|warning|verify): ")


@dataclass(frozen=True)
class Outcome:
    status: int | None  # None: killed at the bound
    stdout: bytes
    stderr: str
    seconds: float
    changed: tuple[str, ...]  # files not among the case's outputs that changed or vanished
    left: tuple[str, ...]  # outputs present after the command


def _snapshot(folder: Path) -> dict[str, str]:
    out = {}
    for p in folder.rglob("*"):
        if p.is_file():
            out[str(p.relative_to(folder))] = hashlib.sha1(p.read_bytes()).hexdigest()
    return out


def _forked(argv: tuple[str, ...], folder: Path, bound: float) -> tuple[int | None, bytes, bytes]:
    out_path, err_path = folder.parent / "stdout", folder.parent / "stderr"
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 70
        try:
            os.chdir(folder)
            for fd, path in ((1, out_path), (2, err_path)):
                f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(f, fd)
                os.close(f)
            sys.stdout = open(1, "w", encoding="utf-8", errors="surrogateescape", closefd=False)
            sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
            from autodist.cli import main

            code = main(list(argv))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
        except BaseException:  # noqa: BLE001 - reported like the CLI would not
            import traceback

            traceback.print_exc()
            code = 99
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code)
    deadline = time.monotonic() + bound
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            code = None
            break
        time.sleep(0.01)
    return code, out_path.read_bytes() if out_path.exists() else b"", \
        err_path.read_bytes() if err_path.exists() else b""


def _subprocess(argv: tuple[str, ...], folder: Path, bound: float) -> tuple[int | None, bytes, bytes]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    for k in MPI_ENVIRONMENT:  # the case decides itself whether to launch mpiexec
        env.pop(k, None)
    proc = subprocess.Popen([sys.executable, "-m", "autodist", *argv], cwd=folder, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=bound)
        return proc.returncode, out, err
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return None, out, err


def execute(case: Case, bound: float = BOUND) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="autodist-hostile-") as tmp:
        folder = Path(tmp) / "case"
        folder.mkdir()
        for name, data in case.files.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
        before = _snapshot(folder)
        t0 = time.monotonic()
        run = _subprocess if case.fresh_process else _forked
        status, out, err = run(case.argv, folder, bound)
        seconds = time.monotonic() - t0
        after = _snapshot(folder)
    changed = tuple(sorted(n for n, h in before.items() if after.get(n) != h and n not in case.outputs))
    left = tuple(sorted(n for n in case.outputs if n in after and n not in before))
    return Outcome(status, out, err.decode("utf-8", "backslashreplace"), seconds, changed, left)


def judge(case: Case, out: Outcome) -> str | None:
    """The class of what went wrong (see the module docstring), or None."""
    if out.status is None:
        return "hang"
    if "MISMATCH" in out.stderr:
        return "wrong result"
    if "Traceback" in out.stderr or "internal error" in out.stderr or out.status == 99:
        return "internal error"
    if out.changed:
        return "input changed"
    if out.status == 2:
        lines = [line for line in out.stderr.splitlines() if line.strip() and not _INFO_LINE.match(line)]
        if len(lines) != 1 or not _ERROR_LINE.match(lines[0]):
            return "unclear error"
        if out.left:
            return "partial output"
    return None


def gfortran_refused(out: Outcome) -> bool:
    """Whether ``--verify`` ran without its gfortran reference (gfortran did
    not build the program, which autodist ran)."""
    return "gfortran reference skipped" in out.stderr
