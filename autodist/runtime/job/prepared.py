"""What ``autodist run`` prepares, kept on disk: a program read, analyzed and translated once per source.

Reading a real application with fparser, analyzing it and translating it
takes seconds (NPB SP: 7 s) where its run from cached kernels takes a
fraction of one.  So the runner keeps what :func:`~.runner.prepare` returns,
pickled, in ``$AUTODIST_CACHE/programs`` (beside the kernels; else
``~/.cache/autodist``), and uses an entry only when nothing it was made from
has changed:

* its *key* is a hash of autodist's own code (every module's text), the
  versions of Python, fparser and numpy, the working folder, the files as
  named, the include folders, ``-D`` and ``--cpp``, and the ``--link`` files
  (named and their bytes);
* it holds the text of every file the program was read from (INCLUDE'd and
  ``#include``'d ones too, as :class:`~autodist.ir.Program` keeps them):
  each is read again and must be the same, line for line;
* and which files of those names existed beside them and in the include
  folders: a file that appears or goes where an INCLUDE could have found
  it (one that would shadow another) makes the entry stale.

An entry that cannot be read or is stale is made again; a cache folder that
cannot be written leaves every run to prepare anew.  ``AUTODIST_PROGRAM_CACHE=0``
turns it off.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Callable, Sequence

from ...frontend.source import file_lines

#: Bumped when the entries' layout changes.
_FORMAT = 1


@lru_cache(maxsize=None)
def code_digest() -> str:
    """A hash of autodist's own modules and of the libraries its results depend on."""
    from importlib.metadata import version

    h = hashlib.sha256(f"{_FORMAT} {sys.version} fparser {version('fparser')} numpy {version('numpy')}".encode())
    root = Path(__file__).resolve().parents[2]
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def _folder() -> Path | None:
    if os.environ.get("AUTODIST_PROGRAM_CACHE", "1") == "0":
        return None
    from ..jit.compiler import cache_dir

    folder = cache_dir().parent / "programs"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


def key(files: Sequence[str], include_dirs: Sequence[str], defines: Sequence[str], cpp: bool | None,
        links: Sequence[str]) -> str:
    """The key of a run's prepared program (see the module docstring)."""
    h = hashlib.sha256(code_digest().encode())
    parts = [os.getcwd(), *files, "-I", *map(str, include_dirs), "-D", *defines, f"cpp={cpp}", "--link", *links]
    h.update("\0".join(parts).encode())
    for link in links:
        try:
            h.update(hashlib.sha256(Path(link).read_bytes()).digest())
        except OSError:
            h.update(b"unreadable")
    return h.hexdigest()


def _candidates(sources: Sequence[str], given: Sequence[str], include_dirs: Sequence[str]) -> list[str]:
    """Where an INCLUDE of each included file's name could be found."""
    dirs = list(dict.fromkeys([os.path.dirname(f) for f in sources] + [str(d) for d in include_dirs]))
    names = {os.path.basename(f) for f in sources if f not in set(given)}
    return sorted(os.path.join(d, n) for d in dirs for n in names)


def _existing(paths: Sequence[str]) -> list[str]:
    return [p for p in paths if os.path.isfile(p)]


def _fresh(entry: dict) -> bool:
    for name, lines in entry["sources"]:
        try:
            if file_lines(name) != lines:
                return False
        except Exception:  # unreadable now, or no longer a Fortran text
            return False
    return _existing(entry["candidates"]) == entry["existing"]


def from_cache(files: Sequence[str], include_dirs: Sequence[str], defines: Sequence[str], cpp: bool | None,
             links: Sequence[str], build: Callable[[], tuple]) -> tuple:
    """``build()`` (which returns ``(program, analysis, translations)``), or
    what it returned for the same key and sources before."""
    folder = _folder()
    if folder is None:
        return build()
    path = folder / f"{key(files, include_dirs, defines, cpp, links)}.pickle"
    try:
        with open(path, "rb") as fh:
            entry = pickle.load(fh)
        if _fresh(entry):
            return entry["value"]
    except Exception:  # no entry, or one from another layout: made again
        pass
    value = build()
    program = value[0]
    sources = [name for name, _ in program.sources]
    candidates = _candidates(sources, files, include_dirs)
    entry = {"sources": tuple(program.sources), "candidates": candidates, "existing": _existing(candidates),
             "value": value}
    _store(path, entry)
    return value


def _store(path: Path, entry: dict) -> None:
    """Write ``entry`` to ``path`` whole or not at all (a folder that cannot be written: not at all)."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".prepared-", dir=str(path.parent))
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(entry, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        Path(tmp).unlink(missing_ok=True)
