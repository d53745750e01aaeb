"""Programs for the runtime tests: the samples scaled down, with their
mappings (annotated by autodist, or written by hand), and gfortran's results
for them, computed once and cached on disk (keyed by the source text) so that
every ``mpiexec`` launch of the test session reuses them.

Scaled-down copies keep every statement of a sample and only shrink its
PARAMETERs (and the indices its WRITEs print), so the runtime tests stay fast.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import tempfile
from contextlib import redirect_stderr
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ("adi", "jacobi", "transpose", "tred2", "shallow", "rhs")

#: PARAMETER (and printed index) substitutions of the scaled-down samples.
SCALING = {
    "adi": [("N = 256, NITER = 10", "N = 32, NITER = 3"), ("X(128,128)", "X(16,16)")],
    "jacobi": [("N = 128, NITER = 50", "N = 24, NITER = 6"), ("U(64,1)", "U(12,1)")],
    "transpose": [("SIZE = 100", "SIZE = 30"), ("M(100,1)", "M(30,1)")],
    "tred2": [("NM = 64, N = 64", "NM = 20, N = 20")],
    "shallow": [("M = 64, N = 64", "M = 16, N = 16"), ("ITMAX = 12", "ITMAX = 4")],
    "rhs": [("NX = 24, NY = 24, NZ = 24, NMAX = 24", "NX = 10, NY = 10, NZ = 10, NMAX = 10"),
            ("NSTEP = 3", "NSTEP = 2"), ("U(5,12,12,12)", "U(5,5,5,5)")],
}

#: Hand-written mappings: name -> (formats of the last two dimensions, PROCESSORS shape).
HAND = {
    "block_star": (("BLOCK", "*"), "4"),
    "star_block": (("*", "BLOCK"), "4"),
    "cyclic_star": (("CYCLIC", "*"), "4"),
    "block_block": (("BLOCK", "BLOCK"), "2,2"),
    "cyclic3": (("CYCLIC(3)", "*"), "4"),
}


def cache_dir() -> Path:
    d = Path(os.environ.get("AUTODIST_TEST_CACHE", Path(tempfile.gettempdir()) / "autodist-test-cache"))
    d.mkdir(parents=True, exist_ok=True)
    return d


def _code_version() -> str:
    """A hash of autodist's own sources: cached results never outlive a change."""
    h = hashlib.sha1()
    for path in sorted((ROOT / "autodist").rglob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()


_VERSION = _code_version()


def _key(*parts: str) -> str:
    return hashlib.sha1("\0".join((_VERSION,) + parts).encode()).hexdigest()[:16]


def scaled(sample: str) -> str:
    text = (ROOT / "fortran_samples" / f"{sample}.f").read_text()
    for old, new in SCALING[sample]:
        assert old in text, (sample, old)
        text = text.replace(old, new)
    return text


def hand_mapped(text: str, mapping: str) -> str:
    """``text`` with PROCESSORS and DISTRIBUTE directives after every unit's
    declarations: the last two dimensions of each array distributed as
    ``mapping`` says (a one-dimensional array takes the distributed format;
    on a 2x2 grid it stays replicated)."""
    from autodist.frontend import read_text

    fmts, grid = HAND[mapping]
    program = read_text(text, "prog.f")
    inserts: dict[int, list[str]] = {}
    for u in program.units:
        out = [f"CHPF$ PROCESSORS PROCS({grid})"]
        for sym in u.arrays:
            if sym.rank == 1:
                if "," in grid:
                    continue
                f = next(x for x in fmts if x != "*")
                out.append(f"CHPF$ DISTRIBUTE {sym.name}({f}) ONTO PROCS")
            else:
                fs = ["*"] * (sym.rank - 2) + list(fmts)
                out.append(f"CHPF$ DISTRIBUTE {sym.name}({','.join(fs)}) ONTO PROCS")
        inserts[u.decl_end] = out
    lines = []
    for k, line in enumerate(text.splitlines(), 1):
        lines.append(line)
        lines.extend(inserts.get(k, []))
    return "\n".join(lines) + "\n"


def source_file(text: str, name: str = "prog.f") -> Path:
    """``text`` in a file of the cache (one per distinct text)."""
    d = cache_dir() / "src" / _key(text)
    d.mkdir(parents=True, exist_ok=True)
    path = d / name
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return path


def annotated(text: str, mode: str, machine: str | None = None, procs: int = 4) -> str:
    """The program annotated by ``autodist annotate`` for ``procs``
    processors with the solution ``mode`` (static or dynamic) for
    ``machine`` (default: the bundled default profile)."""
    from autodist.cli import main

    args = ["--procs", str(procs), "--mode", mode] + (["--machine", machine] if machine else [])
    out = cache_dir() / "annotated" / f"{_key(text, *args)}.f"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        src = source_file(text)
        tmp = out.with_suffix(f".{os.getpid()}.tmp.f")
        with redirect_stderr(io.StringIO()):
            status = main(["annotate", str(src), *args, "-q", "-o", str(tmp)])
        if status != 0:
            raise RuntimeError(f"autodist annotate failed ({status}) on {src}")
        tmp.replace(out)
    return out.read_text()


def variant_names(sample: str) -> tuple[str, ...]:
    """The mappings of a sample the tests run: annotated and by hand."""
    return ("static", "dynamic", *HAND) + (("remapping",) if sample == "adi" else ())


def variant(sample: str, name: str) -> str:
    """One mapping of a (scaled) sample; see :func:`variant_names`."""
    text = scaled(sample)
    if name in HAND:
        return hand_mapped(text, name)
    if name == "remapping":
        # for 16 processors ADI's dynamic solution remaps between the row and
        # column sweeps (the arrangement P(16) then folds onto 1-4 ranks)
        return annotated(text, "dynamic", "ddt1997", 16)
    return annotated(text, name)


def prepared_program(text: str):
    """(program, analysis, translations) of ``text``, cached on disk: every
    launch of the session reads, analyzes and translates each program once."""
    import pickle

    from autodist.runtime.job.runner import prepare

    path = cache_dir() / "prepared" / f"{_key(text)}.pickle"
    if path.exists():
        try:
            return pickle.loads(path.read_bytes())
        except Exception:  # a stale or partial cache file: rebuild it
            pass
    prepared = prepare([str(source_file(text))])
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(pickle.dumps(prepared))
    tmp.replace(path)
    return prepared


def run_text(comm, text: str, vectorize: bool = True, **options):
    """Run ``text`` on ``comm``: (what rank 0 printed, the arrays gathered on
    rank 0 (None elsewhere), their bounds, the executor); ``options``: more
    fields of ``RunOptions``."""
    from autodist.runtime.spmd.executor import Executor, RunOptions

    prepared, error = None, None
    if comm.Get_rank() == 0:
        try:
            prepared = prepared_program(text)
        except Exception as exc:  # every rank raises it: no rank waits alone
            error = f"{type(exc).__name__}: {exc}"
    prepared, error = comm.bcast((prepared, error), root=0)
    if error is not None:
        raise AssertionError(error)
    program, analysis, translations = prepared
    out = io.StringIO()
    ex = Executor(program, analysis, comm, RunOptions(vectorize=vectorize, **options), out=out,
                  translations=translations)
    ex.run()
    arrays = ex.gather_arrays(root=0)
    bounds = {k: a.bounds for k, a in ex.arrays().items()}
    return out.getvalue(), arrays, bounds, ex


def check_against_gfortran(comm, text: str, **options):
    """Run ``text`` on ``comm`` and compare every array of the main program
    and every printed value with gfortran's (rank 0 asserts); ``options``:
    more fields of ``RunOptions``.  Returns the executor."""
    from autodist.runtime.job.verify import compare_arrays, compare_output

    ref = gfortran_reference(text) if comm.Get_rank() == 0 else None
    printed, arrays, bounds, ex = run_text(comm, text, **options)
    if comm.Get_rank() != 0:
        return ex
    assert ref is not None, "gfortran is not installed"
    stdout, ref_arrays = ref
    assert set(ref_arrays) <= set(arrays), (sorted(ref_arrays), sorted(arrays))
    mism = compare_arrays(arrays, ref_arrays, bounds) or compare_output(printed, stdout)
    assert mism is None, f"{mism} (modes: {sorted(ex.phase_modes.items())})"
    return ex


def gfortran_reference(text: str) -> tuple[str, dict[str, np.ndarray]] | None:
    """What the gfortran-compiled program prints, and its main program's
    arrays at END (None without gfortran); cached."""
    if shutil.which("gfortran") is None:
        return None
    from autodist.frontend import read_program
    from autodist.runtime.job.verify import GFORTRAN_FLAGS, run_gfortran

    d = cache_dir() / "gfortran" / _key(text, *GFORTRAN_FLAGS)
    meta = d / "stdout.json"
    if not meta.exists():
        d.mkdir(parents=True, exist_ok=True)
        program = read_program([str(source_file(text))])
        run = run_gfortran(program)
        np.savez(d / "arrays.npz", **run.arrays)
        meta.write_text(json.dumps({"stdout": run.stdout}))
    with np.load(d / "arrays.npz") as z:
        arrays = {k: z[k] for k in z.files}
    return json.loads(meta.read_text())["stdout"], arrays
