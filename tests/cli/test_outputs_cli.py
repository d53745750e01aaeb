"""What commands write: never a file the run reads, never two outputs on one file,
annotated sources byte-identical outside the directives, the umask's mode."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

from autodist.cli import main

LOOP = ("      PROGRAM P\r\n      REAL A(100)\r\nC     caf\xe9 \r (a lone CR)\r\n      DO 10 I = 1, 100\r\n"
        "   10 A(I) = I\r\n      PRINT *, A(5)\r\n      END")


def test_annotate_changes_nothing_but_the_directives(tmp_path):
    src = tmp_path / "p.f"
    src.write_bytes(LOOP.encode("latin-1"))  # CR LF, a Latin-1 byte, a lone CR, no final newline
    out = tmp_path / "p_hpf.f"
    assert main(["annotate", "-q", str(src), "-o", str(out)]) == 0
    got = out.read_bytes()
    kept = [line for line in got.split(b"\r\n") if not line.upper().startswith(b"CHPF$")]
    assert kept == LOOP.encode("latin-1").split(b"\r\n")
    assert got.count(b"\n") == got.count(b"\r\n") and not got.endswith(b"\n")
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~mask
    # to stdout: the same bytes
    done = subprocess.run([sys.executable, "-m", "autodist", "annotate", "-q", str(src)], capture_output=True)
    assert done.returncode == 0 and done.stdout == got


def test_no_output_replaces_an_input_or_another_output(tmp_path, capsys):
    (tmp_path / "sz.h").write_text("      INTEGER N\n      PARAMETER (N = 10)\n")
    src = tmp_path / "p.f"
    src.write_text("      PROGRAM P\n      INCLUDE 'sz.h'\n      REAL A(N)\n      DO 1 I = 1, N\n"
                   "    1 A(I) = I\n      PRINT *, A(N)\n      END\n")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    cases = [
        (["annotate", str(src), "-o", str(tmp_path / "out.f"), "--report", str(src)], "refusing to overwrite"),
        (["annotate", str(src), "-o", str(tmp_path / "x.f"), "--report", str(tmp_path / "x.f")], "the same file as"),
        (["annotate", str(src), "-o", str(tmp_path / "sz.h")], "refusing to overwrite"),
        (["annotate", str(src), "-o", str(tmp_path / "o.f"), "--db", str(tmp_path / "o.f")], "the same file as"),
        (["run", str(src), "--dump", str(tmp_path / "sz.h")], "refusing to overwrite the input file"),
        (["run", str(src), "--dump", str(tmp_path / "d.npz"), "--report", str(tmp_path / "d.npz")],
         "the same file as"),
        (["run", str(src), "--dump", str(tmp_path)], "is a directory"),
        (["profile", str(src), "-o", str(tmp_path / "sz.h")], "refusing to overwrite the input file"),
    ]
    for argv, message in cases:
        assert main(argv + ["-q"]) == 2, argv
        err = capsys.readouterr().err.strip()
        assert message in err and err.count("\n") == 0, (argv, err)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_annotate_into_a_directory_writes_the_whole_program(tmp_path):
    (tmp_path / "sub.f").write_text("      SUBROUTINE S(X)\n      REAL X\n      X = 2.0 * X\n      END\n")
    (tmp_path / "m.f").write_text("      PROGRAM M\n      REAL A(64)\n      DO 1 I = 1, 64\n    1 A(I) = I\n"
                                  "      CALL S(A(3))\n      PRINT *, A(3)\n      END\n")
    out = tmp_path / "out"
    out.mkdir()
    assert main(["annotate", "-q", str(tmp_path / "m.f"), str(tmp_path / "sub.f"), "-o", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["m.f", "sub.f"]
    assert (out / "sub.f").read_bytes() == (tmp_path / "sub.f").read_bytes()
