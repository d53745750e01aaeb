"""`autodist compare FILE --machine PROFILE --procs LIST [--format table|json]`."""

from __future__ import annotations

import json

from ..report.compare import compare_json, compare_table
from . import common


def configure(parser) -> None:
    common.add_source_args(parser)
    common.add_trip_count_arg(parser)
    common.add_machine_args(parser, "processor counts: 16, 1,2,4,8 or 1-32 (default: the profile's)")
    common.add_mapping_args(parser)
    common.add_profile_data_arg(parser)
    parser.add_argument("--format", choices=("table", "json"), default="table", help="output format")
    parser.add_argument("--as-written", action="store_true",
                        help="add the mapping the source's own HPF directives describe")
    parser.add_argument("--measure", action="store_true",
                        help="also run each solution with the MPI runtime and show predicted vs measured")
    parser.add_argument("--runs", type=common.count_arg(1, MAX_RUNS), default=3, metavar="K",
                        help="with --measure, run each solution K times and show the run of median time "
                             "(default 3)")
    common.add_timeout_arg(parser, 600.0, "with --measure, stop a measured run")


#: The most runs ``--runs`` asks of each measured solution.
MAX_RUNS = 100


def run(args) -> int:
    machine = common.load_machine(args)
    pipe = common.pipeline(args)
    an = pipe.analysis(machine)
    procs = common.parse_procs(args.procs, machine.processors)
    table = pipe.arrays(machine)
    pipe.alignment(machine)  # one alignment for every processor count
    pipe.db = common.open_db(args)
    rows = []
    for p in procs:
        plan = pipe.plan(machine, p)
        written = None
        if args.as_written:
            from ..annotate.written import as_written

            written = pipe.stage("as-written", as_written, an, table, machine, p)
        rows.append((plan, written))
    common.close_db(pipe.db, args)
    measures = []
    if args.measure:
        from ..measure import measure_solution

        for plan, _ in rows:
            kinds = ["static", "dynamic"] if plan.dynamic.remaps else ["static"]
            for kind in kinds:
                measures.append(measure_solution(plan, plan.solution(kind), args.include, args.timeout,
                                                 clock=pipe.clock, runs=args.runs))
    if args.format == "json":
        doc = compare_json(rows, machine.source)
        if measures:
            from ..measure import measure_json

            doc["measured"] = [measure_json(m) for m in measures]
        print(json.dumps(doc, indent=2))
    else:
        print(compare_table(rows), end="")
        if measures:
            from ..measure import measure_table

            for m in measures:
                print()
                print(measure_table(m), end="")
    common.report_stages(pipe, args)
    return 0
