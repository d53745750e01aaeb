"""``autodist run --link FILE``: routines outside the program from C and Fortran
sources and shared libraries (tests/programs/link), at 1 and 3 ranks against
gfortran linked with the same files; the calling conventions; and the errors
before anything runs (a missing file, an unknown suffix, a compile error, no
compiler, a routine still missing)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from autodist.errors import AutodistError, UsageError
from autodist.runtime.fortran.foreign import ArrayArgument, symbol_names
from autodist.runtime.job import link
from tests.conftest import PROGRAMS, requires_gfortran

LINK = PROGRAMS / "link"
requires_cc = pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                                 reason="no C compiler (cc or gcc)")


def cli(*args, cwd=None, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "autodist", *map(str, args)], capture_output=True, text=True,
                          timeout=300, cwd=cwd, env=env)


# --------------------------------------------------------------------------- programs against gfortran

CASES = {
    "timer": ("timer.f", ("wtime.c",), ["TIMES", "OK", "SUM", "820.00000000000000"]),
    "scalars": ("scalars.f", ("scalars.c",), None),
    "blas": ("axpy.f", ("blas.f",), None),
}


@requires_gfortran
@pytest.mark.gfortran
@pytest.mark.parametrize("nranks", [1, pytest.param(3, marks=pytest.mark.mpi)])
@pytest.mark.parametrize("case", sorted(CASES))
def test_linked_routines_give_gfortran_results(tmp_path, case, nranks):
    program, files, words = CASES[case]
    report = tmp_path / "run.json"
    links = [a for f in files for a in ("--link", LINK / f)]
    out = cli("run", LINK / program, *links, "-np", nranks, "--verify", "--report", report)
    assert out.returncode == 0, out.stderr
    assert "same results as the sequential run" in out.stderr
    assert "same results as gfortran" in out.stderr
    if words is not None:  # the timer's output says only whether its times make sense
        assert out.stdout.split() == words
    linked = json.loads(report.read_text())["linked"]
    assert linked and all(r["mode"] == "replicated" and r["calls"] > 0 and len(r["ranks"]) == nranks
                          for r in linked)


@requires_gfortran
@pytest.mark.gfortran
def test_the_report_counts_the_calls_of_each_linked_routine(tmp_path):
    report = tmp_path / "run.json"
    out = cli("run", LINK / "axpy.f", "--link", LINK / "blas.f", "--report", report, "-q")
    assert out.returncode == 0, out.stderr
    calls = {r["routine"]: r["calls"] for r in json.loads(report.read_text())["linked"]}
    assert calls == {"DAXPY": 2, "DSCAL": 1, "DDOT": 7}


@requires_cc
@requires_gfortran
@pytest.mark.gfortran
@pytest.mark.mpi
def test_a_shared_library_is_loaded_as_is(tmp_path):
    lib = tmp_path / "lib" / "libscalars.so"
    lib.parent.mkdir()
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", str(LINK / "scalars.c"), "-o", str(lib)], check=True)
    out = cli("run", LINK / "scalars.f", "--link", lib, "-np", "3", "--verify")
    assert out.returncode == 0, out.stderr
    assert "same results as gfortran" in out.stderr
    assert "[MIXED UP]" in out.stdout.replace(" ]", "]")


@requires_gfortran
@pytest.mark.gfortran
def test_profile_calls_the_linked_routines(tmp_path):
    out = cli("profile", LINK / "axpy.f", "--link", LINK / "blas.f", "-o", tmp_path / "p.json", "--show-output")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(" DOT")


# --------------------------------------------------------------------------- conventions


@pytest.fixture(scope="module")
def scalars_library(tmp_path_factory):
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler (cc or gcc)")
    folder = tmp_path_factory.mktemp("link")
    return link.load(link.build(link.link_files([str(LINK / "scalars.c")]), folder), folder)


def test_routines_are_found_by_gfortran_names_among_the_library_own_symbols(scalars_library):
    assert scalars_library.provides("TRIPLE") and scalars_library.provides("DNORM1")
    # the C library the routines link defines abort and gettimeofday, but not this library
    assert not scalars_library.provides("ABORT") and not scalars_library.provides("GETTIMEOFDAY")
    assert symbol_names("WTIME") == ("wtime_", "wtime", "WTIME")


def test_scalars_arrays_and_characters_go_by_reference(scalars_library):
    f = scalars_library
    assert f.call("TRIPLE", None, ("i4",), [7]) == (21,)
    assert f.call("ADDTO", None, ("f8", "f8", "i4"), [0.5, 0.25, 4]) == (0.75, 0.25, 5)
    assert f.call("SETFLAG", None, ("l4", "i4"), [True, 3]) == (False, 3)
    assert f.call("UPCASE", None, ("S6",), ["a b-c"]) == ("A B-C ",)
    r = f.call("HALF", "f4", ("f4",), [np.float32(1.0)])[0]
    assert type(r) is np.float32 and r == np.float32(1.0) / np.float32(3.0)
    v = np.arange(6, dtype=np.int32)
    value, n, data = f.call("ISUM", "i4", ("i4", "i4"), [3, ArrayArgument(v, 2)])
    assert (value, n) == (2 + 3 + 4, 3) and np.array_equal(data, v)
    flags = np.array([True, False, True])
    assert f.call("DNORM1", "f8", ("i4", "f8"), [2, ArrayArgument(np.array([-1.5, 2.0, 7.0]))])[0] == 3.5
    assert f.call("SETFLAG", None, ("l4", "i4"), [ArrayArgument(flags, 1), 4])[0].tolist() == [True, True, True]


# --------------------------------------------------------------------------- errors before anything runs


def _one_error(out) -> str:
    assert out.returncode == 2 and out.stdout == "", (out.returncode, out.stdout, out.stderr)
    assert out.stderr.count("\n") == 1, out.stderr
    return out.stderr


def test_a_missing_file_or_an_unknown_suffix_is_a_usage_error(tmp_path):
    assert _one_error(cli("run", LINK / "timer.f", "--link", tmp_path / "nope.c")) == \
        f"autodist: error: --link {tmp_path / 'nope.c'}: no such file\n"
    notes = tmp_path / "wtime.txt"
    notes.write_text("not a source\n")
    assert "not a C source (.c), a Fortran source" in _one_error(cli("run", LINK / "timer.f", "--link", notes))
    assert "no such file" in _one_error(cli("profile", LINK / "timer.f", "--link", tmp_path / "x.f",
                                            "-o", tmp_path / "p.json"))
    with pytest.raises(UsageError):
        link.link_files([str(notes)])
    assert [f.kind for f in link.link_files([str(LINK / "wtime.c"), str(LINK / "blas.f")])] == ["c", "fortran"]


@requires_cc
@pytest.mark.parametrize("nranks", [1, pytest.param(3, marks=pytest.mark.mpi)])
def test_a_compile_error_names_the_file_and_the_compiler_first_error(tmp_path, nranks):
    bad = tmp_path / "bad.c"
    bad.write_text("void wtime_(double *t)\n{\n  *t = 1.0\n}\n")
    err = _one_error(cli("run", LINK / "timer.f", "--link", bad, "-np", nranks))
    assert f"{bad}:3: --link: cc cannot compile it: expected" in err


@requires_gfortran
def test_a_fortran_compile_error_names_the_file(tmp_path):
    bad = tmp_path / "bad.f"
    bad.write_text("      SUBROUTINE WTIME(T)\n      DOUBLE PRECISION T\n      T = 1.0D0 +\n      END\n")
    assert f"{bad}:3: --link: gfortran cannot compile it: Syntax error" in \
        _one_error(cli("run", LINK / "timer.f", "--link", bad))


@requires_cc
def test_an_undefined_reference_is_a_link_error(tmp_path):
    src = tmp_path / "undef.c"
    src.write_text("extern void nothere_(void);\nvoid wtime_(double *t) { nothere_(); *t = 0; }\n")
    assert "cannot link" in _one_error(cli("run", LINK / "timer.f", "--link", src))


def test_no_compiler_is_one_error(tmp_path):
    out = cli("run", LINK / "timer.f", "--link", LINK / "wtime.c", env={"PATH": str(tmp_path), "PYTHONPATH":
                                                                          str(Path(__file__).resolve().parents[2])})
    assert _one_error(out) == f"autodist: error: {LINK / 'wtime.c'}: --link: no cc or gcc found to compile it\n"


def test_a_file_that_is_no_library_is_one_error(tmp_path):
    junk = tmp_path / "libjunk.so"
    junk.write_text("junk\n")
    assert f"{junk}: --link: cannot load it:" in _one_error(cli("run", LINK / "timer.f", "--link", junk))
    with pytest.raises(AutodistError):
        link.load(link.build(link.link_files([str(junk)]), tmp_path), tmp_path)


@requires_cc
def test_routines_still_missing_are_listed_with_the_link_files(tmp_path):
    err = _one_error(cli("run", LINK / "axpy.f", "--link", LINK / "wtime.c"))
    program = LINK / "axpy.f"
    assert (f"{program}:21: routines in neither the program nor the --link files ({LINK / 'wtime.c'}): "
            f"DAXPY (called at {program}:21, {program}:22); DDOT (called at {program}:24, {program}:26); "
            f"DSCAL (called at {program}:23)") in err


def test_without_link_the_error_says_how_to_give_them():
    err = _one_error(cli("run", LINK / "timer.f"))
    assert err.endswith(f"WTIME (called at {LINK / 'timer.f'}:11, {LINK / 'timer.f'}:24) "
                        "(give their sources or a shared library with --link FILE)\n")
