"""Storage association across units through `analyze` and `annotate`: a COMMON
block declared differently in two units, a dummy of another rank than its
actual.  Such arrays are replicated with the reason in the report (HPF maps no
sequence-associated array), never an internal error."""

from __future__ import annotations

import json

from autodist.cli import main

from ..conftest import PROGRAMS

STORAGE = PROGRAMS / "storage"


def run(capsys, *args):
    code = main([*map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def annotate(capsys, tmp_path, name):
    report = tmp_path / "report.json"
    code, _, err = run(capsys, "annotate", "-q", "--machine", "ddt1997", "--procs", "4", STORAGE / name,
                       "-o", tmp_path / name, "--report", report)
    assert code == 0, err
    doc = json.loads(report.read_text())
    return (tmp_path / name).read_text(), {r["array"]: r["reason"] for r in doc["replicated"]}


def test_a_common_block_declared_with_other_ranks_is_replicated(capsys, tmp_path):
    text, replicated = annotate(capsys, tmp_path, "common_shapes.f")
    why = "COMMON /B/ declared differently in SHAPES and TWICE (storage associated)"
    assert replicated == {"SHAPES.A": why, "TWICE.A": why, "C": why, "D": why}
    assert "DISTRIBUTE" not in text.upper()


def test_a_call_writes_what_another_declaration_of_the_block_overlays(capsys):
    # SETZ writes Z(51:100), which is Y in the main program: the CALL phase
    # writes X and Y (the whole block), not only the first member
    code, out, err = run(capsys, "analyze", "-q", "--format", "json", STORAGE / "common_overlay.f")
    assert code == 0, err
    main_unit = next(p for p in json.loads(out)["procedures"] if p["name"] == "OVER")
    call = next(ph for ph in main_unit["phases"] if ph["kind"] == "call")
    assert set(call["writes"]) == {"X", "Y"}


def test_an_array_passed_to_an_assumed_size_dummy_of_another_rank_is_replicated(capsys, tmp_path):
    _, replicated = annotate(capsys, tmp_path, "assumed_rank.f")
    assert replicated["ASSUME.T"] == "passed to ZERO as T with another shape"
    assert replicated["ZERO.T"].startswith("passed T of another shape at ")
