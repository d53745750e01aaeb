"""C preprocessing of ``.F``, ``.F90``, ``.fpp`` ... sources, as gfortran does it.

gfortran runs its C preprocessor in traditional mode over these files before
reading them (``gfortran -E -cpp`` shows the result): ``#define`` (macros with
arguments too), ``#if``/``#ifdef``/``#elif``/``#else``/``#endif``, ``#include``,
``/* */`` comments removed, ``\\`` line splices joined; Fortran's ``//`` and a
``'`` in a comment are plain text.  The system's ``cpp -traditional-cpp`` is the
same preprocessor (GCC's libcpp) and gives the same text, once it is told to
define what gfortran defines and nothing a C compiler adds (``linux``,
``unix``, ``<stdc-predef.h>``); a pure-Python C preprocessor (pcpp) reads ``//``
as a C++ comment.  Its ``# N "file"`` line markers say where every output line
comes from, so that lines, errors and spans point into the original files.
Fortran INCLUDE lines are expanded afterwards, unpreprocessed, as gfortran does.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Sequence

from ..errors import FortranError
from .text import decode, split_lines

#: Suffixes gfortran preprocesses (other files are read as they are).
CPP_SUFFIXES = frozenset({".F", ".FOR", ".FTN", ".fpp", ".FPP", ".F90", ".F95", ".F03", ".F08"})

#: What gfortran defines beyond the GCC version (``gfortran -E -cpp -dM``, the
#: names Fortran sources test); ``__STDC_HOSTED__`` is 0 there as with -ffreestanding.
FORTRAN_MACROS = ("_LANGUAGE_FORTRAN=1", "__GFORTRAN__=1")

_C_ONLY = ("__STDC_VERSION__", "__STDC_UTF_16__", "__STDC_UTF_32__")

_MARKER = re.compile(r'^# (\d+) "((?:[^"\\]|\\.)*)"((?: \d+)*)\s*$')
_DIAGNOSTIC = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?:\d+:)? (?:fatal )?error: (?P<message>.*)$")


def needs_cpp(path: str | Path) -> bool:
    return Path(str(path)).suffix in CPP_SUFFIXES


@dataclass(frozen=True)
class Line:
    """One line of preprocessed text and where it comes from: ``file`` and
    ``line`` there; ``top_line`` the line of the top-level file it stands for
    (its own, or the ``#include`` line that brought it in)."""

    text: str
    file: str
    line: int
    top_line: int


@lru_cache(maxsize=1)
def _cpp() -> tuple[str, ...]:
    """The command line of the system's preprocessor set up as gfortran's."""
    cpp = shutil.which("cpp")
    if cpp is None:
        raise FortranError("C preprocessing (a .F, .F90 or .fpp file) needs the system's C preprocessor 'cpp', "
                           "which gfortran uses too (Debian: apt-get install cpp)")
    version = subprocess.run([cpp, "-dumpfullversion"], capture_output=True, text=True).stdout.strip()
    major, minor, patch = (version.split(".") + ["0", "0", "0"])[:3]
    gnuc = (f"__GNUC__={major}", f"__GNUC_MINOR__={minor}", f"__GNUC_PATCHLEVEL__={patch}") if major.isdigit() else ()
    return (cpp, "-traditional-cpp", "-undef", "-ffreestanding", *(f"-U{m}" for m in _C_ONLY),
            *(f"-D{m}" for m in FORTRAN_MACROS + gnuc))


def _unescape(name: str) -> str:
    return re.sub(r"\\(.)", r"\1", name)


def _error(stderr: str, path: str, data: bytes) -> FortranError:
    for line in stderr.splitlines():
        m = _DIAGNOSTIC.match(line)
        if m:
            file = path if m["file"] == "<stdin>" else m["file"]
            return FortranError(f"preprocessor: {m['message']}", file,
                                _include_line(file, data if file == path else None, int(m["line"]), m["message"]))
    last = stderr.strip().splitlines()[-1] if stderr.strip() else "cpp failed"
    return FortranError(f"preprocessor: {last}", file=path)


def _include_line(file: str, data: bytes | None, line: int, message: str) -> int:
    """The ``#include`` line of a file not found: in traditional mode the
    preprocessor names the line after it."""
    missing = re.match(r"(.+): No such file or directory$", message)
    if missing is None:
        return line
    try:
        lines = split_lines(decode(data if data is not None else Path(file).read_bytes()))
    except OSError:
        return line
    wanted = re.compile(r"\s*#\s*include\s*[\"<]" + re.escape(missing[1]) + r"[\">]")
    return next((k for k in range(min(line, len(lines)), 0, -1) if wanted.match(lines[k - 1])), line)


def preprocess(path: str, data: bytes, defines: Sequence[str] = (), include_dirs: Sequence[str] = ()
               ) -> tuple[Line, ...]:
    """The lines of ``data`` (the bytes of the file ``path``) after the
    preprocessor, each with where it comes from.  ``#include "f"`` is searched
    next to the including file, then in ``include_dirs``; ``defines`` are
    ``NAME`` or ``NAME=VALUE`` (``-D``)."""
    here = os.path.dirname(path) or "."
    cmd = [*_cpp(), "-iquote", here, *(f"-I{d}" for d in include_dirs), *(f"-D{d}" for d in defines), "-"]
    done = subprocess.run(cmd, input=data, capture_output=True)
    if done.returncode != 0:
        raise _error(done.stderr.decode("utf-8", "replace"), path, data)
    out: list[Line] = []
    file, number, depth, skip = path, 1, 0, False
    waiting: list[int] = []  # lines of #include'd files: their top_line is known on return
    for text in split_lines(decode(done.stdout)):
        m = _MARKER.match(text)
        if m:
            number, name, flags = int(m[1]), _unescape(m[2]), m[3].split()
            skip = name.startswith("<") and name != "<stdin>"  # <built-in>, <command-line>
            if skip:
                continue
            file = path if name == "<stdin>" else name
            if "1" in flags:
                depth += 1
            elif "2" in flags:
                depth -= 1
                if depth == 0:
                    for k in waiting:
                        out[k] = Line(out[k].text, out[k].file, out[k].line, number - 1)
                    waiting.clear()
            continue
        if skip:
            continue
        if depth:
            waiting.append(len(out))
        out.append(Line(text, file, number, number if not depth else 0))
        number += 1
    return tuple(out)
