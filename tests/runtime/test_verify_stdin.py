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


@pytest.mark.parametrize("given", ["pipe", "file"])
@pytest.mark.mpi
@requires_gfortran
def test_verify_reads_a_file_given_as_input_once_on_two_ranks(tmp_path, given):
    """A file as standard input goes to rank 0 directly (not through the MPI
    process manager); the references still get what the run read."""
    src = tmp_path / "reads.f"
    src.write_text(PROGRAM)
    data = tmp_path / "data"
    data.write_text("0.5\nplate.out\n7\nnot read\n")
    with open(data, "rb") as f:
        done = subprocess.run([sys.executable, "-m", "autodist", "run", "-q", "-np", "2", "--verify", str(src)],
                              stdin=f if given == "file" else None, input=None if given == "file" else data.read_bytes(),
                              capture_output=True, timeout=300, cwd=tmp_path)
    err = done.stderr.decode()
    assert done.returncode == 0, err
    assert "same results as gfortran" in err and "NAME plate.out" in done.stdout.decode()


def test_a_gfortran_reference_that_crashes_is_skipped_and_said(tmp_path, monkeypatch, capsys):
    from autodist.cli import main
    from autodist.runtime.job import verify

    monkeypatch.setattr(verify, "gfortran_available", lambda: "gfortran")
    monkeypatch.setattr(verify, "run_gfortran", lambda *a, **k: verify.GfortranRun("", {}, -11))
    src = tmp_path / "p.f"
    src.write_text("      PROGRAM P\n      PRINT *, 42\n      END\n")
    assert main(["run", "-np", "1", "--verify", str(src)]) == 0
    err = capsys.readouterr().err
    assert "gfortran reference skipped: the gfortran build of the program was killed by signal 11 (SIGSEGV)" in err
    assert "same results as the sequential run" in err and "MISMATCH" not in err
