"""`autodist analyze FILE... [-I DIR] [--format text|json]`."""

from __future__ import annotations

import json

from ..report.analysis import to_json, to_text
from . import common


def configure(parser) -> None:
    common.add_source_args(parser)
    common.add_profile_data_arg(parser)
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    common.add_trip_count_arg(parser)


def run(args) -> int:
    common.trip_counts(args)  # checked before anything is read
    pipe = common.pipeline(args)
    an = pipe.analysis()
    if args.format == "json":
        print(json.dumps(to_json(an), indent=2))
    else:
        print(to_text(an), end="")
    common.report_stages(pipe, args)
    return 0
