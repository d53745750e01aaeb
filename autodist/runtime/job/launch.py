"""Starting MPI jobs, and ending them cleanly when something goes wrong.

* :func:`in_mpi_job` — are we already one rank of an MPI job (started by
  ``mpiexec``/``srun``)?  Then a command runs in place.
* :func:`find_mpiexec` — the ``mpiexec`` of the MPI that mpi4py uses: the one
  next to the Python interpreter (where the ``mpich`` wheel installs it), else
  the first on ``PATH``.
* :func:`launch` — run ``python <args>`` on ``n`` ranks and wait, with a
  timeout (default 600 s) that kills the whole job and says so.  stderr is
  passed through except for the MPI library's own abort banners, so only
  autodist's messages (and the program's) reach the user.
* :func:`guarded` — call a function on this rank; an exception ends the
  *whole* job promptly (``MPI_Abort``) after printing this rank's message, so
  an error on one rank never leaves the others waiting in a collective.
* :func:`spmd` — both together, for a command: run in place when already
  under mpiexec (or on one rank), else relaunch itself on N ranks.

Nothing here imports mpi4py at module level: the launching process never
initializes MPI.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Sequence

from ...errors import AutodistError, RuntimeFault

#: Seconds an MPI job may run before autodist kills it.
DEFAULT_TIMEOUT = 600.0

#: Environment variables that process managers set in every rank.
MPI_ENVIRONMENT = ("PMI_RANK", "PMI_SIZE", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE", "MV2_COMM_WORLD_SIZE",
                   "MPI_LOCALNRANKS", "HYDRA_CONTROL_FD")

#: Lines the MPI library prints when a job aborts (dropped from stderr).
_MPI_NOISE = re.compile(
    r"^(Abort\(\d+\) on node|application called MPI_Abort|\[proxy:|\[mpiexec@|=+$|=   |"
    r"BAD TERMINATION|YOUR APPLICATION TERMINATED|This typically refers to a problem|"
    r"Please see the FAQ page|\s*$)"
)


def in_mpi_job(environ: dict | None = None) -> bool:
    """Whether this process is a rank of an MPI job (process-manager
    variables, or an already initialized MPI with more than one rank)."""
    env = os.environ if environ is None else environ
    if any(k in env for k in MPI_ENVIRONMENT):
        return True
    mpi = sys.modules.get("mpi4py.MPI")
    if mpi is not None and mpi.Is_initialized():
        return mpi.COMM_WORLD.Get_size() > 1
    return False


def find_mpiexec() -> str:
    """Path of the ``mpiexec`` to launch with (see the module docstring)."""
    for name in ("mpiexec", "mpirun"):
        beside = Path(sys.executable).parent / name
        if beside.is_file() and os.access(beside, os.X_OK):
            return str(beside)
    for name in ("mpiexec", "mpirun"):
        found = shutil.which(name)
        if found:
            return found
    raise RuntimeFault(
        "no mpiexec found: install an MPI for mpi4py (pip install mpich) or put an MPI's mpiexec on PATH"
    )


def mpiexec_command(nranks: int, args: Sequence[str], mpiexec: str | None = None) -> list[str]:
    """``mpiexec -n N <this python> <args>``."""
    if nranks < 1:
        raise RuntimeFault(f"the number of ranks must be positive, not {nranks}")
    return [mpiexec or find_mpiexec(), "-n", str(nranks), sys.executable, *args]


def _forward_stderr(pipe, sink) -> None:
    for line in iter(pipe.readline, ""):
        if not _MPI_NOISE.match(line):
            sink.write(line)
            sink.flush()
    pipe.close()


def launch(args: Sequence[str], nranks: int, timeout: float | None = DEFAULT_TIMEOUT, env: dict | None = None,
           stdout=None, stderr=None, cwd: str | None = None) -> int:
    """Run ``python <args>`` on ``nranks`` ranks and return its exit status.

    ``stdout`` is inherited unless a file object is given; stderr goes to
    ``stderr`` (default: ours) without the MPI library's abort banners.  On
    timeout the whole job is killed and :class:`~autodist.errors.RuntimeFault`
    raised."""
    cmd = mpiexec_command(nranks, args)
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd,
                            start_new_session=True, preexec_fn=_die_with_parent())
    sink = stderr if stderr is not None else sys.stderr
    forward = threading.Thread(target=_forward_stderr, args=(proc.stderr, sink), daemon=True)
    forward.start()
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(proc)
        forward.join(timeout=5)
        raise RuntimeFault(
            f"the MPI job on {nranks} rank(s) did not finish within {timeout:g} s and was killed"
        ) from None
    except BaseException:
        _kill(proc)
        raise
    forward.join(timeout=5)
    return code


def launch_autodist(argv: Sequence[str], nranks: int, timeout: float | None = DEFAULT_TIMEOUT) -> int:
    """``mpiexec -n N python -m autodist <argv>``: how ``autodist run -np N``
    starts itself when it is not already under mpiexec."""
    return launch(["-m", "autodist", *argv], nranks, timeout)


def _die_with_parent():
    """On Linux, a function that makes the child (mpiexec, which then ends its
    ranks) receive SIGTERM when this process dies, even by SIGKILL: an MPI job
    never outlives the command that started it.  None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    PR_SET_PDEATHSIG = 1

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)

    return preexec


def spmd(argv: Sequence[str], nranks: int, fn: Callable[..., int | None], *args,
         timeout: float | None = DEFAULT_TIMEOUT) -> int:
    """What ``autodist run -np N`` does with its rank work ``fn``: inside an MPI
    job (or for one rank) run ``fn(*args)`` here under :func:`guarded`;
    otherwise start ``mpiexec -n N python -m autodist <argv>`` (whose ranks
    then take the first branch) and return its exit status."""
    if nranks == 1 or in_mpi_job():
        return guarded(fn, *args)
    return launch_autodist(argv, nranks, timeout)


def _kill(proc: subprocess.Popen) -> None:
    """End the job we started: its process group (mpiexec and its ranks)."""
    for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def guarded(fn: Callable[..., int | None], *args, **kwargs) -> int:
    """Run ``fn`` on this rank and return its status.  If it raises, print
    this rank's message on stderr and end the whole job with ``MPI_Abort``
    (status 2 for an :class:`~autodist.errors.AutodistError`, 3 for a bug,
    130 for an interrupt); on a single rank, return that status instead."""
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    who = f"rank {comm.Get_rank()}: " if comm.Get_size() > 1 else ""
    try:
        return int(fn(*args, **kwargs) or 0)
    except AutodistError as exc:
        return _die(comm, f"autodist: error: {who}{exc}", 2)
    except KeyboardInterrupt:
        return _die(comm, f"autodist: {who}interrupted", 130)
    except Exception as exc:  # a bug: still end the job, never hang
        return _die(comm, f"autodist: internal error: {who}{type(exc).__name__}: {exc}", 3)


#: Seconds a failing rank waits between printing its message and aborting,
#: so that the process manager forwards the message before it kills the job.
ABORT_GRACE = 0.3


def _die(comm, message: str, code: int) -> int:
    print(message, file=sys.stderr, flush=True)
    if comm.Get_size() > 1:
        time.sleep(ABORT_GRACE)
        comm.Abort(code)
    return code
