"""Starting MPI jobs, and ending them cleanly when something goes wrong.

* :func:`in_mpi_job` — are we already one rank of an MPI job (started by
  ``mpiexec``/``srun``)?  Then a command runs in place.
* :func:`find_mpiexec` — the ``mpiexec`` of the MPI that mpi4py uses: the one
  next to the Python interpreter (where the ``mpich`` wheel installs it), else
  the first on ``PATH``.
* :func:`launch` — run ``python <args>`` on ``n`` ranks and wait, with a
  timeout (default 600 s) that kills the whole job and says so.  Output and
  stderr are passed through without the MPI library's own banners, and a
  failed job gets one line from the launcher naming the rank that failed
  (:mod:`.faults`), so only autodist's message and the program's output
  reach the user.
* :func:`guarded` — call a function on this rank within a time limit; an
  exception ends the *whole* job promptly (``MPI_Abort``) after reporting
  this rank's message, so an error on one rank never leaves the others
  waiting in a collective.
* :func:`spmd` — both together, for a command: run in place when already
  under mpiexec (or on one rank), else relaunch itself on N ranks.

Nothing here imports mpi4py at module level: the launching process never
initializes MPI.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, Sequence

from ...errors import AutodistError, RuntimeFault, UsageError, stage_of
from ...forking import MPI_ENVIRONMENT
from .faults import MAILBOX, BannerFilter, DeathWatch, Failure, Mailbox, deadline, expired

#: Seconds an MPI job may run before autodist kills it.
DEFAULT_TIMEOUT = 600.0


#: Lines the MPI library prints when a job aborts (dropped from stderr).
_MPI_NOISE = re.compile(
    r"^(Abort\(\d+\) on node|application called MPI_Abort|\[proxy:|\[mpiexec@|HYD_\w+ \(|=+$|=   |"
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


#: Ranks autodist starts on this machine per core, at most: more is a typo
#: that would start a process per rank (a larger job runs under the user's
#: own ``mpiexec``, where autodist runs in place).
RANKS_PER_CORE = 4


def check_local_ranks(nranks: int) -> None:
    """Refuse a job of ``nranks`` ranks that autodist would start here."""
    if nranks < 1:
        raise RuntimeFault(f"the number of ranks must be positive, not {nranks}")
    most = RANKS_PER_CORE * (os.cpu_count() or 1)
    if nranks > most:
        raise UsageError(f"-np {nranks}: autodist starts at most {most} ranks on this machine "
                         f"({RANKS_PER_CORE} per core); run a larger job under your own mpiexec")


def mpiexec_command(nranks: int, args: Sequence[str], mpiexec: str | None = None) -> list[str]:
    """``mpiexec -n N <this python> <args>``."""
    check_local_ranks(nranks)
    return [mpiexec or find_mpiexec(), "-n", str(nranks), sys.executable, *args]


def _forward_stderr(pipe, sink, manager: list[str]) -> None:
    """Forward the job's stderr without the MPI library's noise; the first
    complaint of the process manager itself goes to ``manager``."""
    for line in iter(pipe.readline, ""):
        if not _MPI_NOISE.match(line):
            sink.write(line)
            sink.flush()
        elif not manager:
            said = _MANAGER.match(line)
            if said:
                manager.append(said.group(1).strip())
    pipe.close()


#: A process manager's own message: ``[proxy:0@host] function (file:line): what``,
#: the prefix sometimes on a line of its own (``HYD_pmcd_... (.../pmip_cb.c:533): what``).
_MANAGER = re.compile(r"^(?:\[(?:proxy|mpiexec)[^\]]*\]\s+\S+|HYD_\w+)\s+\([^)]*\):\s*(.+)$")


def _forward_stdout(pipe, banner: BannerFilter) -> None:
    for line in iter(pipe.readline, b""):
        banner.feed(line)
    banner.close()
    pipe.close()


class _ByteSink:
    """Bytes written to a text stream: through its buffer when it has one
    (the program's bytes unchanged), else decoded as the runtime encodes."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, data: bytes) -> None:
        buffer = getattr(self.stream, "buffer", None)
        if buffer is not None:
            self.stream.flush()
            buffer.write(data)
        else:
            self.stream.write(data.decode("utf-8", "surrogateescape"))

    def flush(self) -> None:
        self.stream.flush()


def launch(args: Sequence[str], nranks: int, timeout: float | None = DEFAULT_TIMEOUT, env: dict | None = None,
           stdout=None, stderr=None, cwd: str | None = None) -> int:
    """Run ``python <args>`` on ``nranks`` ranks and return its exit status.

    The program's output goes to ``stdout`` (default: ours) without the MPI
    library's termination banner, its stderr to ``stderr`` (default: ours)
    without the library's abort messages.  A rank that fails under
    :func:`guarded` reports to the launcher, which prints one line for the
    job naming the rank that failed first (see :mod:`.faults`).  On timeout
    the whole job is killed and :class:`~autodist.errors.RuntimeFault`
    raised."""
    cmd = mpiexec_command(nranks, args)
    sink = stderr if stderr is not None else sys.stderr
    with tempfile.TemporaryDirectory(prefix="autodist-job-") as folder:
        environ = dict(os.environ if env is None else env)
        environ[MAILBOX] = folder
        given = _input_file()
        if given is not None:
            environ[INPUT] = given
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL if given is not None else None,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environ, cwd=cwd,
                                start_new_session=True, preexec_fn=_die_with_parent())
        banner = BannerFilter(_ByteSink(stdout if stdout is not None else sys.stdout))
        errors = io.TextIOWrapper(proc.stderr, encoding="utf-8", errors="replace")
        manager: list[str] = []
        threads = [threading.Thread(target=_forward_stderr, args=(errors, sink, manager), daemon=True),
                   threading.Thread(target=_forward_stdout, args=(proc.stdout, banner), daemon=True)]
        for t in threads:
            t.start()
        mailbox = Mailbox(folder)
        with DeathWatch(mailbox, nranks) as watch:
            try:
                code = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                _kill(proc)
                _join(threads)
                raise RuntimeFault(
                    f"the MPI job on {nranks} rank(s) did not finish within {timeout:g} s and was killed"
                ) from None
            except BaseException:
                _kill(proc)
                raise
        _join(threads)
        status, line = mailbox.verdict(code, nranks, banner.banner, watch.seen, manager[0] if manager else None,
                                       piped=given is None and _stdin_is_pipe())
    if line:
        print(line, file=sink, flush=True)
    return status


#: Environment variable telling rank 0 where to read the program's standard
#: input: ``PATH:OFFSET`` of the file the launcher was given as its own.
INPUT = "AUTODIST_JOB_INPUT"


def _input_file() -> str | None:
    """``PATH:OFFSET`` of this process's standard input when it is a file
    (``autodist run ... < data``), which rank 0 then reads itself: the MPI
    process manager forwards standard input through a pipe and ends the job
    when a rank does not read it as fast as it comes, as a program that reads
    megabytes after a second of planning does not.  None for a terminal or a
    pipe (forwarded as they come)."""
    try:
        if not stat.S_ISREG(os.fstat(0).st_mode):
            return None
        offset = os.lseek(0, 0, os.SEEK_CUR)
    except OSError:
        return None
    path = f"/proc/{os.getpid()}/fd/0"  # the same file, named or not, while the launcher waits
    return f"{path}:{offset}" if os.path.exists(path) else None


def _stdin_is_pipe() -> bool:
    try:
        return stat.S_ISFIFO(os.fstat(0).st_mode)
    except OSError:
        return False


def program_input():
    """The program's standard input on this rank: the file the launcher was
    given (see :func:`_input_file`), opened here, else our standard input."""
    given = os.environ.get(INPUT)
    if given:
        path, _, offset = given.rpartition(":")
        try:
            stream = open(path, "rb")
            stream.seek(int(offset))
            return stream
        except (OSError, ValueError):
            pass
    return sys.stdin.buffer


def _join(threads) -> None:
    for t in threads:
        t.join(timeout=5)


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
    job (or for one rank) run ``fn(*args)`` here under :func:`guarded` with
    the time limit; otherwise start ``mpiexec -n N python -m autodist <argv>``
    (whose ranks then take the first branch, ``argv`` carrying the limit) and
    return its exit status.  The launcher kills the job :data:`BACKSTOP`
    seconds after the limit, should a rank not come back to Python."""
    if nranks == 1 or in_mpi_job():
        return guarded(fn, *args, timeout=timeout)
    return launch_autodist(argv, nranks, None if timeout is None else timeout + BACKSTOP)


#: Seconds the launcher waits past a job's own time limit before killing it.
BACKSTOP = 30.0


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


def guarded(fn: Callable[..., int | None], *args, timeout: float | None = None, **kwargs) -> int:
    """Run ``fn`` on this rank, within ``timeout`` seconds when given, and
    return its status.  If it raises, end the whole job with ``MPI_Abort``
    (status 2 for an :class:`~autodist.errors.AutodistError`, 3 for a bug,
    130 for an interrupt) so an error on one rank never leaves the others
    waiting in a collective; on a single rank, return that status instead.
    The message goes to this job's launcher when autodist started the job
    (it prints one line for the job), else to stderr."""
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    mailbox = Mailbox.of_this_job()
    if mailbox is not None:
        mailbox.started(comm.Get_rank())
    try:
        with deadline(timeout):
            status = int(fn(*args, **kwargs) or 0)
        if mailbox is not None:
            mailbox.finished(comm.Get_rank())
        return status
    except AutodistError as exc:
        if expired() and comm.Get_rank() != 0 and comm.Get_size() > 1:
            time.sleep(REPORT_GRACE)  # rank 0 reaches the same limit now: let it write the run's report
        return _die(comm, mailbox, 2, str(exc))
    except KeyboardInterrupt:
        return _die(comm, mailbox, 130, "interrupted")
    except Exception as exc:  # a bug: still end the job, never hang
        stage = stage_of(exc)
        return _die(comm, mailbox, 3, f"{type(exc).__name__}{f' in stage {stage}' if stage else ''}: {exc}")


#: Seconds a rank other than 0 that reached the time limit waits before ending the
#: job, so that rank 0, which reaches it at about the same moment, writes the report.
REPORT_GRACE = 2.0

#: Seconds a failing rank waits between printing its message and aborting,
#: so that the process manager forwards the message before it kills the job.
ABORT_GRACE = 0.3


def _die(comm, mailbox: Mailbox | None, status: int, message: str) -> int:
    rank, size = comm.Get_rank(), comm.Get_size()
    if mailbox is not None:
        mailbox.failed(rank, status, message)
    else:
        print(Failure(rank, status, time.time(), message).line(size), file=sys.stderr, flush=True)
    if size > 1:
        if mailbox is None:
            time.sleep(ABORT_GRACE)
        comm.Abort(status)
    return status
