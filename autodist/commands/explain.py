"""`autodist explain FILE... [--procs P] [--machine M] [--html OUT.html] [--png DIR] [--json FILE]`

The decision made visible and questionable: the layout over the program (a
timeline of phases and arrays), why (per array the chosen layout and the
runner-ups, per replicated array the reason) and what would change it (per
assumption the value at which the best mapping changes, found with the sweep
machinery).  A short text on stdout; ``--html`` one self-contained page,
``--png`` the pictures, ``--json`` everything for scripts.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .. import ir
from ..errors import UsageError
from ..fileio import write_atomically, write_bytes_atomically
from . import common

#: Names accepted by --assumptions besides the profile keys.
ALIASES = {"processors": "procs", "trip_count": "default_trip_count", "trip-count": "default_trip_count"}


def add_assumption_args(parser) -> None:
    parser.add_argument("--assumptions", metavar="KEYS", default=None,
                        help="what would change it: the assumptions to examine, comma separated (procs, "
                             "remote_access_time, latency, bandwidth, flop_time, memory_access_time, "
                             "parallel_overhead, default_trip_count, branch_probability), or 'none' "
                             "(default: those the machine's model and the program depend on)")
    parser.add_argument("--tolerance", type=float, default=1e-3, metavar="REL",
                        help="relative width to which the values that change the decision are bisected "
                             "(default 1e-3)")


def configure(parser) -> None:
    common.add_source_args(parser)
    common.add_machine_args(parser, "number of processors (default: the profile's)")
    common.add_mapping_args(parser)
    common.add_profile_data_arg(parser)
    common.add_trip_count_arg(parser)
    parser.add_argument("--mode", choices=("static", "dynamic", "best"), default=None,
                        help="which solution to explain (default: the profile's mode, usually best)")
    parser.add_argument("--html", metavar="OUT.html", default=None,
                        help="write one self-contained HTML page (pictures, sortable tables, the source)")
    parser.add_argument("--png", metavar="DIR", default=None,
                        help="write the pictures into DIR (timeline-static.png, timeline-dynamic.png, what-if.png)")
    parser.add_argument("--json", metavar="FILE", default=None, help="write everything as JSON ('-': stdout)")
    add_assumption_args(parser)


def base_machine(args):
    """The profile, with ``--trip-count N`` as its ``default_trip_count`` (so that
    the trip count is an assumption like the others)."""
    return common.load_machine(args)


def one_procs(args, machine, command: str = "explain") -> int:
    procs = common.parse_procs(args.procs, machine.processors)
    if len(procs) != 1:
        raise UsageError(f"--procs: {command} takes one processor count")
    return procs[0]


def assumption_keys(args, machine, procs: int) -> tuple[str, ...] | None:
    """The keys of --assumptions, checked (None: the default ones)."""
    from ..sweep.sensitivity import assumption_axis

    if not 0 < args.tolerance < 1:
        raise UsageError(f"--tolerance must be between 0 and 1, got {args.tolerance:g}")
    text = getattr(args, "assumptions", None)
    if text is None:
        return None
    if text.strip().lower() == "none":
        return ()
    keys = tuple(dict.fromkeys(ALIASES.get(k.strip(), k.strip()) for k in text.split(",") if k.strip()))
    if not keys:
        raise UsageError("--assumptions: no key given (or 'none')")
    for k in keys:
        assumption_axis(k, machine, procs)  # a bad key is an error before any work
    return keys


def _has_branches(program: ir.Program) -> bool:
    return any(isinstance(s, (ir.If, ir.ArithIf, ir.ComputedGoto)) for u in program.units for s in u.statements())


def sensitivities(pipe, machine, procs: int, keys, args, unknown_trips: bool):
    """Examine every assumption (``keys``, or the default ones), with a progress bar."""
    from ..sweep import Planner
    from ..sweep.sensitivity import default_keys, examine, grid_size

    if keys is None:
        keys = default_keys(machine, unknown_trips, _has_branches(pipe.program))
    planner = Planner(pipe, machine)
    out = []
    db, pipe.db = pipe.db, None  # the variants would only fill the procedure database
    try:
        with common.progress(args, sum(grid_size(k, machine, procs) for k in keys), "explain", "plan") as bar:
            def tick() -> None:
                if bar.total is not None and bar.n >= bar.total:
                    bar.total += 1
                bar.update(1)

            for k in keys:
                bar.set_description(f"explain {k}")
                out.append(pipe.stage("sensitivity", examine, planner, k, procs, tolerance=args.tolerance,
                                      progress=tick))
    finally:
        pipe.db = db
    return tuple(out)


def explanation(pipe, plan, machine, args, mode: str, keys):
    """The explanation of ``plan`` (its ``mode`` solution) with the assumptions examined."""
    from ..report.explain import explain, unknown_trips

    sens = sensitivities(pipe, machine, plan.procs, keys, args, bool(unknown_trips(plan)))
    return pipe.stage("explain", explain, plan, mode, machine.source, sens)


def pictures(e, pipe):
    """The PNGs of an explanation: one timeline per solution shown, the what-if panels."""
    from ..report.timeline import sensitivity_png, timeline_png

    title = ", ".join(Path(f).name for f in e.files[:2])
    timelines = [pipe.stage("pictures", timeline_png, t,
                            f"{title}: the {t.kind} solution on {e.procs} processors of {e.machine}, "
                            f"{t.total:.4g} s per run") for t in e.timelines]
    what_if = pipe.stage("pictures", sensitivity_png, e.sensitivities, f"{title}: what would change it")
    return timelines, what_if


def write_html(e, timelines, what_if, path: str) -> None:
    from ..report.html import explain_html

    write_atomically(Path(path), (explain_html(e, timelines, what_if),))


def png_names(e) -> list[str]:
    return [f"timeline-{t.kind}.png" for t in e.timelines] + (["what-if.png"] if any(s.matters for s in e.sensitivities)
                                                            else [])


def _plain(value):
    """numpy scalars (the cost model's sums) as Python numbers."""
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def run(args) -> int:
    machine = base_machine(args)
    procs = one_procs(args, machine)
    keys = assumption_keys(args, machine, procs)
    if args.json == "-" and args.html == "-":
        raise UsageError("only one of --json and --html can go to stdout")
    if args.html == "-" or args.png == "-":
        raise UsageError(f"{'--html' if args.html == '-' else '--png'} needs a file name")
    if args.png and Path(args.png).exists() and not Path(args.png).is_dir():
        raise UsageError(f"--png {args.png}: not a directory")
    pipe = common.pipeline(args)
    program = pipe.program
    outputs = [("--html", args.html), ("--json", args.json if args.json != "-" else None)]
    png_dir = Path(args.png) if args.png else None
    if png_dir is not None:  # every picture it may hold
        outputs += [("--png", png_dir / n) for n in ("timeline-static.png", "timeline-dynamic.png", "what-if.png")]
    common.guard_outputs(args, program, machine, outputs)
    pipe.db = common.open_db(args)
    plan = pipe.plan(machine, procs)
    common.close_db(pipe.db, args)
    mode = args.mode or machine.mode
    e = explanation(pipe, plan, machine, args, mode, keys)
    written = []
    if args.html or png_dir is not None:
        timelines, what_if = pictures(e, pipe)
        if args.html:
            write_html(e, timelines, what_if, args.html)
            written.append(args.html)
        if png_dir is not None:
            png_dir.mkdir(parents=True, exist_ok=True)
            for name, pic in zip(png_names(e), timelines + ([what_if] if what_if is not None else [])):
                write_bytes_atomically(png_dir / name, pic.png)
                written.append(str(png_dir / name))
    if args.json:
        from ..report.explain_text import explain_json

        text = json.dumps(explain_json(e, machine.as_dict()), indent=2, default=_plain) + "\n"
        if args.json == "-":
            sys.stdout.write(text)
        else:
            write_atomically(Path(args.json), (text,))
            written.append(args.json)
    if args.json != "-":
        from ..report.explain_text import explain_text

        print(explain_text(e), end="")
    if not args.quiet:
        for name in written:
            print(f"autodist: wrote {name}", file=sys.stderr)
    common.report_stages(pipe, args)
    return 0
