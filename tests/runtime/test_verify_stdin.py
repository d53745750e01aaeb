"""`run --verify` of a program reading standard input: the references (the
sequential run, the gfortran binary) get the input the run under test read,
not a stream it already consumed (a tolerance and a file name read with
READ (*,*) ended as 'end of file on unit 5' in the sequential reference)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import requires_gfortran

PROGRAM = """\
      PROGRAM READS
      INTEGER N, I
      DOUBLE PRECISION EPS, X(100)
      CHARACTER*16 NAME
      READ (*, *) EPS
      READ (*, '(A)') NAME
      READ (*, *) N
      DO 10 I = 1, 100
         X(I) = EPS * DBLE(I * N)
   10 CONTINUE
      WRITE (*, *) 'NAME ', NAME, ' SUM ', X(1) + X(100)
      END
"""


@pytest.mark.mpi
@requires_gfortran
@pytest.mark.parametrize("nranks", ["1", "2"])
def test_verify_feeds_the_references_the_input_the_run_read(tmp_path, nranks):
    src = tmp_path / "reads.f"
    src.write_text(PROGRAM)
    done = subprocess.run([sys.executable, "-m", "autodist", "run", "-q", "-np", nranks, "--verify", str(src)],
                          input="0.5\nplate.out\n7\nnot read\n", capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "NAME plate.out" in done.stdout and "353.5" in done.stdout
    assert "same results as the sequential run" in done.stderr
    assert "same results as gfortran" in done.stderr
