"""Putting directive lines into the original source text, and taking them out.

:func:`splice` inserts already formatted directive lines (see
:func:`autodist.hpf.emit.directive_lines`) before or after given lines and
leaves every other byte as it was: line endings are those of the text,
insertions at one point keep their given order, fixed-form directives start
in column 1 and free-form ones take the indentation of the statement that
follows.  :func:`strip_directives` removes directive lines (``--ignore-directives``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from .. import ir

_DIRECTIVE = re.compile(r"[ \t]*[cC*!][hH][pP][fF]\$")
_FREE_COMMENT = re.compile(r"[ \t]*(!|$)")


@dataclass(frozen=True)
class Insertion:
    """Directive ``lines`` (no line endings) to put before or after source line ``line`` (1-based)."""

    line: int
    lines: tuple[str, ...]
    where: str = "before"  # "before" | "after"

    def __post_init__(self) -> None:
        if self.where not in ("before", "after"):
            raise ValueError(f"where must be 'before' or 'after', not {self.where!r}")


def _ending(lines: Sequence[str]) -> str:
    for line in lines:
        if line.endswith("\n"):
            return "\r\n" if line.endswith("\r\n") else "\n"
    return ""


def _indent(lines: Sequence[str], gap: int, form: str) -> str:
    """Leading blanks of the first statement line at or after index ``gap``."""
    if form == "fixed":
        return ""
    for line in lines[gap:]:
        body = line.rstrip("\r\n")
        if not _FREE_COMMENT.match(body):
            return body[: len(body) - len(body.lstrip(" \t"))]
    return ""


def _gaps(n: int, insertions: Sequence[Insertion]) -> dict[int, list[Insertion]]:
    """The insertions at each gap (0: before the first of ``n`` lines, n: after the last)."""
    at: dict[int, list[Insertion]] = {}
    for ins in insertions:
        gap = ins.line - 1 if ins.where == "before" else ins.line
        if not 0 <= gap <= n:
            raise ValueError(f"line {ins.line} is outside the text (1..{n})")
        at.setdefault(gap, []).append(ins)
    return at


def inserted_lines(n: int, insertions: Sequence[Insertion]) -> dict[int, tuple[Insertion, str]]:
    """Where :func:`splice` puts the inserted lines in a text of ``n`` lines:
    line number in the result (1-based) -> the insertion and the line's text
    (without indentation)."""
    out: dict[int, tuple[Insertion, str]] = {}
    k = 0
    at = _gaps(n, insertions)
    for gap in range(n + 1):
        for ins in at.get(gap, ()):
            for text in ins.lines:
                k += 1
                out[k] = (ins, text)
        k += 1
    return out


def splice(lines: Sequence[str], insertions: Sequence[Insertion], form: str = "fixed") -> list[str]:
    """``lines`` with the insertions put in; the original lines are returned unchanged.

    ``lines`` may carry their line endings (``text.splitlines(keepends=True)``)
    or not; inserted lines get the same ending.  Several insertions at one point
    (``after n`` and ``before n+1`` are the same point) keep their order.
    """
    if form not in ("fixed", "free"):
        raise ValueError(f"form must be 'fixed' or 'free', not {form!r}")
    n = len(lines)
    at = _gaps(n, insertions)
    ending = _ending(lines)
    out: list[str] = []
    for gap in range(n + 1):
        if gap in at:
            indent = _indent(lines, gap, form)
            new = [indent + text for ins in at[gap] for text in ins.lines]
            if gap == n and n and ending and not lines[-1].endswith("\n"):
                # the text ends without a newline: keep that last line as it is
                out.extend(ending + text for text in new)
            else:
                out.extend(text + ending for text in new)
        if gap < n:
            out.append(lines[gap])
    return out


def is_directive_line(line: str) -> bool:
    """True for an HPF directive comment line (``CHPF$``, ``*HPF$``, ``!HPF$``, any case)."""
    return _DIRECTIVE.match(line) is not None


def strip_directives(lines: Sequence[str], spans: Sequence[ir.Span]) -> list[str]:
    """``lines`` without the directive lines inside ``spans`` (1-based, inclusive).

    Lines of a span that are not directive lines (a comment between
    continuation lines) stay.
    """
    drop: set[int] = set()
    for s in spans:
        for i in range(s.first, s.last + 1):
            if 1 <= i <= len(lines) and is_directive_line(lines[i - 1].lstrip("\r\n")):
                drop.add(i - 1)
    return [line for i, line in enumerate(lines) if i not in drop]
