"""benchmarks/corpus.py as its user runs it: every step of a small folder of programs,
the run as written and as annotated both verified against gfortran."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STENCIL = """\
      PROGRAM MAIN
      INTEGER N, I
      PARAMETER (N = 40)
      REAL A(N), B(N), S
      DO 10 I = 1, N
         A(I) = I
   10 CONTINUE
      DO 20 I = 2, N - 1
         B(I) = A(I-1) + A(I+1)
   20 CONTINUE
      S = 0
      DO 30 I = 2, N - 1
         S = S + B(I)
   30 CONTINUE
      PRINT *, 'SUM', S
      END
"""


@pytest.mark.skipif(shutil.which("gfortran") is None or shutil.which("mpiexec") is None,
                    reason="needs gfortran and mpiexec")
def test_every_step_runs_written_and_annotated(tmp_path):
    folder = tmp_path / "corpus" / "stencil"
    folder.mkdir(parents=True)
    (folder / "main.f").write_text(STENCIL)
    out = tmp_path / "result.json"
    # DIR relative to where the user stands (the builds run in scratch folders)
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "corpus.py"), "corpus",
                           "--build", "--output", "--run", "2", "--timeout", "120", "--json", str(out)],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (prog,) = json.loads(out.read_text())
    outcomes = {name: step["outcome"] for name, step in prog["steps"].items()}
    assert outcomes == {"analyze": "ok", "annotate": "ok", "build": "ok", "output": "same", "run": "ok",
                        "run-ann": "ok"}
    assert "run-ann : 1 run, 1 ok" in done.stdout
