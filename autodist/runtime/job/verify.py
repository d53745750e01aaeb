"""Verification of a run: the same arrays and printed values as a reference.

References: a sequential run of the same program under the runtime (P = 1)
and, where gfortran is installed, the gfortran-compiled original.  The
original is compiled as is (HPF directives are comments) from a temporary
copy with a few statements added before the main program's END that write
each of its arrays (its own and its COMMON arrays) to a stream file, so that
arrays are compared too, not only what the program prints.

Comparison: every element within a relative error of ``rtol`` (default
1e-12; NaN equals NaN), and every number the program prints (the other
words of the output must be identical).  The first mismatch is reported with
the array, the Fortran index and both values.

gfortran is run with ``-O2 -nostdinc``: without ``-nostdinc`` gfortran
pre-includes glibc's ``math-vector-fortran.h`` and, where it vectorizes a
loop, calls libmvec's SIMD versions of SIN, COS, EXP, LOG and POW, which
round differently from the scalar libm calls of a sequential program (and
of the runtime); everything else about ``-O2`` stays.  ``-std=legacy`` accepts
what F77 codes do (an array of one type passed where another is declared, in
the same file); ``-fwrapv`` makes
integer overflow wrap as the runtime's does, and ``-finit-character=0`` starts
local CHARACTER variables as NUL bytes, as the runtime's storage does, so that
an element a program never sets compares equal instead of holding whatever the
stack held (``-finit-local-zero`` would do it for every type, but gfortran 12
at -O2 then lost a store after ETIME).

What a program leaves undefined is not compared: when the first comparison
finds a difference, the original runs twice more,
built with uninitialized REAL, INTEGER and LOGICAL variables set to NaN,
-123456789 and .TRUE., then to Infinity, 987654321 and .FALSE.
(:data:`UNDEFINED_FLAGS`), and an element or a printed word that differs
between any two of the runs (it depends on what memory held before the
program, or on the clock) is left out of the comparison with gfortran
(:class:`Noise`); the run says how many were.  Where those flags
change what gfortran makes of defined values, the comparison only loses those
elements; it never reports a mismatch the first run alone would not.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from ... import ir
from ...frontend.preprocess import needs_cpp
from ...frontend.text import SOURCE_CODEC, decode, split_lines
from ..comm.storage import numpy_dtype

DEFAULT_RTOL = 1e-12
#: -fwrapv: INTEGER overflow wraps (two's complement), as legacy codes — random number
#: generators above all — expect and as the runtime computes.
GFORTRAN_FLAGS = ("-std=legacy", "-O2", "-nostdinc", "-fwrapv", "-finit-character=0")
#: Two more reference builds: uninitialized variables start with other values, and
#: with different ones in each (stack garbage can equal either, never both).
UNDEFINED_FLAGS = (("-finit-real=nan", "-finit-integer=-123456789", "-finit-logical=true"),
                   ("-finit-real=inf", "-finit-integer=987654321", "-finit-logical=false"))
_FIRST_UNIT = 71


@dataclass(frozen=True)
class Mismatch:
    """The first difference found."""

    what: str  # "array" | "output"
    where: str  # array name and Fortran index, or output token position
    got: str
    expected: str

    def __str__(self) -> str:
        return f"{self.what} {self.where}: {self.got} here, {self.expected} in the reference"


def _close(a, b, rtol: float) -> np.ndarray:
    a = np.asarray(a)
    b = np.asarray(b)
    if a.dtype.kind in "biu" and b.dtype.kind in "biu" or a.dtype.kind == "S" or b.dtype.kind == "S":
        return a == b  # integers, logicals and CHARACTER exactly
    both_nan = np.isnan(a) & np.isnan(b) if a.dtype.kind in "fc" and b.dtype.kind in "fc" else False
    scale = np.maximum(np.abs(a), np.abs(b))
    with np.errstate(all="ignore"):
        ok = (a == b) | (np.abs(a - b) <= rtol * scale)
    return ok | both_nan


@dataclass(frozen=True)
class Noise:
    """What two runs of the reference disagree on: per array, True where an
    element differs; the positions of the printed words that differ."""

    arrays: dict[str, np.ndarray]
    words: frozenset[int]

    @property
    def elements(self) -> int:
        return int(sum(int(m.sum()) for m in self.arrays.values()))


NO_NOISE = Noise({}, frozenset())


def reference_noise(first: "GfortranRun", others: Sequence["GfortranRun"], skip: Sequence[str] = ()) -> Noise:
    """The elements and printed words on which the runs of the reference differ
    from ``first`` or from one another (compared exactly, NaN equal to NaN; words
    only when they printed as many)."""
    runs = [first, *others]
    arrays = {}
    for name, a in first.arrays.items():
        differs = np.zeros(a.shape, dtype=bool)
        for x, y in zip(runs, runs[1:]):
            u, v = x.arrays.get(name), y.arrays.get(name)
            if u is not None and v is not None and u.shape == v.shape == a.shape:
                differs |= ~_close(u, v, 0.0)
        if np.any(differs):
            arrays[name] = differs
    printed = [_kept(r.stdout, skip).split() for r in runs]
    words: set[int] = set()
    if len({len(p) for p in printed}) == 1:
        for x, y in zip(printed, printed[1:]):
            words.update(k for k, (u, v) in enumerate(zip(x, y)) if u != v)
    return Noise(arrays, frozenset(words))


def compare_arrays(got: dict[str, np.ndarray], expected: dict[str, np.ndarray], bounds: dict[str, tuple],
                   rtol: float = DEFAULT_RTOL, noise: Noise = NO_NOISE) -> Mismatch | None:
    """The first element (in name order, then Fortran order) that differs,
    leaving out the elements of ``noise``."""
    for name in sorted(expected):
        if name not in got:
            continue
        a, b = np.asarray(got[name]), np.asarray(expected[name])
        if a.shape != b.shape:
            return Mismatch("array", name, f"shape {a.shape}", f"shape {b.shape}")
        ok = _close(a, b, rtol)
        if name in noise.arrays:
            ok = ok | noise.arrays[name]
        if not np.all(ok):
            flat = np.flatnonzero(~ok.reshape(-1, order="F"))[0]
            pos = np.unravel_index(flat, a.shape, order="F")
            lows = [lo for lo, _ in bounds.get(name, [(1, 1)] * a.ndim)]
            idx = ",".join(str(int(p) + lo) for p, lo in zip(pos, lows))
            return Mismatch("array", f"{name}({idx})", repr(a[pos].item()), repr(b[pos].item()))
    return None


_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([EeDd]?[+-]\d+)?$")


def _number(tok: str) -> float | None:
    if not _NUMBER.match(tok):
        return None
    t = tok.upper().replace("D", "E")
    m = re.match(r"^([+-]?[\d.]+)([+-]\d+)$", t)
    if m and "E" not in t:
        t = f"{m.group(1)}E{m.group(2)}"
    try:
        return float(t)
    except ValueError:
        return None


def _kept(text: str, skip: Sequence[str]) -> str:
    if not skip:
        return text
    pattern = re.compile("|".join(f"(?:{p})" for p in skip))
    return "\n".join(line for line in text.splitlines() if not pattern.search(line))


def compare_output(got: str, expected: str, rtol: float = DEFAULT_RTOL, skip: Sequence[str] = (),
                   noise: Noise = NO_NOISE) -> Mismatch | None:
    """Printed values: numbers within ``rtol``, every other word identical;
    the lines matching a regular expression of ``skip`` are left out on both
    sides (timings), and the words of ``noise``."""
    a, b = _kept(got, skip).split(), _kept(expected, skip).split()
    for k, (x, y) in enumerate(zip(a, b)):
        if x == y or k in noise.words:
            continue
        nx, ny = _number(x), _number(y)
        if nx is None or ny is None or not bool(_close(nx, ny, rtol)):
            return Mismatch("output", f"word {k + 1}", repr(x), repr(y))
    if len(a) != len(b):
        return Mismatch("output", "length", f"{len(a)} words", f"{len(b)} words")
    return None


# --------------------------------------------------------------------------- gfortran


def gfortran_available() -> str | None:
    return shutil.which("gfortran")


#: The suffixes gfortran takes for Fortran source (others it hands to the linker).
GFORTRAN_SUFFIXES = frozenset({".f", ".for", ".ftn", ".fpp", ".F", ".FOR", ".FTN", ".FPP",
                               ".f90", ".f95", ".f03", ".f08", ".F90", ".F95", ".F03", ".F08"})


def gfortran_name(path: Path) -> str:
    """``path``'s name as gfortran compiles it: ``.f`` appended where autodist
    read a fixed-form file by a suffix gfortran does not know (``annotate -o out``)."""
    return path.name if path.suffix in GFORTRAN_SUFFIXES else f"{path.name}.f"


def _dump_lines(arrays: list[str]) -> list[str]:
    """Statements writing ``arrays`` to ``fort.71``, ``fort.72``, ...
    (they fit in fixed form: six blanks, at most 72 columns)."""
    lines = []
    for k, name in enumerate(arrays):
        u = _FIRST_UNIT + k
        lines += [f"      OPEN({u},ACCESS='STREAM',FORM='UNFORMATTED')", f"      WRITE({u}) {name}",
                  f"      CLOSE({u})"]
    return lines


@dataclass(frozen=True)
class GfortranRun:
    stdout: str
    arrays: dict[str, np.ndarray]
    status: int


def run_gfortran(program: ir.Program, include_dirs=(), timeout: float = 600.0,
                 gfortran: str | None = None, link_inputs: Sequence[str] = (), stdin: bytes = b"",
                 flags: Sequence[str] = ()) -> GfortranRun:
    """Compile the program with gfortran (arrays of the main program dumped
    at its END) and ``flags``, linked with ``link_inputs`` (the objects and libraries of
    ``--link``: :func:`autodist.runtime.job.link.reference_inputs`), and run it."""
    gf = gfortran or gfortran_available()
    if gf is None:
        raise FileNotFoundError("gfortran is not installed")
    main = program.main
    arrays = [s.name for s in main.arrays if s.type.base != "character" or s.type.size > 0]
    with tempfile.TemporaryDirectory(prefix="autodist-gfortran-") as tmp:
        tmpd = Path(tmp)
        sources = []
        for k, f in enumerate(dict.fromkeys(u.span.file for u in program.units)):
            text = split_lines(decode(Path(f).read_bytes()))
            if f == main.span.file and arrays:
                end = main.span.last - 1
                text = text[:end] + _dump_lines(arrays) + text[end:]
            out = tmpd / f"src{k}_{gfortran_name(Path(f))}"
            out.write_bytes(("\n".join(text) + "\n").encode(SOURCE_CODEC))
            sources.append(out)
        incs = [f"-I{Path(f).resolve().parent}" for f in program.files] + [f"-I{d}" for d in include_dirs]
        pre = program.preprocessing  # preprocessed as autodist read it (gfortran too goes by the suffix)
        cpp = (["-cpp"] if any(not needs_cpp(f) for f in pre.files) else []) + [f"-D{d}" for d in pre.defines]
        exe = tmpd / "prog"
        build = subprocess.run([gf, *GFORTRAN_FLAGS, *flags, *cpp, *dict.fromkeys(incs), "-o", str(exe), *map(str, sources),
                                *link_inputs],
                               capture_output=True, encoding="utf-8", errors="replace", timeout=timeout)
        if build.returncode != 0:
            raise RuntimeError(f"gfortran could not compile the program: {build.stderr.strip()[-500:]}")
        # the program's bytes read as the runtime writes them (fortran.formats.as_output)
        run = subprocess.run([str(exe)], capture_output=True, input=stdin, timeout=timeout, cwd=tmp)
        run.stdout = run.stdout.decode("utf-8", "surrogateescape")
        got: dict[str, np.ndarray] = {}
        for k, name in enumerate(arrays):
            path = tmpd / f"fort.{_FIRST_UNIT + k}"
            if not path.exists():
                continue  # the program stopped before its END
            sym = main.symbol(name)
            if sym.type.base == "logical":  # gfortran stores LOGICAL*k in k bytes, numpy bool in one
                data = np.fromfile(path, dtype=f"i{sym.type.size}") != 0
            else:
                data = np.fromfile(path, dtype=numpy_dtype(sym.type))
            shape = sym.shape
            if shape is None or data.size != int(np.prod(shape)):
                continue
            got[f"{main.name}.{name}"] = data.reshape(shape, order="F")
        return GfortranRun(run.stdout, got, run.returncode)
