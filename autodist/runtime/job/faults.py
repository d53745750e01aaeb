"""How a job ends when something goes wrong: one message, from the launcher.

* :func:`deadline` — a time limit enforced inside the process (``SIGALRM``),
  so ``--timeout`` holds the same way on one rank as on many: the code running
  when the time is up raises :class:`~autodist.errors.RuntimeFault`.
* :class:`Mailbox` — a folder the launcher hands to its ranks (in the
  environment variable :data:`MAILBOX`).  A rank records its process id when
  it starts and its failure (status, time, message) when it fails, instead of
  printing it; after the job, the launcher prints the one message that names
  the rank where the job first went wrong (:meth:`Mailbox.verdict`).  A rank
  killed from outside (the out-of-memory killer's ``SIGKILL``) leaves no
  message: the launcher names it from its :class:`DeathWatch`, else from the
  MPI library's termination banner and the recorded process ids.
* :class:`BannerFilter` — takes the MPI library's termination banner out of
  the program's standard output (the banner is printed there, among what the
  program printed) and keeps what it says.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import socket
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ...errors import RuntimeFault

#: Environment variable naming the folder a launched job's ranks report to.
MAILBOX = "AUTODIST_JOB_MAILBOX"


def expired() -> bool:
    """Whether a :func:`deadline` of this process has fired."""
    return _EXPIRED[0]


_EXPIRED = [False]


@contextmanager
def deadline(seconds: float | None, what: str = "the run"):
    """Raise :class:`RuntimeFault` in the running code once ``seconds`` have
    passed.  No limit when ``seconds`` is None or when not on the main
    thread (only the main thread receives signals)."""
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        _EXPIRED[0] = True
        raise RuntimeFault(f"{what} did not finish within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class Failure:
    """What one rank reported: its status, when, and its message (without
    the ``autodist: error:`` prefix and without the rank)."""

    rank: int
    status: int
    when: float
    message: str

    def line(self, nranks: int) -> str:
        who = f"rank {self.rank}: " if nranks > 1 else ""
        if self.status == 3:
            return f"autodist: internal error: {who}{self.message}"
        if self.status == 130:
            return f"autodist: {who}interrupted"
        return f"autodist: error: {who}{self.message}"


#: This process's connections to its launcher's watch, open until it ends.
_HELD: list[socket.socket] = []


class Mailbox:
    """The folder through which the ranks of one job report to its launcher."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)

    @classmethod
    def of_this_job(cls) -> Mailbox | None:
        """The mailbox this process's launcher gave it, if any."""
        folder = os.environ.get(MAILBOX)
        return cls(folder) if folder and Path(folder).is_dir() else None

    @property
    def watch_path(self) -> Path:
        """The socket a :class:`DeathWatch` listens on."""
        return self.folder / "watch"

    def started(self, rank: int) -> None:
        """Record this process's id, and connect to the launcher's
        :class:`DeathWatch` for the rest of its life (the kernel closes the
        connection when the process ends, however it ends)."""
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            conn.connect(str(self.watch_path))
            conn.sendall(b"%d\n" % rank)
            _HELD.append(conn)
        except OSError:  # no watch: the banner alone names a killed rank
            conn.close()
        (self.folder / f"pid{os.getpid()}").write_text(str(rank))

    def finished(self, rank: int) -> None:
        """This rank's work returned: its end is not a death."""
        (self.folder / f"done{rank}").touch()

    def accounted(self, rank: int) -> bool:
        """Did the rank say how it ends (finished, or reported a failure)?"""
        return (self.folder / f"done{rank}").exists() or (self.folder / f"rank{rank}.json").exists()

    def failed(self, rank: int, status: int, message: str) -> None:
        record = {"rank": rank, "status": status, "when": time.time(), "message": message}
        tmp = self.folder / f".rank{rank}.tmp"
        tmp.write_text(json.dumps(record))
        tmp.replace(self.folder / f"rank{rank}.json")

    def failures(self) -> list[Failure]:
        out = []
        for path in self.folder.glob("rank*.json"):
            try:
                rec = json.loads(path.read_text())
                out.append(Failure(int(rec["rank"]), int(rec["status"]), float(rec["when"]), str(rec["message"])))
            except (OSError, ValueError, KeyError, TypeError):
                continue
        return sorted(out, key=lambda f: (f.when, f.rank))

    def rank_of_pid(self, pid: int) -> int | None:
        try:
            return int((self.folder / f"pid{pid}").read_text())
        except (OSError, ValueError):
            return None

    def pids(self) -> dict[int, int]:
        """Process id -> rank of every rank that has started."""
        out = {}
        for path in self.folder.glob("pid*"):
            try:
                out[int(path.name[3:])] = int(path.read_text())
            except (OSError, ValueError):
                continue
        return out

    def verdict(self, status: int, nranks: int, banner: dict[str, str],
                first_ended: frozenset[int] | None = None, manager: str | None = None,
                piped: bool = False) -> tuple[int, str | None]:
        """The job's exit status and the one line to print for it: a rank's
        reported failure, else the MPI library's word that a rank was killed,
        else, when the job failed with ranks that started and never finished,
        the process manager's own complaint (``manager``), else, when standard
        input came through a pipe (``piped``) and the job failed before any
        rank began, that (the process manager forwards a pipe only as fast as
        rank 0 reads it, and ends the job, with one of several complaints or
        none, when it cannot keep up), else nothing (the job ended by itself,
        whatever its status).

        The library's banner names the first process of its list that ended
        badly, which is not always the one that died first: the others are
        killed too, by the same signal, when it cleans up.  ``first_ended``
        (from a :class:`DeathWatch`) are the ranks seen gone at the first
        death: one rank there is the one named; several (the watch looked
        after the library's clean-up), or none (the job was over before the
        watch looked, on a loaded machine), name none.  Without a watch
        (None) the banner's process is named."""
        failures = self.failures()
        if failures:
            # the first failure's message, named at the lowest rank that reported
            # it (the same error on every rank reads the same on every run)
            first = failures[0]
            same = [f for f in failures if f.message == first.message]
            chosen = min(same, key=lambda f: f.rank)
            return chosen.status, chosen.line(nranks)
        if not banner:
            started = set(self.pids().values())
            cut = sorted(r for r in started if not self.accounted(r))
            early = piped and not started
            if status != 0 and (cut or manager or early):
                # the process manager ended the job before ranks finished (its own error)
                why = f": {manager}" if manager else ""
                if manager and "stdin" in manager:
                    why += " (give the input as a file: autodist run ... < FILE)"
                elif early:
                    why += (" (stdin is a pipe, which the MPI process manager forwards only as fast as rank 0 "
                            "reads it: give the input as a file: autodist run ... < FILE)")
                if not cut:
                    when = "before its ranks began"
                else:
                    when = f"before rank {cut[0]}" if len(cut) == 1 else f"before ranks {', '.join(map(str, cut))}"
                    when += f" of {nranks} finished"
                how = f"killed by signal {-status}" if status < 0 else f"exit status {status}"
                return 2, f"autodist: error: the MPI job ended ({how}) {when}{why}"
            return status, None  # ended by itself: a STOP code, --verify's mismatch status
        why = banner.get("exit string") or (f"exit code {banner['exit code']}" if "exit code" in banner else
                                            f"exit status {status}")
        rank = self.rank_of_pid(int(banner["pid"])) if banner.get("pid", "").isdigit() else None
        if first_ended is not None and len(first_ended) == 1:
            (rank,) = first_ended
        elif first_ended is not None:
            rank = None  # the watch saw several gone, or none: which died first is not known
        who = f"rank {rank} of {nranks}" if rank is not None else f"a rank of {nranks}"
        hint = "; signal 9 often comes from the system's out-of-memory killer" \
            if "signal 9" in why or banner.get("exit code") == "9" else ""
        return 2, f"autodist: error: {who} ended abnormally ({why}){hint}"


_RULE = re.compile(rb"^={20,}\s*$")
_FIELDS = {"pid": re.compile(rb"^=\s+PID (\d+)"), "exit code": re.compile(rb"^=\s+EXIT CODE: (\d+)")}
_STRING = re.compile(rb"^YOUR APPLICATION TERMINATED WITH THE EXIT STRING:\s*(.*?)\s*$")
_BANNER_END = b"Please see the FAQ page"
#: Lines after which a banner without its usual last line is over anyway.
_BANNER_LINES = 12


class BannerFilter:
    """Forward standard output line by line, leaving out the MPI library's
    termination banner: a rule of ``=`` followed by ``=   BAD TERMINATION``
    up to its closing lines.  :attr:`banner` keeps its fields (``pid``,
    ``exit code``, ``exit string``).  Anything else passes unchanged, a rule
    of ``=`` the program printed included."""

    def __init__(self, sink):
        self.sink = sink
        self.banner: dict[str, str] = {}
        self._held: list[bytes] = []  # blank lines and a rule that may open a banner
        self._inside = 0  # lines of the banner taken so far (0: outside)

    def feed(self, line: bytes) -> None:
        if self._inside:
            self._take(line)
            return
        if self._held and _RULE.match(self._held[-1]) and line.startswith(b"=   BAD TERMINATION"):
            self._held = []
            self._inside = 1
            return
        if not line.strip() or _RULE.match(line):
            if self._held and _RULE.match(self._held[-1]):
                self.close()
            self._held.append(line)
            return
        self.close()
        if _STRING.match(line):
            self._inside = 1
            self._take(line)
            return
        self._emit(line)

    def close(self) -> None:
        for held in self._held:
            self._emit(held)
        self._held = []

    def _take(self, line: bytes) -> None:
        for key, pattern in _FIELDS.items():
            found = pattern.match(line)
            if found:
                self.banner[key] = found.group(1).decode("ascii")
        string = _STRING.match(line)
        if string:
            self.banner["exit string"] = string.group(1).decode("ascii", "replace")
        self._inside += 1
        if line.startswith(_BANNER_END) or self._inside > _BANNER_LINES:
            self._inside = 0

    def _emit(self, line: bytes) -> None:
        self.sink.write(line)
        self.sink.flush()


class DeathWatch:
    """Which ranks of a job die first: every rank holds a connection to a
    socket the watch listens on in the mailbox (:meth:`Mailbox.started`), and
    the kernel closes it when the rank's process ends.  At the first close by
    a rank that had not said how it ends (:meth:`Mailbox.finished`,
    :meth:`Mailbox.failed`), the watch records every such rank closed in the
    same look (one, unless the watch looked late) and every rank not yet
    connected (it may have ended first).

    A process's connections close as its descriptors are released, which is
    also when the MPI process manager learns of its end: before the manager
    kills the other ranks.  The end a process's pidfd reports comes later,
    after its threads are gone, and was measured to come after the ranks the
    manager killed in 3 of 8 jobs on an idle machine: it cannot order deaths.
    Without a socket (an unusable folder) the watch sees nothing and the
    banner alone decides."""

    def __init__(self, mailbox: Mailbox, nranks: int):
        self.mailbox = mailbox
        self.nranks = nranks
        self.first_ended: frozenset[int] = frozenset()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._server: socket.socket | None = None

    def __enter__(self) -> "DeathWatch":
        try:
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            server.bind(str(self.mailbox.watch_path))
            server.listen(max(self.nranks, 16))
        except OSError:  # a folder too deep for a socket's name, no Unix sockets
            return self
        self._server = server
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        if self._server is not None:
            self._server.close()

    @property
    def seen(self) -> frozenset[int] | None:
        """:attr:`first_ended`, or None when nothing could watch."""
        return self.first_ended if self._thread.ident is not None else None

    #: Seconds between looks at the stop flag while nothing happens.
    LOOK = 0.05

    def _watch(self) -> None:
        ranks: dict[socket.socket, bytes] = {}  # connection -> what it said so far (its rank)
        connected: set[int] = set()
        try:
            while not self._stop.is_set() and not self.first_ended:
                ready, _, _ = select.select([self._server, *ranks], [], [], self.LOOK)
                closed: set[int] = set()
                for conn in ready:
                    if conn is self._server:
                        ranks[self._server.accept()[0]] = b""
                        continue
                    try:
                        data = conn.recv(64)
                    except OSError:
                        data = b""
                    if data:
                        ranks[conn] += data
                        if ranks[conn].endswith(b"\n"):
                            connected.add(int(ranks[conn]))
                        continue
                    said = ranks.pop(conn)
                    conn.close()
                    if said.endswith(b"\n"):
                        closed.add(int(said))
                died = {r for r in closed if not self.mailbox.accounted(r)}
                if died:
                    unseen = set(range(self.nranks)) - connected
                    self.first_ended = frozenset(died | {r for r in unseen if not self.mailbox.accounted(r)})
        finally:
            for conn in ranks:
                conn.close()
