"""Storage association across units through `analyze` and `annotate`: a COMMON
block declared differently in two units, a dummy of another rank than its
actual.  Such arrays are replicated with the reason in the report (HPF maps no
sequence-associated array), never an internal error."""

from __future__ import annotations

import json
import shutil
import subprocess

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


def test_arrays_passed_to_functions_are_bound_like_call_arguments(capsys, tmp_path):
    # DOT(ND, VEL(1,J), VEL(1,J-1)) and TOT(ND*NP, W): the dummies of a function
    # reference receive sections and a whole array of another rank, as with CALL;
    # no remap is priced between layouts of two shapes (was an internal error)
    # (ND is 3 at every call: the dummies X(N), Y(N) are a column of VEL(3,200), which
    # stays distributable; the dummies inherit the column, see tests/mapping/test_inherit.py)
    text, replicated = annotate(capsys, tmp_path, "function_args.f")
    assert "VEL" not in replicated
    assert replicated["Y"].startswith("a block of VEL from an element at ")
    assert replicated["W"] == "passed to TOT as X with another shape"
    assert replicated["TOT.X"].startswith("passed W of another shape at ")
    if shutil.which("gfortran"):
        outs = []
        for k, src in enumerate((STORAGE / "function_args.f", tmp_path / "function_args.f")):
            exe = tmp_path / f"a{k}"
            subprocess.run(["gfortran", "-std=legacy", str(src), "-o", str(exe)], check=True, capture_output=True)
            outs.append(subprocess.run([str(exe)], capture_output=True, text=True, check=True, timeout=60).stdout)
        assert outs[0] == outs[1]
