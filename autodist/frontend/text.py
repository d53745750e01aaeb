"""Source bytes and lines: one character per byte, lines as gfortran counts them."""

from __future__ import annotations

import re

#: Source bytes are read one byte to one character: Fortran CHARACTER data are bytes,
#: so lengths, ICHAR and output match a compiler's whatever the file's encoding, and
#: writing a line back with the same codec gives its bytes back unchanged.
SOURCE_CODEC = "latin-1"


def decode(data: bytes) -> str:
    """Source bytes as text, one character per byte (see :data:`SOURCE_CODEC`)."""
    return data.decode(SOURCE_CODEC)


def as_source_text(text: str) -> str:
    """Text given as a string (UTF-8 when it is written out) in the form a file of
    its bytes is read in."""
    return text.encode("utf-8", "surrogateescape").decode(SOURCE_CODEC)


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def readable(text: str) -> str:
    """Source text shown to a user: its bytes as UTF-8 where they are UTF-8, and control
    characters (a form feed, an escape) written as ``\\x0c`` so that a message stays one
    visible line."""
    try:
        text = text.encode(SOURCE_CODEC).decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        pass
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")


def without_ending(line: str) -> str:
    """A line without its ending (LF or CR LF)."""
    if line.endswith("\r\n"):
        return line[:-2]
    return line[:-1] if line.endswith("\n") else line


def split_lines(text: str, keepends: bool = False) -> list[str]:
    """The lines of a source text as gfortran counts them: ended by LF or CR LF.
    A CR elsewhere (a stray one in a comment) is part of its line, as a form feed
    or another control character is (unlike :meth:`str.splitlines`); gfortran
    ignores it (:func:`as_compiled`)."""
    lines = _LINE.findall(text)
    return lines if keepends else [without_ending(line) for line in lines]


def as_compiled(line: str) -> str:
    """A line as gfortran reads it: every CR dropped, as if it were not there
    (it takes no column: ``X = 3.\r5`` is ``X = 3.5``)."""
    return line.replace("\r", "")
