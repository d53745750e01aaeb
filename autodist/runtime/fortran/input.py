"""Fortran input as gfortran reads it, from records (strings of byte characters).

* :class:`ListReader` — list-directed input (``READ *`` / ``READ (u,*)``): values
  separated by blanks, commas or the end of a record, ``r*value`` and ``r*``
  repeats, null values (the item keeps its value), ``/`` ending the statement,
  quoted character values (quotes doubled inside) or undelimited ones, LOGICAL
  as ``T``/``.TRUE.``..., COMPLEX as ``(re,im)``; the statement starts a new
  record and skips the rest of its last one.
* :class:`FormattedReader` — formatted input driven by a parsed FORMAT
  (:func:`autodist.runtime.fortran.formats.parse_format`): ``I F E D G ES EN L A``,
  ``nX T TL TR / :``, ``kP``, ``BN``/``BZ`` (blanks ignored by default, as
  gfortran's ``BLANK='NULL'``), short records padded with blanks, format reversion.

A reader pulls records with ``next_record()`` (a string, or None at the end of
the file) and gives one value per call of :meth:`next` for a kind code (``i``,
``r4``, ``r8``, ``c8``, ``c16``, ``l``, ``s``).  Errors are :class:`IoCondition`
with gfortran's IOSTAT sign: -1 at the end of the file, positive for bad data.
"""

from __future__ import annotations

import re
from typing import Callable, Iterator

import numpy as np

from ...errors import RuntimeFault, UnsupportedError
from .formats import _DATA, Edit, Group

IOSTAT_END = -1
IOSTAT_BAD = 5010  # libgfortran's LIBERROR_READ_VALUE
IOSTAT_EOR = 5006  # LIBERROR_EOR: an internal record overflowed

Records = Callable[[], "str | None"]

_INT = re.compile(r"[+-]?\d+\Z")
_REAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([EDQ][+-]?\d+|[+-]\d+)?\Z", re.IGNORECASE)
_SPECIAL = re.compile(r"[+-]?(INF|INFINITY|NAN(\([^)]*\))?)\Z", re.IGNORECASE)


#: What :meth:`ListReader.next` gives for a null value: the item keeps its value.
NULL = object()


class IoCondition(RuntimeFault):
    """An end of file or an error condition of an I/O statement (``iostat``:
    negative at the end of the file, positive for an error)."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None, *,
                 iostat: int = IOSTAT_BAD):
        super().__init__(message, file, line)
        self.iostat = iostat


def end_of_file(unit: str) -> IoCondition:
    return IoCondition(f"end of file on unit {unit}", iostat=IOSTAT_END)


def _int(text: str, item: int, how: str) -> int:
    if not _INT.match(text):
        raise IoCondition(f"bad integer {text!r} for item {item} in {how} input", iostat=IOSTAT_BAD)
    return int(text)


def _real(text: str, item: int, how: str, kind: str, implied: int = 0, scale: int = 0):
    t = text.strip()
    if _SPECIAL.match(t):
        v = float(t.split("(")[0].replace("INFINITY", "INF").replace("infinity", "inf"))
    else:
        m = _REAL.match(t)
        if not m:
            raise IoCondition(f"bad real number {text!r} for item {item} in {how} input", iostat=IOSTAT_BAD)
        mant, exp = m.group(1), m.group(2)
        sign = "-" if t.startswith("-") else ""
        e = 0
        if exp:
            e = int(exp[1:] if exp[0].isalpha() else exp)
        if "." not in mant:
            e -= implied
            if not exp:
                e -= scale
        elif not exp:
            e -= scale
        v = float(f"{sign}{mant}e{e}")  # correctly rounded, as strtod
    if kind == "r4":
        return np.float32(v)
    return v


def _logical(text: str, item: int, how: str) -> bool:
    t = text.lstrip()
    if t.startswith("."):
        t = t[1:]
    if t[:1].upper() == "T":
        return True
    if t[:1].upper() == "F":
        return False
    raise IoCondition(f"bad logical value {text!r} for item {item} in {how} input", iostat=IOSTAT_BAD)


def _scalar(text: str, kind: str, item: int, how: str):
    if kind in ("i", "i1", "i2", "i8"):
        return _int(text, item, how)
    if kind in ("r4", "r8"):
        return _real(text, item, how, kind)
    if kind == "l":
        return _logical(text, item, how)
    raise UnsupportedError(f"{how} input of a {kind} value")


def char_value(text: str, length: int | None) -> str:
    """A character value stored into a variable of ``length`` characters."""
    if length is None:
        return text
    return text[:length].ljust(length)


# --------------------------------------------------------------------------- list-directed


class ListReader:
    """The values of one list-directed READ statement (see the module docstring)."""

    how = "list"

    def __init__(self, next_record: Records, unit: str = "5"):
        self.next_record = next_record
        self.unit = unit
        self.line: str | None = None
        self.pos = 0
        self.repeat = 0
        self.repeat_value: str | None = None  # None: a repeated null value
        self.slashed = False
        self.item = 0

    def _record(self) -> None:
        line = self.next_record()
        if line is None:
            raise end_of_file(self.unit)
        self.line, self.pos = line, 0

    def start(self) -> None:
        self._record()

    def _skip_blanks(self) -> bool:
        """Move to the next non-blank character, across records; False at a
        record's end only when ``across`` is not wanted (never here)."""
        while True:
            assert self.line is not None
            while self.pos < len(self.line) and self.line[self.pos] in " \t":
                self.pos += 1
            if self.pos < len(self.line):
                return True
            self._record()

    def _token(self) -> tuple[str | None, bool]:
        """The next value's text (None for a null value) and whether it was
        quoted; handles the separator after it."""
        self._skip_blanks()
        line = self.line
        assert line is not None
        c = line[self.pos]
        if c == ",":
            self.pos += 1
            return None, False
        if c == "/":
            self.slashed = True
            return None, False
        if c in "'\"":
            text = self._quoted(c)
            self._separator()
            return text, True
        if c == "(":
            end = line.find(")", self.pos)
            while end < 0:  # a complex constant may span records
                more = self.next_record()
                if more is None:
                    raise end_of_file(self.unit)
                line = line + more
                self.line = line
                end = line.find(")", self.pos)
            text = line[self.pos: end + 1]
            self.pos = end + 1
            self._separator()
            return text, False
        m = re.compile(r"[^ \t,/]*").match(line, self.pos)
        text = m.group(0)
        self.pos = m.end()
        self._separator()
        return text, False

    def _quoted(self, q: str) -> str:
        out = []
        self.pos += 1
        while True:
            line = self.line
            assert line is not None
            k = line.find(q, self.pos)
            if k < 0:  # continues on the next record
                out.append(line[self.pos:])
                self._record()
                continue
            out.append(line[self.pos:k])
            if k + 1 < len(line) and line[k + 1] == q:
                out.append(q)
                self.pos = k + 2
                continue
            self.pos = k + 1
            return "".join(out)

    def _separator(self) -> None:
        """Consume blanks and at most one comma after a value (a slash stays)."""
        line = self.line
        assert line is not None
        while self.pos < len(line) and line[self.pos] in " \t":
            self.pos += 1
        if self.pos < len(line) and line[self.pos] == ",":
            self.pos += 1

    def next(self, kind: str, length: int | None = None, current=NULL):
        """The next value for an item of ``kind`` (``current`` when null)."""
        self.item += 1
        if self.slashed:
            return current
        if self.repeat:
            self.repeat -= 1
            text = self.repeat_value
        else:
            text, quoted = self._token()
            if self.slashed:
                return current
            if text is not None and not quoted:
                m = re.match(r"(\d+)\*(.*)\Z", text, re.DOTALL)
                if m:
                    n = int(m.group(1))
                    if n == 0:
                        raise IoCondition(f"zero repeat count for item {self.item} in list input", iostat=IOSTAT_BAD)
                    rest = m.group(2)
                    if rest[:1] in ("'", '"'):
                        rest = rest[1:-1].replace(rest[0] * 2, rest[0])
                    self.repeat_value = rest if rest != "" else None
                    self.repeat = n - 1
                    text = self.repeat_value
        if text is None:
            return current
        if kind == "s":
            return char_value(text, length)
        if kind in ("c8", "c16"):
            m = re.match(r"\(\s*([^,]*?)\s*,\s*([^)]*?)\s*\)\Z", text.replace("\n", ""))
            if not m:
                raise IoCondition(f"bad complex value {text!r} for item {self.item} in list input", iostat=IOSTAT_BAD)
            rk = "r4" if kind == "c8" else "r8"
            re_, im = (_real(g, self.item, "list", rk) for g in m.groups())
            return (np.complex64 if kind == "c8" else complex)(complex(float(re_), float(im)))
        return _scalar(text, kind, self.item, "list")

    def finish(self) -> None:
        """The statement ends: the rest of the current record is skipped."""


# --------------------------------------------------------------------------- formatted


class FormattedReader:
    """The values of one formatted READ statement (see the module docstring)."""

    how = "formatted"

    def __init__(self, fmt: Group, next_record: Records, unit: str = "5"):
        self.fmt = fmt
        self.next_record = next_record
        self.unit = unit
        self.line = ""
        self.col = 0
        self.scale = 0
        self.blank_zero = False
        self.item = 0
        self.edits: Iterator[Edit] | None = None

    def _record(self) -> None:
        line = self.next_record()
        if line is None:
            raise end_of_file(self.unit)
        self.line, self.col = line, 0

    def start(self) -> None:
        self._record()
        self.edits = self._walk()

    def _walk(self) -> Iterator[Edit]:
        """The data edit descriptors in order, with format reversion; the
        positioning descriptors between them are carried out on the way."""

        def run(group: Group) -> Iterator[Edit]:
            for _ in range(group.repeat):
                for it in group.items:
                    if isinstance(it, Group):
                        yield from run(it)
                    elif it.code in _DATA:
                        yield it
                    else:
                        self._control(it)

        yield from run(self.fmt)
        if not _has_data(self.fmt):
            raise UnsupportedError("a format without data edit descriptors for a non-empty input list")
        last = max((k for k, it in enumerate(self.fmt.items) if isinstance(it, Group)), default=None)
        rest = Group(self.fmt.items[last:] if last is not None else self.fmt.items, 1)
        while True:
            self._record()
            yield from run(rest)

    def _control(self, ed: Edit) -> None:
        c = ed.code
        if c == "/":
            self._record()
        elif c in ("X", "TR"):
            self.col += ed.w or 1
        elif c == "T":
            self.col = max((ed.w or 1) - 1, 0)
        elif c == "TL":
            self.col = max(self.col - (ed.w or 1), 0)
        elif c == "P":
            self.scale = ed.w or 0
        elif c == "BN":
            self.blank_zero = False
        elif c == "BZ":
            self.blank_zero = True
        elif c in ("S", "SP", "SS", ":"):
            pass
        elif c == "'":
            raise UnsupportedError("a character string edit descriptor in an input format")
        else:
            raise UnsupportedError(f"edit descriptor {c} in an input format")

    def _field(self, w: int) -> str:
        text = self.line[self.col: self.col + w].ljust(w)  # PAD='YES'
        self.col += w
        return text

    def next(self, kind: str, length: int | None = None, current=NULL):
        assert self.edits is not None
        self.item += 1
        ed = next(self.edits)
        c, w = ed.code, ed.w
        if c == "A":
            if kind != "s":
                raise UnsupportedError(f"A editing of a {kind} value")
            n = length if length is not None else 1
            if w is None:
                w = n
            text = self._field(w)
            return text[w - n:] if w >= n else text.ljust(n)
        if w is None:
            raise UnsupportedError(f"{c} editing without a width in an input format")
        text = self._field(w)
        if kind == "s":
            raise UnsupportedError(f"{c} editing of a CHARACTER value")
        if c == "L":
            if not text.strip():
                raise IoCondition(f"bad logical value for item {self.item} in formatted input", iostat=IOSTAT_BAD)
            return _logical(text, self.item, "formatted")
        digits = text.replace(" ", "0") if self.blank_zero else text.replace(" ", "")
        if digits.strip() == "":
            digits = "0"
        if kind in ("i", "i1", "i2", "i8"):
            if c != "I":
                raise UnsupportedError(f"{c} editing of an INTEGER value")
            return _int(digits, self.item, "formatted")
        if kind in ("r4", "r8"):
            if c == "I":
                raise UnsupportedError("I editing of a REAL value")
            return _real(digits, self.item, "formatted", kind, ed.d or 0, self.scale)
        if kind == "l":
            raise UnsupportedError(f"{c} editing of a LOGICAL value")
        raise UnsupportedError(f"formatted input of a {kind} value")

    def finish(self) -> None:
        """Positioning descriptors after the last item up to the next data
        descriptor or colon are not needed; the record's rest is skipped."""


def _has_data(group: Group) -> bool:
    return any(_has_data(it) if isinstance(it, Group) else it.code in _DATA for it in group.items)
