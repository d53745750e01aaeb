"""READ, files and internal files: the readers on their own (list-directed and
formatted rules as gfortran reads), and whole programs under ``autodist run``
at 1-4 ranks against the gfortran binary — standard input, the program's
output and the files it writes, byte for byte."""

from __future__ import annotations

import shutil
import subprocess
import sys

import numpy as np
import pytest

from autodist.runtime.fortran.formats import parse_format
from autodist.runtime.fortran.input import NULL, FormattedReader, IoCondition, ListReader
from tests.conftest import requires_gfortran


def records(*lines):
    pending = list(reversed(lines))
    return lambda: pending.pop() if pending else None


def list_read(lines, kinds):
    rd = ListReader(records(*lines))
    rd.start()
    out = [rd.next(k, n) for k, n in kinds]
    rd.finish()
    return out


def test_list_directed_values_repeats_nulls_and_slash():
    assert list_read(["1, 2.5d0 3*7", "'it''s' T"], [("i", None), ("r8", None), ("i", None), ("i", None),
                                                     ("i", None), ("s", 4), ("l", None)]) \
        == [1, 2.5, 7, 7, 7, "it's", True]
    assert list_read(["1,,3", ""], [("i", None)] * 3) == [1, NULL, 3]
    assert list_read(["4 / 5"], [("i", None)] * 3) == [4, NULL, NULL]
    assert list_read(["2*", "9"], [("i", None)] * 3) == [NULL, NULL, 9]
    z = list_read(["(1.5, -2)"], [("c16", None)])[0]
    assert z == complex(1.5, -2)
    assert list_read([".FALSE. abc"], [("l", None), ("s", 2)]) == [False, "ab"]
    r = list_read(["0.1"], [("r4", None)])[0]
    assert isinstance(r, np.float32) and r == np.float32(0.1)


def test_list_directed_errors_and_end_of_file():
    with pytest.raises(IoCondition) as exc:
        list_read(["1.5"], [("i", None)])
    assert exc.value.iostat > 0 and "bad integer" in exc.value.message
    with pytest.raises(IoCondition) as exc:
        list_read(["1"], [("i", None), ("i", None)])
    assert exc.value.iostat == -1
    with pytest.raises(IoCondition):
        list_read([], [])


def test_formatted_fields_implied_decimals_blanks_and_reversion():
    rd = FormattedReader(parse_format("(I3, F6.2, 2X, A4, L2)"), records(" 12  1234xxabcd T", "  7"))
    rd.start()
    assert [rd.next("i"), rd.next("r8"), rd.next("s", 6), rd.next("l")] == [12, 12.34, "abcd  ", True]
    rd = FormattedReader(parse_format("(2I2)"), records("1 2 3", "4"))
    rd.start()
    assert [rd.next("i") for _ in range(3)] == [1, 2, 4]  # blanks ignored (BN), then a new record
    rd = FormattedReader(parse_format("(BZ, I3, E8.3)"), records("1 1 1.5E+01"))
    rd.start()
    assert [rd.next("i"), rd.next("r8")] == [101, 15.0]
    rd = FormattedReader(parse_format("(A3)"), records("abcdef"))
    rd.start()
    assert rd.next("s", 2) == "bc"  # Aw wider than the variable: its rightmost characters


PROGRAM = """\
      PROGRAM RD
      INTEGER N, I, IOS, K
      REAL A(8)
      DOUBLE PRECISION D
      CHARACTER*8 NAME
      CHARACTER*20 LINE
      LOGICAL L, EX
CHPF$ DISTRIBUTE A(BLOCK)
      READ (*, *) N, D
      READ (*, *) (A(I), I = 1, N)
      READ (5, '(A8, I3, L2)') NAME, K, L
      PRINT *, N, D, NAME, K, L
      PRINT '(8F8.3)', A
      OPEN (UNIT=11, FILE='data.out', STATUS='UNKNOWN')
      DO 10 I = 1, N
         WRITE (11, '(I4, 1X, E12.5)') I, A(I)
 10   CONTINUE
      WRITE (11, *) 'LAST', N, D
      CLOSE (11)
      OPEN (12, FILE='data.out', STATUS='OLD')
      K = 0
 20   READ (12, *, END=30, ERR=25) I, A(I)
      K = K + 1
      GOTO 20
 25   PRINT *, 'BAD RECORD AFTER', K
 30   PRINT *, 'RECORDS', K
      REWIND 12
      READ (12, '(I4)', IOSTAT=IOS) I
      PRINT *, 'FIRST', I, IOS
      BACKSPACE 12
      READ (12, '(5X, E12.5)') A(1)
      PRINT *, A(1)
      CLOSE (12)
      WRITE (LINE, '(A, I5)') 'N=', N
      PRINT *, LINE
      READ (LINE(3:), *) K
      PRINT *, K + 1
      INQUIRE (FILE='data.out', EXIST=EX)
      INQUIRE (FILE='none.out', EXIST=L)
      PRINT *, EX, L
      OPEN (13, FILE='new.out', STATUS='NEW')
      WRITE (13, '(3I3)') (I, I = 1, 7)
      ENDFILE 13
      CLOSE (13)
      WRITE (14, '(A)') 'unopened unit'
      READ (*, *, IOSTAT=IOS) K
      PRINT *, 'EOF', IOS
      READ (*, *, IOSTAT=IOS) K
      PRINT *, 'AFTER EOF', IOS
      OPEN (12, FILE='data.out', STATUS='OLD', POSITION='APPEND')
      BACKSPACE 12
      READ (12, *, END=40) NAME, K
      PRINT *, NAME, K
      READ (12, *, END=40) K
      PRINT *, 'NOT HERE'
 40   PRINT *, 'END'
      END
"""

INPUT = "5, 2.5D0\n1.5 2*3.25 , -4e1\n7\nabcdefgh 42 T\n"
WRITTEN = ("data.out", "new.out", "fort.14")


def _run(cmd, cwd, stdin):
    return subprocess.run(cmd, cwd=cwd, input=stdin.encode(), capture_output=True, timeout=300)


#: Standard units connected to files and closed (Perfect Club codes write
#: their results with OPEN (6, FILE=...)): PRINT and WRITE (*) follow unit 6,
#: a closed standard unit is an ordinary one (fort.6), an OPEN without FILE=
#: leaves a unit where it is.
STANDARD_UNITS = """\
      PROGRAM SU
      INTEGER I, N
      REAL X
      OPEN (5, FILE='in5.dat', STATUS='OLD')
      READ (5, *) N, X
      READ (*, *) I
      PRINT *, 'TO STDOUT', N, X, I
      OPEN (6, FILE='out6.dat')
      WRITE (6, 10) N, X
   10 FORMAT (' N =', I4, ' X =', F8.3)
      DO I = 1, N
        WRITE (6, *) I, I * X
      END DO
      PRINT *, 'PRINT FOLLOWS UNIT 6'
      OPEN (6, FILE='out6.dat')
      WRITE (*, *) 'STILL THERE'
      CLOSE (6)
      PRINT *, 'AFTER CLOSE'
      OPEN (6)
      WRITE (6, *) 'REOPENED'
      CLOSE (5)
      READ (5, *, IOSTAT=I) N
      WRITE (0, *) 'TO STDERR'
      END
"""


def _same_as_gfortran(tmp_path, program: str, stdin: str, written: tuple[str, ...], inputs=()):
    ref = tmp_path / "gf"
    ref.mkdir()
    (ref / "rd.f").write_text(program)
    for name, text in inputs:
        (ref / name).write_text(text)
    subprocess.run([shutil.which("gfortran"), "-O2", "-o", "rd", "rd.f"], cwd=ref, check=True)
    expected = _run(["./rd"], ref, stdin)
    assert expected.returncode == 0
    for n in (1, 2, 3, 4):
        wd = tmp_path / f"np{n}"
        wd.mkdir()
        (wd / "rd.f").write_text(program)
        for name, text in inputs:
            (wd / name).write_text(text)
        got = _run([sys.executable, "-m", "autodist", "run", "rd.f", "-np", str(n)], wd, stdin)
        assert got.returncode == 0, got.stderr
        assert got.stdout == expected.stdout, n
        for f in written:
            assert (wd / f).read_bytes() == (ref / f).read_bytes(), (n, f)


@requires_gfortran
def test_input_and_files_equal_gfortran_at_1_to_4_ranks(tmp_path):
    _same_as_gfortran(tmp_path, PROGRAM, INPUT, WRITTEN)


@requires_gfortran
def test_standard_units_connected_to_files_and_closed_as_gfortran_at_1_to_4_ranks(tmp_path):
    _same_as_gfortran(tmp_path, STANDARD_UNITS, "", ("out6.dat", "fort.6", "fort.5"),
                      inputs=(("in5.dat", "3 1.5\n7\n"), ("fort.5", "9\n")))


@pytest.mark.parametrize("body, message", [
    ("      READ (*, *) K\n", "rd.f:3: end of file on unit 5"),
    ("      OPEN (9, FILE='missing.dat', STATUS='OLD')\n", "rd.f:3: cannot open file 'missing.dat'"),
    ("      READ (*, *) K\n      READ (*, *) K\n", "rd.f:4: bad integer 'x'"),
])
def test_input_errors_are_one_line_with_file_and_line(tmp_path, body, message):
    (tmp_path / "rd.f").write_text(f"      PROGRAM RD\n      INTEGER K\n{body}      END\n")
    got = _run([sys.executable, "-m", "autodist", "run", "rd.f", "-np", "2"], tmp_path, "" if "5" in message else "1\nx\n")
    assert got.returncode != 0
    err = got.stderr.decode()
    assert message in err and "Traceback" not in err, err


BIG_INPUT = """\
      PROGRAM BIG
      INTEGER N, I, V
      PARAMETER (N = 20000)
      REAL S(N, 4), T(4)
      DO 10 V = 1, 4
         READ *, (S(I, V), I = 1, N)
   10 CONTINUE
      DO 20 V = 1, 4
         T(V) = 0.0
         DO 20 I = 1, N
            T(V) = T(V) + S(I, V)
   20 CONTINUE
      PRINT *, T
      END
"""


@pytest.mark.mpi
def test_a_large_input_file_given_as_standard_input_is_read_on_several_ranks(tmp_path):
    """The MPI process manager forwards standard input through a pipe and gives
    up on a rank that does not read it as fast as it comes ("reading stdin too
    slowly"); a file given as standard input is read by rank 0 directly."""
    (tmp_path / "big.f").write_text(BIG_INPUT)
    values = "\n".join(" ".join(f"{(k * 8 + j) % 97 * 0.25:.2f}" for j in range(8)) for k in range(10000))
    (tmp_path / "input").write_text(values + "\n")
    assert len(values) > 400_000
    with open(tmp_path / "input", "rb") as given:
        done = subprocess.run([sys.executable, "-m", "autodist", "run", "big.f", "-np", "2"],
                              cwd=tmp_path, stdin=given, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode()
    sums = [float(x) for x in done.stdout.decode().split()[:4]]
    expected = np.zeros(4)
    flat = [float(x) for x in values.split()]
    for v in range(4):
        expected[v] = np.float32(sum(np.float32(x) for x in flat[v * 20000:(v + 1) * 20000]))
    assert np.allclose(sums, expected, rtol=1e-4)
