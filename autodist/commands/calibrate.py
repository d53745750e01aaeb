"""`autodist calibrate -np N [-o PROFILE.yaml] [--force] [--repeat K] [--quick]`.

Measures this machine with mpi4py microbenchmarks on N ranks (message
latency, bandwidth, the per-byte cost of a halo exchange, a barrier, the
compute speed of numpy kernels like the runtime's) and writes a machine
profile with the medians, and comments saying when, where, with which MPI
library and how spread the measurements were.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from ..errors import UsageError
from . import common


def configure(parser) -> None:
    parser.add_argument("-np", dest="nranks", type=int, default=2, metavar="N",
                        help="MPI ranks to measure with (default 2; at least 2)")
    parser.add_argument("-o", "--output", metavar="PROFILE.yaml", default=None,
                        help="write the profile here (default: stdout); an existing file only with --force")
    parser.add_argument("--force", action="store_true", help="replace an existing output file")
    parser.add_argument("--name", default=None, help="the profile's name (default: the output file's stem)")
    parser.add_argument("--like", metavar="PROFILE", default=None,
                        help="copy the search limits (not measured) from this profile (default: ddt1997)")
    parser.add_argument("--repeat", type=int, default=None, metavar="K",
                        help="measurements of each quantity, the median is reported (default 15; 3 with --quick)")
    parser.add_argument("--quick", action="store_true",
                        help="few short measurements: seconds in all, rough numbers (tests, a first look)")
    common.add_timeout_arg(parser, 600.0, "kill the MPI job")


def run(args) -> int:
    from ..calibrate import Settings, calibration, check_ranks, check_target, measure, profile_text, write_profile
    from ..machine import resolve_profile

    check_ranks(args.nranks)
    if args.repeat is not None and args.repeat < 1:
        raise UsageError(f"--repeat must be a positive integer, got {args.repeat}")
    out = Path(args.output) if args.output else None
    if out is not None:
        check_target(out, args.force)  # before minutes of measuring
    like, _ = resolve_profile(args.like)
    if args.quick:
        settings = Settings.quick(args.repeat or 3)
    else:
        settings = Settings(repeat=args.repeat or 15)
    if not args.quiet:
        print(f"autodist: measuring on {args.nranks} ranks ({settings.repeat} repetitions)...", file=sys.stderr)
    raw = measure(args.nranks, settings, args.timeout)
    if _rank() != 0:
        return 0  # inside an MPI job: rank 0 writes
    cal = calibration(raw)
    name = args.name or (out.stem if out is not None else "local")
    text = profile_text(cal, name, like, _command(args))
    if out is None:
        sys.stdout.write(text)
        return 0
    profile = write_profile(out, text, args.force)
    if not args.quiet:
        v = cal.values()
        print(f"autodist: wrote {out}: latency {v['latency']:.3g} s, bandwidth {v['bandwidth']:.3g} B/s, "
              f"remote access {v['remote_access_time']:.3g} s/byte, phase start {v['parallel_overhead']:.3g} s, "
              f"{v['flop_time']:.3g} s/flop, {v['memory_access_time']:.3g} s/access "
              f"(profile '{profile.name}')", file=sys.stderr)
    return 0


def _command(args) -> str:
    """The command line that made the profile, for its comments."""
    words = ["autodist", "calibrate", "-np", str(args.nranks)]
    if args.quick:
        words.append("--quick")
    if args.repeat is not None:
        words += ["--repeat", str(args.repeat)]
    if args.like:
        words += ["--like", args.like]
    if args.output:
        words += ["-o", args.output]
    return " ".join(shlex.quote(w) for w in words)


def _rank() -> int:
    mpi = sys.modules.get("mpi4py.MPI")
    return mpi.COMM_WORLD.Get_rank() if mpi is not None and mpi.Is_initialized() else 0
