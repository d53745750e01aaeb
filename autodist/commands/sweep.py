"""`autodist sweep FILE --machine PROFILE [--procs LIST] [--vary KEY=VALUES]...`

How the best mapping depends on the processor count and the machine's
parameters (DDT §7, Figures 9 and 10): a table of the best static and dynamic
solutions per point, the crossovers between them, and ``--csv``, ``--json``,
``--plot`` files.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..errors import UsageError
from ..fileio import write_atomically
from ..sweep import Planner, parse_vary, procs_axis, run_sweep
from . import common


def configure(parser) -> None:
    common.add_source_args(parser)
    common.add_trip_count_arg(parser)
    common.add_machine_args(parser, "processor counts: 16, 1,2,4,8 or 1-32 (several make an axis; "
                                    "default: the profile's)")
    parser.add_argument("--vary", action="append", default=[], metavar="KEY=VALUES",
                        help="a numeric profile parameter and its values: a list 1e-6,2e-6 or a range "
                             "lo:hi:lin|log:n (twice, or with several --procs, for a grid)")
    common.add_mapping_args(parser)
    common.add_profile_data_arg(parser)
    parser.add_argument("--csv", metavar="FILE", default=None, help="write the points as CSV ('-': stdout)")
    parser.add_argument("--json", metavar="FILE", default=None,
                        help="write the points and crossovers as JSON ('-': stdout)")
    parser.add_argument("--plot", metavar="FILE.png", default=None,
                        help="plot speedup against the first varied quantity (PNG)")
    parser.add_argument("--no-refine", action="store_true",
                        help="report crossovers between grid points without bisecting them")
    parser.add_argument("--tolerance", type=float, default=1e-3, metavar="REL",
                        help="relative width to which continuous crossovers are bisected (default 1e-3)")
    parser.add_argument("--measure", action="store_true",
                        help="also run each point's solutions with the runtime (processor counts that fit)")


def _outputs(args, machine) -> dict[str, str]:
    """The files to write, checked: never an input, never one file twice,
    at most one document on stdout."""
    wanted = {k: getattr(args, k) for k in ("csv", "json", "plot") if getattr(args, k)}
    if list(wanted.values()).count("-") > 1:
        raise UsageError("only one of --csv and --json can go to stdout ('-')")
    if wanted.get("plot") == "-":
        raise UsageError("--plot needs a file name (PNG)")
    common.guard_outputs(args, None, machine, [(f"--{opt}", name) for opt, name in wanted.items() if name != "-"])
    return wanted


def _axes(args, machine):
    procs = common.parse_procs(args.procs, machine.processors)
    axes = [parse_vary(text, machine) for text in args.vary]
    if len(procs) > 1:
        axes.append(procs_axis(sorted(procs)))
    if not axes:
        raise UsageError("nothing to sweep: give several processor counts (--procs 1,2,4,8) "
                         "or a parameter (--vary remote_access_time=1e-9:1e-3:log:25)")
    if len(axes) > 2:
        raise UsageError("a sweep varies at most two quantities (the processor count counts as one); "
                         f"got {', '.join(a.key for a in axes)}")
    return tuple(axes), (procs[0] if len(procs) == 1 else None)


def run(args) -> int:
    machine = common.load_machine(args)
    outputs = _outputs(args, machine)
    axes, procs = _axes(args, machine)
    if args.measure:
        import os

        counts = procs if procs is not None else None
        if counts is None:
            counts = [int(v) for a in axes if a.key == "procs" for v in a.values]
        cores = os.cpu_count() or 1
        if not any(p <= cores for p in ([counts] if isinstance(counts, int) else counts)):
            raise UsageError(f"--measure: no processor count of the sweep fits this machine ({cores} cores)")
    pipe = common.pipeline(args)
    pipe.program  # read the sources before opening the database
    pipe.db = common.open_db(args)
    planner = Planner(pipe, machine)
    total = 1
    for a in axes:
        total *= len(a.values)
    with common.progress(args, total, "sweep", "point") as bar:
        result = run_sweep(planner, axes, procs, refine=not args.no_refine, tolerance=args.tolerance,
                           progress=lambda: bar.update(1))
    common.close_db(pipe.db, args)
    measured = None
    if args.measure:
        from ..sweep.measure import measure_points

        measured = measure_points(planner, result, args.include)
    from ..report.sweep import sweep_csv, sweep_json, sweep_table

    stdout_used = False
    for opt, name in outputs.items():
        if opt == "plot":
            from ..report.plot import plot_sweep

            where = f", {procs} processors" if procs is not None else ""
            plot_sweep(result, name, f"{Path(args.files[0]).name} on {machine.name}{where}")
        else:
            text = sweep_csv(result) if opt == "csv" else json.dumps(sweep_json(result, args.files), indent=2) + "\n"
            if name == "-":
                sys.stdout.write(text)
                stdout_used = True
                continue
            write_atomically(Path(name), (text,))
        if not args.quiet:
            print(f"autodist: wrote {name}", file=sys.stderr)
    if not stdout_used:
        print(sweep_table(result), end="")
        if measured is not None:
            from ..sweep.measure import measured_table

            print()
            print(measured_table(*measured), end="")
    common.report_stages(pipe, args)
    return 0
