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


def _corpus_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location("corpus_script", ROOT / "benchmarks" / "corpus.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_output_lines_the_original_prints_only_on_some_runs_are_accepted():
    corpus = _corpus_module()
    first = ["KERNEL 1", "VERIFY: POOR TIMING OR ERROR", "CHECKSUM 12.5", "END"]
    second = ["KERNEL 1", "CHECKSUM 12.5", "END"]  # the original's second run: no warning
    annotated = ["KERNEL 1", "CHECKSUM 12.5", "END"]
    # unexplained before the second run of the original is known
    assert corpus._first_unexplained(first, annotated, set()) == 1
    varying = {line for block in corpus._blocks(first, second) for side in block for line in side}
    assert corpus._first_unexplained(first, annotated, varying) is None
    # a result that differs stays a difference, even beside a varying line
    wrong = ["KERNEL 1", "CHECKSUM 12.6", "END"]
    assert corpus._first_unexplained(first, wrong, varying) == 1
    # pairs of lines that both report a time are accepted; a line missing is not
    assert corpus._first_unexplained(["CPU TIME 1.0", "X"], ["CPU TIME 2.0", "X"], set()) is None
    assert corpus._first_unexplained(["A", "B"], ["A"], set()) == 1
