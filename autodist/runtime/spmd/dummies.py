"""Dummy arrays bound to their actuals: the bounds a dummy gets, the bytes of
storage association (an element or another type or shape of actual), and the
type of a CHARACTER dummy."""

from __future__ import annotations

import numpy as np

from ... import ir
from ...errors import RuntimeFault
from .data import int_value

Bounds = tuple[tuple[int, int], ...]


def bytes_of(array: np.ndarray) -> np.ndarray:
    """The bytes of ``array`` in Fortran element order (a copy)."""
    return np.ascontiguousarray(array.reshape(-1, order="F")).view(np.uint8).copy()


def character_dummy(unit: ir.Unit, dname: str, declared: ir.Type, actual: ir.Type) -> ir.Type:
    """The type of a CHARACTER dummy array: the actual's length for ``CHARACTER*(*)``
    (another declared length associates the characters in sequence); CHARACTER and
    numeric storage do not associate."""
    if declared.base != actual.base:
        raise RuntimeFault(f"{unit.name}: dummy array {dname} is {declared}, its actual argument is {actual}")
    return actual if declared.size == 0 else declared


def dummy_bounds(sym: ir.Symbol, env: dict[str, int], available: int, stretch: bool = False) -> Bounds:
    """Bounds of a dummy array; assumed size (``*``) takes what the actual
    provides, and so does a last dimension declared ``1`` (``X(1)``,
    ``A(LDA,1)``: the pre-Fortran 77 idiom for "any size", which compilers
    accept) when the actual is larger.  With ``stretch``, any declared last
    dimension reaches as far as the actual's storage does when that is
    further (``COMPLEX DATA(99)`` indexed up to its actual's 4,200 elements:
    what compiled Fortran addresses without a complaint); the caller asks for
    it only where no statement sees the dummy's declared size."""
    dims = sym.dims or ()
    out: list[tuple[int, int]] = []
    for k, d in enumerate(dims):
        lo = int_value(d.lower, env)
        rest = 1
        for a, b in out:
            rest *= max(b - a + 1, 0)
        last = k == len(dims) - 1
        hi = None if d.upper is None else int_value(d.upper, env)
        old_style = last and isinstance(d.upper, ir.Const) and hi == lo
        if hi is None or ((old_style or (stretch and last)) and available > rest * max(hi - lo + 1, 0)):
            out.append((lo, lo + max(available // max(rest, 1), 0) - 1))
        else:
            out.append((lo, hi))
    return tuple(out)

