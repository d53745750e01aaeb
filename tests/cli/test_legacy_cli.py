"""Constructs of real legacy programs through `analyze` and `annotate` (issue 11).

Each test program in tests/programs/legacy reproduces one construct that real
Fortran 77 applications use; each must be read, analyzed and annotated, with
no internal error and a sound (conservative) result."""

from __future__ import annotations

import json

import pytest

from autodist.cli import main

from ..conftest import PROGRAMS

LEGACY = PROGRAMS / "legacy"


def run(capsys, *args):
    code = main([*map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def analyze(capsys, *files):
    code, out, err = run(capsys, "analyze", "-q", "--format", "json", *files)
    assert code == 0, err
    return json.loads(out)


def annotate(capsys, tmp_path, *files, extra=()):
    out = tmp_path / "out"
    out.mkdir()
    code, _, err = run(capsys, "annotate", "-q", "--machine", "ddt1997", "--procs", "4", *files, "-o", out, *extra)
    assert code == 0, err
    return out


def test_a_routine_called_with_arrays_of_two_shapes_is_annotated(capsys, tmp_path):
    # FILL is called with X(21) and with T(201) from a subroutine: the call
    # phases' candidates do not map both; no internal error in selection
    out = annotate(capsys, tmp_path, LEGACY / "fill_twice.f")
    assert "DISTRIBUTE" in (out / "fill_twice.f").read_text().upper()
