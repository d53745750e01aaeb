"""Fortran units as gfortran connects them, kept on the rank that does the I/O.

A formatted sequential file is a list of records (strings of byte characters,
:data:`autodist.frontend.text.SOURCE_CODEC`) and a position, so REWIND,
BACKSPACE and ENDFILE are list operations and a WRITE makes its record the
last one, as Fortran's sequential access defines; the file is written back
when the unit is closed (CLOSE, or the end of the run, also after an error).
Unit 5 (and ``*`` in a READ) is standard input, read lazily; units 6 and ``*``
are standard output, 0 standard error, until the program connects one of them
to a file (``OPEN (6, FILE='OUT')``: then ``PRINT`` and ``WRITE (*, ...)`` go
to the file too) or closes it (it is then an ordinary unit: ``fort.6``), as in
gfortran; an OPEN of a standard unit without FILE= leaves it on its stream.
A unit used without OPEN is ``fort.N`` in the working directory, as gfortran
names it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import BinaryIO, Callable

from ...errors import UnsupportedError
from .input import IoCondition

CODEC = "latin-1"  # = frontend.text.SOURCE_CODEC: one character per byte
IOSTAT_OPEN = 5002  # libgfortran's LIBERROR_OS
IOSTAT_AFTER_END = 5001  # LIBERROR_OPTION_CONFLICT: a READ past the end-of-file
STANDARD = (0, 5, 6)  # units preconnected to standard error, input and output


def _after_end() -> IoCondition:
    return IoCondition("sequential READ after the end of file (a REWIND or BACKSPACE is needed)",
                       iostat=IOSTAT_AFTER_END)


@dataclass
class Connection:
    path: str
    records: list[str] = field(default_factory=list)
    pos: int = 0
    dirty: bool = False
    scratch: bool = False

    def read(self) -> str | None:
        if self.pos > len(self.records):
            raise _after_end()
        if self.pos >= len(self.records):
            self.pos = len(self.records) + 1  # past the end-of-file
            return None
        self.pos += 1
        return self.records[self.pos - 1]

    def write(self, records: list[str]) -> None:
        del self.records[self.pos:]
        self.records.extend(records)
        self.pos = len(self.records)
        self.dirty = True

    def flush(self) -> None:
        if self.dirty and not self.scratch:
            with open(self.path, "wb") as f:
                f.write("".join(r + "\n" for r in self.records).encode(CODEC))
            self.dirty = False


def _records(data: bytes) -> list[str]:
    text = data.decode(CODEC)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


class RecordedInput:
    """Standard input as the program reads it, line by line, keeping every
    line read: ``--verify`` feeds the references (the sequential run, the
    gfortran binary) exactly the input the run under test consumed, since a
    stream read once cannot be read again."""

    def __init__(self, stream: BinaryIO | None):
        self.stream = stream
        self.lines: list[bytes] = []

    def readline(self) -> bytes:
        line = self.stream.readline() if self.stream is not None else b""
        if line:
            self.lines.append(line)
        return line

    def recorded(self) -> bytes:
        return b"".join(self.lines)


class FileTable:
    """The connected units of one run (on the I/O rank only)."""

    def __init__(self, stdin: Callable[[], BinaryIO | None] = lambda: None):
        self.units: dict[int, Connection] = {}
        self.stdin = stdin
        self.stdin_ended = False
        self.detached: set[int] = set()  # standard units connected to a file or closed

    def standard(self, unit: int) -> bool:
        """Is ``unit`` (0, 5 or 6) still connected to its standard stream?"""
        return unit in STANDARD and unit not in self.detached

    def open(self, unit: int, path: str | None, status: str, access: str, form: str, position: str) -> None:
        if access not in ("SEQUENTIAL",):
            raise UnsupportedError(f"ACCESS='{access}'")
        if form not in ("FORMATTED",):
            raise UnsupportedError(f"FORM='{form}' (only formatted files)")
        if self.standard(unit):
            if path is None:
                return  # it stays on its stream
            self.detached.add(unit)
        conn = self.units.get(unit)
        if conn is not None and (path is None or os.path.abspath(path) == os.path.abspath(conn.path)):
            return  # a connected unit opened again on its file: it stays where it is
        self.close(unit, "KEEP")
        scratch = status == "SCRATCH"
        if path is None:
            path = f"fort.{unit}"
        exists = os.path.exists(path)
        if status == "OLD" and not exists:
            raise IoCondition(f"cannot open file '{path}': No such file or directory", iostat=IOSTAT_OPEN)
        if status == "NEW" and exists:
            raise IoCondition(f"cannot open file '{path}': File exists", iostat=IOSTAT_OPEN)
        records: list[str] = []
        if exists and not scratch and status != "REPLACE":
            with open(path, "rb") as f:
                records = _records(f.read())
        conn = Connection(path, records, 0, dirty=not exists or status == "REPLACE", scratch=scratch)
        if position == "APPEND":
            conn.pos = len(records)
        self.units[unit] = conn

    def connection(self, unit: int) -> Connection:
        conn = self.units.get(unit)
        if conn is None:  # gfortran connects an unopened unit to fort.N
            self.open(unit, None, "UNKNOWN", "SEQUENTIAL", "FORMATTED", "ASIS")
            conn = self.units[unit]
        return conn

    def read(self, unit: int) -> str | None:
        if self.standard(unit):
            if self.stdin_ended:
                raise _after_end()
            stream = self.stdin()
            line = stream.readline() if stream is not None else b""
            if not line:
                self.stdin_ended = True
                return None
            return line.decode(CODEC).rstrip("\n")
        return self.connection(unit).read()

    def write(self, unit: int, records: list[str]) -> None:
        self.connection(unit).write(records)

    def close(self, unit: int, status: str = "KEEP") -> None:
        if unit in STANDARD:
            self.detached.add(unit)
        conn = self.units.pop(unit, None)
        if conn is None:
            return
        if status == "DELETE" or conn.scratch:
            if os.path.exists(conn.path) and not conn.scratch:
                os.remove(conn.path)
            return
        conn.flush()

    def rewind(self, unit: int) -> None:
        if unit in self.units:
            self.units[unit].pos = 0

    def backspace(self, unit: int) -> None:
        if unit in self.units:
            conn = self.units[unit]
            conn.pos = max(min(conn.pos, len(conn.records) + 1) - 1, 0)

    def endfile(self, unit: int) -> None:
        conn = self.connection(unit)
        del conn.records[conn.pos:]
        conn.dirty = True

    def inquire(self, unit: int | None, path: str | None) -> dict[str, object]:
        if path is not None:
            num = next((u for u, c in self.units.items() if os.path.abspath(c.path) == os.path.abspath(path)), -1)
            return {"EXIST": os.path.exists(path), "OPENED": num >= 0, "NUMBER": num}
        assert unit is not None
        opened = unit in self.units or self.standard(unit)
        return {"EXIST": True, "OPENED": opened, "NUMBER": unit if opened else -1}

    def close_all(self) -> None:
        for unit in list(self.units):
            self.close(unit)
