"""Directives in a C-preprocessed file (``.F``, ``.F90``, ``.fpp``): written into
its own text, before the preprocessor, for the configuration analyzed (the
``-D`` given).

A directive goes where it stands in the preprocessed text: next to its
statement, so one before a statement inside an ``#if`` branch is written in
that branch (the statement is there in that configuration only).  The
specification directives of a unit, after its last declaration, are moved down
over the lines the preprocessor drops (``#endif``, ``#else`` and the branch not
taken) to the place least deep in ``#if`` groups before the next line it
keeps: ``REAL T0`` as the last line of an ``#ifdef TIMING`` branch gets them
after the ``#endif``, so they hold whatever TIMING is.  This changes nothing
in the preprocessed text.

The annotated text is then run through the preprocessor again, with the same
options: every directive written must come out of it as written; a macro
named like a name in the directive, a ``\\`` line splice or a ``/*`` comment
around its place would change or hide it, and annotate refuses, naming the line.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Sequence

from .. import ir
from ..errors import FortranError
from ..frontend.preprocess import Line, preprocess
from ..frontend.text import SOURCE_CODEC
from ..hpf.splice import Insertion, inserted_lines, is_directive_line

_OPEN = re.compile(r"\s*#\s*if(?:def|ndef)?\b")
_CLOSE = re.compile(r"\s*#\s*endif\b")


def _depths(lines: Sequence[str]) -> list[int]:
    """``#if`` nesting depth after each line (index 0: before the first)."""
    out = [0]
    for line in lines:
        d = out[-1]
        if _OPEN.match(line):
            d += 1
        elif _CLOSE.match(line):
            d = max(0, d - 1)
        out.append(d)
    return out


def _next_kept(done: Sequence[Line], file: str, line: int, n: int) -> int:
    """The first line after ``line`` of ``file`` that the preprocessor keeps
    (gives text, or brings in an ``#include``d file), ``n + 1`` if none
    (``line + 1`` if ``line`` itself is not in the preprocessed text)."""
    after = False
    for x in done:
        if x.file == file and x.line == line:
            after = True
        elif after and (x.text.strip() or x.file != file):
            return x.top_line if x.file != file else x.line
    return n + 1 if after else line + 1


def place(file: str, lines: Sequence[str], insertions: Sequence[Insertion], pre: ir.Preprocessing
          ) -> list[Insertion]:
    """The insertions of a preprocessed file, those after a line moved to the
    least deep place before the next line the preprocessor keeps."""
    if not any(ins.where == "after" for ins in insertions):
        return list(insertions)
    done = preprocess(file, _bytes(lines), pre.defines, pre.include_dirs)
    depth = _depths(lines)
    out = []
    for ins in insertions:
        if ins.where == "after":
            end = _next_kept(done, file, ins.line, len(lines))
            best = min(range(ins.line, end), key=lambda k: (depth[k], k))
            ins = dataclasses.replace(ins, line=best)
        out.append(ins)
    return out


def check(file: str, annotated: Sequence[str], n: int, insertions: Sequence[Insertion],
          pre: ir.Preprocessing) -> None:
    """Refuse (FortranError at the directive's place in the original text) a
    directive of ``annotated`` that the preprocessor would change or drop."""
    done = preprocess(file, _bytes(annotated), pre.defines, pre.include_dirs)
    got = {x.line: x.text for x in done if x.file == file}
    for k, (ins, text) in inserted_lines(n, insertions).items():
        if not is_directive_line(text) or got.get(k, "").strip() == text.strip():
            continue
        became = got.get(k, "").strip()
        what = f"changes it to '{became}'" if became else "drops it"
        raise FortranError(f"the directive '{text.strip()}' cannot be written here: the C preprocessor {what} "
                           "(a macro of that name, a line splice or a comment around it); annotate the "
                           "preprocessed text instead (gfortran -E -cpp -P)", file, ins.line)


def _bytes(lines: Sequence[str]) -> bytes:
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines).encode(SOURCE_CODEC)
