"""`autodist run FILE... [-np N] [--link FILE] [--report FILE.json] [--dump FILE.npz] [--verify]`.

Runs an HPF-annotated program on ``N`` MPI ranks (starting ``mpiexec`` from
the MPI that mpi4py uses, or in place when already launched by mpiexec),
prints its output as the program prints it, and writes what was measured.
See :mod:`autodist.runtime.job.runner`.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import UsageError
from . import common
from ..runtime.job.launch import DEFAULT_TIMEOUT


def configure(parser) -> None:
    common.add_source_args(parser, "Fortran 77 source files (with HPF directives)")
    common.add_link_arg(parser)
    parser.add_argument("-np", "--nprocs", dest="nprocs", type=int, default=None, metavar="N",
                        help="number of MPI ranks (default: the running MPI job's size, else 1)")
    parser.add_argument("--report", metavar="FILE.json", default=None,
                        help="per phase and per rank: time, elements, bytes and messages; remaps; modes")
    parser.add_argument("--dump", metavar="FILE.npz", default=None,
                        help="final values of every array (global view, keys UNIT.NAME)")
    parser.add_argument("--verify", action="store_true",
                        help="compare every array and printed value with a sequential run and gfortran (exit 1 "
                             "on a mismatch)")
    parser.add_argument("--rtol", type=float, default=1e-12, help="relative error allowed by --verify (default 1e-12)")
    parser.add_argument("--verify-skip", action="append", default=[], metavar="REGEX",
                        help="--verify leaves out of the output comparison the printed lines matching REGEX (a "
                             "Python regular expression, searched in each line; repeatable), e.g. the lines "
                             "where a program prints its timings: 'CPU time|Time in seconds'")
    parser.add_argument("--no-gfortran", action="store_true", help="--verify without the gfortran reference")
    common.add_timeout_arg(parser, DEFAULT_TIMEOUT, "stop the program (at every rank count)")
    parser.add_argument("--no-vectorize", action="store_true",
                        help="run every phase as translated scalar code (slower; for comparisons)")
    parser.add_argument("--replicated", action="store_true",
                        help="run every phase on replicated data (no owner-computes distribution)")
    parser.add_argument("--no-jit", action="store_true",
                        help="no compiled kernels (numba): the numpy and translated Python paths only")
    parser.add_argument("--pipeline-blocks", type=int, default=None, metavar="N",
                        help="run a pipelined phase (a sequential loop along a distributed dimension) in N "
                             "blocks of a parallel loop, so that the ranks overlap (default: 2 per rank; "
                             "1: whole, one rank after the other)")
    parser.add_argument("--jit-after", type=float, default=None, metavar="SEC",
                        help="compile a phase or procedure once it has run SEC seconds uncompiled (default 0.1, "
                             "or $AUTODIST_JIT_AFTER; 0: compile everything; kernels in the cache load at once)")


def _request(args):
    from ..runtime.job.runner import RunRequest

    for f in args.files:
        if not Path(f).is_file():
            raise UsageError(f"{f}: no such file")
    if args.nprocs is not None and args.nprocs < 1:
        raise UsageError(f"-np: the number of ranks must be positive, not {args.nprocs}")
    from ..runtime.job.launch import check_local_ranks, in_mpi_job

    if args.nprocs is not None and args.nprocs > 1 and not in_mpi_job():
        check_local_ranks(args.nprocs)  # before reading the program
    if args.jit_after is not None and not args.jit_after >= 0:
        raise UsageError("--jit-after must be a number of seconds, 0 or more")
    if args.pipeline_blocks is not None and args.pipeline_blocks < 1:
        raise UsageError(f"--pipeline-blocks must be 1 or more, not {args.pipeline_blocks}")
    if not 0 <= args.rtol < 1:
        raise UsageError("--rtol must be in [0, 1)")
    for pattern in args.verify_skip:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise UsageError(f"--verify-skip {pattern!r}: not a regular expression ({exc})") from None
    common.check_link_files(args)
    common.guard_outputs(args, None, None, [("--report", args.report), ("--dump", args.dump)])
    return RunRequest(files=tuple(args.files), include_dirs=tuple(args.include), defines=tuple(args.define),
                      cpp=args.cpp, report=args.report,
                      dump=args.dump, verify=args.verify, rtol=args.rtol, verify_skip=tuple(args.verify_skip),
                      vectorize=not args.no_vectorize,
                      distribute=not args.replicated, gfortran=not args.no_gfortran, quiet=args.quiet,
                      timeout=args.timeout, links=tuple(args.link), jit=not args.no_jit,
                      jit_after=args.jit_after, pipeline_blocks=args.pipeline_blocks)


def _rank_main(req) -> int:
    from mpi4py import MPI

    from ..runtime.job.runner import run_on_ranks

    comm = MPI.COMM_WORLD
    return run_on_ranks(req, comm)


def run(args) -> int:
    from ..runtime.job.launch import in_mpi_job, spmd

    req = _request(args)
    if in_mpi_job():
        from mpi4py import MPI

        size = MPI.COMM_WORLD.Get_size()
        if args.nprocs is not None and args.nprocs != size:
            raise UsageError(f"-np {args.nprocs}, but this MPI job has {size} rank(s)")
        nprocs = size
    else:
        nprocs = args.nprocs or 1
    return spmd(_argv(args, nprocs), nprocs, _rank_main, req, timeout=args.timeout)


def _argv(args, nprocs: int) -> list[str]:
    """The command line each rank runs (``python -m autodist <argv>``)."""
    out = ["run", *args.files, "-np", str(nprocs), "--timeout", str(args.timeout), "--rtol", repr(args.rtol)]
    out += common.source_argv(args)
    for f in args.link:
        out += ["--link", f]
    for pattern in args.verify_skip:
        out += ["--verify-skip", pattern]
    if args.jit_after is not None:
        out += ["--jit-after", repr(args.jit_after)]
    if args.pipeline_blocks is not None:
        out += ["--pipeline-blocks", str(args.pipeline_blocks)]
    for flag, value in (("--report", args.report), ("--dump", args.dump)):
        if value is not None:
            out += [flag, value]
    for flag, on in (("--verify", args.verify), ("--no-gfortran", args.no_gfortran), ("-q", args.quiet),
                     ("--no-vectorize", args.no_vectorize), ("--replicated", args.replicated),
                     ("--no-jit", args.no_jit),
                     ("-v", args.verbose)):
        if on:
            out.append(flag)
    return out
