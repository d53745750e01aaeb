"""Shared fixtures.  Tests mirror the source tree (tests/frontend, tests/analysis, ...)."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "fortran_samples"
PROFILES = ROOT / "machine_profiles"
#: Small test programs shared by several test modules.
PROGRAMS = ROOT / "tests" / "programs"


@pytest.fixture(scope="session")
def samples_dir() -> Path:
    return SAMPLES


@pytest.fixture(scope="session")
def profiles_dir() -> Path:
    return PROFILES


def write_source(tmp_path: Path, text: str, name: str = "prog.f") -> Path:
    """Write a dedented Fortran snippet to ``tmp_path/name`` and return its path."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


@pytest.fixture
def fortran(tmp_path):
    """``fortran(text, name="prog.f")`` writes a dedented snippet and returns its path."""

    def make(text: str, name: str = "prog.f") -> Path:
        return write_source(tmp_path, text, name)

    return make


requires_gfortran = pytest.mark.skipif(
    shutil.which("gfortran") is None,
    reason="gfortran is not installed (.ci/run installs it from Debian's packages)",
)
