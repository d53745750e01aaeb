"""Reading source text: the source form, INCLUDE expansion, and where every line came from.

The result is one :class:`Source` per top-level file: its physical lines with the
INCLUDE lines replaced by the included files' lines (recursively), each line with
its :class:`Origin` (the file it is written in and its line number there, plus
the line in the top-level file that brought it in).  Lines are read as gfortran
reads them (ended by LF or CR LF, a CR elsewhere ignored); each file's own text
is kept as written, for the annotated output.  Nothing is parsed here.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ..errors import FortranError, IncludeError
from .preprocess import needs_cpp, preprocess
from .text import SOURCE_CODEC, as_compiled, as_source_text, decode, split_lines, without_ending

FIXED = "fixed"
FREE = "free"

#: Suffixes read as free form; everything else (.f .for .ftn .f77 .F, unknown) is fixed form.
FREE_SUFFIXES = frozenset({".f90", ".f95", ".f03", ".f08", ".F90", ".F95", ".F03", ".F08"})

_FIXED_INCLUDE = re.compile(r"^[ ]{6}\s*include\s*(['\"])(?P<name>.+?)\1\s*(?:!.*)?$", re.IGNORECASE)
_TAB_INCLUDE = re.compile(r"^\t\s*include\s*(['\"])(?P<name>.+?)\1\s*(?:!.*)?$", re.IGNORECASE)
_FREE_INCLUDE = re.compile(r"^\s*include\s*(['\"])(?P<name>.+?)\1\s*(?:!.*)?$", re.IGNORECASE)


def form_of(filename: str | Path, form: str | None = None) -> str:
    """The source form of ``filename``: ``form`` when given, else by suffix."""
    if form is not None:
        if form not in (FIXED, FREE):
            raise FortranError(f"unknown source form {form!r} (use 'fixed' or 'free')", file=str(filename))
        return form
    return FREE if Path(str(filename)).suffix in FREE_SUFFIXES else FIXED


@dataclass(frozen=True)
class Origin:
    """Where a physical line is written: ``file`` and ``line`` (1-based).

    ``top_line`` is the line of the top-level file the line stands for: its own
    line, or the INCLUDE line that brought it in (outermost INCLUDE).
    """

    file: str
    line: int
    top_line: int


@dataclass(frozen=True)
class Source:
    """The physical lines of one top-level file with its INCLUDEs expanded."""

    file: str
    form: str
    lines: tuple[str, ...]  # as gfortran reads them (:func:`as_compiled`)
    origins: tuple[Origin, ...]
    files: tuple[str, ...]  # every file read, top-level first, in reading order
    texts: tuple[tuple[str, tuple[str, ...]], ...]  # file -> its own text lines, as written


def _bytes(path: str, where: Origin | None = None) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if where is not None:
            raise IncludeError(f"cannot read include file '{path}': {reason}", where.file, where.line) from None
        raise FortranError(f"cannot read source file: {reason}", file=path) from None


def _read(path: str, where: Origin | None) -> tuple[str, ...]:
    return _own_lines(decode(_bytes(path, where)), path)


def file_lines(path: str) -> tuple[str, ...]:
    """The lines of file ``path`` as a :class:`Source` holds them (its own text, as written)."""
    return _read(path, None)


def _own_lines(text: str, path: str) -> tuple[str, ...]:
    if "\n" not in text and "\r" in text.rstrip("\r"):
        raise FortranError("the lines end with CR alone (classic Mac OS line ends), which gfortran reads as "
                           "one line: convert them to LF", file=path)
    return tuple(split_lines(text))


def include_name(line: str, form: str) -> str | None:
    """The file named by an INCLUDE line, or None when ``line`` is not one."""
    if form == FIXED:
        m = _FIXED_INCLUDE.match(line[:72]) or _TAB_INCLUDE.match(line[:72])
    else:
        m = _FREE_INCLUDE.match(line)
    return m.group("name").strip() if m else None


def _resolve(name: str, including: str, include_dirs: Sequence[str], where: Origin) -> str:
    """The path of include file ``name``: next to the including file first, then the -I dirs."""
    if os.path.isabs(name):
        candidates = [name]
    else:
        candidates = [os.path.join(os.path.dirname(including), name)]
        candidates += [os.path.join(d, name) for d in include_dirs]
    for c in candidates:
        if os.path.isfile(c):
            return os.path.normpath(c)
    searched = ", ".join(dict.fromkeys(os.path.dirname(c) or "." for c in candidates))
    raise IncludeError(f"include file '{name}' not found (searched: {searched})", where.file, where.line)


def load(
    file: str,
    form: str,
    include_dirs: Sequence[str | Path] = (),
    text: str | None = None,
    defines: Sequence[str] = (),
    cpp: bool | None = None,
) -> Source:
    """Read ``file`` (or take ``text`` as its content), run it through the C
    preprocessor when ``cpp`` says so (None: when its suffix is one gfortran
    preprocesses, see :mod:`.preprocess`), and expand its INCLUDE lines."""
    dirs = [str(d) for d in include_dirs]
    texts: dict[str, tuple[str, ...]] = {}
    lines: list[str] = []
    origins: list[Origin] = []

    def expand(own: Sequence[tuple[str, Origin]], chain: tuple[str, ...]) -> None:
        for line, here in own:
            line = as_compiled(line)
            name = include_name(line, form)
            if name is None:
                lines.append(line)
                origins.append(here)
                continue
            target = _resolve(name, here.file, dirs, here)
            if os.path.normpath(target) in map(os.path.normpath, chain):
                raise IncludeError(f"INCLUDE '{name}' includes itself (through {' -> '.join(chain)})",
                                   here.file, here.line)
            inner = texts.get(target) or _read(target, here)
            texts.setdefault(target, inner)
            expand([(t, Origin(target, k, here.top_line)) for k, t in enumerate(inner, 1)], chain + (target,))

    data = as_source_text(text).encode(SOURCE_CODEC) if text is not None else _bytes(file)
    texts[file] = _own_lines(decode(data), file)
    if needs_cpp(file) if cpp is None else cpp:
        done = preprocess(file, data, defines, dirs)
        for f in dict.fromkeys(x.file for x in done):
            if f not in texts:
                texts[f] = _read(f, None)
        own = [(x.text, Origin(x.file, x.line, x.top_line)) for x in done]
    else:
        own = [(t, Origin(file, k, k)) for k, t in enumerate(texts[file], 1)]
    expand(own, (file,))
    return Source(
        file=file,
        form=form,
        lines=tuple(lines),
        origins=tuple(origins),
        files=tuple(texts),
        texts=tuple(texts.items()),
    )


def lines_with_endings(path: str, lines: Sequence[str]) -> list[str]:
    """The lines of the file ``path`` with their own endings (LF, CR LF, none on a
    last line without one) when the file still holds ``lines`` (the lines it was
    read as); else ``lines`` ended by LF."""
    try:
        raw = split_lines(decode(Path(path).read_bytes()), keepends=True)
    except OSError:
        raw = []
    if [without_ending(line) for line in raw] == list(lines):
        return raw
    return [line + "\n" for line in lines]
