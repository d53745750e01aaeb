"""The prepared programs ``autodist run`` keeps on disk (runtime/job/prepared.py):
used again only while every file the program was read from is the same and
no file appears where an INCLUDE could find it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from autodist.runtime.job.prepared import from_cache
from autodist.runtime.job.runner import prepare

MAIN = """\
      PROGRAM P
      INCLUDE 'sizes.h'
      DOUBLE PRECISION A(N)
      INTEGER I
      DO 10 I = 1, N
         A(I) = DBLE(I)
   10 CONTINUE
      PRINT *, A(N)
      END
"""


@pytest.fixture
def program(tmp_path, monkeypatch):
    """A program with an INCLUDE, in its own folder (the working folder), and a cache of its own."""
    monkeypatch.setenv("AUTODIST_CACHE", str(tmp_path / "cache"))
    src = tmp_path / "src"
    (src / "inc").mkdir(parents=True)
    (src / "p.f").write_text(MAIN)
    (src / "inc" / "sizes.h").write_text("      INTEGER N\n      PARAMETER (N = 5)\n")
    monkeypatch.chdir(src)
    return src


def _prepared(builds: list, include=("inc",), defines=()):
    def build():
        builds.append(1)
        return prepare(["p.f"], include)
    return from_cache(["p.f"], list(include), list(defines), None, [], build)


def test_the_second_run_uses_the_prepared_program_until_a_file_changes(program):
    builds: list = []
    first = _prepared(builds)
    again = _prepared(builds)
    assert len(builds) == 1
    assert again[0].sources == first[0].sources and [u.name for u in again[0].units] == ["P"]
    (program / "inc" / "sizes.h").write_text("      INTEGER N\n      PARAMETER (N = 7)\n")  # an INCLUDE'd file
    changed = _prepared(builds)
    assert len(builds) == 2 and "PARAMETER (N = 7)" in "".join(dict(changed[0].sources)["inc/sizes.h"])
    _prepared(builds, defines=("X=1",))  # other options: another entry
    assert len(builds) == 3


def test_a_file_that_would_shadow_an_include_makes_the_entry_stale(program):
    builds: list = []
    _prepared(builds)
    (program / "sizes.h").write_text("      INTEGER N\n      PARAMETER (N = 9)\n")  # found first now
    got = _prepared(builds)
    assert len(builds) == 2 and "sizes.h" in dict(got[0].sources)


def test_runs_from_the_cache_print_what_the_source_says_now(program):
    env = {**os.environ}
    def run():
        done = subprocess.run([sys.executable, "-m", "autodist", "run", "p.f", "-I", "inc", "-q"], capture_output=True,
                              text=True, timeout=300, env=env, cwd=program)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()
    assert run() == run() == ["5.0000000000000000"]
    (program / "p.f").write_text(MAIN.replace("DBLE(I)", "DBLE(2 * I)"))
    assert run() == ["10.000000000000000"]
    # the stale entry was replaced: one per key
    assert [p.suffix for p in (program.parent / "cache" / "programs").iterdir()] == [".pickle"]


def test_off_when_asked(program, monkeypatch):
    monkeypatch.setenv("AUTODIST_PROGRAM_CACHE", "0")
    builds: list = []
    _prepared(builds)
    _prepared(builds)
    assert len(builds) == 2 and not (program.parent / "cache" / "programs").exists()
