"""The one place where an ILP solver is chosen.

HiGHS (through ``highspy``) is preferred: faster than CBC on autodist's models
and it reports its own status and bounds honestly.  PuLP's bundled CBC is the
fallback.  Callers use :func:`solve` and read the returned :class:`SolveResult`:
the status comes from the solver's own report, and a time-limited answer is
never called optimal.
"""

from __future__ import annotations

from functools import lru_cache

import pulp


@lru_cache(maxsize=1)
def available_solvers() -> tuple[str, ...]:
    """Names of the usable MILP backends, preferred first ("HiGHS", "CBC")."""
    names = []
    try:
        if pulp.HiGHS(msg=False).available():
            names.append("HiGHS")
    except Exception:  # pragma: no cover - depends on the installation
        pass
    try:
        if pulp.PULP_CBC_CMD(msg=False).available():
            names.append("CBC")
    except Exception:  # pragma: no cover
        pass
    return tuple(names)
