"""Options and steps shared by several commands."""

from __future__ import annotations

import argparse
import math
import re
import sys
from pathlib import Path

from ..analysis.model import AnalysisOptions
from ..errors import UsageError
from ..machine import MAX_PROCESSORS


_MACRO = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def macro_definition(text: str) -> str:
    """An argparse type for ``-D NAME[=VALUE]``."""
    if not _MACRO.match(text.split("=", 1)[0]):
        raise argparse.ArgumentTypeError(f"expected NAME or NAME=VALUE with NAME a macro name, not {text!r}")
    return text


def add_source_args(parser, files_help: str = "Fortran 77 source files") -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help=files_help)
    parser.add_argument("-I", dest="include", action="append", default=[], metavar="DIR",
                        help="search DIR for INCLUDE and #include files (repeatable)")
    parser.add_argument("-D", dest="define", action="append", default=[], metavar="NAME[=VAL]", type=macro_definition,
                        help="define a macro for the C preprocessor (repeatable), as gfortran -D")
    parser.add_argument("--cpp", dest="cpp", action="store_true", default=None,
                        help="run the C preprocessor on every file, as gfortran -cpp (default: .F .F90 .fpp "
                             "... files, the ones gfortran preprocesses)")


def source_argv(args) -> list[str]:
    """The source options (``-I``, ``-D``, ``--cpp``) as a command line gives them."""
    out = [x for d in args.include for x in ("-I", d)] + [x for d in args.define for x in ("-D", d)]
    return out + (["--cpp"] if args.cpp else [])


def add_link_arg(parser) -> None:
    parser.add_argument("--link", action="append", default=[], metavar="FILE",
                        help="routines outside the program: a C (.c) or Fortran source, built with the system's "
                             "compilers, or a shared library (.so), called through ctypes (repeatable)")


def check_link_files(args) -> None:
    """Refuse a ``--link`` file that is missing or of an unknown kind (a usage
    error), before anything runs."""
    from ..runtime.job.link import link_files

    link_files(getattr(args, "link", []))


#: The longest time limit accepted (a week): beyond it a limit is a typo.
MAX_TIMEOUT = 7 * 24 * 3600.0


def seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds up to :data:`MAX_TIMEOUT`."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not math.isfinite(value) or value <= 0 or value > MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds up to {MAX_TIMEOUT:g}, not {text!r}")
    return value


def count_arg(lo: int, hi: int):
    """An argparse type: an integer from ``lo`` to ``hi``."""
    def count(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be from {lo} to {hi}, not {text!r}")
        return value
    return count


def add_timeout_arg(parser, default: float, what: str) -> None:
    parser.add_argument("--timeout", type=seconds, default=default, metavar="SEC",
                        help=f"{what} after SEC seconds (default {default:g})")


def add_profile_data_arg(parser) -> None:
    parser.add_argument("--profile", metavar="FILE", default=None,
                        help="measured frequencies and times from 'autodist profile'")


def read_sources(args):
    from ..frontend import read_program

    for f in args.files:
        if not Path(f).is_file():
            raise UsageError(f"{f}: no such file")
    program = read_program(args.files, include_dirs=args.include, defines=args.define, cpp=args.cpp)
    if not program.units:
        raise UsageError(f"{', '.join(args.files)}: no program unit found (empty or only comments)")
    for span, text in program.notes:
        print(f"autodist: note: {span.file}:{span.first}: {text}", file=sys.stderr)
    return program


def add_trip_count_arg(parser) -> None:
    parser.add_argument("--trip-count", dest="trip_count", action="append", default=[], metavar="N|NAME=N",
                        help="N: the trip count assumed for loops whose bounds are not known (default: the "
                             "profile's, 100); NAME=N: the value of variable NAME (a scalar, or an element "
                             "ARRAY(k)) when the loops run, so loops whose bounds use it are known (repeatable)")


#: The largest value ``--trip-count NAME=N`` may state.
MAX_STATED = 10**18


def trip_counts(args) -> tuple[int | None, tuple[tuple[str, int], ...]]:
    """``--trip-count`` checked: (the default trip count or None, the stated
    ``(NAME, value)`` pairs, NAME in upper case as ``A(1,2)``)."""
    from ..analysis.knownvalues import parse_name
    from ..machine import MAX_TRIP_COUNT

    default = None
    stated: dict[str, int] = {}
    for text in getattr(args, "trip_count", None) or ():
        text = str(text)
        name, eq, value = text.rpartition("=")
        try:
            n = int(value.strip())
        except ValueError:
            n = None
        if not eq:
            if n is None or not 1 <= n <= MAX_TRIP_COUNT:
                raise UsageError(f"--trip-count must be an integer from 1 to {MAX_TRIP_COUNT} or NAME=N, "
                                 f"got {text!r}")
            default = n
            continue
        parsed = parse_name(name)
        if parsed is None or n is None or abs(n) > MAX_STATED:
            raise UsageError(f"--trip-count: expected NAME=N with NAME a variable or an array element "
                             f"ARRAY(k) and N an integer, got {text!r}")
        key = parsed[0] + (f"({','.join(str(k) for k in parsed[1])})" if parsed[1] else "")
        stated[key] = n
    return default, tuple(stated.items())


def analysis_options(args, machine=None) -> AnalysisOptions:
    """The analysis options of a command: ``--trip-count N`` (only without a machine
    profile: :func:`load_machine` puts it into the profile), ``--trip-count
    NAME=N`` and ``--profile``."""
    trip, stated = trip_counts(args)
    default_trip = machine.default_trip_count if machine else (trip or 100)
    branch = machine.branch_probability if machine else 0.5
    profile = None
    if getattr(args, "profile", None):
        from ..analysis.profiledata import load_profile_data

        profile = load_profile_data(args.profile)
    return AnalysisOptions(default_trip_count=default_trip, branch_probability=branch, profile=profile,
                           trip_values=stated)


def add_machine_args(parser, procs_help: str = "number of processors (default: the profile's)") -> None:
    parser.add_argument("--machine", metavar="PROFILE", default=None,
                        help="machine profile: a YAML file or a bundled name (default: ddt1997)")
    parser.add_argument("--procs", metavar="P", default=None, help=procs_help)


def load_machine(args):
    """The machine profile named by --machine, or the bundled default, with
    ``--trip-count N`` as its ``default_trip_count``; says which one is used
    (stderr) unless --quiet."""
    import sys

    from ..machine import resolve_profile

    trip, _ = trip_counts(args)  # checked before anything is read
    profile, default = resolve_profile(getattr(args, "machine", None))
    if not getattr(args, "quiet", False):
        how = "bundled default" if default else "profile"
        print(f"autodist: machine {profile.name} ({how}: {profile.source})", file=sys.stderr)
    if trip is not None:  # --trip-count N: the profile's assumption (a sweep may vary it)
        profile = profile.replace(default_trip_count=trip)
    return profile


def parse_procs(text: str | None, default: int) -> list[int]:
    """``16`` or ``1,2,4,8`` or ``1-32`` (powers of two) -> processor counts."""
    if text is None:
        return [default]
    out: list[int] = []
    for part in str(text).split(","):
        part = part.strip()
        try:
            if "-" in part:
                lo, hi = (int(x) for x in part.split("-", 1))
                if lo < 1 or hi < lo:
                    raise ValueError
                p = lo
                while p <= hi:
                    out.append(p)
                    p *= 2
            else:
                out.append(int(part))
        except ValueError:
            raise UsageError(f"--procs: expected positive integers like 16 or 1,2,4,8 or 1-32, got {text!r}") from None
    if any(p < 1 for p in out):
        raise UsageError(f"--procs: processor counts must be positive, got {text!r}")
    if any(p > MAX_PROCESSORS for p in out):
        raise UsageError(f"--procs: at most {MAX_PROCESSORS} processors, got {text!r}")
    return list(dict.fromkeys(out))


def add_mapping_args(parser) -> None:
    parser.add_argument("--semantics", choices=("hpf", "forge"), default="hpf",
                        help="procedure calls: HPF restores the caller's mapping on return (default); "
                             "FORGE lets a procedure leave another mapping")
    parser.add_argument("--ignore-directives", action="store_true",
                        help="ignore the HPF directives already in the source (default: respect them)")
    parser.add_argument("--db", metavar="FILE.json", default=None,
                        help="procedure database: reuse the results of unchanged procedures, store the rest")


def open_db(args):
    from ..mapping.database import ProcedureDatabase

    return ProcedureDatabase(args.db) if getattr(args, "db", None) else None


def close_db(db, args) -> None:
    """Save the procedure database and say what was reused."""
    import sys

    if db is None:
        return
    db.save()
    if not getattr(args, "quiet", False):
        print(f"autodist: procedure database {db.path}: {len(db.reused)} reused, {len(db.stored)} computed",
              file=sys.stderr)


def pipeline(args):
    """The pipeline over the command's source files, with its analysis options
    (--trip-count, --profile) and plan settings (--semantics,
    --ignore-directives); set its ``db`` when the database is opened."""
    from ..pipeline import Pipeline

    return Pipeline(read=lambda: read_sources(args), options=lambda machine: analysis_options(args, machine),
                    semantics=getattr(args, "semantics", "hpf"),
                    respect_directives=not getattr(args, "ignore_directives", False),
                    progress=StepProgress(args))


class StepProgress:
    """The long steps of planning (the static search, the selection) as a
    progress bar on stderr, shown on a terminal unless --quiet."""

    def __init__(self, args) -> None:
        import sys

        self.shown = not getattr(args, "quiet", False) and sys.stderr.isatty()
        self._bar = None
        self._what = None

    def __call__(self, what: str, done: int, total: int) -> None:
        if not self.shown:
            return
        if self._bar is None or what != self._what:
            self.close()
            self._bar, self._what = progress(None, total, what, "step"), what
        self._bar.total = total
        self._bar.n = done
        self._bar.refresh()
        if done >= total:
            self.close()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def progress(args, total: int, desc: str, unit: str):
    """A progress bar on stderr, shown on a terminal unless --quiet."""
    import sys

    from tqdm import tqdm

    quiet = (args is not None and getattr(args, "quiet", False)) or not sys.stderr.isatty()
    # no monitor thread: a second thread would keep the mapping search from forking workers
    tqdm.monitor_interval = 0
    return tqdm(total=total, desc=desc, unit=unit, disable=quiet, leave=False, file=sys.stderr)


def report_stages(pipe, args) -> None:
    """With -v: the time of every stage that ran (stderr)."""
    import sys

    if getattr(args, "verbose", False):
        for line in pipe.clock.lines():
            print(line, file=sys.stderr)


def guard_outputs(args, program, machine, outputs) -> None:
    """Refuse, before anything is written, an output (``(option, path)`` pairs) that
    would replace a file this run reads — a source or INCLUDE file of ``program``,
    a ``--link`` file, the machine profile, the ``--profile`` data — or another output, the
    procedure database of ``--db`` included."""
    from ..fileio import check_outputs

    reads = list(program.files) if program is not None else list(getattr(args, "files", []))
    reads += getattr(args, "link", [])
    if machine is not None and machine.source and Path(machine.source).exists():
        reads.append(machine.source)
    if getattr(args, "profile", None):
        reads.append(args.profile)
    db = getattr(args, "db", None)
    check_outputs(list(outputs) + ([("--db", db)] if db else []), reads)
