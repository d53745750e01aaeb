"""C-preprocessed sources (.F, .F90, .fpp) through `analyze`, `annotate` and `run`,
as gfortran reads them: ``#define``, ``#if``/``#ifdef``/``#else``, ``#include``
(next to the file, then ``-I``), macros, ``-D NAME[=VAL]``; lines point into the
original file; annotate writes into the original, unpreprocessed text."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from autodist import ir
from autodist.cli import main
from autodist.frontend import read_program

from ..conftest import PROGRAMS, requires_gfortran

CPP = PROGRAMS / "cpp"
SMOOTH = CPP / "smooth.F"
INC = ("-I", CPP / "inc")

pytestmark = pytest.mark.skipif(shutil.which("cpp") is None, reason="the system's C preprocessor cpp is not installed")


def run(capsys, *args):
    code = main([*map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def loops(capsys, *args):
    code, out, err = run(capsys, "analyze", "-q", "--format", "json", *INC, *args, SMOOTH)
    assert code == 0, err
    (proc,) = json.loads(out)["procedures"]
    return [(lp["line"], lp["bounds"]) for ph in proc["phases"] for lp in ph["loops"]]


def test_the_branch_taken_is_read_with_lines_of_the_original_file(capsys):
    assert [line for line, _ in loops(capsys)] == [16, 26, 31]  # the #else loop
    assert [line for line, _ in loops(capsys, "-D", "SHIFTED")] == [16, 22, 31]


def test_macros_and_defines_give_the_sizes(capsys):
    assert loops(capsys)[0][1] == "1, 64"
    assert loops(capsys, "-D", "N=100")[0][1] == "1, 100"


def test_concatenation_and_apostrophes_are_fortran_not_c():
    unit = read_program([SMOOTH], include_dirs=[CPP / "inc"]).unit("SMOOTH")
    tag = next(s for s in unit.statements() if isinstance(s, ir.Assign) and s.span.first == 15)
    assert tag.value == ir.Const("ABCD", ir.Type("character", 4))  # folded: the // was read


def test_preprocessor_errors_name_the_file_and_line(capsys, tmp_path):
    code, _, err = run(capsys, "analyze", "-q", SMOOTH)  # consts.h is only found through -I
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"autodist: error: {SMOOTH}:3: preprocessor: consts.h: No such file")
    bad = tmp_path / "bad.F"
    bad.write_text("      PROGRAM P\n#if 1\n#error not this way\n#endif\n      END\n")
    code, _, err = run(capsys, "analyze", "-q", bad)
    assert (code, err) == (2, f"autodist: error: {bad}:3: preprocessor: #error not this way\n")


def test_a_bad_define_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        run(capsys, "analyze", "-q", "-D", "2X=1", SMOOTH)
    assert stop.value.code == 2 and "expected NAME or NAME=VALUE" in capsys.readouterr().err


def test_cpp_preprocesses_a_file_of_any_suffix(capsys, tmp_path):
    src = tmp_path / "plain.f"
    src.write_text("#define M 7\n      PROGRAM P\n      REAL A(M)\n      DO 1 I = 1, M\n    1 A(I) = 0\n      END\n")
    code, out, err = run(capsys, "analyze", "-q", "--format", "json", "--cpp", src)
    assert code == 0, err
    (loop,) = json.loads(out)["procedures"][0]["phases"][0]["loops"]
    assert loop["bounds"] == "1, 7"


def annotate(capsys, tmp_path, *args, src=SMOOTH):
    out = tmp_path / src.name
    code, _, err = run(capsys, "annotate", "-q", "--procs", "4", *INC, *args, src, "-o", out)
    return code, out, err


def test_annotate_writes_into_the_unpreprocessed_text(capsys, tmp_path):
    code, out, err = annotate(capsys, tmp_path, "-D", "TIMING")
    assert code == 0, err
    lines = out.read_text().splitlines()
    assert [x for x in lines if not x.startswith("CHPF$")] == SMOOTH.read_text().splitlines()
    # the specification directives after the #endif of the last declaration,
    # an INDEPENDENT in the branch taken, before its loop
    at = {x: k for k, x in enumerate(lines)}
    assert lines[at["      REAL T0"] + 2] == "CHPF$ PROCESSORS P(4)" and lines[at["      REAL T0"] + 1] == "#endif"
    assert lines[at["      DO 20 I = 1, N - 1"] - 1].startswith("CHPF$ INDEPENDENT")
    assert not lines[at["      DO 20 I = 2, N"] - 1].startswith("CHPF$")


def test_annotate_gives_the_directives_of_the_preprocessed_text(capsys, tmp_path):
    from autodist.frontend.preprocess import preprocess

    flat = tmp_path / "flat" / "smooth.f"
    flat.parent.mkdir()
    done = preprocess(str(SMOOTH), SMOOTH.read_bytes(), ("SHIFTED",), (str(CPP / "inc"),))
    flat.write_text("".join(x.text + "\n" for x in done))
    code, out, err = annotate(capsys, tmp_path, "-D", "SHIFTED")
    assert code == 0, err
    (tmp_path / "flat_out").mkdir()
    code, flat_out, err = annotate(capsys, tmp_path / "flat_out", src=flat)
    assert code == 0, err
    ours = [x for x in out.read_text().splitlines() if x.startswith("CHPF$")]
    assert ours == [x for x in flat_out.read_text().splitlines() if x.startswith("CHPF$")] and ours


def test_annotate_refuses_a_directive_the_preprocessor_would_change(capsys, tmp_path):
    src = tmp_path / "clash.F"
    src.write_text(SMOOTH.read_text().replace("#define SQR", "#define T 2\n#define SQR"))
    code, out, err = annotate(capsys, tmp_path / "o", src=src)
    assert code == 2 and err.count("\n") == 1 and not out.exists()
    assert err.startswith(f"autodist: error: {src}:") and "changes it to 'CHPF$ TEMPLATE 2(" in err


@requires_gfortran
@pytest.mark.mpi
def test_run_preprocesses_with_the_defines_and_matches_gfortran():
    out = subprocess.run([sys.executable, "-m", "autodist", "run", "-np", "2", "--verify", *map(str, INC),
                          "-D", "SHIFTED", str(SMOOTH)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "same results as gfortran" in out.stderr and out.stdout.startswith(" ABCD")
