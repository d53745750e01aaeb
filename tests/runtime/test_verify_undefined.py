"""`run --verify` leaves out what the program leaves undefined: an element the
program never sets holds whatever memory held under gfortran, so when the
comparison finds a difference the original runs twice more with uninitialized
variables set to other values, and elements and printed words that differ
between those runs are not compared; everything else still is."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from autodist.runtime.job.verify import GfortranRun, compare_arrays, compare_output, reference_noise
from tests.conftest import requires_gfortran


def test_noise_is_where_any_two_reference_runs_differ():
    first = GfortranRun(" A 1.5 T 7\n", {"P.X": np.array([1.0, 2.0, 3.0, np.nan])}, 0)
    nan_init = GfortranRun(" A 1.5 NaN 7\n", {"P.X": np.array([1.0, np.nan, 3.0, np.nan])}, 0)
    inf_init = GfortranRun(" A 1.5 Infinity 7\n", {"P.X": np.array([1.0, np.inf, 3.0, np.nan])}, 0)
    noise = reference_noise(first, [nan_init, inf_init])
    assert noise.arrays["P.X"].tolist() == [False, True, False, False] and noise.words == {2}
    got = {"P.X": np.array([1.0, 0.0, 3.0, np.nan])}
    assert compare_arrays(got, first.arrays, {}) is not None
    assert compare_arrays(got, first.arrays, {}, noise=noise) is None
    wrong = {"P.X": np.array([1.0, 0.0, 3.5, np.nan])}  # a defined element that differs is still found
    assert "P.X(3)" in str(compare_arrays(wrong, first.arrays, {}, noise=noise))
    assert compare_output(" A 1.5 0.0 7\n", first.stdout, noise=noise) is None
    assert compare_output(" A 1.5 0.0 8\n", first.stdout, noise=noise) is not None


PROGRAM = """\
      PROGRAM HOLES
      INTEGER N, I
      PARAMETER (N = 40)
      REAL A(N), B(N)
      LOGICAL L(N)
      DO 10 I = 1, N, 2
         A(I) = 0.5 * I
         L(I) = A(I) .GT. 5.0
   10 CONTINUE
      DO 20 I = 1, N - 1, 2
         B(I) = A(I) + 1.0
   20 CONTINUE
      PRINT *, A(1), A(N - 1), B(N - 1)
      PRINT *, A(N)
      END
"""


def _run(tmp_path, text):
    src = tmp_path / "holes.f"
    src.write_text(text)
    return subprocess.run([sys.executable, "-m", "autodist", "run", "-q", "-np", "2", "--verify", str(src)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)


@pytest.mark.mpi
@requires_gfortran
def test_elements_and_words_the_program_never_defines_are_left_out(tmp_path):
    done = _run(tmp_path, PROGRAM)
    assert done.returncode == 0, done.stderr
    line = next(l for l in done.stderr.splitlines() if "as gfortran" in l)
    assert line.startswith("autodist: verify: same results as gfortran")
    # A, B and L have their even elements undefined, and A(N) is printed; when the
    # stack held zeros there under gfortran, nothing differed and nothing was left out
    assert "left out" not in line or "60 element(s) and 1 printed word(s) left out" in line, line


@pytest.mark.mpi
@requires_gfortran
def test_a_source_named_without_a_fortran_suffix_is_compared_with_gfortran(tmp_path):
    # annotate -o out writes a file gfortran would hand to the linker by its name
    src = tmp_path / "annotated_out"
    src.write_text("      PROGRAM P\n      REAL A(4)\n      DO 10 I = 1, 4\n      A(I) = I * 0.5\n"
                   " 10   CONTINUE\n      PRINT *, A(4)\n      END\n")
    done = subprocess.run([sys.executable, "-m", "autodist", "run", "-np", "2", "--verify", str(src)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "verify: same results as gfortran (1 array(s) and the output)" in done.stderr, done.stderr
