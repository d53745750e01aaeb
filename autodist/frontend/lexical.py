"""Character-level facts about Fortran text: strings, inline comments, Holleriths, blanks.

These work on one line or one joined statement and never parse.  A *masked*
text has the same length as the original, with the characters inside string
literals replaced by ``MASK`` (quotes kept), so that regular expressions can
look at the code without being fooled by strings, and positions found in the
masked text are valid in the original.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MASK = "\x01"

_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class ScanState:
    """Where a scan stopped: inside a string (``quote``) or a Hollerith (``holl`` chars left)."""

    quote: str | None = None
    holl: int = 0


OUTSIDE = ScanState()


def _hollerith_at(text: str, i: int, prev: str) -> tuple[int, int] | None:
    """If a Hollerith ``nH`` starts at ``i`` (a digit), return (index after H, n)."""
    if prev == "" or prev not in "(,/*=":
        return None
    m = _DIGITS.match(text, i)
    if m is None:
        return None
    j = m.end()
    while j < len(text) and text[j] == " ":
        j += 1
    if j < len(text) and text[j] in "Hh" and int(m.group()) > 0:
        return j + 1, int(m.group())
    return None


def scan(text: str, state: ScanState = OUTSIDE, hollerith: bool = False) -> tuple[str, int | None, ScanState]:
    """Mask ``text`` and find its inline comment.

    Returns (masked text, index of the ``!`` starting a comment or None, the state
    at the end of the text).  With ``hollerith`` (FORMAT statements of fixed
    form), ``nH...`` edit descriptors are skipped like strings.
    """
    out = list(text)
    quote, holl = state.quote, state.holl
    prev = ""  # last non-blank character outside strings
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if holl:
            out[i] = MASK
            holl -= 1
            i += 1
            continue
        if quote is not None:
            if c == quote:
                if i + 1 < n and text[i + 1] == quote:
                    out[i] = out[i + 1] = MASK
                    i += 2
                    continue
                quote = None
                prev = c
            else:
                out[i] = MASK
            i += 1
            continue
        if c in "'\"":
            quote = c
            prev = c
        elif c == "!":
            return "".join(out[:i]), i, ScanState(None, 0)
        elif hollerith and c.isdigit() and not (prev.isalnum() or prev in "._"):
            found = _hollerith_at(text, i, prev)
            if found is not None:
                j, count = found
                i = j
                holl = count
                prev = "H"
                continue
        if c not in " \t":
            prev = c
        i += 1
    return "".join(out), None, ScanState(quote, holl)


def mask(text: str) -> str:
    """``text`` with string contents masked (no comment stripping beyond a ``!``)."""
    masked, bang, _ = scan(text)
    return masked if bang is None else masked + text[bang:]


def squeeze(masked: str) -> str:
    """Upper case, blanks removed: the key used to recognise a statement's kind."""
    return masked.upper().replace(" ", "").replace("\t", "")


def split_semicolons(text: str) -> list[str]:
    """The statements of one line separated by ``;`` outside strings (empty ones dropped)."""
    masked = mask(text)
    if ";" not in masked:
        return [text]
    parts, start = [], 0
    for i, c in enumerate(masked):
        if c == ";":
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p for p in parts if p.strip()]


def matching_paren(masked: str, open_index: int) -> int | None:
    """Index of the parenthesis closing the one at ``open_index`` (masked text)."""
    depth = 0
    for i in range(open_index, len(masked)):
        c = masked[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
    return None


def top_level(masked: str, char: str) -> bool:
    """Whether ``char`` occurs outside parentheses (masked text)."""
    depth = 0
    for c in masked:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == char and depth == 0:
            return True
    return False


@dataclass(frozen=True)
class Hollerith:
    """A Hollerith constant ``nH...`` found in a statement: its place and its characters."""

    start: int
    end: int
    chars: str


def holleriths(text: str) -> list[Hollerith]:
    """The Hollerith constants of a (fixed-form, non-FORMAT) statement text.

    A Hollerith is ``nH`` followed by n characters, where the digits follow one of
    ``( , / * =``: elsewhere ``2H`` cannot occur in valid code.
    """
    found = []
    quote = None
    prev = ""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if quote is not None:
            if c == quote:
                if i + 1 < n and text[i + 1] == quote:
                    i += 2
                    continue
                quote = None
                prev = c
            i += 1
            continue
        if c in "'\"":
            quote = c
        elif c.isdigit() and prev in ("(", ",", "/", "*", "=") and not (text[i - 1].isalnum() or text[i - 1] in "._"):
            hit = _hollerith_at(text, i, prev)
            if hit is not None:
                j, count = hit
                found.append(Hollerith(i, min(j + count, n), text[j : j + count].ljust(count)))
                i = j + count
                prev = "H"
                continue
        if c not in " \t":
            prev = c
        i += 1
    return found
