"""What the kernels of one compiled module share, and why code stays in Python.

:class:`KernelModule` numbers what a module's kernels refer to by index —
fault sites, labels, STOP codes, timed regions, the PRINTs and WRITEs they
hand over — so that the kernels' code holds plain integers and one table per
module keeps their meaning.  :class:`NotCompiled` carries the reason a unit or
a phase stays with the Python path.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..codegen.facts import ProgramFacts
from ..fortran.foreign import region_of
from .faults import Sites
from .statics import Statics

#: The kinds of output items passed as float64 (the others, INTEGER and LOGICAL, as int64).
REAL_KINDS = ("r4", "r8")
#: The fault code a kernel raises when writing its output failed in Python (:class:`~.entries.Kernels`).
OUTPUT_FAILED = -2


class NotCompiled(Exception):
    """Why a unit or phase stays with the Python path."""


@dataclass
class KernelModule:
    """What the kernels of one module share: sites, chains, labels, STOP codes, regions."""

    facts: ProgramFacts
    statics: Statics
    phase_ids: dict[tuple[str, int], int]  # (unit, first line) -> phase id, loop and call phases
    sites: Sites = field(default_factory=Sites)
    chains: set[int] = field(default_factory=set)
    labels: list[str] = field(default_factory=list)
    stops: list = field(default_factory=list)
    regions: list[str] = field(default_factory=list)
    region_kinds: list[str] = field(default_factory=list)
    outputs: list = field(default_factory=list)

    def label(self, text: str) -> int:
        if text not in self.labels:
            self.labels.append(text)
        return self.labels.index(text)

    def stop(self, code) -> int:
        if code not in self.stops:
            self.stops.append(code)
        return self.stops.index(code)

    def region(self, unit: str, line: int, kind: str = "loop") -> int:
        name = f"{unit}:{self.phase_ids[(unit, line)]}"
        if name not in self.regions:
            self.regions.append(name)
            self.region_kinds.append(kind)
        return self.regions.index(name)

    def output(self, to_unit: bool, fmt, items, where: tuple[str, int] | None = None) -> int:
        """The number of a PRINT or WRITE a kernel hands over: whether it names a
        unit, its parsed format (None: list-directed), its items (position among
        the int64 values (INTEGER, LOGICAL; the unit first) or float64 values
        (REAL) the kernel passes, or a text constant; and the item's kind), and
        where it is (``(file, line)``, for the errors of writing it)."""
        self.outputs.append((to_unit, fmt, tuple(items), where))
        return len(self.outputs) - 1

    def linked_counter(self, routine: str) -> int:
        """The counter of calls of a ``--link`` routine from kernels (a region of kind "linked")."""
        name = region_of(routine)
        if name not in self.regions:
            self.regions.append(name)
            self.region_kinds.append("linked")
        return self.regions.index(name)

    def unit_counter(self, unit: str) -> int:
        """The counter of calls of a compiled unit (a region of kind "unit")."""
        if unit not in self.regions:
            self.regions.append(unit)
            self.region_kinds.append("unit")
        return self.regions.index(unit)

    def static(self, key) -> str:
        return self.statics.name(key)
