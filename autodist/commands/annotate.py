"""`autodist annotate FILE... --machine PROFILE [--procs P] [-o OUT] [--report FILE.json]`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..annotate.source import annotate
from ..errors import UsageError
from ..fileio import write_atomically
from ..report.mapping import plan_json
from . import common


def configure(parser) -> None:
    common.add_source_args(parser)
    common.add_machine_args(parser, "number of processors (default: the profile's)")
    common.add_mapping_args(parser)
    common.add_profile_data_arg(parser)
    parser.add_argument("--mode", choices=("static", "dynamic", "best"), default=None,
                        help="which solution to write (default: the profile's mode, usually best)")
    parser.add_argument("-o", "--output", metavar="OUT", default=None,
                        help="annotated file (one input) or directory (several); default: stdout")
    parser.add_argument("--report", metavar="FILE.json", default=None, help="write the decision and its costs as JSON")
    parser.add_argument("--no-independent", action="store_true", help="do not write INDEPENDENT directives")


def _targets(args, changed: list[str]) -> dict[str, Path]:
    """Where each changed file goes; refuses to overwrite an input."""
    inputs = {Path(f).resolve() for f in args.files}
    out = Path(args.output)
    if len(args.files) == 1 and not (out.is_dir() or args.output.endswith("/")):
        main = str(Path(args.files[0]))
        extra = [f for f in changed if Path(f).resolve() != Path(main).resolve()]
        targets = {main: out}
        if extra:
            for f in extra:
                targets[f] = out.parent / Path(f).name
    else:
        if out.exists() and not out.is_dir():
            raise UsageError(f"-o {args.output}: several files need a directory")
        targets = {f: out / Path(f).name for f in changed}
    for src, dst in targets.items():
        if dst.resolve() in inputs or (dst.exists() and any(dst.resolve() == Path(i) for i in inputs)):
            raise UsageError(f"-o {dst}: refusing to overwrite the input file {src}")
    return targets


def run(args) -> int:
    machine = common.load_machine(args)
    pipe = common.pipeline(args)
    an = pipe.analysis(machine)
    procs = common.parse_procs(args.procs, machine.processors)
    if len(procs) != 1:
        raise UsageError("--procs: annotate takes one processor count")
    pipe.db = common.open_db(args)
    plan = pipe.plan(machine, procs[0])
    common.close_db(pipe.db, args)
    mode = args.mode or machine.mode
    solution = plan.solution(mode)
    result = pipe.stage("annotate", annotate, an, solution, plan.table, ignore_directives=args.ignore_directives,
                        independent=not args.no_independent)
    changed = {f: lines for f, lines in result.files}
    if args.output is None:
        if len(args.files) > 1 or any(Path(f).resolve() != Path(args.files[0]).resolve() for f in changed):
            if len(changed) > 1:
                raise UsageError("several files change: give -o DIR")
        lines = changed.get(args.files[0]) or tuple(an.program.source_lines(args.files[0]))
        sys.stdout.write("".join(l if l.endswith("\n") else l + "\n" for l in lines))
    else:
        targets = _targets(args, list(changed) or [args.files[0]])
        for src, dst in targets.items():
            lines = changed.get(src) or tuple(an.program.source_lines(src))
            write_atomically(dst, lines)
    if args.report:
        doc = plan_json(plan, mode, machine.source)
        write_atomically(Path(args.report), (json.dumps(doc, indent=2) + "\n",))
    if not args.quiet:
        s, d = plan.static, plan.dynamic
        print(f"autodist: {len(an.procedures)} procedure(s), {sum(len(p.phases) for p in an.procedures)} phases, "
              f"P = {plan.procs}: static {s.total:.6g} s, dynamic {d.total:.6g} s; wrote the {solution.kind} "
              f"solution ({result.directives} directives)"
              + (f" to {args.output}" if args.output else ""), file=sys.stderr)
    common.report_stages(pipe, args)
    return 0
