"""The one entry point: ``autodist <command> ...``.

Each command lives in :mod:`autodist.commands` as a module with
``configure(parser)`` (adds its arguments) and ``run(args) -> int``.  Errors a
user can cause are :class:`~autodist.errors.AutodistError`: printed as one line
on stderr, exit status 2, no traceback.  Any other exception is a bug: one
line naming it, where it was raised and the pipeline stage it was raised in
(``autodist: internal error in stage alignment: ...``), exit status 3
(``--verbose`` shows the traceback).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import traceback

from . import __version__
from .errors import AutodistError, stage_of

#: command name -> (module in autodist.commands, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "analyze": ("analyze", "procedures, phases, loops (parallel or not, and why), arrays"),
    "annotate": ("annotate", "choose a mapping and write it into the source as HPF directives"),
    "compare": ("compare", "predicted cost of static vs dynamic mappings per processor count"),
    "sweep": ("sweep", "sensitivity of the best mapping to processors and machine parameters"),
    "explain": ("explain", "the layout over the program, why it was chosen and what would change it"),
    "run": ("run", "execute an HPF-annotated program on MPI ranks, measure and verify it"),
    "profile": ("profile", "run sequentially and record trip counts, branch frequencies, phase times"),
    "calibrate": ("calibrate", "measure this machine with MPI microbenchmarks and write a profile"),
    "profiles": ("profiles", "list the bundled machine profiles"),
    "info": ("info", "versions, available ILP solvers and the MPI library"),
}


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2) instead of usage dumps."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="autodist",
        description="Automatic HPF data distribution for Fortran 77 (DDT reimplemented).",
    )
    parser.add_argument("--version", action="version", version=f"autodist {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("-q", "--quiet", action="store_true", help="print only results and errors")
        p.add_argument("-v", "--verbose", action="store_true", help="say more; show tracebacks of internal errors")
        _command_module(module).configure(p)
    return parser


def _command_module(name: str):
    return importlib.import_module(f"autodist.commands.{name}")


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status (also callable from tests)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    module = COMMANDS[args.command][0]
    try:
        return int(_command_module(module).run(args) or 0)
    except AutodistError as exc:
        from .frontend.text import readable

        print(f"autodist: error: {readable(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("autodist: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug in autodist, not the user's fault
        stage = stage_of(exc)
        in_stage = f" in stage {stage}" if stage else ""
        if getattr(args, "verbose", False):
            traceback.print_exc()
            if stage:
                print(f"autodist: internal error{in_stage}", file=sys.stderr)
        else:
            where = traceback.extract_tb(exc.__traceback__)[-1]
            print(
                f"autodist: internal error{in_stage}: {type(exc).__name__}: {exc} "
                f"(at {where.filename.rsplit('/', 1)[-1]}:{where.lineno}; rerun with --verbose for the traceback)",
                file=sys.stderr,
            )
        return 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
