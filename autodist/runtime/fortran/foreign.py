"""Routines outside the program, from shared libraries, called as gfortran calls them.

``autodist run --link FILE`` gives the runtime the C or Fortran routines a
program calls but does not define (a C timer such as the NAS benchmarks'
``wtime``, BLAS): :mod:`autodist.runtime.job.link` builds the sources into a
shared library, :class:`Foreign` loads the libraries with ctypes and calls
their routines on numpy buffers.

* **Names.** A routine ``WTIME`` is looked up as gfortran names it,
  ``wtime_``, then as ``wtime`` and as ``WTIME``, in each library in turn;
  a symbol counts only where the library defines it itself (``dladdr``), so a
  program's ``CALL ABORT`` is not answered by the C library a routine links.
* **Arguments** go by reference.  A scalar is a pointer to a one-element
  buffer of its type, whose final value comes back (the routine may write
  it); an array is a pointer into its data in Fortran order at the element
  passed (sequence association), whose final data come back.  A CHARACTER argument is
  a pointer to its bytes, its length appended after the other arguments as
  ``size_t`` (gfortran 8 and later).
* **Results** of FUNCTIONs have the C type of their Fortran type: INTEGER
  ``int32_t``, REAL ``float`` (gfortran without ``-ff2c``), DOUBLE PRECISION
  ``double``, LOGICAL an ``int32_t`` 0 or 1.  COMPLEX and CHARACTER results
  (returned through memory or hidden arguments) are refused.

Types travel as ABI codes (:func:`abi_code`): ``i4``, ``f4``, ``f8``,
``c16``, ``l4`` (a LOGICAL: an integer of that size, 0 or 1), ``S10``
(CHARACTER*10; ``S0`` for ``CHARACTER*(*)``, whose length is the value's).
Values come and go in the runtime's representation
(:mod:`autodist.runtime.fortran.intrinsics`).
"""

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ... import ir
from ...errors import AutodistError, RuntimeFault, UnsupportedError
from ...frontend.text import SOURCE_CODEC

#: The C result type of each FUNCTION type a linked routine may return.
RESULT_TYPES = {"i1": ctypes.c_int8, "i2": ctypes.c_int16, "i4": ctypes.c_int32, "i8": ctypes.c_int64,
                "f4": ctypes.c_float, "f8": ctypes.c_double,
                "l1": ctypes.c_int8, "l2": ctypes.c_int16, "l4": ctypes.c_int32, "l8": ctypes.c_int64}

#: ABI letter and the sizes passed, per type (REAL*16 is ``__float128``, which numpy lacks).
_LAYOUTS = {"integer": ("i", (1, 2, 4, 8)), "real": ("f", (4, 8)), "complex": ("c", (8, 16)),
            "logical": ("l", (1, 2, 4, 8))}


def abi_code(t: ir.Type) -> str | None:
    """How a value of type ``t`` is laid out in memory (see the module
    docstring); None for a type no buffer here holds."""
    if t.base == "character":
        return f"S{t.size}"
    letter, sizes = _LAYOUTS.get(t.base, ("", ()))
    return f"{letter}{t.size}" if t.size in sizes else None


def _dtype(code: str) -> np.dtype:
    """The numpy type of a buffer of ABI code ``code`` (not CHARACTER)."""
    return np.dtype(f"i{code[1:]}" if code[0] == "l" else code)


@dataclass(frozen=True)
class ArrayArgument:
    """An array passed to a linked routine: its whole data in Fortran order
    and the position (column-major) of the element passed."""

    data: np.ndarray
    offset: int = 0


class _DlInfo(ctypes.Structure):
    """glibc's ``Dl_info``: the object and symbol an address belongs to."""

    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]


def _dladdr():
    """glibc's ``dladdr`` (in libc since 2.34, in libdl before), or None."""
    for name in (None, "libdl.so.2"):
        try:
            f = ctypes.CDLL(name).dladdr
        except (OSError, AttributeError):
            continue
        f.argtypes, f.restype = [ctypes.c_void_p, ctypes.POINTER(_DlInfo)], ctypes.c_int
        return f
    return None


_DLADDR = _dladdr()


def _defines(lib: ctypes.CDLL, path: str, sym: str) -> bool:
    """Whether the library ``lib`` (loaded from ``path``) defines ``sym`` itself,
    not a library it depends on (True where ``dladdr`` cannot tell)."""
    try:
        fn = lib[sym]
    except AttributeError:
        return False
    info = _DlInfo()
    if _DLADDR is None or not _DLADDR(ctypes.cast(fn, ctypes.c_void_p), ctypes.byref(info)) or not info.dli_fname:
        return True
    return os.path.realpath(os.fsdecode(info.dli_fname)) == os.path.realpath(path)


def region_of(name: str) -> str:
    """The counters' region of linked routine ``name`` (its calls' time and counts)."""
    return f"linked {name}"


def symbol_names(name: str) -> tuple[str, ...]:
    """The symbols a Fortran routine ``name`` is looked up as, in order."""
    return tuple(dict.fromkeys((name.lower() + "_", name.lower(), name)))


class Foreign:
    """The shared libraries of one run (``(path, what to call it in messages)``
    pairs, searched in order) and calls of their routines."""

    def __init__(self, libraries: Sequence[tuple[str, str]]):
        self.labels = tuple(label for _, label in libraries)
        self._libraries = []
        for path, label in libraries:
            try:
                self._libraries.append((ctypes.CDLL(path), path))
            except OSError as exc:
                raise AutodistError(f"--link: cannot load it: {str(exc).removeprefix(path + ': ')}", label) from None
        self._symbols: dict[str, tuple[ctypes.CDLL, str] | None] = {}
        self._functions: dict[tuple[str, str | None], object] = {}
        self._pointers: dict[tuple[str, str | None, int], object] = {}

    def _symbol(self, name: str) -> tuple[ctypes.CDLL, str] | None:
        """(library, symbol) defining routine ``name``, or None."""
        if name not in self._symbols:
            self._symbols[name] = next(((lib, sym) for sym in symbol_names(name) for lib, path in self._libraries
                                        if _defines(lib, path, sym)), None)
        return self._symbols[name]

    def provides(self, name: str) -> bool:
        """Whether a library defines routine ``name``."""
        return self._symbol(name) is not None

    def _function(self, name: str, result: str | None):
        key = (name, result)
        if key not in self._functions:
            found = self._symbol(name)
            if found is None:
                raise RuntimeFault(f"no --link library defines {name}")
            lib, sym = found
            fn = lib[sym]  # a fresh function object: its restype is this call's own
            fn.restype = None if result is None else RESULT_TYPES[result]
            self._functions[key] = fn
        return self._functions[key]

    def pointer(self, name: str, result: str | None, count: int):
        """Routine ``name`` as a ctypes function of ``count`` pointer arguments
        returning ABI code ``result`` (None: nothing), for compiled code to call
        (numba calls ctypes functions directly; the arguments are as
        :meth:`call` passes them, CHARACTER excepted)."""
        key = (name, result, count)
        if key not in self._pointers:
            found = self._symbol(name)
            if found is None:
                raise RuntimeFault(f"no --link library defines {name}")
            lib, sym = found
            fn = lib[sym]  # a fresh function object, typed for this use
            fn.argtypes = [ctypes.c_void_p] * count
            fn.restype = None if result is None else RESULT_TYPES[result]
            self._pointers[key] = fn
        return self._pointers[key]

    def call(self, name: str, result: str | None, kinds: Sequence[str], args: Sequence) -> tuple:
        """Call routine ``name`` (a FUNCTION returning ABI code ``result``, or a
        subroutine when None) on ``args`` of ABI codes ``kinds`` (scalars in
        the runtime's representation, arrays as :class:`ArrayArgument`).
        Returns ``(result, *finals)`` for a function, ``(*finals,)`` for a
        subroutine: each scalar's final value, each array's final data."""
        fn = self._function(name, result)
        buffers = [_buffer(a, k) for a, k in zip(args, kinds)]
        pointers = [ctypes.c_void_p(b.ctypes.data + (a.offset * b.itemsize if isinstance(a, ArrayArgument) else 0))
                    for a, b in zip(args, buffers)]
        lengths = [ctypes.c_size_t(b.size) for b, k in zip(buffers, kinds) if k[0] == "S"]
        value = fn(*pointers, *lengths)
        finals = tuple(_final(a, b, k) for a, b, k in zip(args, buffers, kinds))
        return finals if result is None else (_value(value, result),) + finals


def _buffer(arg, code: str) -> np.ndarray:
    """The memory passed for one argument (see the module docstring)."""
    if isinstance(arg, ArrayArgument):
        if code[0] == "S":
            raise UnsupportedError("a CHARACTER array as an argument of a --link routine")
        if not 0 <= arg.offset < arg.data.size:
            raise RuntimeFault(f"element {arg.offset + 1} of an array of {arg.data.size} passed to a --link routine")
        return np.asfortranarray(arg.data, dtype=_dtype(code))  # LOGICALs become integers (a copy)
    if code[0] == "S":
        n = int(code[1:]) or len(arg)
        return np.frombuffer(bytearray(str(arg)[:n].ljust(n).encode(SOURCE_CODEC)), np.uint8)
    return np.array([int(bool(arg)) if code[0] == "l" else arg], dtype=_dtype(code))


def _final(arg, buf: np.ndarray, code: str):
    """An argument's value after the call, in the caller's representation."""
    if isinstance(arg, ArrayArgument):
        return (buf != 0) if code[0] == "l" else buf
    if code[0] == "S":
        return buf.tobytes().decode(SOURCE_CODEC)
    return _value(buf[0], code)


def _value(v, code: str):
    """A number of ABI code ``code`` in the runtime's scalar representation."""
    letter = code[0]
    if letter == "l":
        return bool(v)
    if letter == "i":
        return int(v)
    if letter == "f":
        return np.float32(v) if code == "f4" else float(v)
    return np.complex64(v) if code == "c8" else complex(v)
