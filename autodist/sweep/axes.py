"""The axes of a sweep: the processor count and numeric machine parameters.

``--vary KEY=VALUES`` names a numeric key of the machine profile and either a
list (``1e-6,2e-6,4e-6``) or a range ``lo:hi:lin|log:n`` (``n`` points, both
ends included; ``log`` spaces them geometrically).  Integer keys
(``candidates_per_phase``, ``default_trip_count``...) take integers: a range
is rounded and repeated values dropped.  The processor count is an axis of
its own, given with ``--procs``.

Every value is checked against the profile's own rules here, so a bad value
is one error naming the key before any work starts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from ..errors import AutodistError, UsageError
from ..machine import MachineProfile

PROCS = "procs"
SCALES = ("lin", "log")

#: key -> (label, display unit, factor from the profile's SI value to the unit)
UNITS: dict[str, tuple[str, str, float]] = {
    PROCS: ("processors", "", 1.0),
    "remote_access_time": ("remote access time", "us/byte", 1e6),
    "latency": ("message latency", "us", 1e6),
    "bandwidth": ("bandwidth", "MB/s", 1e-6),
    "parallel_overhead": ("parallel loop overhead", "us", 1e6),
    "flop_time": ("time per flop", "ns", 1e9),
    "memory_access_time": ("time per memory access", "ns", 1e9),
    "recurrence_time": ("recurrence latency unit", "ns", 1e9),
    "element_size": ("element size", "bytes", 1.0),
    "solver_time_limit": ("solver time limit", "s", 1.0),
}


def numeric_keys() -> dict[str, type]:
    """The profile keys a sweep can vary, with their type (the processor
    count is varied with ``--procs``)."""
    out: dict[str, type] = {}
    for f in fields(MachineProfile):
        kind = {"int": int, "float": float}.get(str(f.type))
        if kind is not None and f.name != "processors":
            out[f.name] = kind
    return out


@dataclass(frozen=True)
class Axis:
    """One varied quantity and its values, in sweep order."""

    key: str  # "procs" or a profile key
    values: tuple[float, ...]
    scale: str = "lin"  # "lin" | "log": how the values are spaced (and plotted)
    integer: bool = False

    @property
    def label(self) -> str:
        return UNITS.get(self.key, (self.key.replace("_", " "), "", 1.0))[0]

    @property
    def unit(self) -> str:
        return UNITS.get(self.key, ("", "", 1.0))[1]

    def display(self, value: float) -> float:
        """``value`` (SI, as in the profile) in the axis' display unit."""
        return value * UNITS.get(self.key, ("", "", 1.0))[2]

    def format(self, value: float) -> str:
        """``2.97 us/byte``, ``8 processors``, ``branch probability 0.25``."""
        if self.unit and not self.integer:
            return f"{self.display(value):.3g} {self.unit}"
        return self.phrase(value)

    def phrase(self, value: float) -> str:
        """``16 processors``, ``remote access time 1 us/byte``, ``branch probability 0.5``."""
        if self.key == PROCS:
            return f"{int(value)} processors"
        text = str(int(value)) if self.integer else f"{self.display(value):.3g}"
        return f"{self.label} {text} {self.unit}".rstrip()

    def heading(self) -> str:
        return f"{self.key}({self.unit})" if self.unit else self.key

    def between(self, lo: float, hi: float) -> float:
        """The middle of ``[lo, hi]`` in the axis' own spacing."""
        if self.integer:
            return float((int(lo) + int(hi)) // 2)
        if self.scale == "log" and lo > 0 and hi > 0:
            return math.sqrt(lo * hi)
        return (lo + hi) / 2

    def close(self, lo: float, hi: float, tolerance: float) -> bool:
        """Whether a bracket is as narrow as the refinement needs."""
        if self.integer:
            return int(hi) - int(lo) <= 1
        return abs(hi - lo) <= tolerance * max(abs(lo), abs(hi))


def procs_axis(counts: list[int]) -> Axis:
    return Axis(PROCS, tuple(float(p) for p in counts), "lin", True)


def vary_profile(base: MachineProfile, changes: dict[str, float]) -> MachineProfile:
    """``base`` with some values changed, validated like a loaded profile."""
    return base.replace(**changes) if changes else base


def _number(text: str, key: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"--vary {key}: {what} {text!r} is not a number") from None
    if not math.isfinite(value):
        raise UsageError(f"--vary {key}: {what} {text!r} is not finite")
    return value


def _range(key: str, spec: str) -> tuple[list[float], str]:
    parts = spec.split(":")
    usage = f"--vary {key}: bad range {spec!r} (expected lo:hi:lin|log:n, e.g. 1e-9:1e-3:log:25)"
    if len(parts) != 4:
        raise UsageError(usage)
    lo, hi = _number(parts[0], key, "lower end"), _number(parts[1], key, "upper end")
    scale = parts[2].strip().lower()
    if scale not in SCALES:
        raise UsageError(f"{usage}: spacing {parts[2]!r} is neither lin nor log")
    try:
        n = int(parts[3])
    except ValueError:
        raise UsageError(f"{usage}: the number of points {parts[3]!r} is not an integer") from None
    if n < 2:
        raise UsageError(f"--vary {key}: a range needs at least 2 points, got {n}")
    if not lo < hi:
        raise UsageError(f"--vary {key}: the range needs lo < hi, got {parts[0]} and {parts[1]}")
    if scale == "log":
        if lo <= 0:
            raise UsageError(f"--vary {key}: a log range needs lo > 0, got {parts[0]}")
        ratio = math.log(hi / lo)
        values = [lo * math.exp(ratio * k / (n - 1)) for k in range(n)]
    else:
        values = [lo + (hi - lo) * k / (n - 1) for k in range(n)]
    # 12 significant digits: 1e-08, not 9.999999999999999e-09
    return [float(f"{v:.12g}") for v in values], scale


def parse_vary(text: str, base: MachineProfile) -> Axis:
    """``KEY=LIST`` or ``KEY=lo:hi:lin|log:n`` -> an :class:`Axis`; every
    value is validated against ``base``."""
    key, sep, spec = text.partition("=")
    key, spec = key.strip(), spec.strip()
    if not sep or not key or not spec:
        raise UsageError(f"--vary {text!r}: expected KEY=VALUES, e.g. remote_access_time=1e-6,2e-6 "
                         "or remote_access_time=1e-9:1e-3:log:25")
    keys = numeric_keys()
    if key == "processors":
        raise UsageError("--vary processors: give the processor counts with --procs (e.g. --procs 1,2,4,8)")
    if key not in keys:
        known = {f.name for f in fields(MachineProfile)}
        why = "is not numeric" if key in known else "is not a profile key"
        raise UsageError(f"--vary {key}: '{key}' {why} (numeric keys: {', '.join(sorted(keys))})")
    integer = keys[key] is int
    if ":" in spec:
        values, scale = _range(key, spec)
    else:
        values = [_number(t.strip(), key, "value") for t in spec.split(",") if t.strip()]
        if not values:
            raise UsageError(f"--vary {key}: no values")
        positive = all(v > 0 for v in values)
        scale = "log" if positive and max(values) / min(values) >= 1000 else "lin"
    if integer:
        if ":" not in spec and any(v != int(v) for v in values):
            raise UsageError(f"--vary {key}: '{key}' takes integers, got {spec!r}")
        values = [float(round(v)) for v in values]
    values = sorted(set(values))
    for v in values:
        try:
            vary_profile(base, {key: int(v) if integer else v})
        except AutodistError as exc:
            raise UsageError(f"--vary {key}={v:g}: {exc.message}") from None
    return Axis(key, tuple(values), scale, integer)


def value_of(axis: Axis, value: float) -> float | int:
    """The value as the profile stores it (int for integer keys)."""
    return int(value) if axis.integer else float(value)
