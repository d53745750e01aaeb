"""`autodist run` on constructs of real legacy programs (issue 13): routines
passed as arguments, automatic arrays, EXIT and CYCLE, EQUIVALENCE of an
array declared after it.  Their results against gfortran at 1-4 ranks are
the MPI cases of mpi_cases_legacy.py; here the command line: verify, the
report's reasons for running them uncompiled, and the errors."""

from __future__ import annotations

import json

import pytest

from autodist import ir
from autodist.frontend import read_text

from ..conftest import PROGRAMS
from .test_run_command import cli, requires_gfortran

LEGACY = PROGRAMS / "legacy"


def _reasons(report) -> dict[str, str]:
    return {p["procedure"]: p["reason"] for p in json.loads(report.read_text())["jit"]["procedures"]}


@requires_gfortran
@pytest.mark.gfortran
def test_routines_passed_as_arguments_run_as_gfortran_and_their_callees_stay_uncompiled(tmp_path):
    report = tmp_path / "r.json"
    out = cli("run", str(LEGACY / "dummy_procedures.f"), "-np", "2", "--verify", "--jit-after", "0",
              "--report", str(report))
    assert out.returncode == 0, out.stderr
    assert "same results as gfortran" in out.stderr
    reasons = _reasons(report)
    assert reasons["STEP"] == "dummy procedure BC" and reasons["INTEG"] == "dummy procedure F"
    assert reasons["SQ"] == "" and reasons["BCA"] == ""  # what is passed is compiled itself
    assert reasons["DPROC"].startswith("line ")  # it calls STEP


@requires_gfortran
@pytest.mark.gfortran
def test_automatic_arrays_run_as_gfortran_and_do_not_keep_their_routines_uncompiled(tmp_path):
    report = tmp_path / "r.json"
    out = cli("run", str(LEGACY / "automatic_arrays.f"), "-np", "3", "--verify", "--jit-after", "0",
              "--report", str(report))
    assert out.returncode == 0, out.stderr
    assert "same results as gfortran" in out.stderr
    reasons = _reasons(report)
    assert "automatic array" not in reasons["WORK"] and "automatic array" not in reasons["TOTAL"], reasons


def test_a_routine_passed_but_defined_nowhere_is_one_error_before_anything_runs(tmp_path):
    src = tmp_path / "p.f"
    src.write_text("      PROGRAM P\n      EXTERNAL NOWHERE\n      PRINT *, 'START'\n"
                   "      CALL S(NOWHERE)\n      END\n"
                   "      SUBROUTINE S(F)\n      EXTERNAL F\n      CALL F(1)\n      END\n")
    out = cli("run", str(src), "-np", "2")
    assert out.returncode == 2 and "START" not in out.stdout
    assert "NOWHERE (called at " in out.stderr and "p.f:4" in out.stderr
    assert "Traceback" not in out.stderr and " F (called" not in out.stderr


def test_exit_outside_a_loop_is_one_error_naming_its_line(tmp_path):
    src = tmp_path / "p.f"
    src.write_text("      PROGRAM P\n      INTEGER I\n      I = 1\n      IF (I .GT. 0) EXIT\n      END\n")
    out = cli("run", str(src), "-np", "1")
    assert out.returncode == 2, out.stderr
    assert "p.f:4: EXIT outside a DO loop" in out.stderr


def test_an_equivalence_before_the_dimension_of_its_array_names_an_element():
    text = ("      SUBROUTINE S\n      DOUBLE PRECISION X, H\n      COMMON /C/ X(3, -2:4)\n"
            "      EQUIVALENCE (X(1, -2), H(1, 1))\n      DIMENSION H(3, 3)\n      H(1, 1) = 1.0D0\n      END\n")
    (u,) = read_text(text, "s.f").units
    assert u.symbol("H").kind == "variable" and u.symbol("H").equivalenced
    assert u.equivalences[0][1] == ir.Index("H", (ir.Const(1, ir.INTEGER), ir.Const(1, ir.INTEGER)))
    assert "H" in {s.name for s in u.arrays}


def test_two_dummies_defining_the_same_storage_of_one_actual_is_an_error_not_a_guess(tmp_path):
    # past_declared.f (an MPI case against gfortran) calls SPLIT with two element
    # actuals whose storage overlaps where only one of them stores; here both do,
    # which Fortran forbids and copy-in/copy-out could only order arbitrarily (a
    # compiled SPLIT works on the actual's storage itself and gives gfortran's answer)
    src = tmp_path / "clash.f"
    text = (LEGACY / "past_declared.f").read_text()
    assert "CALL SPLIT(A(1, 4), A(1, 1), N)" in text
    src.write_text(text.replace("CALL SPLIT(A(1, 4), A(1, 1), N)", "CALL SPLIT(A(1, 4), A(1, 3), N)"))
    out = cli("run", str(src), "-np", "2", "--no-jit")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "SPLIT defined the same storage of PASTDC.A through two dummy arguments" in out.stderr


def test_a_strided_section_given_to_a_function_that_defines_it_is_named_in_the_refusal(tmp_path):
    # a CALL stores the copy of a section back after it (strided_sections.f, an MPI
    # case against gfortran); a function reference has no statement to do it after
    src = tmp_path / "sec.f"
    src.write_text("      PROGRAM SEC\n      DOUBLE PRECISION X(0:5), D, DOT\n      X(2) = 1.0D0\n"
                   "      D = DOT(3, X(2:5:2))\n      PRINT *, D\n      END\n"
                   "      DOUBLE PRECISION FUNCTION DOT(N, V)\n      INTEGER N\n      DOUBLE PRECISION V(N)\n"
                   "      V(1) = 2.0D0\n      DOT = V(1)\n      END\n")
    out = cli("run", str(src), "-np", "1")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "sec.f:4: passing array section X(2 : 5 : 2) to array dummy V of FUNCTION DOT, which may define it" \
        in out.stderr
    src.write_text(src.read_text().replace("      V(1) = 2.0D0\n", ""))  # read only: passed as a copy
    out = cli("run", str(src), "-np", "1")
    assert out.returncode == 0, out.stderr
    assert float(out.stdout.split()[0]) == 1.0




def test_a_scalar_given_to_a_function_array_dummy_is_passed_or_named_in_the_refusal(tmp_path):
    # a CALL stores a scalar given to an array dummy back after it (scalar_actuals.f, an
    # MPI case against gfortran); a function reference gets its value when it reads it only
    src = tmp_path / "one.f"
    src.write_text("      PROGRAM ONE\n      DOUBLE PRECISION X, D, F\n      X = 3.0D0\n"
                   "      D = F(X) + F(X + 1.0D0)\n      PRINT *, D, X\n      END\n"
                   "      DOUBLE PRECISION FUNCTION F(V)\n      DOUBLE PRECISION V(1)\n"
                   "      F = 2.0D0 * V(1)\n      END\n")
    out = cli("run", str(src), "-np", "1")
    assert out.returncode == 0, out.stderr
    assert [float(w) for w in out.stdout.split()] == [14.0, 3.0]
    src.write_text(src.read_text().replace("      F = 2.0D0 * V(1)\n", "      V(1) = 1.0D0\n      F = V(1)\n"))
    out = cli("run", str(src), "-np", "1")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "one.f:4: passing scalar X to array dummy V of FUNCTION F, which may define it" in out.stderr
