"""`autodist compare FILE --machine PROFILE --procs LIST [--format table|json]`."""

from __future__ import annotations

import json

from ..analysis import analyze
from ..mapping.arrays import build_array_table
from ..mapping.candidates import align_program
from ..report.compare import compare_json, compare_table
from . import common


def configure(parser) -> None:
    common.add_source_args(parser)
    common.add_machine_args(parser, "processor counts: 16, 1,2,4,8 or 1-32 (default: the profile's)")
    common.add_mapping_args(parser)
    common.add_profile_data_arg(parser)
    parser.add_argument("--format", choices=("table", "json"), default="table", help="output format")
    parser.add_argument("--as-written", action="store_true",
                        help="add the mapping the source's own HPF directives describe")


def run(args) -> int:
    machine = common.load_machine(args)
    program = common.read_sources(args)
    an = analyze(program, common.analysis_options(args, machine))
    procs = common.parse_procs(args.procs, machine.processors)
    table = build_array_table(an.program)
    alignment = align_program(an, table, machine.solver_time_limit)
    rows = []
    db = common.open_db(args)
    for p in procs:
        plan = common.build_plan(an, machine, p, args, table=table, alignment=alignment, db=db)
        written = None
        if args.as_written:
            from ..hpf.written import as_written

            written = as_written(an, table, machine, p)
        rows.append((plan, written))
    common.close_db(db, args)
    if args.format == "json":
        print(json.dumps(compare_json(rows, machine.source), indent=2))
    else:
        print(compare_table(rows), end="")
    return 0
