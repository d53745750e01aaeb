"""``autodist run`` and ``autodist profile`` as a user sees them: the report,
the dump, --verify, faults that end the whole job, --timeout, errors before
anything runs, the profile data; and the measured movement of ADI against
``autodist annotate --report``."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import time
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest

from autodist.analysis.profiledata import load_profile_data
from autodist.cli import main
from autodist.runtime.job.api import run_file
from autodist.runtime.job.verify import compare_arrays, compare_output
from tests.conftest import PROFILES, SAMPLES, requires_gfortran
from tests.runtime.programs import run_text, scaled, source_file, variant


def cli(*args, cwd=None, timeout=300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "autodist", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd)


def test_report_and_dump_of_a_remapping_run():
    text = variant("adi", "remapping")
    rep = run_file(text, 2, dump=True)
    assert rep.status == 0, rep.stderr
    assert "X(1,1)" in rep.stdout
    assert [p.id for p in rep.phases] == list(range(1, 10))
    sweep = rep.phase("ADI", 4)
    assert sweep.executions == 3 and sweep.mode in ("distributed", "pipelined") and (sweep.vectorized or sweep.path == "jit")
    assert len(sweep.ranks) == 2 and all(r.compute_time >= 0 for r in sweep.ranks)
    assert rep.remaps and {r.array for r in rep.remaps} == {"A", "B", "X"}
    for r in rep.remaps:
        assert r.executions >= 1 and sum(r.elements_received) > 0
    # the program's seconds leave out the planning of its phases (and numba), reported beside
    assert rep.raw["planning_seconds"] > 0 and 0 < rep.seconds
    # the dump holds the final arrays, equal to a sequential run's
    from mpi4py import MPI

    _, arrays, _, _ = run_text(MPI.COMM_SELF, text)
    assert sorted(rep.arrays) == sorted(arrays) == ["ADI.A", "ADI.B", "ADI.X"]
    for k in arrays:
        assert np.array_equal(rep.arrays[k], arrays[k])


@requires_gfortran
def test_verify_compares_with_a_sequential_run_and_gfortran():
    path = source_file(variant("shallow", "block_block"))
    out = cli("run", str(path), "-np", "2", "--verify")
    assert out.returncode == 0, out.stderr
    assert "same results as the sequential run" in out.stderr
    assert "same results as gfortran (14 array(s) and the output)" in out.stderr
    assert out.stdout.startswith(" CYCLES =")


def test_mismatches_name_the_array_index_and_values():
    a = {"P.X": np.arange(12.0).reshape(3, 4, order="F")}
    b = {"P.X": a["P.X"].copy()}
    b["P.X"][1, 2] += 1e-9
    m = compare_arrays(a, b, {"P.X": ((0, 2), (1, 4))})
    assert str(m) == "array P.X(1,3): 7.0 here, 7.000000001 in the reference"
    b["P.X"][1, 2] = 7.0 * (1 + 1e-13)
    assert compare_arrays(a, b, {}) is None
    assert compare_output(" X =   1.5000000000000000     ", " X =   1.5000000000001000     ", 1e-12) is None
    assert str(compare_output(" X = 1.5", " Y = 1.5")) == "output word 1: 'X' here, 'Y' in the reference"
    names = {"P.T": np.array([b"init", b"solve"], dtype="S8")}
    other = {"P.T": np.array([b"init", b"solvE"], dtype="S8")}
    assert compare_arrays(names, {"P.T": names["P.T"].copy()}, {}) is None
    assert str(compare_arrays(names, other, {})) == "array P.T(2): b'solve' here, b'solvE' in the reference"


FAULT = """\
      PROGRAM OOB
      INTEGER N
      PARAMETER (N = 16)
      REAL A(N), B(N)
      INTEGER I
CHPF$ PROCESSORS P(4)
CHPF$ DISTRIBUTE A(BLOCK) ONTO P
CHPF$ ALIGN B(I) WITH A(I)
      DO 10 I = 1, N
         A(I) = REAL(I)
   10 CONTINUE
      DO 20 I = 2, N
         B(I) = A(I+1) * 2.0
   20 CONTINUE
      PRINT *, B(5)
      END
"""


def test_a_fault_on_one_rank_ends_the_job_with_its_message(tmp_path):
    path = tmp_path / "oob.f"
    path.write_text(FAULT)
    t0 = time.monotonic()
    out = cli("run", str(path), "-np", "4", "--timeout", "120", timeout=200)
    assert out.returncode == 2
    assert out.stderr == f"autodist: error: rank 3: {path}:13: index 17 of A dimension 1 is outside 1:16\n"
    assert time.monotonic() - t0 < 100


def test_a_fault_on_every_rank_is_one_message_from_the_launcher(tmp_path):
    path = tmp_path / "div.f"
    path.write_text("      PROGRAM DIV\n      INTEGER I, J, A(100)\n      J = 0\n      DO I = 1, 100\n"
                    "        A(I) = I\n      END DO\n      PRINT *, A(50) / J\n      END\n")
    out = cli("run", str(path), "-np", "3", timeout=200)
    assert out.returncode == 2 and out.stdout == ""
    # one line; which rank it names depends on which reported before the abort
    assert re.fullmatch(rf"autodist: error: rank [012]: {re.escape(str(path))}:7: integer division by zero\n",
                        out.stderr)


SPIN = "      PROGRAM SPIN\n      INTEGER K\n      K = 0\n   10 K = K + 1\n      GOTO 10\n      END\n"


@pytest.mark.parametrize("nranks", [1, 2])
def test_a_job_that_does_not_end_is_stopped_at_the_timeout_at_every_rank_count(tmp_path, nranks):
    path = tmp_path / "spin.f"
    path.write_text(SPIN)
    t0 = time.monotonic()
    out = cli("run", str(path), "-np", str(nranks), "--timeout", "3", timeout=120)
    assert out.returncode == 2 and len(out.stderr.splitlines()) == 1
    assert "the run did not finish within 3 s" in out.stderr
    assert ("rank " in out.stderr) == (nranks > 1)
    assert time.monotonic() - t0 < 60


@pytest.mark.parametrize("nranks", [1, 2])
def test_a_run_stopped_at_the_timeout_still_writes_its_report(tmp_path, nranks):
    path = tmp_path / "busy.f"
    path.write_text("      PROGRAM BUSY\n      DOUBLE PRECISION A(50)\n      INTEGER I, K\n"
                    "      DO 20 K = 1, 2000000000\n      DO 10 I = 1, 50\n      A(I) = I + K\n"
                    "   10 CONTINUE\n   20 CONTINUE\n      PRINT *, A(1)\n      END\n")
    report = tmp_path / "r.json"
    out = cli("run", str(path), "-np", str(nranks), "--timeout", "10", "--no-jit", "--report", str(report),
              timeout=180)
    assert out.returncode == 2 and "the run did not finish within 10 s" in out.stderr
    doc = json.loads(report.read_text())
    assert doc["completed"] is False and "did not finish within 10 s" in doc["error"]
    assert doc["nprocs"] == nranks and doc["ranks_reported"] == [0]
    assert sum(p["executions"] for p in doc["phases"]) > 0  # what ran before the limit is there


def test_profile_of_a_program_that_does_not_end_stops_at_the_timeout(tmp_path):
    path = tmp_path / "spin.f"
    path.write_text(SPIN)
    out = cli("profile", str(path), "-o", str(tmp_path / "p.json"), "--timeout", "2", timeout=120)
    assert out.returncode == 2 and "the profiled program did not finish within 2 s" in out.stderr
    assert len(out.stderr.splitlines()) == 1 and not (tmp_path / "p.json").exists()


def test_constructs_outside_the_subset_are_reported_before_anything_runs(tmp_path):
    path = tmp_path / "as.f"
    path.write_text("      PROGRAM AS\n      INTEGER K\n      PRINT *, 'HELLO'\n      ASSIGN 10 TO K\n"
                    " 10   CONTINUE\n      END\n")
    out = cli("run", str(path), "-np", "2")
    assert out.returncode == 2 and out.stdout == ""
    assert f"{path}:4: 'ASSIGN 10 TO K' (ASSIGN statement (deleted feature)) is outside the runtime's subset" \
        in out.stderr
    assert out.stderr.count("ASSIGN statement") == 1


def test_bad_options_are_usage_errors(tmp_path):
    assert cli("run", str(tmp_path / "none.f")).returncode == 2
    path = tmp_path / "p.f"
    path.write_text("      PROGRAM P\n      END\n")
    out = cli("run", str(path), "-np", "0")
    assert out.returncode == 2 and "-np" in out.stderr
    out = cli("run", str(path), "--report", str(path))
    assert out.returncode == 2 and "refusing to overwrite" in out.stderr
    out = cli("run", str(path), "-np", "1000000")
    assert out.returncode == 2 and out.stderr.startswith("autodist: error: -np 1000000: autodist starts at most")
    for bad in ("nan", "inf", "0", "-1", "1e300", "soon"):
        out = cli("run", str(path), "--timeout", bad)
        assert out.returncode == 2 and "--timeout" in out.stderr and len(out.stderr.splitlines()) == 1
    for bad in ("0", "-3"):
        out = cli("run", str(path), "--pipeline-blocks", bad)
        assert out.returncode == 2 and "--pipeline-blocks" in out.stderr and len(out.stderr.splitlines()) == 1


PROFILED = """\
      PROGRAM PROF
      INTEGER N
      PARAMETER (N = 40)
      DOUBLE PRECISION A(N)
      INTEGER I, J, K
      K = 0
      DO 20 J = 1, 4
         DO 10 I = 1, N - J
            A(I) = DBLE(I * J)
   10    CONTINUE
         IF (MOD(J, 4) .EQ. 0) THEN
            K = K + 1
         ELSE IF (J .GT. 1) THEN
            K = K + 2
         END IF
   20 CONTINUE
      PRINT *, K, A(3)
      END
"""


def test_profile_records_trips_branches_and_phase_times(tmp_path):
    path = tmp_path / "prof.f"
    path.write_text(PROFILED)
    out = tmp_path / "profile.json"
    with redirect_stderr(io.StringIO()):
        assert main(["profile", str(path), "-o", str(out), "-q"]) == 0
    data = load_profile_data(out)
    loops = data.loops
    assert loops[f"{path}:7"].trips == 4 and loops[f"{path}:7"].entries == 1
    assert loops[f"{path}:8"].entries == 4 and loops[f"{path}:8"].trips == (39 + 38 + 37 + 36) / 4
    assert data.branches[f"{path}:11"].taken == 0.25 and data.branches[f"{path}:11"].evaluations == 4
    assert data.branches[f"{path}:13"].taken == 2 / 3 and data.branches[f"{path}:13"].evaluations == 3
    assert set(data.phase_times) == {"PROF:1"} and data.phase_times["PROF:1"] > 0
    assert json.loads(out.read_text())["version"] == 1


def test_profile_times_the_phases_compiled_and_says_so(tmp_path):
    """The phase times are those of a warm ``autodist run``: every kernel
    compiled before it first runs, not the numpy path of a short run."""
    pytest.importorskip("numba")
    path = tmp_path / "prof.f"
    path.write_text(PROFILED)
    err = io.StringIO()
    with redirect_stderr(err):
        assert main(["profile", str(path), "-o", str(tmp_path / "p.json")]) == 0
    assert "1 phase time(s) (1 compiled)" in err.getvalue()


def test_report_totals_leave_out_the_calls_inclusive_time(tmp_path):
    """A call phase's time holds its callee's phases: the totals count those once."""
    report = tmp_path / "r.json"
    with redirect_stderr(io.StringIO()), redirect_stdout(io.StringIO()):
        assert main(["run", str(SAMPLES / "shallow.f"), "-np", "1", "--report", str(report), "-q"]) == 0
    doc = json.loads(report.read_text())
    calls = [p for p in doc["phases"] if p["kind"] == "call"]
    assert calls and max(p["ranks"][0]["compute_time"] for p in calls) > 0
    counted = [p["ranks"][0]["compute_time"] for p in doc["phases"] if p["kind"] == "loop"]
    counted += [r["ranks"][0]["compute_time"] for r in doc["remaps"] + doc["linked"] + doc["other"]]
    assert doc["totals"][0]["compute_time"] == pytest.approx(sum(counted))


def test_movement_of_adi_equals_the_annotate_report(tmp_path):
    """ADI as autodist annotates it for 4 processors on manycore_smp with the
    sweeps serialized (``pipeline: false``; pipelined, the static solution
    wins there): a dynamic solution that remaps X, A and B twice per
    iteration; every remap and every phase moves exactly what ``--report``
    predicts."""
    annotated = tmp_path / "adi_dyn.f"
    report = tmp_path / "plan.json"
    profile = tmp_path / "smp_serialized.yaml"
    profile.write_text((PROFILES / "manycore_smp.yaml").read_text() + "\npipeline: false\n")
    with redirect_stderr(io.StringIO()):
        assert main(["annotate", str(SAMPLES / "adi.f"), "--procs", "4", "--machine", str(profile),
                     "--mode", "dynamic", "-o", str(annotated), "--report", str(report), "-q"]) == 0
    plan = json.loads(report.read_text())["chosen"]
    run = run_file(str(annotated), 4)
    assert run.status == 0, run.stderr
    assert plan["remaps"], "the dynamic solution remaps"
    for remap in plan["remaps"]:
        measured = [r for r in run.remaps if (r.array, r.source, r.target) == (remap["array"], remap["from"], remap["to"])]
        assert measured, remap
        worst = max(max(m.elements_received) // m.executions for m in measured)
        assert worst * 8 == remap["bytes"]
    count = {}
    for remap in plan["remaps"]:
        key = (remap["array"], remap["from"], remap["to"])
        count[key] = count.get(key, 0) + remap["count"]
    for key, n in count.items():
        assert sum(m.executions for m in run.remaps if (m.array, m.source, m.target) == key) == n
    for ph in plan["phases"]:
        rec = run.phase("ADI", ph["id"])
        assert max(rec.elements_received) == ph["movement_bytes"] // 8 * rec.executions


def test_verify_reports_a_mismatch_and_fails(monkeypatch, capsys):
    """A run whose arrays differ from the reference (simulated by altering
    one element of what the run under test gathers) is reported and exits 1."""
    from mpi4py import MPI

    from autodist.runtime.spmd import executor
    from autodist.runtime.job import runner

    real = executor.Executor.gather_arrays

    def altered(self, root=0):
        out = real(self, root)
        if isinstance(self.out, runner._Tee):  # the run under test, not the sequential reference
            out["JACOBI.U"][3, 4] += 1.0
        return out

    monkeypatch.setattr(executor.Executor, "gather_arrays", altered)
    req = runner.RunRequest(files=(str(source_file(scaled("jacobi"))),), verify=True, gfortran=False, quiet=True)
    assert runner.run_on_ranks(req, MPI.COMM_SELF, out=io.StringIO()) == 1
    assert "MISMATCH with the sequential run: array JACOBI.U(3,4):" in capsys.readouterr().err


@pytest.mark.parametrize("flags", [{"replicated": True}, {"vectorize": False}], ids=["replicated", "scalar"])
def test_replicated_and_scalar_runs_give_the_same_arrays(flags):
    text = variant("jacobi", "block_star")
    base = run_file(text, 2, dump=True)
    other = run_file(text, 2, dump=True, **flags)
    assert base.status == other.status == 0, other.stderr
    assert base.stdout == other.stdout
    for k in base.arrays:
        assert np.array_equal(base.arrays[k], other.arrays[k]), k
    modes = {p.mode for p in other.phases}
    assert modes == ({"replicated"} if "replicated" in flags else {"inline"})


@requires_gfortran
@pytest.mark.gfortran
def test_linpack_style_corpus_program_verifies():
    """Old-style dummies X(1), A(LDA,1), array elements passed to functions,
    strided access through an increment: the same output as gfortran."""
    src = SAMPLES.parent / "tests" / "frontend" / "corpus" / "linpack.f"
    out = cli("run", str(src), "-np", "2", "--verify")
    assert out.returncode == 0, out.stderr
    assert "same results as gfortran" in out.stderr and "MAX ERROR" in out.stdout


FALSE_ASSERTION = """      PROGRAM IND
      INTEGER I
      REAL A(10)
CHPF$ DISTRIBUTE A(BLOCK)
      DO 5 I = 1, 10
    5 A(I) = REAL(I)
CHPF$ INDEPENDENT
      DO 10 I = 2, 10
        A(I) = A(I - 1) + 1.0
   10 CONTINUE
CHPF$ INDEPENDENT, NEW(I)
      DO 20 I = 1, 10
        A(I) = A(I) * 2.0
   20 CONTINUE
      PRINT *, A(10)
      END
"""


def test_a_false_independent_assertion_is_not_trusted_and_the_user_is_told():
    path = source_file(FALSE_ASSERTION, "ind.f")
    out = cli("run", str(path), "-np", "2")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["20.0000000"]  # the loop ran in order
    notes = [line for line in out.stderr.splitlines() if "INDEPENDENT" in line]
    assert notes == [f"autodist: note: {path}:7: INDEPENDENT (DO I, line 8) not trusted: A(I-1) (line 9) reads what "
                     "A(I) (line 9) wrote in an earlier iteration of I (flow, distance 1); the loop runs in order"]
    assert "INDEPENDENT" not in cli("run", str(path), "-np", "2", "-q").stderr


@pytest.mark.parametrize("encoding, ichar", [("utf-8", 195), ("latin-1", 233)])
def test_character_data_are_the_source_bytes(tmp_path, encoding, ichar):
    # CHARACTER data are bytes, as compilers see them: a non-ASCII letter of a UTF-8
    # source takes two of the eight characters of S, one of a Latin-1 source; output
    # gives back the bytes of the source
    src = tmp_path / "chars.f"
    text = ("      PROGRAM P\n      CHARACTER*8 S\n      S = 'h\u00e9llo'\n"
            "      PRINT *, S, ICHAR(S(2:2)), LEN(S)\n      PRINT '(A,A)', S, '|'\n      END\n")
    src.write_bytes(text.encode(encoding))
    out = subprocess.run([sys.executable, "-m", "autodist", "run", "-q", str(src)], capture_output=True, timeout=300)
    assert out.returncode == 0, out.stderr
    word = "h\u00e9llo".encode(encoding)
    pad = b" " * (8 - len(word))
    assert out.stdout == b" " + word + pad + f"{ichar:>12d}{8:>12d}\n".encode() + word + pad + b"|\n"


def test_routines_outside_the_program_are_one_error_naming_every_call(tmp_path):
    path = tmp_path / "miss.f"
    path.write_text("      PROGRAM MISS\n      DOUBLE PRECISION T, WTIME\n      CALL WTIME(T)\n"
                    "      T = T + DNRM(3)\n      DO 5 I = 1, 2\n      IF (I .GT. 1) CALL WTIME(T)\n"
                    "    5 CONTINUE\n      PRINT *, T\n      END\n")
    out = cli("run", str(path), "-np", "2")
    assert out.returncode == 2 and out.stdout == ""
    assert (f"{path}:3: routines outside the program are outside the runtime's subset: "
            f"DNRM (called at {path}:4); WTIME (called at {path}:3, {path}:6) "
            "(give their sources or a shared library with --link FILE)") in out.stderr
    assert out.stderr.count("\n") == 1


@requires_gfortran
@pytest.mark.gfortran
def test_functions_writing_their_arguments_and_extensions_verify():
    from pathlib import Path

    calls = Path(__file__).resolve().parents[1] / "programs" / "calls"
    for name in ("by_reference.f", "scalar_intrinsics.f", "storage_association.f", "common_functions.f"):
        out = cli("run", str(calls / name), "-np", "3", "--verify")
        assert out.returncode == 0, out.stderr
        assert "same results as gfortran" in out.stderr


@requires_gfortran
@pytest.mark.gfortran
def test_character_arrays_run_replicated_verify_and_the_report_says_why(tmp_path):
    import json
    from pathlib import Path

    program = Path(__file__).resolve().parents[1] / "programs" / "character" / "arrays.f"
    report = tmp_path / "r.json"
    out = cli("run", str(program), "-np", "3", "--verify", "--report", str(report))
    assert out.returncode == 0, out.stderr
    assert "same results as gfortran" in out.stderr
    assert " init        5.00 MA/AN\n" in out.stdout
    # the DISTRIBUTE of the CHARACTER array is read, not applied, and said so
    assert json.loads(report.read_text())["replicated"] == [
        {"array": "CHARS.NAMES", "reason": "a CHARACTER array: every rank holds it whole"}]


@requires_gfortran
@pytest.mark.gfortran
def test_storage_associated_arrays_run_replicated_verify_and_the_report_says_why(tmp_path):
    from pathlib import Path

    storage = Path(__file__).resolve().parents[1] / "programs" / "storage"
    report = tmp_path / "r.json"
    out = cli("run", str(storage / "equiv_common.f"), "-np", "3", "--verify", "--report", str(report))
    assert out.returncode == 0, out.stderr
    assert "same results as gfortran" in out.stderr
    kept = {r["array"]: r["reason"] for r in json.loads(report.read_text())["replicated"]}
    assert set(kept) == {"EQCOM.P", "EQCOM.Q", "EQCOM.KK", "EQCOM.FLAGS", "USE.R"}  # U and V keep their mapping
    assert kept["EQCOM.P"].startswith("storage-associated (COMMON /PAR/ is one storage of typed views)")
    out = cli("run", str(storage / "equiv_local.f"), "-np", "2", "--verify", "--report", str(report))
    assert out.returncode == 0, out.stderr
    kept = {r["array"]: r["reason"] for r in json.loads(report.read_text())["replicated"]}
    assert set(kept) == {"EQLOC.A", "EQLOC.B", "EQLOC.K"}
    assert kept["EQLOC.A"].startswith("EQUIVALENCEd")


@requires_gfortran
@pytest.mark.gfortran
def test_a_dummy_declared_larger_than_its_actual_runs_on_the_elements_the_actual_holds(tmp_path):
    from pathlib import Path

    program = Path(__file__).resolve().parents[1] / "programs" / "calls" / "larger_dummy.f"
    out = cli("run", str(program), "-np", "3", "--verify")
    assert out.returncode == 0, out.stderr
    assert "same results as gfortran" in out.stderr
    # writing past the actual's end is a fault at the end of the call, not lost silently
    bad = tmp_path / "past.f"
    bad.write_text(program.read_text().replace("V(2, K + 1) = V(2, K + 1) + 1.0D0", "V(4, K + 1) = 1.0D0"))
    out = cli("run", str(bad), "-np", "2")
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "WORK wrote into dummy V past the end of its actual argument LARGER.W (10 element(s)" in out.stderr


@requires_gfortran
@pytest.mark.gfortran
def test_verify_compares_logical_arrays_with_gfortran(tmp_path):
    # gfortran stores LOGICAL in 4 bytes: read as 1-byte booleans the array was skipped
    path = tmp_path / "lg.f"
    path.write_text("      PROGRAM LG\n      LOGICAL L(6)\n      INTEGER I\n      DO 10 I = 1, 6\n"
                    "         L(I) = MOD(I, 3) .EQ. 0\n   10 CONTINUE\n      PRINT *, L(3)\n      END\n")
    out = cli("run", str(path), "-np", "2", "--verify")
    assert out.returncode == 0, out.stderr
    assert "same results as gfortran (1 array(s) and the output)" in out.stderr
