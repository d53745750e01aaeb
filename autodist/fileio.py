"""Writing output files safely: never a half-written file, never a file the run reads.

* :func:`check_outputs` — before anything is written, refuse an output that would
  replace a file the run reads (sources, INCLUDE files, the machine profile,
  databases, profiles), that is a directory, or that is the same file as another
  output of the same command (symbolic and hard links included);
* :func:`write_atomically` / :func:`write_bytes_atomically` — through a temporary
  file in the same directory and a rename, with the mode a newly created file
  gets under the umask (or the mode of the file it replaces); nothing is left
  behind on failure, and a failure is a one-line :class:`OutputError`.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Iterable, Sequence

from .errors import AutodistError, UsageError


class OutputError(AutodistError):
    """An output file could not be written (read-only directory, full disk, ...)."""


def _identity(path: str | Path) -> tuple:
    """What makes two paths the same file: device and inode when it exists, else
    the resolved path."""
    p = Path(path)
    try:
        st = p.stat()
        return ("inode", st.st_dev, st.st_ino)
    except OSError:
        return ("path", str(p.resolve()))


def check_outputs(outputs: Sequence[tuple[str, str | Path | None]], reads: Iterable[str | Path]) -> None:
    """Raise :class:`UsageError` naming the option when an output of ``outputs``
    ((option, path) pairs; None: not asked for) would replace a file of ``reads``,
    is a directory, or is the same file as an earlier output."""
    read = {}
    for r in reads:
        read.setdefault(_identity(r), r)
    seen: dict[tuple, str] = {}
    for opt, path in outputs:
        if path is None:
            continue
        key = _identity(path)
        if key in read:
            raise UsageError(f"{opt} {path}: refusing to overwrite the input file {read[key]}")
        if key in seen:
            raise UsageError(f"{opt} {path}: the same file as {seen[key]}")
        if Path(path).is_dir():
            raise UsageError(f"{opt} {path}: is a directory")
        seen[key] = f"{opt} {path}"


def _new_file_mode(existing: Path) -> int:
    try:
        return existing.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def write_bytes_atomically(path: Path | str, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename."""
    path = Path(path)
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=str(path.parent))
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, _new_file_mode(path))
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise


def write_atomically(path: Path | str, lines: tuple[str, ...], encoding: str = "utf-8") -> None:
    """Write ``lines`` (each ended by a newline unless it has one) to ``path``
    through a temporary file and a rename."""
    text = "".join(line if line.endswith(("\n", "\r")) else line + "\n" for line in lines)
    write_bytes_atomically(path, text.encode(encoding, errors="surrogateescape"))
