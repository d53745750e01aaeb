"""Actual arguments passed as copies (a part of
:class:`~autodist.runtime.spmd.executor.Executor`): an array section that is
not one stretch of storage (``A(1, 2:N)``, ``X(1:N:2)``) is copied into a 1-D
array in array element order before the call and stored back after it, and a
scalar given to an array dummy becomes a one-element array — what compilers
pass.  Each is a collective where the array is distributed: every rank makes
every call."""

from __future__ import annotations

import numpy as np

from ... import ir
from ...errors import RuntimeFault
from ..comm.storage import CHARACTER_CODEC, numpy_dtype
from .arrays import RtArray


def section_indices(array, specs: tuple, text: str) -> list[np.ndarray]:
    """Per dimension of ``array``, the 0-based positions an array section
    selects: ``specs`` holds a subscript or ``(lower, upper, step)`` per
    dimension (``text``: the section as written, for the message when it
    leaves the array's bounds)."""
    out = []
    for d, (spec, (lo, hi)) in enumerate(zip(specs, array.bounds)):
        if isinstance(spec, tuple):
            first, last, step = spec
            if step == 0:
                raise RuntimeFault(f"section {text}: the step of dimension {d + 1} is zero")
            values = np.arange(first, last + (1 if step > 0 else -1), step, dtype=np.int64)
        else:
            values = np.array([spec], dtype=np.int64)
        if values.size and (values.min() < lo or values.max() > hi):
            bad = int(values.min() if values.min() < lo else values.max())
            raise RuntimeFault(f"section {text}: index {bad} of dimension {d + 1} is outside {lo}:{hi}")
        out.append(values - lo)
    return out


class CopiedActuals:
    """The copies generated code makes for actual arguments; mixed into the executor."""

    def section_in(self, array: RtArray, specs: tuple, text: str) -> RtArray:
        """A copy of the section ``specs`` of ``array`` (per dimension a subscript
        or ``(lower, upper, step)``), its elements in array element order, as a
        1-D array to pass where a section is an actual argument."""
        at = section_indices(array, specs, text)
        values = array.full(region=f"section {array.label}")[np.ix_(*at)].reshape(-1, order="F")
        copy = RtArray(array.name, array.ftype, ((1, values.size),), None, self.comms, label=text)
        copy.keep_part(values)
        return copy

    def section_out(self, array: RtArray, specs: tuple, copy: RtArray) -> None:
        """Stores the copy made by :meth:`section_in` back into its section."""
        at = section_indices(array, specs, copy.label)
        whole = array.full(region=f"section {array.label}")
        whole[np.ix_(*at)] = copy.full().reshape([len(i) for i in at], order="F")
        array.keep_part(whole)

    def hollerith_array(self, chars: str, base: str, size: int, label: str) -> RtArray:
        """A Hollerith constant passed to an array dummy of type ``base``*``size``:
        its bytes as elements of that type (NUL bytes completing the last one)."""
        ftype = ir.Type(base, size if base != "character" else 1)
        dtype = numpy_dtype(ftype)
        raw = chars.encode(CHARACTER_CODEC)
        raw = raw.ljust(-(-len(raw) // dtype.itemsize) * dtype.itemsize, b"\0")
        values = np.frombuffer(raw, dtype)
        out = RtArray(label, ftype, ((1, values.size),), None, self.comms, label=label)
        out.keep_part(values.copy())
        return out

    def scalar_array(self, value, base: str, size: int, label: str) -> RtArray:
        """A one-element array holding ``value``: a scalar passed to an array dummy."""
        one = RtArray(label, ir.Type(base, size), ((1, 1),), None, self.comms, label=label)
        one.keep_part(np.array([value], dtype=one.dtype))
        return one
