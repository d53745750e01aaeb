"""From the raw samples of a calibration run to a machine profile (YAML with
comments saying when, where and how it was measured)."""

from __future__ import annotations

import math
import os
import platform
import tempfile
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path

from ..errors import AutodistError, UsageError
from ..machine import MachineProfile, load_profile
from .bench import KERNELS, Settings
from .fit import Split, Summary, latency_unit, split_compute, summarize
from .kernels import RECURRENCES

#: The flop time, as a share of the access time, when the runtime's kernels show no flop cost at all.
FLOP_SHARE = 1e-3

#: Search limits copied from the reference profile (they are choices, not measurements).
SEARCH_KEYS = ("element_size", "max_distributed_dims", "distributions", "candidates_per_phase", "mode",
               "solver_time_limit", "default_trip_count", "branch_probability")


@dataclass(frozen=True)
class KernelTime:
    name: str
    flops: int
    accesses: int
    per_element: Summary


@dataclass(frozen=True)
class Calibration:
    """What was measured, summarized; the profile values are derived from it."""

    nranks: int
    settings: Settings
    latency: Summary  # half round trip of a small message
    large: Summary  # half round trip of a large message
    halo: Summary  # one halo exchange with both neighbours, slowest rank
    barrier: Summary
    kernels: tuple[KernelTime, ...]
    split: Split
    mpi_library: str = ""
    versions: str = ""
    starts: Summary | None = None  # one call of a one-phase subroutine through the runtime (:mod:`.starts`)
    #: the kernels as the runtime runs them (:mod:`.kernels`), when measured: the split comes from them
    runtime: tuple[KernelTime, ...] = ()
    #: the recurrences as the runtime runs them, with their chains (:data:`.kernels.RECURRENCES`)
    recurrences: tuple[tuple[KernelTime, int], ...] = ()

    @property
    def recurrence_time(self) -> float:
        """Seconds per latency unit of a loop-carried chain: what the recurrences
        take beyond their flops and accesses, per unit (0 when not measured)."""
        return latency_unit([(self.split.predict(k.flops, k.accesses), chain, k.per_element.median)
                             for k, chain in self.recurrences])

    @property
    def bandwidth(self) -> float:
        """Bytes per second of a large message, its latency taken off."""
        transfer = self.large.median - self.latency.median
        if transfer <= 0:
            transfer = self.large.median
        return self.settings.large_bytes / transfer

    @property
    def remote_access_time(self) -> float:
        """DDT's linear model: seconds per byte a rank receives in a halo exchange."""
        return self.halo.median / (2 * self.settings.halo_bytes)

    def values(self) -> dict[str, float]:
        """The measured profile keys."""
        return {
            "remote_access_time": self.remote_access_time,
            "latency": self.latency.median,
            "bandwidth": self.bandwidth,
            # the runtime's start of a phase when measured (a barrier is what compiled HPF pays)
            "parallel_overhead": self.starts.median if self.starts is not None else self.barrier.median,
            "flop_time": self.split.flop_time,
            "memory_access_time": self.split.access_time,
        } | ({"recurrence_time": self.recurrence_time} if self.recurrences else {})


def calibration(raw: dict) -> Calibration:
    """Summarize a worker's record (see :mod:`.worker`)."""
    settings = Settings(**raw["settings"])
    s = raw["samples"]
    kernels = tuple(
        KernelTime(k.name, k.flops, k.accesses, summarize(s[f"kernel:{k.name}"])) for k in KERNELS
    )
    runtime = tuple(KernelTime(k.name, k.flops, k.accesses, summarize(s[f"runtime:{k.name}"]))
                    for k in KERNELS if s.get(f"runtime:{k.name}"))
    if sum(k.per_element.median > 0 for k in runtime) < 2:
        runtime = ()  # too short to tell apart from the start of a phase: the numpy kernels' split
    runtime = tuple(k for k in runtime if k.per_element.median > 0)
    split = split_compute([(k.flops, k.accesses, k.per_element.median) for k in (runtime or kernels)])
    if split.flop_time < split.access_time * FLOP_SHARE and runtime:
        # compiled loops are bound by their memory accesses, their flops hidden under them: a
        # flop is given a small share of an access (a profile's flop_time is positive)
        split = replace(split, flop_time=split.access_time * FLOP_SHARE, floored=True)
    recurrences = tuple((KernelTime(r.name, r.flops, r.accesses, summarize(s[f"recurrence:{r.name}"])), r.chain)
                        for r in RECURRENCES if s.get(f"recurrence:{r.name}")) if runtime else ()
    if split.flop_time <= 0:
        raise AutodistError("calibration: the kernels' times give no time per flop (too noisy); "
                            "run again with more repetitions (--repeat)")
    versions = f"mpi4py {raw.get('mpi4py', '?')}, numpy {raw.get('numpy', '?')}, Python {platform.python_version()}"
    return Calibration(raw["nranks"], settings, summarize(s["latency"]), summarize(s["large"]),
                       summarize(s["halo"]), summarize(s["barrier"]), kernels, split,
                       raw.get("mpi_library", ""), versions,
                       summarize(s["phase_start"]) if s.get("phase_start") else None, runtime, recurrences)


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def _num(value: float) -> str:
    """A YAML float (with a dot and a signed exponent: never read as a string)."""
    return f"{value:.4e}"


def profile_text(cal: Calibration, name: str, like: MachineProfile, command: str = "autodist calibrate",
                 when: datetime | None = None) -> str:
    """The profile file: comments on the measurement, then the keys."""
    when = when or datetime.now(timezone.utc)
    st = cal.settings
    values = cal.values()
    head = [
        f"# Measured by `{command}` on {when.strftime('%Y-%m-%d %H:%M %Z').strip()}.",
        f"# machine: {platform.node() or 'unknown host'}, {platform.platform()}",
        f"# CPU: {cpu_model()}, {os.cpu_count() or '?'} logical cores",
        f"# MPI: {cal.mpi_library or 'unknown MPI library'} ({cal.versions})",
        f"# {cal.nranks} ranks; each quantity measured {st.repeat} times, the median is reported.",
        "#",
        f"# latency: ping-pong of {st.small_bytes}-byte messages between ranks 0 and 1, half the round trip:",
        f"#   {cal.latency.text()}",
        f"# bandwidth: ping-pong of {st.large_bytes}-byte messages, {st.large_bytes} bytes / (half round trip "
        "- latency):",
        f"#   half round trip {cal.large.text()}",
        f"# remote_access_time (DDT's linear model): every rank exchanges {st.halo_bytes} bytes with both",
        "#   neighbours of a ring; time of the slowest rank / bytes it receives:",
        f"#   exchange {cal.halo.text()}",
        (f"# parallel_overhead: the runtime's start of a phase, one call of a one-phase subroutine "
         f"({st.phase_calls} calls, numba and planning left out): {cal.starts.text()}; one MPI barrier on "
         f"{cal.nranks} ranks: {cal.barrier.text()}" if cal.starts is not None else
         f"# parallel_overhead: one MPI barrier on {cal.nranks} ranks: {cal.barrier.text()}"),
    ]
    width = max(len(k.name) for k in cal.kernels)
    if cal.runtime:
        head += [f"# flop_time, memory_access_time: least-squares split of the kernels as the runtime runs them",
                 f"#   (compiled when numba is installed): loops over {st.kernel_elements} elements per rank of "
                 "arrays distributed BLOCK,",
                 f"#   every rank at once, {st.kernel_calls} calls, seconds per element:"]
        for k in cal.runtime:
            head.append(f"#   {k.name:<{width}}  flops {k.flops}, accesses {k.accesses}: {k.per_element.text()}")
        head.append(f"# for comparison, numpy statements on {st.vector_length}-element vectors (what the numpy path "
                    "pays per element of a short loop):")
    else:
        head += [f"# flop_time, memory_access_time: least-squares split of numpy kernels on {st.vector_length}"
                 "-element", "#   vectors (every rank at once), seconds per element:"]
    for k in cal.kernels:
        head.append(f"#   {k.name:<{width}}  flops {k.flops}, accesses {k.accesses}: {k.per_element.text()}")
    head.append(f"#   fit: {cal.split.flop_time:.3e} s/flop, {cal.split.access_time:.3e} s/access, "
                f"rms relative error {100 * cal.split.residual:.1f}%")
    if cal.split.floored:
        head.append(f"#   (the runtime's kernels showed no flop cost next to their accesses: flop_time is "
                    f"{FLOP_SHARE:g} of an access)")
    if cal.recurrences:
        head.append("# recurrence_time: what loops whose iterations wait for one another take beyond their flops "
                    "and accesses,")
        head.append("#   per latency unit of the chain they carry (an add 1, a divide 4), as the runtime runs them, "
                    "seconds per element:")
        for k, chain in cal.recurrences:
            head.append(f"#   {k.name:<{width}}  chain {chain}: {k.per_element.text()}")
        head.append(f"#   fit: {cal.recurrence_time:.3e} s per unit")
    body = [
        f"name: {name}",
        f"description: measured by autodist calibrate on {platform.node() or 'this machine'} "
        f"({cal.nranks} ranks, {when.strftime('%Y-%m-%d')})",
        f"processors: {cal.nranks}",
        "communication_model: latency_bandwidth",
    ]
    body += [f"{k}: {_num(v)}" for k, v in values.items()]
    body.append("compute_scale: 1.0")
    body.append(f"# search limits (not measured: as in the {like.name} profile; edit to taste)")
    for key in SEARCH_KEYS:
        v = getattr(like, key)
        text = f"[{', '.join(v)}]" if isinstance(v, tuple) else (f"{v:g}" if isinstance(v, float) else str(v))
        body.append(f"{key}: {text}")
    return "\n".join(head + body) + "\n"


def check_target(path: Path, force: bool) -> None:
    """Fail early (before measuring) when ``path`` cannot be written."""
    if path.is_dir():
        raise UsageError(f"-o {path}: is a directory")
    if path.exists() and not force:
        raise UsageError(f"-o {path}: the file exists (use --force to replace it)")
    if not path.parent.is_dir():
        raise UsageError(f"-o {path}: no such directory {path.parent}")


def write_profile(path: Path, text: str, force: bool = False) -> MachineProfile:
    """Write ``text`` to ``path`` once it loads as a valid profile; an existing
    file is replaced only with ``force``.  Returns the loaded profile."""
    check_target(path, force)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".yaml", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        load_profile(tmp)  # a profile that does not validate is never written
        if force:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)  # fails if the file appeared meanwhile: never overwrites
            except FileExistsError:
                raise UsageError(f"-o {path}: the file exists (use --force to replace it)") from None
    finally:
        Path(tmp).unlink(missing_ok=True)
    return load_profile(path)
