"""`autodist annotate FILE... --machine PROFILE [--procs P] [-o OUT] [--report FILE.json]`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..annotate.source import annotate
from ..annotate.written import directive_notes
from ..errors import UsageError
from ..fileio import write_atomically, write_bytes_atomically
from ..frontend.source import lines_with_endings
from ..frontend.text import SOURCE_CODEC
from ..report.mapping import plan_json
from . import common, explain


def configure(parser) -> None:
    common.add_source_args(parser)
    common.add_trip_count_arg(parser)
    common.add_machine_args(parser, "number of processors (default: the profile's)")
    common.add_mapping_args(parser)
    common.add_profile_data_arg(parser)
    parser.add_argument("--mode", choices=("static", "dynamic", "best"), default=None,
                        help="which solution to write (default: the profile's mode, usually best)")
    parser.add_argument("-o", "--output", metavar="OUT", default=None,
                        help="annotated file (one input) or directory (several); default: stdout")
    parser.add_argument("--report", metavar="FILE.json", default=None, help="write the decision and its costs as JSON")
    parser.add_argument("--no-independent", action="store_true", help="do not write INDEPENDENT directives")
    parser.add_argument("--explain", metavar="OUT.html", default=None,
                        help="also write the page of 'autodist explain' for the solution written")
    explain.add_assumption_args(parser)


def _targets(args, files: list[str], changed: list[str]) -> dict[str, Path]:
    """Where each file goes: with one input and ``-o FILE``, the input (and any other
    file that changes, next to it); with ``-o DIR``, every file of the program (the
    unchanged ones copied), so that the directory builds as the original did."""
    out = Path(args.output)
    if len(args.files) == 1 and not (out.is_dir() or args.output.endswith("/")):
        main = str(Path(args.files[0]))
        targets = {main: out}
        for f in changed:
            if Path(f).resolve() != Path(main).resolve():
                targets[f] = out.parent / Path(f).name
        return targets
    if out.exists() and not out.is_dir():
        raise UsageError(f"-o {args.output}: several files need a directory")
    targets: dict[str, Path] = {}
    for f in files:
        dst = out / Path(f).name
        if dst in targets.values():
            other = next(s for s, d in targets.items() if d == dst)
            raise UsageError(f"-o {args.output}: {f} and {other} have the same name")
        targets[f] = dst
    return targets


def _text(lines) -> bytes:
    """The file's bytes: its lines carry their own endings (a last line may have none)."""
    return "".join(line if line.endswith(("\n", "\r")) else line + "\n" for line in lines[:-1]).encode(
        SOURCE_CODEC) + (lines[-1].encode(SOURCE_CODEC) if lines else b"")


def run(args) -> int:
    machine = common.load_machine(args)
    pipe = common.pipeline(args)
    an = pipe.analysis(machine)
    procs = common.parse_procs(args.procs, machine.processors)
    if len(procs) != 1:
        raise UsageError("--procs: annotate takes one processor count")
    program = an.program
    outputs = [("--report", args.report), ("--explain", args.explain)]
    keys = None
    if args.explain:
        keys = explain.assumption_keys(args, machine, procs[0])
    if args.output is not None:
        targets = _targets(args, list(program.files), [])
        outputs = [("-o", dst) for dst in targets.values()] + outputs
    common.guard_outputs(args, program, machine, outputs)
    pipe.db = common.open_db(args)
    plan = pipe.plan(machine, procs[0])
    common.close_db(pipe.db, args)
    mode = args.mode or machine.mode
    solution = plan.solution(mode)
    result = pipe.stage("annotate", annotate, an, solution, plan.table, ignore_directives=args.ignore_directives,
                        independent=not args.no_independent)
    changed = {f: lines for f, lines in result.files}

    def text_of(f: str) -> bytes:
        return _text(changed.get(f) or lines_with_endings(f, program.source_lines(f)))

    if args.output is None:
        if len(args.files) > 1 or any(Path(f).resolve() != Path(args.files[0]).resolve() for f in changed):
            if len(changed) > 1:
                raise UsageError("several files change: give -o DIR")
        sys.stdout.flush()
        sys.stdout.buffer.write(text_of(args.files[0]))
        sys.stdout.buffer.flush()
    else:
        targets = _targets(args, list(program.files), list(changed))
        common.guard_outputs(args, program, machine, [("-o", dst) for dst in targets.values()])
        for src, dst in targets.items():
            write_bytes_atomically(dst, text_of(src))
    if args.report:
        doc = plan_json(plan, mode, machine.source)
        write_atomically(Path(args.report), (json.dumps(doc, indent=2) + "\n",))
    if args.explain:
        e = explain.explanation(pipe, plan, machine, args, mode, keys)
        explain.write_html(e, *explain.pictures(e, pipe), args.explain)
        if not args.quiet:
            print(f"autodist: wrote {args.explain}", file=sys.stderr)
    if not args.quiet:
        s, d = plan.static, plan.dynamic
        print(f"autodist: {len(an.procedures)} procedure(s), {sum(len(p.phases) for p in an.procedures)} phases, "
              f"P = {plan.procs}: static {s.total:.6g} s, dynamic {d.total:.6g} s; wrote the {solution.kind} "
              f"solution ({result.directives} directives)"
              + (f" to {args.output}" if args.output else ""), file=sys.stderr)
    if not args.quiet and not args.ignore_directives:
        for note in directive_notes(program, procs[0]):
            print(f"autodist: note: {note}", file=sys.stderr)
    for note in () if args.quiet else result.notes:
        print(f"autodist: note: {note}", file=sys.stderr)
    if not args.quiet:
        from ..report.analysis import unknown_trips_text

        for line in unknown_trips_text(an, limit=6):
            print(f"autodist: note: {line.strip()}" if not line.startswith(" ") else f"autodist:   {line.strip()}",
                  file=sys.stderr)
    common.report_stages(pipe, args)
    return 0
