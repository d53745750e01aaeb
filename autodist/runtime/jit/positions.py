"""Storage positions as code: how a kernel reaches an array's elements.

Arrays are flat storage in Fortran order; a kernel computes an element's
position as code.  :class:`KArray` is an array as a kernel reaches it
(storage, offset and bounds as code), and the helpers fold the arithmetic
of positions where its operands are numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from ... import ir


def int_literal(code) -> int | None:
    """The value of ``code`` when it is an integer literal."""
    if isinstance(code, int):
        return code
    text = code.strip()
    while text.startswith("(") and text.endswith(")") and text.count("(") == 1:
        text = text[1:-1].strip()
    try:
        return int(text)
    except ValueError:
        return None


def unsigned(pos) -> str:
    """The storage position ``pos`` as an index numba takes as it is: a signed
    one makes it add a test for negative (from-the-end) indices to every access,
    which keeps LLVM from optimizing the loop (2-3x on a gathered sparse
    product).  Every position :meth:`.units.KernelTranslator.position` computes is
    checked or proven inside the storage, never negative."""
    v = int_literal(pos)
    return str(v) if v is not None else f"np.uint64({pos})"


def plus(a, b):
    """Code of ``a + b``, folded when both are numbers (an int for a number)."""
    x, y = int_literal(a), int_literal(b)
    if x is not None and y is not None:
        return x + y
    if x == 0:
        return b
    if y == 0:
        return a
    return f"{a} + {b}" if y is None or y > 0 else f"{a} - {-y}"


def times(a, b):
    """Code of ``a * (b)``, folded when both are numbers."""
    x, y = int_literal(a), int_literal(b)
    if x is not None and y is not None:
        return x * y
    if x == 0 or y == 0:
        return 0
    if x == 1:
        return b
    return f"{a} * ({b})"


def const_bounds(dim: ir.Dim, last: bool, stretch: bool = False) -> tuple[int, int] | None:
    """A dummy dimension's bounds when both are integer constants that stay as
    written (a last dimension ``X(1)`` may stand for "any size", and any last
    dimension of a dummy that reaches as far as its actual (``stretch``, see
    :func:`~autodist.runtime.spmd.dummies.dummy_bounds`): not fixed)."""
    b = dim.bounds
    if b is None or (last and (stretch or b[0] == b[1])):
        return None
    return b


@dataclass
class KArray:
    """An array as a kernel reaches it: storage, offset and bounds (code), label."""

    buf: str
    lo: list[str]
    hi: list[str]
    ext: list[str]
    label: str  # code of the label number of the array as the executor names it
    key: str  # code of its shape key
    off: str = "0"
    avail: str | None = None  # the length of the actual's storage (dummies: positions past it hold nothing)
    base_label: str = ""  # the actual's label (a dummy's past-the-end fault names it)
    #: per dimension, constant bounds inside the bounds in effect (a dummy's declared
    #: ones: its last dimension may reach further, never less), or None
    safe: tuple[tuple[int, int] | None, ...] = ()
