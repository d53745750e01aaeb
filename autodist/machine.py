"""Machine profiles: load and validate ``machine_profiles/*.yaml``.

A profile describes the target machine (processors, the cost of moving data and
of computing) and the limits of the search.  Every key is checked: an unknown
key, a wrong type or an out-of-range value is a :class:`ProfileError` naming
the file, the line and the key.  See README, "Machine profiles", for the format.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import yaml

from .errors import ProfileError

#: Where the bundled profiles live (a sibling of the package in a checkout).
PROFILE_DIR = Path(__file__).resolve().parent.parent / "machine_profiles"
#: The profile used when a command needs one and none is given.
DEFAULT_PROFILE = "ddt1997"

COMM_MODELS = ("linear", "latency_bandwidth")
FORMATS = ("BLOCK", "CYCLIC", "CYCLIC(k)")
MODES = ("static", "dynamic", "best")


@dataclass(frozen=True)
class MachineProfile:
    """A validated machine profile.  Times are in seconds, sizes in bytes."""

    name: str
    processors: int
    #: DDT's linear model: seconds per byte accessed remotely.
    remote_access_time: float
    #: Message model: seconds per message and bytes per second.
    latency: float
    bandwidth: float
    #: Which model prices data movement: "linear" (bytes x remote_access_time)
    #: or "latency_bandwidth" (messages x latency + bytes / bandwidth).
    communication_model: str
    #: Seconds to start one parallel loop (thread creation, barrier).
    parallel_overhead: float
    #: Seconds per floating-point operation of the target's processors.
    flop_time: float
    #: Seconds per array element access that stays local (loads and stores).
    memory_access_time: float = 0.0
    #: Seconds per latency unit of the chain of dependent operations an
    #: innermost loop carries from one iteration to the next (a recurrence, a
    #: reduction: see analysis.recurrence), on top of ``flop_time``; 0: not
    #: priced (DDT, and the bundled profiles).  ``autodist calibrate`` measures it.
    recurrence_time: float = 0.0
    #: Multiplier applied to measured sequential times from a profile run
    #: (target processor speed relative to the machine the profile ran on).
    compute_scale: float = 1.0
    #: Element size assumed when an array's type is unknown.
    element_size: int = 8
    #: Search limits.
    max_distributed_dims: int = 1
    distributions: tuple[str, ...] = ("BLOCK",)
    candidates_per_phase: int = 4
    #: Default solution mode of annotate: static, dynamic or best.
    mode: str = "best"
    #: Time limit for each ILP solve, seconds.
    solver_time_limit: float = 20.0
    #: Trip count assumed for a loop whose bounds are not known constants.
    default_trip_count: int = 100
    #: Probability assumed for a branch that cannot be decided statically.
    branch_probability: float = 0.5
    #: Bytes of memory one processor has for the program's arrays (0: no
    #: limit); a mapping needing more of some processor is infeasible.
    memory_per_processor: float = 0.0
    #: Price a sequential loop along a distributed dimension as a coarse-grain
    #: pipeline in blocks of a parallel loop (the runtime's ``--pipeline-blocks``)
    #: when that is cheaper than running the processors one after the other
    #: (beyond DDT, which serializes: false).
    pipeline: bool = True
    description: str = ""
    source: str = ""  # the file it was read from, for messages

    def replace(self, **changes: Any) -> "MachineProfile":
        """A copy with some values changed, validated like a loaded profile."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        for key, value in changes.items():
            if key not in data or key in ("source",):
                raise ProfileError(f"unknown profile key '{key}'", self.source or None)
            data[key] = value
        data["distributions"] = list(data["distributions"])
        data.pop("source")
        return _validate(data, self.source, {})

    def message_cost(self, nbytes: float, messages: float) -> float:
        """Seconds to move ``nbytes`` in ``messages`` messages under this profile."""
        if self.communication_model == "linear":
            return nbytes * self.remote_access_time
        return messages * self.latency + nbytes / self.bandwidth

    def as_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["distributions"] = list(self.distributions)
        d.pop("source")
        return d


# key -> (type, required, check, message)
#: Limits on the sizes a profile may ask for: beyond them the search (one cost
#: evaluation per processor class, candidate grids per count) would not end in
#: reasonable time or memory, and times so large make every cost overflow.
MAX_PROCESSORS = 16384
MAX_SECONDS = 1e3  # per byte, message, operation, access or loop start
MAX_BANDWIDTH = 1e15  # bytes per second
MAX_ELEMENT_SIZE = 64
MAX_DISTRIBUTED_DIMS = 7  # Fortran 77 arrays have at most 7 dimensions
MAX_CANDIDATES = 64
MAX_SOLVER_SECONDS = 86_400.0
MAX_TRIP_COUNT = 10**9
MAX_SCALE = 1e6
MAX_MEMORY = 1e18  # bytes per processor
#: A profile is a flat mapping; deeper nesting than this is refused before it is built.
MAX_NESTING = 4
#: A profile file larger than this is not a profile.
MAX_PROFILE_BYTES = 1 << 20


def _within(lo: float, hi: float, strict_lo: bool = False):
    return lambda x: (x > lo if strict_lo else x >= lo) and x <= hi


_SCHEMA: dict[str, tuple[type, bool, Any, str]] = {
    "name": (str, False, None, ""),
    "description": (str, False, None, ""),
    "processors": (int, True, _within(1, MAX_PROCESSORS), f"must be an integer from 1 to {MAX_PROCESSORS}"),
    "remote_access_time": (float, True, _within(0, MAX_SECONDS),
                           f"must be >= 0 and <= {MAX_SECONDS:g} (seconds per byte)"),
    "latency": (float, False, _within(0, MAX_SECONDS), f"must be >= 0 and <= {MAX_SECONDS:g} (seconds per message)"),
    "bandwidth": (float, False, _within(0, MAX_BANDWIDTH, True),
                  f"must be > 0 and <= {MAX_BANDWIDTH:g} (bytes per second)"),
    "communication_model": (str, False, lambda s: s in COMM_MODELS, f"must be one of {', '.join(COMM_MODELS)}"),
    "parallel_overhead": (float, False, _within(0, MAX_SECONDS),
                          f"must be >= 0 and <= {MAX_SECONDS:g} (seconds per parallel loop)"),
    "flop_time": (float, True, _within(0, MAX_SECONDS, True),
                  f"must be > 0 and <= {MAX_SECONDS:g} (seconds per floating-point operation)"),
    "memory_access_time": (float, False, _within(0, MAX_SECONDS),
                           f"must be >= 0 and <= {MAX_SECONDS:g} (seconds per access)"),
    "recurrence_time": (float, False, _within(0, MAX_SECONDS),
                        f"must be >= 0 and <= {MAX_SECONDS:g} (seconds per unit of a recurrence's latency)"),
    "compute_scale": (float, False, _within(1 / MAX_SCALE, MAX_SCALE), f"must be between {1 / MAX_SCALE:g} and {MAX_SCALE:g}"),
    "element_size": (int, False, _within(1, MAX_ELEMENT_SIZE), f"must be an integer from 1 to {MAX_ELEMENT_SIZE} (bytes)"),
    "max_distributed_dims": (int, False, _within(1, MAX_DISTRIBUTED_DIMS),
                             f"must be an integer from 1 to {MAX_DISTRIBUTED_DIMS}"),
    "distributions": (list, False, None, ""),
    "candidates_per_phase": (int, False, _within(1, MAX_CANDIDATES), f"must be an integer from 1 to {MAX_CANDIDATES}"),
    "mode": (str, False, lambda s: s in MODES, f"must be one of {', '.join(MODES)}"),
    "solver_time_limit": (float, False, _within(0, MAX_SOLVER_SECONDS, True),
                          f"must be > 0 and <= {MAX_SOLVER_SECONDS:g} (seconds)"),
    "default_trip_count": (int, False, _within(1, MAX_TRIP_COUNT), f"must be an integer from 1 to {MAX_TRIP_COUNT}"),
    "branch_probability": (float, False, _within(0, 1), "must be between 0 and 1"),
    "memory_per_processor": (float, False, _within(0, MAX_MEMORY),
                             f"must be >= 0 and <= {MAX_MEMORY:g} (bytes per processor; 0: no limit)"),
    "pipeline": (bool, False, None, ""),
}

_DEFAULTS: dict[str, Any] = {
    "latency": 0.0,
    "bandwidth": 1e9,
    "communication_model": "linear",
    "parallel_overhead": 0.0,
}


def _validate(raw: dict[str, Any], source: str, lines: dict[str, int]) -> MachineProfile:
    def fail(key: str, msg: str) -> ProfileError:
        return ProfileError(f"key '{key}': {msg}", source or None, lines.get(key))

    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in _SCHEMA:
            known = ", ".join(sorted(_SCHEMA))
            raise fail(key, f"unknown key (known keys: {known})")
        typ, _, check, msg = _SCHEMA[key]
        if typ is float:
            if isinstance(value, str):  # YAML 1.1 reads 1e-6 (no dot) as a string
                try:
                    value = float(value)
                except ValueError:
                    pass
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise fail(key, f"expected a number, got {value!r}")
            value = float(value)
            if not math.isfinite(value):
                raise fail(key, "must be finite")
        elif typ is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise fail(key, f"expected an integer, got {value!r}")
        elif typ is str:
            if not isinstance(value, str):
                raise fail(key, f"expected a string, got {value!r}")
        elif typ is bool:
            if not isinstance(value, bool):
                raise fail(key, f"expected true or false, got {value!r}")
        elif typ is list:
            if not isinstance(value, (list, tuple)) or not value:
                raise fail(key, "expected a non-empty list such as [BLOCK, CYCLIC]")
            norm = []
            for item in value:
                text = str(item).replace(" ", "").upper().replace("(K)", "(k)")
                if text not in FORMATS:
                    raise fail(key, f"unknown distribution {item!r} (use {', '.join(FORMATS)})")
                norm.append(text)
            value = tuple(dict.fromkeys(norm))
        if check is not None and not check(value):
            raise fail(key, f"{msg}, got {value!r}")
        values[key] = value
    for key, (_, required, _, _) in _SCHEMA.items():
        if required and key not in values:
            raise ProfileError(f"missing required key '{key}'", source or None)
    for key, value in _DEFAULTS.items():
        values.setdefault(key, value)
    if values["communication_model"] == "latency_bandwidth" and "bandwidth" not in raw:
        raise fail("bandwidth", "required by communication_model latency_bandwidth")
    values.setdefault("name", Path(source).stem if source else "profile")
    return MachineProfile(source=source, **values)


def _yaml_error(exc: yaml.YAMLError, source: str) -> ProfileError:
    mark = getattr(exc, "problem_mark", None)
    line = mark.line + 1 if mark is not None else None
    problem = getattr(exc, "problem", None) or "invalid YAML"
    return ProfileError(f"invalid YAML: {problem}", source, line)


def _key_lines(text: str, source: str) -> dict[str, int]:
    """Line number (1-based) of each top-level key, for error messages.

    Reads the YAML event stream (iteratively, so nesting depth costs nothing)
    and refuses what a flat profile never needs and a hostile file uses to
    exhaust memory or the stack: aliases, deep nesting; and a key given twice
    (YAML itself would silently keep the last)."""
    out: dict[str, int] = {}
    depth = 0
    nodes = 0  # nodes begun inside the top-level mapping: keys at even positions
    try:
        for ev in yaml.parse(text, Loader=yaml.SafeLoader):
            line = ev.start_mark.line + 1 if ev.start_mark is not None else None
            if isinstance(ev, yaml.AliasEvent) or getattr(ev, "anchor", None):
                raise ProfileError("YAML anchors and aliases are not allowed in a machine profile", source, line)
            top = depth == 1
            if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_NESTING:
                    raise ProfileError(f"nested more than {MAX_NESTING} levels deep: not a machine profile", source, line)
            elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
                continue
            elif not isinstance(ev, yaml.ScalarEvent):
                continue
            if not top:
                continue
            if nodes % 2 == 0 and isinstance(ev, yaml.ScalarEvent):
                key = str(ev.value)
                if key in out:
                    raise ProfileError(f"key '{key}' given twice (lines {out[key]} and {line})", source, line)
                out[key] = line
            nodes += 1
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, source) from None
    return out


def _read_text(path: Path, source: str) -> str:
    try:
        with path.open("rb") as f:
            data = f.read(MAX_PROFILE_BYTES + 1)
    except OSError as exc:
        raise ProfileError(f"cannot read machine profile: {exc.strerror}", source) from None
    if len(data) > MAX_PROFILE_BYTES:
        raise ProfileError(f"larger than {MAX_PROFILE_BYTES} bytes: not a machine profile", source)
    for bom, codec in ((b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16")):
        if data.startswith(bom):
            try:
                return data.decode(codec)
            except UnicodeDecodeError:
                break
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ProfileError(f"not UTF-8 text (byte 0x{data[exc.start]:02x})", source, line) from None


def load_profile(path: str | Path) -> MachineProfile:
    """Read and validate one profile file."""
    path = Path(path)
    source = str(path)
    text = _read_text(path, source)
    lines = _key_lines(text, source)  # before loading: refuses alias bombs and deep nesting
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, source) from None
    if not isinstance(raw, dict):
        raise ProfileError("a machine profile is a mapping of keys to values", source)
    return _validate(raw, source, lines)


def bundled_profiles() -> list[Path]:
    """The profiles shipped with autodist, sorted by name."""
    return sorted(PROFILE_DIR.glob("*.yaml"))


def resolve_profile(spec: str | None) -> tuple[MachineProfile, bool]:
    """Find a profile by path or bundled name; None gives the bundled default.

    Returns the profile and whether the default was used (callers say so).
    """
    if spec is None:
        return load_profile(PROFILE_DIR / f"{DEFAULT_PROFILE}.yaml"), True
    path = Path(spec)
    if path.exists():
        return load_profile(path), False
    bundled = PROFILE_DIR / f"{spec}.yaml"
    if bundled.exists():
        return load_profile(bundled), False
    names = ", ".join(p.stem for p in bundled_profiles())
    raise ProfileError(f"no such machine profile (bundled profiles: {names})", spec)
