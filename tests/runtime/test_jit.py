"""Compiled execution (numba, ``autodist.runtime.jit``): the same bits as the
Python and numpy paths and as gfortran, the report naming the path each part
took, faults, STOP and the time limit inside kernels, the cache, and the
fallback when numba is missing.

The programs are compiled once per test session (module-scoped runs) into a
cache folder of the session, so the suite pays numba's compilation once."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from autodist.errors import AutodistError, RuntimeFault
from tests.conftest import PROGRAMS, SAMPLES, requires_gfortran

pytestmark = pytest.mark.skipif(__import__("importlib").util.find_spec("numba") is None,
                                reason="numba is not installed")

JIT = PROGRAMS / "jit"


@pytest.fixture(scope="module")
def jit_cache(tmp_path_factory):
    """One kernel cache for the module's runs, in-process and in children."""
    folder = tmp_path_factory.mktemp("jit-cache")
    old = os.environ.get("AUTODIST_CACHE")
    os.environ["AUTODIST_CACHE"] = str(folder)
    yield folder
    if old is None:
        del os.environ["AUTODIST_CACHE"]
    else:
        os.environ["AUTODIST_CACHE"] = old


def run_here(path: Path, jit: bool = True, jit_after: float = 0.0, text: str | None = None):
    """Run a program on this process alone: (stdout, arrays, STOP code, executor)."""
    from mpi4py import MPI

    from autodist.runtime.job.runner import prepare
    from autodist.runtime.spmd.executor import Executor, RunOptions

    if text is not None:
        path.write_text(text)
    program, analysis, translations = prepare([str(path)])
    out = io.StringIO()
    ex = Executor(program, analysis, MPI.COMM_SELF, RunOptions(jit=jit, jit_after=jit_after), out=out,
                  translations=translations)
    stop = ex.run()
    return out.getvalue(), ex.gather_arrays(root=0), stop, ex


def cli(*args, env=None, timeout=300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "autodist", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


def same_arrays(a: dict, b: dict) -> None:
    assert sorted(a) == sorted(b)
    for k in a:
        assert a[k].dtype == b[k].dtype and np.array_equal(a[k], b[k], equal_nan=True), k


# --------------------------------------------------------------------------- the helpers


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_helpers_compute_what_the_python_path_computes(jit_cache):
    from autodist.runtime.fortran import intrinsics as py
    from autodist.runtime.jit import helpers as jt

    ints = [-2147483648, -29, -8, -7, -5, -3, -1, 0, 1, 2, 3, 5, 7, 8, 29, 2147483647]
    for a in ints:
        assert jt.i4(a * 3 + 5) == py.i4(a * 3 + 5)
        for b in ints:
            if b:
                assert jt.idiv_at(0, a, b) == py.idiv(a, b), (a, b)
                assert jt.imod_at(0, a, b) == py.imod(a, b), (a, b)
                assert jt.imodulo_at(0, a, b) == py.modulo(a, b), (a, b)
            assert jt.isign(a, b) == py.isign(a, b)
        base = a % 97 - 48
        for n in range(0 if base == 0 else -3, 12):
            assert jt.i4(jt.ipow_at(0, base, n)) == py.i4(py.ipow(base, n)), (base, n)
        assert jt.ishft(a, 3) == py.ishft(a, 3) and jt.ishft(a, -5) == py.ishft(a, -5)
        assert jt.ibits(a & 0x7FFFFFFF, 3, 9) == py.ibits(a & 0x7FFFFFFF, 3, 9)
    with pytest.raises(jt.JitFault):
        jt.idiv_at(7, 3, 0)
    rng = np.random.default_rng(5)
    specials = [0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 1e-30, -1e30, np.inf, -np.inf, np.nan]
    for dtype, conv in ((np.float32, np.float32), (np.float64, float)):
        xs = [conv(v) for v in specials] + [conv(v) for v in rng.standard_normal(40) * 50]
        for x in xs:
            for fn in ("nint", "anint", "aint"):
                if fn == "nint" and not abs(x) < 2.0 ** 31:  # no INTEGER holds it
                    continue
                got, want = getattr(jt, fn)(x), getattr(py, fn)(x)
                assert np.array_equal(np.asarray(got, dtype if fn != "nint" else None), np.asarray(want),
                                      equal_nan=fn != "nint"), (fn, x)
            for y in xs[:14]:
                eight = "8" if dtype == np.float64 else ""
                for fn, pyfn in (("dim", "dim"), ("rsign", "rsign"), ("rmod" + eight, "rmod"),
                                 ("rmodulo" + eight, "modulo")):
                    if pyfn != "dim" and dtype == np.float64 and not np.isfinite(x):
                        continue  # math.fmod raises on an infinite x: not a value to compare
                    got, want = conv(getattr(jt, fn)(x, y)), conv(getattr(py, pyfn)(x, y))
                    assert got == want or (got != got and want != want) and np.signbit(got) == np.signbit(want), \
                        (fn, x, y)
            for n in (-3, -1, 0, 1, 2, 5, 13):
                if n < 0 and x == 0 and dtype == np.float64:
                    continue  # the Python path's 1 / 0.0 raises; compiled code gives gfortran's infinity
                got, want = conv(jt.powi(x, n)), conv(py.powi(x, n))
                assert got == want or (got != got and want != want), (x, n)


# --------------------------------------------------------------------------- scalar code


@pytest.fixture(scope="module")
def scalar_runs(jit_cache, tmp_path_factory):
    path = JIT / "scalar.f"
    return run_here(path, jit=True), run_here(path, jit=False)


def test_scalar_code_runs_compiled_with_the_python_paths_bits(scalar_runs):
    (out, arrays, _, ex), (out0, arrays0, _, ex0) = scalar_runs
    assert out == out0
    same_arrays(arrays, arrays0)
    compiled = ex.kernels.calls
    for unit in ("RECUR", "TICK", "IDIVS", "REALS", "SHIFT", "RANDX"):  # called from the main program's phases
        assert compiled[unit][0] > 0 and compiled[unit][1] == 0, (unit, compiled[unit])
    # the main program prints arrays: it runs in Python, its loop that calls RANDX compiled
    assert ex.kernels.k.unit_reasons["SCALAR"].endswith("PRINT of arrays (I/O runs in Python)")
    assert ex.phase_paths["SCALAR:1"][0] == {"jit": 1}
    assert ex0.jit is None and ex0.jit_off == "compiled execution turned off (--no-jit)"


@requires_gfortran
@pytest.mark.gfortran
def test_scalar_code_equals_gfortran_bit_for_bit(scalar_runs):
    from autodist.frontend import read_program
    from autodist.runtime.job.verify import compare_arrays, compare_output, run_gfortran

    (out, arrays, _, ex), _ = scalar_runs
    ref = run_gfortran(read_program([str(JIT / "scalar.f")]), (), 120)
    bounds = {k: a.bounds for k, a in ex.arrays().items()}
    assert compare_arrays(arrays, ref.arrays, bounds, rtol=0.0) is None
    assert compare_output(out, ref.stdout, rtol=0.0) is None


# --------------------------------------------------------------------------- distributed phases


@pytest.fixture(scope="module")
def distributed_reports(jit_cache, tmp_path_factory):
    folder = tmp_path_factory.mktemp("distributed")
    out = {}
    for nranks in (2, 4):
        report = folder / f"r{nranks}.json"
        got = cli("run", JIT / "distributed.f", "-np", nranks, "--jit-after", "0", "--verify", "--rtol", "0",
                  "--report", report)
        out[nranks] = (got, json.loads(report.read_text()) if report.exists() else None)
    report = folder / "nojit.json"
    out["no-jit"] = (cli("run", JIT / "distributed.f", "-np", 2, "--no-jit", "--report", report),
                     json.loads(report.read_text()) if report.exists() else None)
    return out


@pytest.mark.mpi
@pytest.mark.parametrize("nranks", [2, 4])
def test_distributed_phases_run_compiled_on_every_rank_count(distributed_reports, nranks):
    got, report = distributed_reports[nranks]
    assert got.returncode == 0, got.stderr
    assert "same results as the sequential run" in got.stderr
    if "gfortran" in got.stderr:
        assert "same results as gfortran" in got.stderr
    phases = {f"{p['procedure']}:{p['id']}": p for p in report["phases"] if p["kind"] == "loop"}
    assert all(p["path"] == "jit" and p["paths"] == {"jit": p["executions"]} for p in phases.values()), phases
    modes = {p["mode"] for p in phases.values()}
    assert {"distributed", "pipelined", "inline"} <= modes, modes
    # the loop left by a GO TO runs compiled on replicated data, its jump taken after
    assert phases["DISTR:7"]["mode"] == "inline" and phases["DISTR:7"]["executions"] == 1
    assert report["jit"]["enabled"] and report["jit"]["kernels_compiled"] + report["jit"]["kernels_loaded"] > 0


@pytest.mark.mpi
def test_helpers_are_compiled_once_whatever_constants_the_phases_give_them(distributed_reports, jit_cache):
    # the loop bounds of each rank's part are constants of its kernels: given to the
    # helpers as literals, numba compiled clip() anew for each (17 times on 4 ranks)
    for helper in ("clip", "span_check"):
        compiled = list(jit_cache.rglob(f"helpers.{helper}-*.nbc"))
        assert 1 <= len(compiled) <= 2, [p.name for p in compiled]


@pytest.mark.mpi
def test_no_jit_runs_the_numpy_and_inline_paths_with_the_same_output(distributed_reports):
    got, report = distributed_reports["no-jit"]
    assert got.returncode == 0, got.stderr
    assert got.stdout == distributed_reports[2][0].stdout
    paths = {p["path"] for p in report["phases"] if p["kind"] == "loop"}
    assert paths == {"numpy", "inline"}
    assert all(p["path_reason"] == "compiled execution turned off (--no-jit)"
               for p in report["phases"] if p["kind"] == "loop")
    assert report["jit"] == {"enabled": False, "reason": "compiled execution turned off (--no-jit)",
                             "compile_seconds": 0.0, "kernels_compiled": 0, "kernels_loaded": 0, "procedures": []}


# --------------------------------------------------------------------------- small routines on blocks (NPB BT's form)


@requires_gfortran
@pytest.mark.gfortran
def test_block_routines_called_with_element_actuals_run_compiled_as_gfortran(jit_cache, tmp_path):
    """5x5 blocks of a 4-D array passed as element actuals to routines whose
    subscripts are constants (constant-shape dummies: no bounds check or index
    arithmetic left for numba), an ``X(1)`` "any size" dummy, an adjustable one;
    the main program's loops as phase kernels, its arrays' constant bounds folded too."""
    report = tmp_path / "r.json"
    got = cli("run", JIT / "blocks.f", "--jit-after", "0", "--verify", "--rtol", "0", "--report", report)
    assert got.returncode == 0, got.stderr
    assert "same results as gfortran" in got.stderr
    doc = json.loads(report.read_text())
    assert doc["completed"] is True
    paths = {p["procedure"]: (p["path"], p["compiled_calls"], p["python_calls"]) for p in doc["jit"]["procedures"]}
    assert paths == {"BLOCKS": ("inline", 0, 0), "MATVEC": ("jit", 24, 0), "MATMUL": ("jit", 24, 0),
                     "BINV": ("jit", 24, 0), "FILL": ("jit", 1, 0)}
    loops = [p for p in doc["phases"] if p["procedure"] == "BLOCKS" and p["kind"] == "loop"]
    assert loops and all(p["path"] == "jit" for p in loops), [(p["id"], p["path"], p["path_reason"]) for p in loops]


# --------------------------------------------------------------------------- --link routines called from kernels


@requires_gfortran
@pytest.mark.gfortran
@pytest.mark.parametrize("nranks", [1, pytest.param(2, marks=pytest.mark.mpi)])
def test_procedures_calling_linked_routines_run_compiled_on_one_rank(jit_cache, tmp_path, nranks):
    """C routines (scalars written back: a local, a COMMON scalar, an array
    element; arrays whole and from an element on; INTEGER, REAL and DOUBLE
    PRECISION results; a C timer) are called from the compiled procedures
    themselves on one rank, with gfortran's bits and every call counted; on
    more ranks the procedures keep the Python path (a linked routine's
    scalars are rank 0's there), with the reason, and the same results."""
    report = tmp_path / "r.json"
    link = PROGRAMS / "link"
    got = cli("run", JIT / "linked.f", "--link", link / "scalars.c", "--link", link / "wtime.c", "-np", nranks,
              "--jit-after", "0", "--verify", "--rtol", "0", "--report", report)
    assert got.returncode == 0, got.stderr
    assert "same results as gfortran" in got.stderr
    doc = json.loads(report.read_text())
    paths = {p["procedure"]: (p["path"], p["compiled_calls"], p["python_calls"], p["reason"])
             for p in doc["jit"]["procedures"]}
    if nranks == 1:
        assert paths["WORK"] == ("jit", 3, 0, "") and paths["CLOCKED"] == ("jit", 1, 0, "")
    else:
        assert paths["WORK"][:3] == ("inline", 0, 3) and paths["CLOCKED"][:3] == ("inline", 0, 1)
        assert "calls --link routine ADDTO (on more than one rank" in paths["WORK"][3]
    calls = {r["routine"]: r["calls"] for r in doc["linked"]}
    assert calls == {"ADDTO": 6, "DNORM1": 6, "HALF": 6, "ISUM": 6, "SETFLAG": 3, "TRIPLE": 21, "WTIME": 2}


CONSTANT_OUTSIDE = """\
      PROGRAM OOB
      DOUBLE PRECISION B(5,5,2)
      INTEGER I
      DO 10 I = 1, 2
         CALL SETB(B(1,1,I))
   10 CONTINUE
      PRINT *, B(5,5,2)
      END
      SUBROUTINE SETB(A)
      DOUBLE PRECISION A(5,5)
      A(5,5) = 1.0D0
      A({i},{j}) = 2.0D0
      END
"""


@pytest.mark.parametrize("i, j, message", [
    (6, 1, "index 6 of SETB.A dimension 1 is outside 1:5"),
    # the last dimension reaches as far as the actual does (B(1,1,1): two 5x5 blocks)
    (1, 0, "index 0 of SETB.A dimension 2 is outside 1:10"),
])
def test_a_constant_subscript_outside_constant_bounds_faults_as_in_python(jit_cache, tmp_path, i, j, message):
    faults = []
    for jit in (True, False):
        with pytest.raises(RuntimeFault) as err:
            run_here(tmp_path / f"o{jit}.f", jit=jit, text=CONSTANT_OUTSIDE.format(i=i, j=j))
        faults.append((err.value.message, err.value.line))
    assert faults[0] == faults[1] == (message, 12)


LOOP_SUBSCRIPTS = """\
      PROGRAM LOOPS
      DOUBLE PRECISION A(17), B(16, 3)
      INTEGER K
      CALL INSIDE(A, B)
      CALL PASSED(A, K)
      PRINT *, A(17), B(16, 3), K
      CALL OUTSIDE(A, {n})
      END
      SUBROUTINE INSIDE(A, B)
      DOUBLE PRECISION A(17), B(16, 3)
      INTEGER I, J
      DO 20 J = 1, 3
         DO 10 I = 16, 1, -1
            B(I, J) = DBLE(I * J)
            A(I + 1) = B(17 - I, 4 - J) + A(2 * I - I + 1)
   10    CONTINUE
   20 CONTINUE
      END
      SUBROUTINE PASSED(A, K)
      DOUBLE PRECISION A(17)
      INTEGER I, K
      K = 0
      DO 10 I = 1, 4
         CALL BUMP(I, K)
         A(I) = A(I) + 1.0D0
   10 CONTINUE
      END
      SUBROUTINE BUMP(I, K)
      INTEGER I, K
      K = K + I
      END
      SUBROUTINE OUTSIDE(A, N)
      DOUBLE PRECISION A(17)
      INTEGER I, N
      DO 10 I = 1, 17
         A(I + N) = 1.0D0
   10 CONTINUE
      END
"""


def _kernel_source(cache: Path, unit: str) -> str:
    """The compiled code of ``unit`` in the kernel cache ``cache``."""
    for f in sorted((cache / "jit").glob("k*.py")):
        text = f.read_text()
        start = text.find(f"def k_{unit}(")
        if start >= 0:
            end = text.find("\n@njit", start)
            return text[start:end if end >= 0 else None]
    raise AssertionError(f"no kernel of {unit} in {cache}")


def test_subscripts_inside_the_bounds_on_every_trip_are_not_checked(jit_cache, tmp_path):
    """The values of a DO variable fixed in its loop bound its subscripts: no check
    is compiled where none can fail, and a subscript that can leave the bounds
    still faults as on the Python path."""
    runs = [run_here(tmp_path / f"in{jit}.f", jit=jit, text=LOOP_SUBSCRIPTS.format(n=0)) for jit in (True, False)]
    (out, arrays, _, ex), (out0, arrays0, _, _) = runs
    assert out == out0 and ex.kernels.calls["INSIDE"] == [1, 0]
    same_arrays(arrays, arrays0)
    checked = re.compile(r"\bat\(")
    assert not checked.search(_kernel_source(jit_cache, "INSIDE"))
    # a variable passed to a CALL may change in the loop: its subscripts stay checked
    assert checked.search(_kernel_source(jit_cache, "PASSED"))
    faults = []
    for jit in (True, False):
        with pytest.raises(RuntimeFault) as err:
            run_here(tmp_path / f"out{jit}.f", jit=jit, text=LOOP_SUBSCRIPTS.format(n=1))
        faults.append((err.value.message, err.value.line))
    assert faults[0] == faults[1] == ("index 18 of A dimension 1 is outside 1:17", 36)


SHORT_ACTUAL = """\
      PROGRAM SHORT
      DOUBLE PRECISION W(4), S
      INTEGER I
      DO 10 I = 1, 4
         W(I) = DBLE(I)
   10 CONTINUE
      CALL SUMUP(W(2), S)
      PRINT *, S
      CALL PUT(W(2), 0)
      PRINT *, W(4)
      END
      SUBROUTINE SUMUP(V, S)
      DOUBLE PRECISION V(5), S
      S = V(1) + V(2) + V(3) + V(4) + 10.0D0 * V(5)
      END
      SUBROUTINE PUT(V, X)
      INTEGER X
      DOUBLE PRECISION V(6)
      V(3) = 7.0D0
      V(5) = {v}
      V(4) = V(6)
      END
"""


def test_a_dummy_declared_larger_than_its_actual_reads_zeros_past_it_as_in_python(jit_cache, tmp_path):
    runs = [run_here(tmp_path / f"s{jit}.f", jit=jit, text=SHORT_ACTUAL.format(v="DBLE(X)")) for jit in (True, False)]
    (out, arrays, _, ex), (out0, arrays0, _, _) = runs
    assert out == out0 and out.split() == ["9.0000000000000000", "7.0000000000000000"]
    same_arrays(arrays, arrays0)
    assert ex.kernels.calls["SUMUP"] == [1, 0] and ex.kernels.calls["PUT"] == [1, 0]


@pytest.mark.parametrize("v", ["2.0D0", "-DBLE(X)"])  # -0.0 is a bit set too
def test_a_dummy_written_past_its_actual_faults_as_in_python(jit_cache, tmp_path, v):
    faults = []
    for jit in (True, False):
        with pytest.raises(RuntimeFault) as err:
            run_here(tmp_path / f"p{jit}.f", jit=jit, text=SHORT_ACTUAL.format(v=v))
        faults.append((err.value.message, err.value.line))
    assert faults[0] == faults[1] == ("PUT wrote into dummy V past the end of its actual argument SHORT.W "
                                      "(3 element(s) from there on)", 22)


# --------------------------------------------------------------------------- faults, STOP, the time limit

FAULTS = """\
      PROGRAM FAULTS
      INTEGER N, K
      DOUBLE PRECISION X(10)
      COMMON /C/ K
      K = {k}
      N = {n}
      CALL FILL(X, N)
      PRINT *, X(1)
      END
      SUBROUTINE FILL(X, N)
      INTEGER N, I, K
      DOUBLE PRECISION X(10)
      COMMON /C/ K
      DO 10 I = 1, N
         X(I) = DBLE(I / K)
   10 CONTINUE
      IF (N .EQ. 3) STOP 7
      END
"""


@pytest.mark.parametrize("k, n, message", [
    (1, 11, "index 11 of X dimension 1 is outside 1:10"),
    (0, 4, "integer division by zero"),
])
def test_a_fault_in_compiled_code_is_the_python_paths_fault(jit_cache, tmp_path, k, n, message):
    faults = []
    for jit in (True, False):
        with pytest.raises(RuntimeFault) as err:
            run_here(tmp_path / f"f{jit}.f", jit=jit, text=FAULTS.format(k=k, n=n))
        faults.append((err.value.message, err.value.line))
    assert faults[0] == faults[1] == (message, 15)


WRITE_FAULT = """\
      PROGRAM WF
      DOUBLE PRECISION X
      X = 2.5D0
      CALL SHOW(X)
      END
      SUBROUTINE SHOW(X)
      DOUBLE PRECISION X
      INTEGER I
      DO 10 I = 1, 2
         WRITE (*, '(A, F6.2)') 'X =', X * I
   10 CONTINUE
      WRITE (*, '(I5)') X
      END
"""


def test_a_write_that_fails_inside_compiled_code_is_the_python_paths_fault(jit_cache, tmp_path):
    """Writing is Python's (the kernel calls back with its values): the output
    before the failing WRITE is written, and its error names its line."""
    got = []
    for jit in (True, False):
        with pytest.raises(AutodistError) as err:
            run_here(tmp_path / f"w{jit}.f", jit=jit, text=WRITE_FAULT)
        got.append((type(err.value), err.value.message, err.value.line))
    assert got[0] == got[1] and got[0][1:] == ("I editing of a r8 value", 12)
    out = cli("run", tmp_path / "wTrue.f", "--jit-after", "0", "--report", tmp_path / "r.json")
    assert out.returncode == 2 and out.stdout == "X =  2.50\nX =  5.00\n"
    assert out.stderr.strip().endswith("wTrue.f:12: I editing of a r8 value")


def test_stop_in_compiled_code_ends_the_program_with_its_code(jit_cache, tmp_path):
    out, _, stop, ex = run_here(tmp_path / "stop.f", text=FAULTS.format(k=1, n=3))
    assert stop == 7 and out == "" and ex.kernels.calls["FILL"] == [1, 0]


def test_the_time_limit_stops_a_compiled_loop(jit_cache, tmp_path):
    path = tmp_path / "spin.f"
    path.write_text("      PROGRAM SPIN\n      INTEGER K\n      K = 0\n   10 K = K + 1\n      GOTO 10\n      END\n")
    out = cli("run", path, "--jit-after", "0", "--timeout", "3", timeout=120)
    assert out.returncode == 2 and out.stderr == f"autodist: error: the run did not finish within 3 s\n"


# --------------------------------------------------------------------------- when to compile, the cache


def test_what_has_not_run_long_is_not_compiled(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTODIST_CACHE", str(tmp_path / "cold"))
    out, arrays, _, ex = run_here(JIT / "scalar.f", jit_after=30.0)
    assert ex.jit.compiled == ex.jit.loaded == 0
    counts, why = ex.phase_paths["RECUR:1"] if "RECUR:1" in ex.phase_paths else ex.phase_paths["SCALAR:1"]
    assert set(counts) <= {"inline", "numpy"}
    assert why.startswith("not compiled: ran") and why.endswith("less than --jit-after 30 s")


def test_a_second_run_loads_every_kernel_from_the_cache(tmp_path):
    env = {"AUTODIST_CACHE": str(tmp_path / "cache")}
    reports = []
    for k in range(2):
        report = tmp_path / f"r{k}.json"
        got = cli("run", JIT / "scalar.f", "--report", report, "-q", *(["--jit-after", "0"] if k == 0 else []),
                  env=env)
        assert got.returncode == 0, got.stderr
        reports.append(json.loads(report.read_text())["jit"])
    first, second = reports
    assert first["kernels_compiled"] > 0
    # no --jit-after the second time: what the first run compiled is in the cache, so it loads at once
    assert second["kernels_compiled"] == 0 and second["kernels_loaded"] == first["kernels_compiled"]
    assert sorted(Path(tmp_path / "cache" / "jit").glob("k*.py"))


def test_prints_of_a_cached_kernel_show_nothing_but_the_output(tmp_path):
    """PRINTs inside compiled code hand their values to the executor through a
    callback (no object-mode blocks for numba to compile in every run): a run
    from the cache prints the program's output and nothing else."""
    env = {"AUTODIST_CACHE": str(tmp_path / "cache")}
    for _ in range(2):
        got = cli("run", SAMPLES / "adi.f", "-q", "--jit-after", "0", env=env)
        assert got.returncode == 0 and "X(N,N)" in got.stdout, got.stderr
        assert got.stderr == ""


def test_a_procedure_on_distributed_arrays_says_so_on_every_call(tmp_path):
    """Called 5 times: the ranks decide together at calls 1, 2, 4 only; the other
    calls keep the reason found then (not "less than --jit-after 0 s")."""
    from autodist.calibrate.starts import _STARTS

    path = tmp_path / "calls.f"
    path.write_text(_STARTS.format(n=8, p=2, calls=5))
    report = tmp_path / "r.json"
    got = cli("run", path, "-np", 2, "--jit-after", "0", "--report", report, "-q",
              env={"AUTODIST_CACHE": str(tmp_path / "cache")})
    assert got.returncode == 0, got.stderr
    bump = next(p for p in json.loads(report.read_text())["jit"]["procedures"] if p["procedure"] == "BUMP")
    assert bump["python_calls"] == 5 and "not held whole on every rank" in bump["reason"], bump


def test_the_ranks_of_a_job_compile_each_kernel_once_and_load_it_elsewhere(tmp_path):
    """Ranks wanting the same kernels take turns: the first compiles, the others load."""
    report = tmp_path / "r.json"
    got = cli("run", JIT / "scalar.f", "-np", 2, "--jit-after", "0", "--report", report, "-q",
              env={"AUTODIST_CACHE": str(tmp_path / "cache")})
    assert got.returncode == 0, got.stderr
    ranks = json.loads(report.read_text())["jit"]["ranks"]
    assert [r["rank"] for r in ranks] == [0, 1]
    wanted = {r["kernels_compiled"] + r["kernels_loaded"] for r in ranks}
    assert len(wanted) == 1 and wanted.pop() > 0
    assert sum(r["kernels_compiled"] for r in ranks) == ranks[0]["kernels_compiled"] + ranks[0]["kernels_loaded"]


def test_without_numba_compiled_execution_is_off_and_the_report_says_why(monkeypatch):
    from autodist.runtime.jit import compiler

    monkeypatch.setattr(compiler, "numba_missing", lambda: "numba is not installed: compiled execution is off")
    out, _, _, ex = run_here(JIT / "scalar.f")
    assert ex.jit is None and ex.kernels is None
    assert ex.jit_off == "numba is not installed: compiled execution is off"
    assert out.startswith("   3.96030069091")


def test_a_routine_that_ran_long_once_is_compiled_before_it_runs_the_next_time(tmp_path, monkeypatch):
    """FILLUP, called once, spends longer than --jit-after in Python but cannot
    switch to compiled code within its call; the next run compiles it before
    calling it, and so does every run after (loading it from the cache)."""
    monkeypatch.setenv("AUTODIST_CACHE", str(tmp_path / "cache"))
    runs = [run_here(JIT / "once.f", jit_after=0.02) for _ in range(3)]
    assert [ex.kernels.calls["FILLUP"] for *_, ex in runs] == [[0, 1], [1, 0], [1, 0]]
    assert runs[1][3].jit.compiled > 0
    assert len({out for out, *_ in runs}) == 1


def test_routines_with_automatic_arrays_run_compiled(tmp_path, monkeypatch):
    """W(0:N+1), V(M) from COMMON, IW(IDX(3)-IDX(2)) and a LOGICAL BIG(N) are
    allocated on every call of the compiled SMOOTH, as on the Python path."""
    monkeypatch.setenv("AUTODIST_CACHE", str(tmp_path / "cache"))
    out, arrays, _, ex = run_here(JIT / "automatic.f", jit_after=0.0)
    assert ex.kernels.calls["SMOOTH"] == [40, 0]
    ref, ref_arrays, _, _ = run_here(JIT / "automatic.f", jit=False)
    assert out == ref
    assert np.array_equal(arrays["AUTOS.X"], ref_arrays["AUTOS.X"])


@requires_gfortran
def test_routines_with_automatic_arrays_verify_against_gfortran():
    got = cli("run", JIT / "automatic.f", "--jit-after", "0", "--verify", "--rtol", "0")
    assert got.returncode == 0, got.stderr


class _Ranks:
    """A communicator of ``len(wishes)`` ranks seen from one of them: the
    allreduce MAX over every rank's wish at the same call."""

    def __init__(self, wishes, call):
        self.wishes, self.call, self.calls = wishes, call, 0

    def Get_size(self):
        return len(self.wishes)

    def allreduce(self, value, op):
        self.calls += 1
        return max(int(w(self.call)) for w in self.wishes)


def test_the_ranks_agree_on_when_a_procedure_is_compiled():
    """Ranks that want a procedure compiled at different calls (seconds run
    uncompiled, the kernel cache on disk) all switch at the same call: a rank
    running the kernel skips the collectives the translation makes."""
    from autodist.runtime.jit.engine import agreed

    wishes = [lambda n: n >= 3, lambda n: n >= 6, lambda n: False]
    collectives = 0
    switched = []
    for rank in range(3):
        for n in range(1, 40):
            comm = _Ranks(wishes, n)
            if agreed(wishes[rank](n), n, comm):
                switched.append(n)
                collectives += comm.calls
                break
            collectives += comm.calls
    assert switched == [4, 4, 4]  # the first agreement call after the first rank's wish
    assert collectives == 3 * 3  # calls 1, 2 and 4 only
    one = _Ranks([lambda n: n >= 5], 5)
    assert agreed(True, 5, one) and one.calls == 0  # alone: no collective, no waiting


def test_a_kernel_numba_cannot_compile_is_tried_once_not_in_every_run(tmp_path, monkeypatch):
    """A kernel numba fails on is recorded beside it: later runs (a new Jit, a
    new Module of the same text) take the other path at once, with the reason,
    instead of failing again (a long procedure made numba fail after minutes)."""
    from numba import types

    from autodist.runtime.jit.compiler import Module
    from autodist.runtime.jit.engine import Jit

    monkeypatch.setenv("AUTODIST_CACHE", str(tmp_path / "cache"))
    body = "@njit\ndef k_bad(x):\n    return x.no_such_attribute\n"
    fn, why = Jit(after=0.0).compile(Module(body), "k_bad", lambda: (types.float64,))
    assert fn is None and why.startswith("numba could not compile it: ") and "no_such_attribute" in why, why
    assert list((tmp_path / "cache" / "jit").glob("k*.k_bad.failed"))

    again = Module(body)
    monkeypatch.setattr(again, "function", lambda name: pytest.fail("numba was asked again"))
    fn, later = Jit(after=0.0).compile(again, "k_bad", lambda: (types.float64,))
    assert fn is None and later == f"{why} (in an earlier run; the kernel is the same)"
    # another text is another kernel: compiled
    fn, ok = Jit(after=0.0).compile(Module("@njit\ndef k_bad(x):\n    return x + 1.0\n"), "k_bad", lambda: (types.float64,))
    assert fn is not None and ok == "" and fn(1.0) == 2.0


def test_shape_keys_of_constant_bounds_are_int64_literals_equal_to_the_python_key():
    """A 4-D dummy of constant bounds (NPB LU's ``V(5,13,13,12)``) has a key
    numba can type: folded and wrapped to int64, as the kernels' arithmetic
    wraps; with a variable bound, the code computes the Python key."""
    from autodist.runtime.jit.statics import _wrapped, shape_key, shape_key_code

    bounds = [(1, 5), (1, 13), (1, 13), (1, 12)]
    code = shape_key_code([str(a) for a, _ in bounds], [str(b) for _, b in bounds])
    assert int(code) == shape_key(bounds) and -(1 << 63) <= int(code) < (1 << 63)
    for n in (12, 1000):
        mixed = shape_key_code(["1", "1", "(1)", "1"], ["5", "13", "v_N", "12"])
        assert "v_N" in mixed
        assert _wrapped(eval(mixed, {"v_N": n})) == shape_key([(1, 5), (1, 13), (1, n), (1, 12)])


def test_a_kernel_of_many_blocks_compiles_past_pythons_default_recursion_limit(tmp_path, monkeypatch):
    """numba's SSA pass recurses once per block between a variable's use and
    its definitions: a long procedure (NPB LU's JACLD) went past Python's
    default limit and stayed uncompiled; the limit is raised while numba compiles."""
    import sys

    from numba import types

    from autodist.runtime.jit.compiler import Module
    from autodist.runtime.jit.engine import Jit

    monkeypatch.setenv("AUTODIST_CACHE", str(tmp_path / "cache"))
    lines = ["@njit", "def k_long(x):", "    y = 0.0", "    z = x * 2.0", "    if x > 1.0:", "        z = x * 3.0"]
    for i in range(700):
        lines += [f"    if x > {i}.5:", f"        y += {i}.0"]
    lines.append("    return y + z")
    limit = sys.getrecursionlimit()
    fn, why = Jit(after=0.0).compile(Module("\n".join(lines) + "\n"), "k_long", lambda: (types.float64,))
    assert why == "" and fn(3.0) == 0.0 + 1.0 + 2.0 + 9.0
    assert sys.getrecursionlimit() == limit


def test_planned_kernels_take_their_storage_flat_or_not_at_all():
    """A phase kernel indexes its storage flat with the plan's extents written in:
    a storage of other extents or not in Fortran order is never handed to it
    (its numpy function runs instead)."""
    from autodist.runtime.jit.engine import _flat

    a = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    flat = _flat(a, (3, 4))
    assert flat is not None and np.shares_memory(flat, a) and flat[0 + 3 * 1] == a[0, 1]
    assert list(flat) == list(a.reshape(-1, order="F"))
    assert _flat(a, (4, 3)) is None
    assert _flat(np.ascontiguousarray(a), (3, 4)) is None
    assert _flat(a[:, 1:3], (3, 2)) is not None  # a block of columns is still in Fortran order
    assert _flat(a[1:, :], (2, 4)) is None
