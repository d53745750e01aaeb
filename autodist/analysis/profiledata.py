"""Read and write the measured frequencies of ``autodist profile`` (JSON).

Format (keys are ``file:line`` of the DO / IF / ELSE IF statement)::

    {"version": 1, "program": [...files...],
     "loops":    {"adi.f:39": {"trips": 255.0, "entries": 10}},
     "branches": {"shallow.f:60": {"taken": 0.1, "evaluations": 10}},
     "phase_times": {"ADI:4": 0.0123}}
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

from ..errors import UsageError
from .model import BranchStats, LoopStats, ProfileData


def load_profile_data(path: str | Path) -> ProfileData:
    path = Path(path)
    try:
        raw = json.loads(path.read_text())
    except OSError as exc:
        raise UsageError(f"cannot read profile data: {exc.strerror}", str(path)) from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"not a profile data file (invalid JSON: {exc.msg})", str(path), exc.lineno) from None
    if not isinstance(raw, dict) or raw.get("version") != 1:
        raise UsageError("not a profile data file written by 'autodist profile' (missing \"version\": 1)", str(path))
    try:
        loops = {k: LoopStats(float(v["trips"]), float(v.get("entries", 1))) for k, v in raw.get("loops", {}).items()}
        branches = {k: BranchStats(float(v["taken"]), float(v.get("evaluations", 1)))
                    for k, v in raw.get("branches", {}).items()}
        times = {k: float(v) for k, v in raw.get("phase_times", {}).items()}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise UsageError(f"malformed profile data ({type(exc).__name__}: {exc})", str(path)) from None
    return ProfileData(loops, branches, times, source=str(path))


def profile_json(data: ProfileData, program: Sequence[str] = ()) -> dict:
    """The JSON document of ``data`` (the format above; keys sorted)."""
    return {
        "version": 1,
        "program": list(program),
        "loops": {k: {"trips": v.trips, "entries": v.entries} for k, v in sorted(data.loops.items())},
        "branches": {k: {"taken": v.taken, "evaluations": v.evaluations} for k, v in sorted(data.branches.items())},
        "phase_times": dict(sorted(data.phase_times.items())),
    }


def write_profile_data(path: str | Path, data: ProfileData, program: Sequence[str] = ()) -> None:
    """Write ``data`` where :func:`load_profile_data` reads it back."""
    from ..fileio import write_atomically

    write_atomically(Path(path), (json.dumps(profile_json(data, program), indent=1),))
