"""The files of ``--link``: routines outside the program, built and loaded.

``autodist run --link FILE`` (repeatable; ``profile`` takes it too) names C
sources (``.c``), Fortran sources (``.f``, ``.for``, ``.ftn``, ``.f77``,
``.F``, ``.f90``, ``.f95``, ``.F90``) and shared libraries (``.so``,
``.so.N``):

* :func:`link_files` checks them (a missing file or an unknown suffix is a
  one-line usage error) before anything starts;
* :func:`build` compiles the sources (on rank 0 of a job), each with the
  system's compiler — ``cc`` (or ``gcc``) ``-O2 -fPIC``, ``gfortran
  -std=legacy -fPIC`` with the reference build's flags — and links them, with
  the given libraries, into one shared library; a missing compiler or a
  compile error is one line naming the file and the compiler's first error;
* :func:`load` writes the built library into each rank's own folder (ranks
  need no shared file system) and loads it and the given libraries
  (:class:`~autodist.runtime.fortran.foreign.Foreign`);
* :func:`reference_inputs` gives the gfortran reference of ``--verify`` the
  same objects and libraries, so it calls the same routines.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ...errors import AutodistError, UsageError
from ..fortran.foreign import Foreign
from .verify import GFORTRAN_FLAGS

FORTRAN_SUFFIXES = (".f", ".for", ".ftn", ".f77", ".F", ".f90", ".f95", ".F90")
_LIBRARY = re.compile(r"\.so(\.\d+)*$")
#: The library built from the sources, in each rank's folder.
BUILT = "liblinked.so"


@dataclass(frozen=True)
class LinkFile:
    """One file of ``--link``: its path as given, and ``kind`` "c", "fortran" or "library"."""

    path: str
    kind: str

    @property
    def resolved(self) -> str:
        return str(Path(self.path).resolve())


def link_files(paths: Sequence[str]) -> tuple[LinkFile, ...]:
    """The ``--link`` files, checked: each exists and has a known suffix."""
    out = []
    for p in paths:
        if not Path(p).is_file():
            raise UsageError(f"--link {p}: {'not a file' if Path(p).exists() else 'no such file'}")
        suffix = Path(p).suffix
        kind = ("c" if suffix == ".c" else "fortran" if suffix in FORTRAN_SUFFIXES
                else "library" if _LIBRARY.search(Path(p).name) else None)
        if kind is None:
            raise UsageError(f"--link {p}: not a C source (.c), a Fortran source ({' '.join(FORTRAN_SUFFIXES)}) "
                             "or a shared library (.so)")
        out.append(LinkFile(p, kind))
    return tuple(out)


@dataclass(frozen=True)
class LinkedBuild:
    """What :func:`build` made: the library built from the sources (its bytes,
    None without sources), the given libraries (resolved paths), and the
    object files of the sources (on the rank that built them)."""

    library: bytes | None = None
    sources: tuple[str, ...] = ()
    libraries: tuple[str, ...] = ()
    objects: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return self.library is None and not self.libraries


def _compiler(kind: str, path: str) -> str:
    """The compiler of a ``kind`` source (``path``: the file to name if there is none)."""
    names = ("cc", "gcc") if kind == "c" else ("gfortran",)
    found = next(filter(None, map(shutil.which, names)), None)
    if found is None:
        raise AutodistError(f"--link: no {' or '.join(names)} found to compile it", path)
    return found


def _flags(kind: str) -> tuple[str, ...]:
    return ("-O2",) if kind == "c" else GFORTRAN_FLAGS


def _first_error(stderr: str) -> tuple[int | None, str]:
    """The line and text of a compiler's or linker's first error message
    (gcc: ``f.c:3:5: error: ...``; gfortran: ``f.f:3:10:`` then ``Error: ...``)."""
    line = None
    for text in stderr.splitlines():
        at = re.match(r"^[^:\s][^:]*:(\d+):(?:\d+:)?\s*(.*)$", text)
        if at:
            line, text = int(at.group(1)), at.group(2)
        found = re.search(r"(?:fatal )?error: (.*)|(undefined reference .*)|(cannot find .*)", text, re.IGNORECASE)
        if found:
            return line, next(g for g in found.groups() if g)
    last = [t for t in stderr.splitlines() if t.strip()]
    return None, last[-1].strip() if last else "no message"


def _run(cmd: list[str], what: str, path: str | None) -> None:
    done = subprocess.run(cmd, capture_output=True, encoding="utf-8", errors="replace")
    if done.returncode != 0:
        line, message = _first_error(done.stderr)
        raise AutodistError(f"--link: {what}: {message}", path, line)


def _compile(f: LinkFile, folder: Path, k: int) -> str:
    """``f`` compiled to an object file in ``folder``."""
    obj = folder / f"link{k}_{Path(f.path).stem}.o"
    cc = _compiler(f.kind, f.path)
    _run([cc, *_flags(f.kind), "-fPIC", "-c", f.resolved, "-o", str(obj)], f"{Path(cc).name} cannot compile it",
         f.path)
    return str(obj)


def _rpaths(libraries: Sequence[str]) -> list[str]:
    return [f"-Wl,-rpath,{d}" for d in dict.fromkeys(str(Path(p).parent) for p in libraries)]


def build(files: Sequence[LinkFile], folder: str | Path) -> LinkedBuild:
    """Compile and link the sources of ``files`` into ``folder``/``liblinked.so``
    (see the module docstring)."""
    folder = Path(folder)
    sources = [f for f in files if f.kind != "library"]
    libraries = tuple(f.resolved for f in files if f.kind == "library")
    if not sources:
        return LinkedBuild(libraries=libraries)
    objects = tuple(_compile(f, folder, k) for k, f in enumerate(sources))
    driver = _compiler("fortran" if any(f.kind == "fortran" for f in sources) else "c", sources[0].path)
    target = folder / BUILT
    names = ", ".join(f.path for f in sources)
    _run([driver, "-shared", "-Wl,--no-undefined", "-o", str(target), *objects, *libraries, *_rpaths(libraries),
          "-lm"], f"cannot link {names} into a shared library", None)
    return LinkedBuild(target.read_bytes(), tuple(f.path for f in sources), libraries, objects)


def load(built: LinkedBuild, folder: str | Path) -> Foreign | None:
    """The libraries of ``built`` loaded on this rank (None when there are
    none); the built one is written into ``folder`` unless it is there."""
    if built.empty:
        return None
    libraries = [(p, p) for p in built.libraries]
    if built.library is not None:
        path = Path(folder) / BUILT
        if not path.exists():
            path.write_bytes(built.library)
        libraries.insert(0, (str(path), ", ".join(built.sources)))
    return Foreign(libraries)


def reference_inputs(built: LinkedBuild) -> list[str]:
    """What the gfortran reference build adds to its command line: the
    sources' objects, the given libraries (found again when it runs)."""
    if built.empty:
        return []
    return [*built.objects, *built.libraries, *_rpaths(built.libraries), "-lm"]
