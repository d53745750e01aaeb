"""The I/O statements of a run (a part of :class:`~autodist.runtime.spmd.executor.Executor`).

Rank 0 performs every operation on files and standard input
(:class:`~autodist.runtime.fortran.files.FileTable`) and broadcasts its outcome
— each record read, an inquired property, or the error — so every rank goes on
identically; values are then converted by every rank alike
(:mod:`autodist.runtime.fortran.input`).  Output goes out on rank 0 only.
Internal files (a CHARACTER variable as the unit) need no communication.
"""

from __future__ import annotations

import itertools
import sys

from ..codegen import intrinsic_code as ic
from ..fortran.files import FileTable
from ..fortran.formats import as_output, flatten, format_records, list_directed
from ..fortran.input import IOSTAT_EOR, NULL, FormattedReader, IoCondition, ListReader
from .arrays import RtArray


class UnitIo:
    """Mixed into ``Executor``: uses ``self.rank`` and ``self.comms``."""

    files: FileTable
    NULL = NULL  # what a reader gives for a null value (the item keeps its value)

    def _on_root(self, action):
        """``action()`` on rank 0, its result (or its I/O error) on every rank."""
        outcome = None
        if self.rank == 0:
            try:
                outcome = (True, action())
            except IoCondition as exc:
                outcome = (False, (exc.message, exc.iostat))
        if self.nprocs > 1:
            outcome = self.comms.comm.bcast(outcome, root=0)
        ok, value = outcome
        if not ok:
            raise IoCondition(value[0], iostat=value[1])
        return value

    def _expand(self, items: list) -> list:
        expanded: list = []
        for value, k in items:
            if k == "array":
                arr: RtArray = value
                kk = ic.io_kind(arr.ftype)
                values = arr.values("output") if arr.dtype.kind == "S" else flatten(arr.full(region="output"))
                expanded.extend((v, kk) for v in values)
            else:
                expanded.append((value, k))
        return expanded

    def write(self, unit, fmt, items: list) -> None:
        expanded = self._expand(items)
        records = [list_directed(expanded)] if fmt is None else format_records(fmt, expanded)
        if unit is None or unit in (0, 6):  # the I/O rank alone: no file is read, nothing to broadcast
            std = 6 if unit is None else int(unit)
            if self.rank == 0 and self.files.standard(std):
                stream = self.out if std != 0 else sys.stderr
                stream.write(as_output("".join(r + "\n" for r in records)))
            elif self.rank == 0:
                self.files.write(std, records)
            return
        self._on_root(lambda: self.files.write(int(unit), records))

    def write_internal(self, fmt, items: list, length: int) -> str:
        """The record an internal WRITE leaves in a CHARACTER*``length`` variable."""
        return self._internal_records(fmt, items, length, 1)[0]

    def write_internal_array(self, fmt, items: list, arr: RtArray) -> None:
        """An internal WRITE to a CHARACTER array: one record per element, in array
        element order; the elements after the last record are blanked."""
        n = arr.dtype.itemsize
        records = self._internal_records(fmt, items, n, arr.size)
        records += [" " * n] * (arr.size - len(records))
        ranges = [range(lo, hi + 1) for lo, hi in arr.bounds]
        for record, idx in zip(records, itertools.product(*reversed(ranges))):
            arr.s(record, *reversed(idx))

    def _internal_records(self, fmt, items: list, length: int, count: int) -> list[str]:
        expanded = self._expand(items)
        records = [list_directed(expanded)] if fmt is None else format_records(fmt, expanded)
        if len(records) > count or any(len(r) > length for r in records):
            what = "the variable" if count == 1 else "an element of the array"
            raise IoCondition(f"end of record in an internal WRITE (a record is longer than {what}"
                              + (f" or there are more than {count} records)" if count > 1 else ")"),
                              iostat=IOSTAT_EOR)
        return [r.ljust(length) for r in records]

    def reader(self, unit, fmt, internal: str | list | None = None):
        """A reader of ``unit``, or of an internal file: a CHARACTER value or, for a
        CHARACTER array, the list of its elements (one record each)."""
        if internal is not None:
            pending = list(reversed(internal.values("input"))) if isinstance(internal, RtArray) else [internal]

            def next_record():
                return pending.pop() if pending else None
            name = "internal"
        else:
            u = 5 if unit is None else int(unit)

            def next_record():
                return self._on_root(lambda: self.files.read(u))
            name = str(u)
        rd = ListReader(next_record, name) if fmt is None else FormattedReader(fmt, next_record, name)
        rd.start()
        return rd

    def read_array(self, rd, arr: RtArray) -> None:
        """Every element of ``arr`` in array element order."""
        kk = ic.io_kind(arr.ftype)
        length = arr.ftype.size if arr.ftype.base == "character" else None
        ranges = [range(lo, hi + 1) for lo, hi in arr.bounds]
        for idx in itertools.product(*reversed(ranges)):
            idx = tuple(reversed(idx))
            v = rd.next(kk, length)
            if v is not NULL:
                arr.s(v, *idx)

    def file_op(self, op: str, unit, **specs):
        """OPEN, CLOSE, REWIND, BACKSPACE, ENDFILE (``op``) and INQUIRE (its
        properties) on rank 0."""
        u = None if unit is None else int(unit)
        if op == "open":
            return self._on_root(lambda: self.files.open(
                u, specs.get("FILE"), specs.get("STATUS", "UNKNOWN"), specs.get("ACCESS", "SEQUENTIAL"),
                specs.get("FORM", "FORMATTED"), specs.get("POSITION", "ASIS")))
        if op == "close":
            return self._on_root(lambda: self.files.close(u, specs.get("STATUS", "KEEP")))
        if op == "inquire":
            return self._on_root(lambda: self.files.inquire(u, specs.get("FILE")))
        return self._on_root(lambda: getattr(self.files, op)(u))
