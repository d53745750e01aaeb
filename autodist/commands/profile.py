"""`autodist profile FILE... [--link FILE] -o profile.json`: measured trip counts,
branch frequencies and phase times (see :mod:`autodist.runtime.job.profiler`)."""

from __future__ import annotations

import sys

from . import common
from ..runtime.job.launch import DEFAULT_TIMEOUT


def configure(parser) -> None:
    common.add_source_args(parser)
    common.add_link_arg(parser)
    parser.add_argument("-o", "--output", metavar="FILE.json", required=True,
                        help="where to write the profile data (read by --profile of analyze, annotate, compare, sweep)")
    parser.add_argument("--show-output", action="store_true", help="print what the program prints (on stdout)")
    common.add_timeout_arg(parser, DEFAULT_TIMEOUT, "stop the profiled program")


def run(args) -> int:
    from ..analysis.profiledata import write_profile_data
    from ..runtime.job.faults import deadline
    from ..runtime.job.profiler import profile_program

    common.check_link_files(args)  # before reading the program
    program = common.read_sources(args)  # its INCLUDE files are inputs too
    common.guard_outputs(args, program, None, [("-o", args.output)])
    with deadline(args.timeout, "the profiled program"):
        data, printed, paths = profile_program(args.files, args.include, args.link, args.define, args.cpp)
    write_profile_data(args.output, data, args.files)
    if args.show_output:
        sys.stdout.write(printed)
    if not args.quiet:
        print(f"autodist: profile of {', '.join(args.files)}: {len(data.loops)} loop(s), "
              f"{len(data.branches)} branch(es), {len(data.phase_times)} phase time(s){_how(paths)} -> {args.output}",
              file=sys.stderr)
    return 0


def _how(paths: dict[str, str]) -> str:
    """How the timed phases ran: " (5 compiled, 1 numpy)"."""
    counts: dict[str, int] = {}
    for path in paths.values():
        counts[path] = counts.get(path, 0) + 1
    words = {"jit": "compiled"}
    return (" (" + ", ".join(f"{n} {words.get(p, p)}" for p, n in sorted(counts.items())) + ")") if counts else ""
