"""`run --verify --verify-skip REGEX`: printed lines matching are left out of
the output comparison (a program's timings differ from run to run and from
gfortran's); everything else is still compared."""

from __future__ import annotations

import subprocess
import sys

import pytest

from autodist.runtime.job.verify import compare_output
from tests.conftest import requires_gfortran


def test_skipped_lines_are_left_out_on_both_sides_and_the_rest_compared():
    got = " Time in seconds = 0.53\n result 42\n"
    ref = " Time in seconds = 0.10\n Compile date = 4 Dec\n result 42\n"
    assert compare_output(got, ref) is not None
    assert compare_output(got, ref, skip=("Time in seconds", "date")) is None
    assert compare_output(got.replace("42", "43"), ref, skip=("Time in seconds", "date")) is not None


PROGRAM = """\
      PROGRAM TIMED
      INTEGER I, C0, C1, RATE
      DOUBLE PRECISION S
      CALL SYSTEM_CLOCK(C0, RATE)
      S = 0.0D0
      DO 10 I = 1, 100000
         S = S + DBLE(I)
   10 CONTINUE
      CALL SYSTEM_CLOCK(C1)
      WRITE (*, *) 'TICKS ', C1 - C0 + C0
      WRITE (*, *) 'SUM ', S
      END
"""


def _run(tmp_path, *extra):
    src = tmp_path / "timed.f"
    src.write_text(PROGRAM)
    return subprocess.run([sys.executable, "-m", "autodist", "run", "-q", "-np", "2", "--verify", *extra, str(src)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)


@pytest.mark.mpi
@requires_gfortran
def test_a_printed_clock_is_left_out_or_skipped(tmp_path):
    # the clock differs between gfortran's runs too, so verify leaves that word out itself
    plain = _run(tmp_path)
    assert plain.returncode == 0 and "1 printed word(s) left out" in plain.stderr, plain.stderr
    skipped = _run(tmp_path, "--verify-skip", "TICKS")
    assert skipped.returncode == 0, skipped.stderr
    assert "same results as gfortran" in skipped.stderr


def test_a_bad_regular_expression_is_one_line_and_exit_2(tmp_path):
    src = tmp_path / "timed.f"
    src.write_text(PROGRAM)
    done = subprocess.run([sys.executable, "-m", "autodist", "run", "--verify", "--verify-skip", "(", str(src)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("autodist: error: --verify-skip '(': not a regular expression")
