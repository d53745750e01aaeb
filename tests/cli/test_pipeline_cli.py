"""The pipeline driver as a user meets it: ``-v`` prints the time of every
stage, and a bug inside a stage is reported naming the stage."""

from __future__ import annotations

import re

import pytest

import autodist.pipeline
from autodist.cli import main
from autodist.errors import HpfError

from ..conftest import SAMPLES

TRANSPOSE = str(SAMPLES / "transpose.f")
STAGE_LINE = re.compile(r"^autodist: stage ([a-z-]+) \d+\.\d{3} s( \(\d+ runs\))?$")


def stage_lines(err: str) -> dict[str, str]:
    out = {}
    for line in err.splitlines():
        m = STAGE_LINE.match(line)
        if m:
            out[m.group(1)] = line
    return out


def test_verbose_analyze_prints_the_read_and_analysis_times(capsys):
    assert main(["analyze", TRANSPOSE, "-v"]) == 0
    out, err = capsys.readouterr()
    assert "PROGRAM" in out and "autodist: stage" not in out
    assert list(stage_lines(err)) == ["read", "analysis"]


def test_verbose_compare_prints_every_stage_once_in_order(capsys):
    assert main(["compare", TRANSPOSE, "--procs", "2,4", "-q", "-v"]) == 0
    lines = stage_lines(capsys.readouterr().err)
    assert list(lines) == ["read", "analysis", "arrays", "alignment", "directives", "evaluation", "plan"]
    # aligned once for both processor counts, evaluated and planned per count
    assert "runs" not in lines["alignment"]
    assert lines["plan"].endswith("(2 runs)") and lines["evaluation"].endswith("(2 runs)")


def test_verbose_annotate_times_the_annotation_too(tmp_path, capsys):
    out = tmp_path / "t.f"
    assert main(["annotate", TRANSPOSE, "-o", str(out), "-v"]) == 0
    assert "annotate" in stage_lines(capsys.readouterr().err)


def test_verbose_sweep_plans_each_point_once(capsys):
    assert main(["sweep", TRANSPOSE, "--procs", "1,2,4", "-q", "-v"]) == 0
    lines = stage_lines(capsys.readouterr().err)
    assert "runs" not in lines["analysis"] and "runs" not in lines["alignment"]
    # the point at one processor is also the sequential reference: planned once
    assert lines["plan"].endswith("(3 runs)")


def test_without_verbose_no_stage_times(capsys):
    assert main(["compare", TRANSPOSE, "--procs", "2"]) == 0
    assert "autodist: stage" not in capsys.readouterr().err


def _boom(*args, **kwargs):
    raise RuntimeError("boom")


@pytest.mark.parametrize("stage, function", [
    ("analysis", "analyze"),
    ("arrays", "build_array_table"),
    ("alignment", "align_program"),
    ("directives", "user_layouts"),
    ("evaluation", "Evaluator"),
    ("plan", "make_plan"),
])
@pytest.mark.parametrize("command", [["annotate"], ["compare", "--procs", "2,4"], ["sweep", "--procs", "2,4"]])
def test_an_internal_error_names_its_stage(monkeypatch, capsys, stage, function, command):
    monkeypatch.setattr(autodist.pipeline, function, _boom)
    assert main([command[0], TRANSPOSE, *command[1:], "-q"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith(f"autodist: internal error in stage {stage}: RuntimeError: boom (at test_pipeline_cli.py:")
    assert "rerun with --verbose for the traceback" in err


def test_a_bug_while_reading_names_the_read_stage(monkeypatch, capsys):
    import autodist.frontend

    monkeypatch.setattr(autodist.frontend, "read_program", _boom)
    assert main(["analyze", TRANSPOSE]) == 3
    assert capsys.readouterr().err.startswith("autodist: internal error in stage read: RuntimeError: boom")


def test_verbose_internal_error_shows_the_traceback_and_the_stage(monkeypatch, capsys):
    monkeypatch.setattr(autodist.pipeline, "align_program", _boom)
    assert main(["compare", TRANSPOSE, "-q", "-v"]) == 3
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "RuntimeError: boom" in err
    assert err.splitlines()[-1] == "autodist: internal error in stage alignment"


def test_a_user_error_inside_a_stage_stays_a_user_error(monkeypatch, capsys):
    def refuse(*args, **kwargs):
        raise HpfError("a directive that makes no sense", "t.f", 3)

    monkeypatch.setattr(autodist.pipeline, "user_layouts", refuse)
    assert main(["annotate", TRANSPOSE, "-q"]) == 2
    assert capsys.readouterr().err == "autodist: error: t.f:3: a directive that makes no sense\n"


def test_an_internal_error_outside_the_stages_names_none(monkeypatch, capsys, tmp_path):
    import autodist.commands.annotate

    monkeypatch.setattr(autodist.commands.annotate, "plan_json", _boom)
    assert main(["annotate", TRANSPOSE, "-q", "--report", str(tmp_path / "r.json")]) == 3
    assert capsys.readouterr().err.startswith("autodist: internal error: RuntimeError: boom")
