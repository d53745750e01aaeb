"""Directive text <-> directive comment lines.

:func:`format_lines` writes one directive's text as source lines:

* fixed form: ``CHPF$ `` in columns 1-6, text up to column 72, continued on
  ``CHPF$+`` lines (column 6 non-blank marks a continuation);
* free form: ``!HPF$ `` lines ending in ``&`` when continued, continuation lines
  starting ``!HPF$&``.

Lines break after a comma when one fits, else at a blank, else between two
tokens one of which is punctuation, so the text comes back the same whether a
reader joins continuation lines by plain concatenation (as Fortran does) or
with a blank.  :func:`scan_directives` is that reader: it finds the directive
lines of a source text and joins their continuations into
:class:`autodist.ir.Directive` nodes.
"""

from __future__ import annotations

import re
from typing import Sequence

from .. import ir

FIXED_WIDTH = 72
_FIXED = re.compile(r"[cC*!][hH][pP][fF]\$")
_FREE = re.compile(r"[ \t]*![hH][pP][fF]\$")


def _prefixes(form: str) -> tuple[str, str, str]:
    if form == "fixed":
        return "CHPF$ ", "CHPF$+", ""
    if form == "free":
        return "!HPF$ ", "!HPF$&", " &"
    raise ValueError(f"form must be 'fixed' or 'free', not {form!r}")


def _cut(text: str, room: int) -> int:
    """Where to end the current line: an index in ``1..room`` (the rest continues)."""
    limit = min(room, len(text) - 1)
    after_comma = [i for i in range(1, limit + 1) if text[i] == " " and text[i - 1] == ","]
    if after_comma:
        return after_comma[-1]
    blanks = [i for i in range(1, limit + 1) if text[i] == " " and text[i - 1] != " "]
    if blanks:
        return blanks[-1]
    word = re.compile(r"[A-Za-z0-9_$]")
    joints = [
        i
        for i in range(1, limit + 1)
        if not (word.match(text[i - 1]) and word.match(text[i])) and text[i - 1 : i + 1] not in ("::", "**")
    ]
    if joints:
        return joints[-1]
    raise ValueError(f"cannot break directive text into lines of {room} characters: {text!r}")


def format_lines(text: str, form: str = "fixed", width: int = FIXED_WIDTH) -> list[str]:
    """One directive's text as comment lines (no line endings), each at most ``width`` long."""
    first, cont, tail = _prefixes(form)
    if form == "fixed" and width > FIXED_WIDTH:
        raise ValueError("fixed-form lines end at column 72")
    if width < len(first) + 8:
        raise ValueError(f"width {width} is too small for directive lines")
    rest = " ".join(text.split())
    out: list[str] = []
    prefix = first
    while True:
        room = width - len(prefix)
        if len(rest) <= room:
            out.append(prefix + rest)
            return out
        cut = _cut(rest, room - len(tail))
        out.append(prefix + rest[:cut] + tail)
        rest = rest[cut:]
        prefix = cont


def _body(line: str) -> str:
    return line.rstrip("\r\n")


def scan_directives(lines: Sequence[str], file: str = "<text>", form: str = "fixed") -> tuple[ir.Directive, ...]:
    """The HPF directive lines of a source text, continuations joined, in order.

    Fixed form: sentinel ``CHPF$``, ``*HPF$`` or ``!HPF$`` (any case) in column 1,
    text in columns 7-72, a continuation has a character other than blank or
    ``0`` in column 6.  Free form: ``!HPF$`` after optional blanks, continued
    when the text ends with ``&``.
    """
    _prefixes(form)
    out: list[ir.Directive] = []
    i = 0
    while i < len(lines):
        line = _body(lines[i])
        pattern = _FIXED if form == "fixed" else _FREE
        mt = pattern.match(line)
        if mt is None:
            i += 1
            continue
        sentinel = line[mt.start() : mt.end()].strip()
        first = i
        if form == "fixed":
            parts = [line[6:FIXED_WIDTH]]
            while i + 1 < len(lines):
                nxt = _body(lines[i + 1])
                if not (_FIXED.match(nxt) and len(nxt) > 5 and nxt[5] not in " 0"):
                    break
                parts.append(nxt[6:FIXED_WIDTH])
                i += 1
        else:
            text = line[mt.end() :]
            parts = []
            while True:
                stripped = text.rstrip()
                more = stripped.endswith("&")
                parts.append(stripped[:-1] if more else text)
                if not more or i + 1 >= len(lines):
                    break
                nxt = _body(lines[i + 1])
                nm = _FREE.match(nxt)
                if nm is None:
                    break
                i += 1
                text = nxt[nm.end() :]
                lead = text.lstrip()
                text = lead[1:] if lead.startswith("&") else lead
        out.append(ir.Directive(ir.Span(file, first + 1, i + 1), None, "".join(parts).strip(), sentinel))
        i += 1
    return tuple(out)
