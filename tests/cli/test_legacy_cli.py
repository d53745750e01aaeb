"""Constructs of real legacy programs through `analyze` and `annotate` (issue 11).

Each test program in tests/programs/legacy reproduces one construct that real
Fortran 77 applications use; each must be read, analyzed and annotated, with
no internal error and a sound (conservative) result."""

from __future__ import annotations

import json
import subprocess
import time

import pytest

from autodist import ir
from autodist.cli import main
from autodist.frontend import read_program

from ..conftest import PROGRAMS, requires_gfortran

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


def _loops(doc, proc):
    p = next(p for p in doc["procedures"] if p["name"] == proc)
    return [lp for ph in p["phases"] for lp in ph["loops"]]


def test_extension_intrinsics_are_read_with_their_types(capsys):
    # DFLOAT, SECOND, ETIME, DTIME, RAND, IARGC, LEN_TRIM, TRIM under IMPLICIT
    # NONE; GETARG, CPU_TIME, SYSTEM_CLOCK, FLUSH called; INTRINSIC SECOND
    doc = analyze(capsys, LEGACY / "extensions.f")
    loops = _loops(doc, "EXT")
    assert loops[0]["parallel"]  # X(I) = DFLOAT(I) / DFLOAT(N): a pure intrinsic
    assert not loops[1]["parallel"] and "RAND" in loops[1]["reason"]  # a hidden state
    program = read_program([LEGACY / "extensions.f"])
    types = {n: program.unit("EXT").symbol(n).type for n in ("DFLOAT", "SECOND", "ETIME", "RAND", "IARGC")}
    assert types == {"DFLOAT": ir.DOUBLE, "SECOND": ir.REAL, "ETIME": ir.REAL, "RAND": ir.REAL,
                     "IARGC": ir.INTEGER}
    assert ["EXT", "ETIME"] in doc["call_graph"] and ["SUB", "SECOND"] in doc["call_graph"]


def test_a_function_that_writes_its_argument_keeps_its_loop_sequential(capsys):
    (loop,) = _loops(analyze(capsys, LEGACY / "etime_loop.f"), "TIMING")
    assert not loop["parallel"] and "ETIME" in loop["reason"]


def test_a_unit_of_the_program_named_like_an_extension_is_called(capsys):
    doc = analyze(capsys, LEGACY / "own_dfloat.f")
    assert ["OWN", "DFLOAT"] in doc["call_graph"]
    assert read_program([LEGACY / "own_dfloat.f"]).unit("OWN").symbol("DFLOAT").kind == "function"


def test_interface_blocks_with_hpf_prefixes_are_read(capsys, tmp_path):
    # EXTRINSIC(HPF_LOCAL) and PURE on interface bodies; TWICE is typed only by
    # its interface body under IMPLICIT NONE
    doc = analyze(capsys, LEGACY / "hpf_interface.f")
    assert ["HPFINT", "TWICE"] in doc["call_graph"] and ["HPFINT", "SCALE"] in doc["call_graph"]
    assert _loops(doc, "HPFINT")[0]["parallel"]  # TWICE is pure: its body says so
    (note,) = [o for o in doc["opaque"] if o["procedure"] == "HPFINT"]
    assert note["line"] == 8 and "interface block" in note["reason"]
    main_unit = read_program([LEGACY / "hpf_interface.f"]).unit("HPFINT")
    assert main_unit.symbol("TWICE").type == ir.INTEGER and main_unit.symbol("TWICE").kind == "function"
    out = annotate(capsys, tmp_path, LEGACY / "hpf_interface.f")
    assert (out / "hpf_interface.f").exists()


def test_an_unrolled_loop_with_many_overlapping_references_annotates_quickly(capsys, tmp_path):
    # sixteen shifted references to M in one statement: the elements a rank
    # misses were counted by inclusion-exclusion, 2^16 intersections per count
    # (more than 120 s); disjoint pieces take a few seconds
    t0 = time.perf_counter()
    out = annotate(capsys, tmp_path, LEGACY / "unrolled.f")
    assert time.perf_counter() - t0 < 60
    assert (out / "unrolled.f").exists()


def test_a_goto_loop_left_by_a_stop_in_a_block_if_has_finite_frequencies(capsys, tmp_path):
    doc = analyze(capsys, LEGACY / "goto_stop_loop.f")
    (proc,) = [p for p in doc["procedures"] if p["name"] == "GLOOP"]
    runs = {ph["id"]: ph["executions"] for ph in proc["phases"]}
    assert runs[1] == pytest.approx(1.0)  # CALL INIT, before the loop: once
    assert runs[2] == pytest.approx(100.0)  # the loop body: default trips
    assert runs[3] + runs[4] == pytest.approx(99.0)  # the IF/ELSE after the exit test
    assert any("100 trips assumed" in a for a in proc["assumptions"])
    annotate(capsys, tmp_path, LEGACY / "goto_stop_loop.f")


def test_the_list_form_of_align_is_read_as_written(capsys):
    code, out, err = run(capsys, "compare", "-q", LEGACY / "align_list.f", "--as-written", "--procs", "4",
                         "--format", "json")
    assert code == 0, err
    mapping = json.loads(out)["runs"][0]["as_written"]["mapping"]
    assert mapping["U"]["align"] == "U(I, J, *) WITH DOMAIN(I, J)"
    assert mapping["V"]["align"] == "V(I, J) WITH DOMAIN(I, J)"
    assert mapping["V"]["distribute"] == "(*,BLOCK)"


def test_a_list_form_align_with_a_bad_alignee_is_one_line_error(capsys, tmp_path):
    bad = tmp_path / "bad.f"
    bad.write_text((LEGACY / "align_list.f").read_text().replace("v(i,j), u(i,j,*)", "v(i,j), , u(i,j,*)"))
    code, _, err = run(capsys, "compare", "-q", bad, "--as-written", "--procs", "4")
    assert code == 2 and err.count("\n") == 1 and f"{bad}:7:" in err


def test_independent_naming_an_imperfectly_nested_loop_is_accepted(capsys, tmp_path):
    # !HPF$ INDEPENDENT(I,J) before DO I whose body computes K, then DO J
    out = annotate(capsys, tmp_path, LEGACY / "independent_imperfect.f")
    assert "INDEPENDENT" in (out / "independent_imperfect.f").read_text().upper()
    # two loops in the body: which one INDEPENDENT names is not clear
    bad = tmp_path / "bad.f"
    text = (LEGACY / "independent_imperfect.f").read_text()
    bad.write_text(text.replace("        k = (i + 9) / 10\n", "        k = (i + 9) / 10\n        do j = 1, 1\n"
                                "          table(i) = k\n        end do\n"))
    code, _, err = run(capsys, "annotate", "-q", bad, "-o", tmp_path / "bad_hpf.f")
    assert code == 2 and "INDEPENDENT(I, J)" in err and err.count("\n") == 1


def test_a_goto_loop_left_by_a_goto_in_a_block_if_has_finite_frequencies(capsys, tmp_path):
    doc = analyze(capsys, LEGACY / "goto_exit_loop.f")
    (proc,) = [p for p in doc["procedures"] if p["name"] == "GEXIT"]
    runs = {ph["id"]: ph["executions"] for ph in proc["phases"]}
    assert runs[1] == pytest.approx(1.0)
    assert 1.0 < runs[2] < 1000.0 and runs[3] < runs[2]  # the sweep, then the update after the exit test
    annotate(capsys, tmp_path, LEGACY / "goto_exit_loop.f")


def test_a_goto_loop_left_by_a_logical_if_return_has_finite_frequencies(capsys, tmp_path):
    doc = analyze(capsys, LEGACY / "return_exit_loop.f")
    (proc,) = [p for p in doc["procedures"] if p["name"] == "SOLVE"]
    runs = {ph["id"]: ph["executions"] for ph in proc["phases"]}
    assert all(r >= 0 for r in runs.values())
    assert runs[1] > 1.0 and 0.0 < runs[2] < runs[1]  # the sweep, then the update before going round again
    annotate(capsys, tmp_path, LEGACY / "return_exit_loop.f")


def test_attribute_form_alignees_with_their_own_dummy_lists_are_read(capsys, tmp_path):
    # ALIGN WITH FIELD(I,*) :: S(I), ALIGN WITH T(*) :: X(*), ALIGN WITH G(I,J) :: A(I,J), B(J,I):
    # an alignee's parentheses are its align-dummy list, not a shape
    code, out, err = run(capsys, "compare", "-q", LEGACY / "align_attribute_sources.f", "--as-written",
                         "--procs", "4", "--format", "json")
    assert code == 0, err
    mapping = json.loads(out)["runs"][0]["as_written"]["mapping"]
    assert mapping["S"]["align"] == "S(I) WITH FIELD(I, *)"
    assert mapping["X"]["align"] == "X(*) WITH T(*)"
    assert mapping["B"]["align"] == "B(I, J) WITH G(J, I)"
    annotate(capsys, tmp_path, LEGACY / "align_attribute_sources.f")


DERIVED = LEGACY / "derived_type.f"


def test_derived_types_are_read_as_opaque_and_the_written_mapping_is_costed(capsys):
    # TYPE definitions, TYPE(...) scalars, arrays and dummies, components in loop
    # bounds and bodies (NPB 3.0 HPF LU): read, each listed with its reason
    doc = analyze(capsys, DERIVED)
    reasons = {(o["procedure"], o["line"]): o["reason"] for o in doc["opaque"]}
    assert "derived type definition" in reasons[("DTYPE", 7)] and "derived type definition" in reasons[("TOTAL", 40)]
    assert "derived-type component" in reasons[("DTYPE", 17)] and "derived-type component" in reasons[("TOTAL", 47)]
    program = read_program([DERIVED])
    assert program.unit("DTYPE").symbol("PARTS").type == ir.DERIVED
    assert program.unit("TOTAL").symbol("C").type == ir.DERIVED
    code, out, err = run(capsys, "compare", "-q", DERIVED, "--as-written", "--procs", "4", "--format", "json")
    assert code == 0, err
    mapping = json.loads(out)["runs"][0]["as_written"]["mapping"]
    assert mapping["X"]["distribute"] == "(BLOCK)" and mapping["Y"]["align"] == "Y(I) WITH X(I)"
    assert "PARTS" not in mapping


def test_a_loop_that_assigns_a_component_stays_sequential(capsys):
    loops = _loops(analyze(capsys, DERIVED), "DTYPE")
    bounded = next(lp for lp in loops if lp["line"] == 27)  # DO I = B%FIRST, B%LAST reads B only
    assert bounded["parallel"]
    carried = next(lp for lp in loops if lp["line"] == 30)  # Y(I) = Y(I) + B%FIRST; B%FIRST = B%FIRST + 1
    assert not carried["parallel"] and "derived-type component" in carried["reason"]


def test_an_array_of_a_derived_type_stays_replicated(capsys, tmp_path):
    out = annotate(capsys, tmp_path, DERIVED)
    directives = [l for l in (out / "derived_type.f").read_text().upper().splitlines() if l.startswith("CHPF$")]
    assert any("DISTRIBUTE" in l for l in directives)
    assert not any("PARTS" in l for l in directives)


@requires_gfortran
@pytest.mark.gfortran
def test_the_annotated_derived_type_program_prints_what_the_original_prints(capsys, tmp_path):
    out = annotate(capsys, tmp_path, DERIVED)
    printed = []
    for src in (DERIVED, out / "derived_type.f"):
        exe = tmp_path / f"exe{len(printed)}"
        subprocess.run(["gfortran", "-std=legacy", "-w", str(src), "-o", str(exe)], check=True, capture_output=True)
        printed.append(subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout)
    assert printed[0] == printed[1] and "4094" in printed[0]


def test_running_a_program_with_derived_types_is_a_one_line_refusal(capsys):
    code, _, err = run(capsys, "run", "-q", "-np", "1", DERIVED)
    assert code == 2 and err.strip().count("\n") == 0 and "derived type definition" in err


def test_a_work_array_one_short_of_its_padded_template_is_read_with_a_note(capsys, tmp_path):
    # an HPF program's own ALIGN of a 12-element axis with ':' to a
    # 13-element template axis: HPF compilers accepted it, so autodist reads
    # it (aligned from the template's first element) and says so
    src = tmp_path / "pad.f"
    src.write_text("""      PROGRAM PAD
      INTEGER N, I, J
      PARAMETER (N = 12)
      DOUBLE PRECISION V(N, N), W(N, N)
!HPF$ TEMPLATE T(N/2*2+1, N)
!HPF$ ALIGN (:, :) WITH T(:, :) :: V, W
!HPF$ DISTRIBUTE (*, BLOCK) :: T
      DO J = 1, N
        DO I = 1, N
          V(I, J) = DBLE(I + J)
          W(I, J) = 2.0D0 * V(I, J)
        END DO
      END DO
      PRINT *, W(3, 4)
      END
""")
    code, _, err = run(capsys, "annotate", "--procs", "4", src, "-o", tmp_path / "out.f")
    assert code == 0, err
    notes = [line for line in err.splitlines() if "triplet" in line]
    assert len(notes) == 1 and "pad.f:6:" in notes[0] and "12 elements against" in notes[0], err
    assert "DISTRIBUTE" in (tmp_path / "out.f").read_text().upper()


F90_ASSIGNMENTS = ("rank_two_assignments.f", "character_array_assignments.f", "array_constructors.f")


@pytest.mark.parametrize("name", F90_ASSIGNMENTS)
def test_array_assignments_of_any_rank_and_constructors_are_loops_of_the_analysis(capsys, name):
    program = read_program([LEGACY / name])
    lowered = [s for u in program.units for s in ir.walk(u.body) if isinstance(s, ir.Do) and s.lowered]
    assert lowered and not [s for u in program.units for s in ir.walk(u.body) if isinstance(s, ir.Opaque)]
    doc = analyze(capsys, LEGACY / name)
    assert doc["procedures"]


@requires_gfortran
@pytest.mark.gfortran
@pytest.mark.parametrize("name", F90_ASSIGNMENTS)
def test_annotated_array_assignments_print_what_the_original_prints(capsys, tmp_path, name):
    out = annotate(capsys, tmp_path, LEGACY / name)
    assert "_S" not in (out / name).read_text()
    printed = []
    for src in (LEGACY / name, out / name):
        exe = tmp_path / f"exe{len(printed)}"
        subprocess.run(["gfortran", "-std=legacy", "-w", str(src), "-o", str(exe)], check=True, capture_output=True,
                       cwd=tmp_path)
        printed.append(subprocess.run([str(exe)], check=True, capture_output=True, text=True, cwd=tmp_path).stdout)
    assert printed[0] == printed[1] and printed[0].strip()


@pytest.mark.parametrize("command", ["analyze", "annotate", "run"])
def test_an_array_constructor_of_another_size_than_its_target_is_a_one_line_error(capsys, tmp_path, command):
    src = tmp_path / "size.f"
    src.write_text("      PROGRAM SIZE\n      REAL X(4)\n      X = 0.0\n"
                   "      X(2:4) = (/ 1.0, 2.0 /)\n      PRINT *, X\n      END\n")
    extra = ["-o", str(tmp_path / "out")] if command == "annotate" else ["-np", "1"] if command == "run" else []
    code, _, err = run(capsys, command, "-q", src, *extra)
    assert code == 2 and err.strip().count("\n") == 0 and "Traceback" not in err
    assert err.strip().endswith("size.f:4: array assignment: an array constructor of 2 elements where the target "
                                "has 3"), err


def test_a_hollerith_given_to_an_assumed_length_character_dummy_is_a_one_line_refusal(capsys, tmp_path):
    # gfortran passes no length with a Hollerith: the dummy's length is whatever is there
    src = tmp_path / "star.f"
    src.write_text("      PROGRAM STAR\n      CALL S(5HHELLO)\n      END\n"
                   "      SUBROUTINE S(C)\n      CHARACTER*(*) C\n      PRINT *, C\n      END\n")
    code, _, err = run(capsys, "analyze", "-q", src)
    assert code == 0
    code, _, err = run(capsys, "run", "-q", "-np", "1", src)
    assert code == 2 and err.strip().count("\n") == 0 and "Traceback" not in err
    assert "star.f:2: Hollerith constant 5HHELLO given to CHARACTER*(*) dummy C of S" in err
