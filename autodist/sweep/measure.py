"""``sweep --measure``: run the solutions of the points that fit this machine
with the MPI runtime, next to the predictions.

The runtime's entry point (``autodist.runtime.api.run_file``) is not part of
this version yet; until it is, ``--measure`` stops with a clear error before
any work is done.  When it exists, this module is where the sweep annotates
each point's static and dynamic solutions, runs them on ``procs`` ranks (the
points with ``procs <= os.cpu_count()``) and records measured times.
"""

from __future__ import annotations

from ..errors import UnsupportedError


def require_runtime():
    """The runtime's ``run_file``, or an error saying it is missing."""
    try:
        from ..runtime.api import run_file  # type: ignore[import-not-found]
    except ImportError:
        raise UnsupportedError(
            "--measure: this version has no runtime entry point (autodist.runtime.api.run_file) yet; "
            "run the sweep without --measure for the predictions"
        ) from None
    return run_file
