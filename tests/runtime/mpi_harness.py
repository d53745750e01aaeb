"""Many MPI test cases under one ``mpiexec`` launch.

Starting ``mpiexec`` costs a fraction of a second and CI has two cores, so
the MPI tests of the whole project run in one launch per rank count
(1, 2, 3 and 4), each running every case, and pytest reads the results.

How to add a case
-----------------
Put a top-level function ``mpi_case_<name>(comm)`` in a file named
``mpi_cases_<area>.py`` anywhere under ``tests/`` (e.g.
``tests/executor/mpi_cases_executor.py``).  It runs on every rank with a
private communicator (a ``Dup`` of ``COMM_WORLD``) and passes by returning;
it fails by raising (``assert``).  Rules:

* keep it collective-safe: do the communication first, then assert, so one
  rank's failure does not leave the others waiting in a collective (if it
  does, the harness notices at the end of the case, reports the case and
  ends the launch);
* keep it fast (the same launch runs every case at 1, 2, 3 and 4 ranks);
* import what needs MPI inside the file as usual; the file is only parsed,
  never imported, by pytest itself.

Nothing else is needed: ``tests/runtime/test_mpi.py`` discovers the files and
their cases (with :func:`discover`), and reports each case at each rank count
as its own test (``test_mpi_case[np3-executor/mpi_cases_executor.py::adi]``)
with the failing rank's message.

Running by hand: ``mpiexec -n 3 python tests/runtime/mpi_harness.py OUTDIR
tests/runtime/mpi_cases_runtime.py`` writes one ``rank<r>.jsonl`` per rank.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import json
import os
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
ROOT = TESTS.parent
PREFIX = "mpi_case_"
#: Seconds the ranks wait for each other at the end of a case (a rank whose
#: case failed waits less: the others may be stuck in a collective).
SYNC_TIMEOUT = float(os.environ.get("AUTODIST_MPI_SYNC_TIMEOUT", "120"))
FAILED_SYNC_TIMEOUT = float(os.environ.get("AUTODIST_MPI_FAILED_SYNC_TIMEOUT", "30"))


def cases_in(path: Path) -> list[str]:
    """Names of the case functions of one file (parsed, not imported)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith(PREFIX)]


def discover(root: Path = TESTS) -> list[tuple[Path, str]]:
    """``(file, function name)`` of every case under ``root``."""
    return [(path, name) for path in sorted(root.rglob("mpi_cases_*.py")) for name in cases_in(path)]


def case_id(path: Path, name: str) -> str:
    """``<file under tests/>::<name without the prefix>``."""
    path = path.resolve()
    where = path.relative_to(TESTS).as_posix() if path.is_relative_to(TESTS) else path.name
    return f"{where}::{name[len(PREFIX):]}"


@dataclass(frozen=True)
class Result:
    ok: bool
    message: str = ""
    seconds: float = 0.0


# --------------------------------------------------------------------------- rank side


def _load(path: Path):
    name = f"_mpi_cases_{abs(hash(str(path)))}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def run_cases(outdir: Path, files: list[Path]) -> None:
    """Run every case of ``files`` on this rank (under mpiexec)."""
    from mpi4py import MPI

    world = MPI.COMM_WORLD
    rank = world.Get_rank()
    sys.path.insert(0, str(ROOT))
    out = open(outdir / f"rank{rank}.jsonl", "a", buffering=1)
    for path in files:
        try:
            module = _load(path)
        except Exception as exc:  # the whole file fails: report its cases
            for name in cases_in(path):
                out.write(json.dumps({"case": case_id(path, name), "ok": False,
                                      "message": f"cannot import {path.name}: {type(exc).__name__}: {exc}"}) + "\n")
            continue
        for name in cases_in(path):
            cid = case_id(path, name)
            out.write(json.dumps({"case": cid, "started": True}) + "\n")
            comm = world.Dup()
            t0 = time.perf_counter()
            ok, message = True, ""
            try:
                getattr(module, name)(comm)
            except Exception as exc:
                ok = False
                tb = traceback.extract_tb(exc.__traceback__)
                where = next((f"{Path(f.filename).name}:{f.lineno}" for f in reversed(tb)
                              if Path(f.filename).resolve() == path.resolve()), "")
                message = f"{type(exc).__name__}: {exc}" + (f" (at {where})" if where else "")
            out.write(json.dumps({"case": cid, "ok": ok, "message": message,
                                  "seconds": time.perf_counter() - t0}) + "\n")
            req = world.Ibarrier()
            deadline = time.monotonic() + (SYNC_TIMEOUT if ok else FAILED_SYNC_TIMEOUT)
            while not req.Test():
                if time.monotonic() > deadline:
                    out.write(json.dumps({"case": cid, "stuck": True}) + "\n")
                    out.close()
                    world.Abort(4)
                time.sleep(0.0005)
            comm.Free()
    out.close()


# --------------------------------------------------------------------------- pytest side


def launch_cases(nranks: int, files: list[Path], timeout: float = 240.0,
                 env: dict | None = None) -> tuple[dict[str, Result], str]:
    """Run ``files`` under ``mpiexec -n nranks``; per case id, the merged result
    (ok on every rank, else the first failing rank's message); and the
    launch's stderr."""
    from autodist.errors import RuntimeFault
    from autodist.runtime.job.launch import launch

    ids = [case_id(f, n) for f in files for n in cases_in(f)]
    with tempfile.TemporaryDirectory(prefix="autodist-mpi-") as tmp:
        err = io.StringIO()
        with open(Path(tmp) / "stdout.txt", "w") as so:
            try:
                code = launch([str(Path(__file__).resolve()), tmp, *map(str, files)], nranks, timeout,
                              env=env, stdout=so, stderr=err, cwd=str(ROOT))
                why = f"exit status {code}"
            except RuntimeFault as exc:
                code, why = -1, str(exc)
        records = {}
        for r in range(nranks):
            path = Path(tmp) / f"rank{r}.jsonl"
            records[r] = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    stderr = err.getvalue()
    results: dict[str, Result] = {}
    for cid in ids:
        failures, seconds, done = [], 0.0, 0
        for r in range(nranks):
            for rec in records[r]:
                if rec.get("case") != cid or "ok" not in rec:
                    continue
                done += 1
                seconds = max(seconds, rec.get("seconds", 0.0))
                if not rec["ok"]:
                    failures.append(f"rank {r}: {rec['message']}")
        stuck = [r for r in range(nranks) if any(rec.get("case") == cid and rec.get("stuck") for rec in records[r])]
        if failures:
            extra = " (the other ranks did not finish the case)" if stuck else ""
            results[cid] = Result(False, "; ".join(failures) + extra, seconds)
        elif done == nranks:
            results[cid] = Result(True, "", seconds)
        else:
            running = [r for r in range(nranks) if records[r] and records[r][-1].get("case") == cid]
            state = "hung or crashed in it" if running else "did not reach it"
            results[cid] = Result(False, f"the launch on {nranks} rank(s) ended ({why}) and {state}; "
                                         f"stderr: {stderr.strip()[-2000:] or '(empty)'}")
    return results, stderr


if __name__ == "__main__":
    run_cases(Path(sys.argv[1]), [Path(a).resolve() for a in sys.argv[2:]])
