"""One ``autodist run`` on the ranks of a communicator.

:func:`run_on_ranks` is what every rank executes: rank 0 builds the ``--link``
files (:mod:`autodist.runtime.job.link`), reads, analyzes and translates the
program (so that an error in the source is reported once, before anything
runs) and broadcasts the result; every rank loads the libraries and runs it;
rank 0 writes the report (:mod:`autodist.runtime.job.report`) and the dump,
and with ``verify`` compares the run with a sequential run and with gfortran
(:mod:`autodist.runtime.job.verify`).  The exit status is the same on every rank.
"""

from __future__ import annotations

import io
import json
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import numpy as np

from ...errors import AutodistError, RuntimeFault
from ..fortran.files import RecordedInput
from .launch import program_input
from .prepared import from_cache


@dataclass(frozen=True)
class RunRequest:
    """What to run and what to produce."""

    files: tuple[str, ...]
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()  # -D for the C preprocessor
    cpp: bool | None = None  # --cpp (None: the files gfortran preprocesses)
    report: str | None = None
    dump: str | None = None
    verify: bool = False
    rtol: float = 1e-12
    verify_skip: tuple[str, ...] = ()  # regexes: printed lines --verify leaves out
    vectorize: bool = True
    distribute: bool = True
    gfortran: bool = True
    quiet: bool = False
    timeout: float = 600.0
    links: tuple[str, ...] = ()  # --link files
    jit: bool = True  # compiled kernels (--no-jit: off)
    jit_after: float | None = None  # --jit-after (None: the default)
    pipeline_blocks: int | None = None  # --pipeline-blocks (None: the default)


def prepare(files, include_dirs=(), instrument: bool = False, foreign=None, defines=(), cpp=None):
    """Read (preprocessed with ``defines`` where ``cpp`` says, see
    :func:`autodist.frontend.read_program`), analyze and translate (calling the
    routines of ``foreign``, the loaded ``--link`` libraries): (program,
    analysis, translations)."""
    from ...analysis import analyze
    from ...frontend import read_program
    from ..spmd.executor import translate_program

    program = read_program(list(files), include_dirs=list(include_dirs), defines=defines, cpp=cpp)
    analysis = analyze(program)
    return program, analysis, translate_program(program, analysis, instrument, foreign)


def _shared(comm, build):
    """``build()`` on rank 0, broadcast; an error there is raised on rank 0
    and ends the other ranks quietly (status 2)."""
    rank = comm.Get_rank()
    value, error = None, None
    if rank == 0:
        try:
            value = build()
        except AutodistError as exc:
            error = exc
    if comm.Get_size() > 1:
        error_flag = comm.bcast(error is not None, root=0)
        if error_flag:
            if rank == 0:
                raise error  # type: ignore[misc]
            return None
        value = comm.bcast(value, root=0)
    elif error is not None:
        raise error
    return value


def run_on_ranks(req: RunRequest, comm, out: TextIO | None = None) -> int:
    """Run the program of ``req`` on ``comm`` (see the module docstring)."""
    from .faults import Mailbox

    # in the folder of the job autodist launched, if any: it goes with the job, also when a rank is aborted
    job = Mailbox.of_this_job()
    with tempfile.TemporaryDirectory(prefix="autodist-link-", dir=None if job is None else job.folder) as folder:
        return _run_on_ranks(req, comm, out, folder)


def _run_on_ranks(req: RunRequest, comm, out: TextIO | None, folder: str) -> int:
    """:func:`run_on_ranks`, the ``--link`` libraries built into (rank 0) and
    loaded from this rank's ``folder``."""
    from ..spmd.executor import Executor, RunOptions
    from . import link

    if out is None:
        out = sys.stdout
        if hasattr(out, "reconfigure"):  # the program's bytes, whatever they are (fortran.formats.as_output)
            out.reconfigure(errors="surrogateescape")
    rank = comm.Get_rank()
    def build():
        from ...fileio import check_outputs

        built = link.build(link.link_files(req.links), folder)
        got = from_cache(req.files, req.include_dirs, req.defines, req.cpp, req.links,
                       lambda: prepare(req.files, req.include_dirs, foreign=link.load(built, folder),
                                       defines=req.defines, cpp=req.cpp))
        # INCLUDE files are known once the program is read
        check_outputs([("--report", req.report), ("--dump", req.dump)], got[0].files + req.links)
        return got + (built,)

    prepared = _shared(comm, build)
    if prepared is None:
        return 2
    program, analysis, translations, built = prepared
    foreign = link.load(built, folder)
    if rank == 0 and not req.quiet:
        from ...analysis.assertions import independent_assertions

        for a in independent_assertions(analysis):
            if not a.trusted:
                print(f"autodist: note: {a.note()}", file=sys.stderr)
    tee = io.StringIO() if req.verify else None
    stream = _Tee(out, tee) if tee is not None else out
    options = RunOptions(vectorize=req.vectorize, distribute=req.distribute, jit=req.jit, jit_after=req.jit_after,
                         pipeline_blocks=req.pipeline_blocks)
    # --verify feeds the references what this run read of standard input
    given = program_input() if comm.Get_rank() == 0 else None
    stdin = RecordedInput(given) if req.verify and given is not None else given
    ex = Executor(program, analysis, comm, options, out=stream, translations=translations, foreign=foreign,
                  stdin=(lambda: stdin) if stdin is not None else None)
    comm.Barrier()
    t0 = time.perf_counter()
    a0 = ex.aside_seconds()

    def elapsed() -> float:
        """This rank's time in the program (numba's and the planning left out)."""
        return time.perf_counter() - t0 - (ex.aside_seconds() - a0)

    try:
        stop = ex.run()
    except RuntimeFault as exc:  # a fault or the time limit: what ran so far, for the user to see where
        if req.report and rank == 0:
            _write_partial_report(req, ex, analysis, program, comm.Get_size(), elapsed(), exc)
        raise
    seconds = comm.allreduce(elapsed(), op=_max())
    planning = comm.allreduce(ex.planner.seconds, op=_max())
    per_rank = ex.comms.stats.gather(comm, root=0)
    predicted = comm.gather(ex.predicted, root=0)
    executions = ex.executions
    from .report import build_report, jit_counts, jit_section

    compiling = comm.gather(jit_counts(ex), root=0)
    if req.report and rank == 0:
        merged: dict[str, list[int]] = {}
        for d in predicted or []:
            merged.update(d)
        report = build_report(per_rank, analysis, ex.phase_modes, ex.remap_log, merged, executions,
                              program.files, comm.Get_size(), seconds, stop, ex.linked.calls, ex.kept_replicated,
                              ex.phase_paths, jit_section(ex, compiling))
        report["planning_seconds"] = planning
        _write_json(req.report, report)
    need_arrays = req.dump is not None or req.verify
    arrays = ex.gather_arrays(root=0) if need_arrays else None
    bounds = {k: a.bounds for k, a in ex.arrays().items()}
    if rank == 0 and req.dump is not None:
        _write_npz(req.dump, arrays)
    status = _stop_status(stop)
    if req.verify:
        ok = None
        if rank == 0:
            ok = _verify(req, (program, analysis, translations), foreign, link.reference_inputs(built), arrays,
                         bounds, tee.getvalue(), stdin.recorded())  # type: ignore[union-attr]
        ok = comm.bcast(ok, root=0) if comm.Get_size() > 1 else ok
        if not ok:
            status = 1
    if rank == 0 and not req.quiet:
        where = f"; report {req.report}" if req.report else ""
        print(f"autodist: ran {', '.join(program.files)} on {comm.Get_size()} rank(s) in {seconds:.3g} s{where}",
              file=sys.stderr)
    return status


def _write_partial_report(req: RunRequest, ex, analysis, program, nprocs: int, seconds: float, exc) -> None:
    """The report of a run that ended with an error (the time limit, a fault), from
    rank 0's own counters only (the other ranks are not asked: they may be gone),
    marked ``"completed": false`` with the error."""
    from .report import build_report, jit_section

    try:
        ex.kernels is not None and ex.kernels.credit()
        report = build_report([ex.comms.stats.to_dict()], analysis, ex.phase_modes, ex.remap_log, dict(ex.predicted),
                              ex.executions, program.files, nprocs, seconds, None, ex.linked.calls,
                              ex.kept_replicated, ex.phase_paths, jit_section(ex))
        report["completed"] = False
        report["error"] = str(exc)
        report["ranks_reported"] = [0]
        _write_json(req.report, report)
    except Exception as err:  # the report is a courtesy: the run's own error is the one to show
        print(f"autodist: note: no report of the failed run: {err}", file=sys.stderr)


def _max():
    from mpi4py import MPI

    return MPI.MAX


class _Tee:
    """Writes to the program's stdout and keeps a copy."""

    def __init__(self, *streams):
        self.streams = [s for s in streams if s is not None]

    def write(self, text: str) -> int:
        for s in self.streams:
            s.write(text)
        return len(text)

    def flush(self) -> None:
        for s in self.streams:
            s.flush()


def _stop_status(stop) -> int:
    """gfortran's exit status for ``STOP code``: the integer code, else 0."""
    if isinstance(stop, int) and not isinstance(stop, bool):
        return stop & 0xFF
    return 0


def _write_json(path: str, doc: dict) -> None:
    from ...fileio import write_atomically

    write_atomically(Path(path), (json.dumps(doc, indent=1),))


def _write_npz(path: str, arrays: dict[str, np.ndarray]) -> None:
    from ...fileio import write_bytes_atomically

    buf = io.BytesIO()
    np.savez(buf, **arrays)
    write_bytes_atomically(path, buf.getvalue())


def _verify(req: RunRequest, prepared, foreign, link_inputs: list[str], arrays, bounds, printed: str,
            stdin: bytes) -> bool:
    """Rank 0: compare with a sequential run and with gfortran (linked with
    ``link_inputs``), both given ``stdin``, the input the run read; says how
    on stderr."""
    from mpi4py import MPI

    from ..spmd.executor import Executor, RunOptions
    from .verify import (NO_NOISE, UNDEFINED_FLAGS, compare_arrays, compare_output, gfortran_available, reference_noise,
                         run_gfortran)

    program, analysis, translations = prepared
    buf = io.StringIO()
    seq = Executor(program, analysis, MPI.COMM_SELF, RunOptions(vectorize=req.vectorize, jit=req.jit,
                                                                 jit_after=req.jit_after), out=buf,
                   translations=translations, foreign=foreign, stdin=lambda given=io.BytesIO(stdin): given)
    seq.run()
    references = [(seq.gather_arrays(root=0), buf.getvalue())]
    runs = []
    if req.gfortran and gfortran_available():
        try:
            ref = run_gfortran(program, req.include_dirs, req.timeout, link_inputs=link_inputs, stdin=stdin)
            if ref.status < 0:  # the binary itself crashed: nothing to compare with
                print(f"autodist: verify: gfortran reference skipped: the gfortran build of the program was "
                      f"killed by {_signal_name(-ref.status)}", file=sys.stderr)
            else:
                runs.append(ref)
                references.append((ref.arrays, ref.stdout))
        except (RuntimeError, OSError) as exc:
            print(f"autodist: verify: gfortran reference skipped: {exc}", file=sys.stderr)

    def compare(noise) -> list:
        return [compare_arrays(arrays, a, bounds, req.rtol, noise)
                or compare_output(printed, out, req.rtol, req.verify_skip, noise) for a, out in references]

    noise = NO_NOISE
    found = compare(noise)
    if runs and any(found):  # on what the program leaves undefined, or the clock? (two more runs tell)
        try:
            runs += [run_gfortran(program, req.include_dirs, req.timeout, link_inputs=link_inputs, stdin=stdin,
                                  flags=flags) for flags in UNDEFINED_FLAGS]
            noise = reference_noise(runs[0], runs[1:], req.verify_skip)
            found = compare(noise)
        except (RuntimeError, OSError) as exc:
            print(f"autodist: verify: no second gfortran reference: {exc}", file=sys.stderr)
    left_out = "" if not (noise.elements or noise.words) else (
        f"; {noise.elements} element(s) and {len(noise.words)} printed word(s) left out, which differ "
        "between gfortran runs: undefined values or the clock")
    labels = ["the sequential run" + (f" ({left_out[2:]})" if left_out else "")]
    if runs:
        labels.append(f"gfortran ({len(runs[0].arrays)} array(s) and the output{left_out})")
    checks = list(zip(labels, found))
    ok = True
    for what, mism in checks:
        if mism is None:
            print(f"autodist: verify: same results as {what}", file=sys.stderr)
        else:
            ok = False
            print(f"autodist: verify: MISMATCH with {what}: {mism}", file=sys.stderr)
    return ok


def _signal_name(number: int) -> str:
    import signal

    try:
        return f"signal {number} ({signal.Signals(number).name})"
    except ValueError:
        return f"signal {number}"
