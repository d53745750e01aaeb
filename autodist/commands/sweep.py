"""`autodist sweep` (not built yet)."""

from __future__ import annotations

from ..errors import UsageError


def configure(parser) -> None:
    parser.add_argument("args", nargs="*")


def run(args) -> int:
    raise UsageError("'autodist sweep' is not available yet")
