"""Options and steps shared by several commands."""

from __future__ import annotations

from pathlib import Path

from ..analysis.model import AnalysisOptions
from ..errors import UsageError


def add_source_args(parser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="Fortran 77 source files")
    parser.add_argument("-I", dest="include", action="append", default=[], metavar="DIR",
                        help="search DIR for INCLUDE files (repeatable)")


def add_profile_data_arg(parser) -> None:
    parser.add_argument("--profile", metavar="FILE", default=None,
                        help="measured frequencies and times from 'autodist profile'")


def read_sources(args):
    from ..frontend import read_program

    for f in args.files:
        if not Path(f).is_file():
            raise UsageError(f"{f}: no such file")
    return read_program(args.files, include_dirs=args.include)


def analysis_options(args, machine=None) -> AnalysisOptions:
    trip = getattr(args, "trip_count", None)
    if trip is not None and trip < 1:
        raise UsageError("--trip-count must be a positive integer")
    default_trip = trip or (machine.default_trip_count if machine else 100)
    branch = machine.branch_probability if machine else 0.5
    profile = None
    if getattr(args, "profile", None):
        from ..analysis.profiledata import load_profile_data

        profile = load_profile_data(args.profile)
    return AnalysisOptions(default_trip_count=default_trip, branch_probability=branch, profile=profile)
