"""The runtime for other commands: run a program, get the measurements.

>>> from autodist.runtime.job.api import run_file
>>> rep = run_file("adi_hpf.f", nprocs=4)                     # doctest: +SKIP
>>> rep.phase("ADI", 4).elements_received                     # doctest: +SKIP
(0, 5120, 5120, 5120)

:func:`run_file` starts ``python -m autodist run`` in a child process (which
launches ``mpiexec`` for more than one rank), waits for it with a timeout,
and returns a :class:`~autodist.runtime.job.report.RunReport`: the exit
status, what the program printed, and the parsed ``--report`` (per phase and
remap, per rank: times, elements, bytes, messages; each phase's mode), plus
the final arrays when ``dump=True``.  A failed run (status not 0) is
returned, not raised; a run that exceeds the timeout raises
:class:`~autodist.errors.RuntimeFault`.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Sequence

import numpy as np

from ...errors import RuntimeFault
from .launch import DEFAULT_TIMEOUT, MPI_ENVIRONMENT
from .report import RunReport, parse_report


def run_file(path_or_text: str | Path, nprocs: int = 1, *, include_dirs: Sequence[str] = (),
             defines: Sequence[str] = (), cpp: bool | None = None, timeout: float = DEFAULT_TIMEOUT,
             dump: bool = False, verify: bool = False,
             vectorize: bool = True, replicated: bool = False, jit: bool = True, jit_after: float | None = None,
             extra_args: Sequence[str] = (),
             cwd: str | None = None) -> RunReport:
    """Run a program on ``nprocs`` ranks and return what was measured.

    ``path_or_text`` is a Fortran file, or Fortran source text (written to a
    temporary ``program.f``).  ``verify`` adds ``--verify`` (the status is 1
    on a mismatch; the verdict is on ``stderr``)."""
    with tempfile.TemporaryDirectory(prefix="autodist-run-") as tmp:
        text = str(path_or_text)
        if "\n" in text or not Path(text).is_file():
            src = Path(tmp) / "program.f"
            src.write_text(text)
            path = str(src)
        else:
            path = str(Path(text).resolve())
        report = Path(tmp) / "report.json"
        cmd = [sys.executable, "-m", "autodist", "run", path, "-np", str(nprocs), "--report", str(report), "-q",
               "--timeout", str(timeout)]
        for d in include_dirs:
            cmd += ["-I", str(d)]
        for d in defines:
            cmd += ["-D", d]
        if cpp:
            cmd.append("--cpp")
        npz = Path(tmp) / "arrays.npz"
        if dump:
            cmd += ["--dump", str(npz)]
        if verify:
            cmd.append("--verify")
        if not vectorize:
            cmd.append("--no-vectorize")
        if replicated:
            cmd.append("--replicated")
        if not jit:
            cmd.append("--no-jit")
        if jit_after is not None:
            cmd += ["--jit-after", repr(jit_after)]
        cmd += list(extra_args)
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                cwd=cwd, start_new_session=True, env=_child_env())
        try:
            stdout, stderr = proc.communicate(timeout=timeout + 30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise RuntimeFault(f"autodist run of {path} on {nprocs} rank(s) did not finish within {timeout:g} s") from None
        raw = json.loads(report.read_text()) if report.exists() else {}
        arrays = {}
        if dump and npz.exists():
            with np.load(npz) as z:
                arrays = {k: z[k] for k in z.files}
        return parse_report(raw, proc.returncode, stdout, stderr, arrays)


def _child_env() -> dict:
    """The environment of the child run: ours, with this package importable."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    for k in MPI_ENVIRONMENT:
        env.pop(k, None)  # the child decides itself whether to launch mpiexec
    return env
