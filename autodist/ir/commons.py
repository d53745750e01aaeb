"""COMMON blocks across units: declared alike everywhere, or storage associated.

A COMMON block declared with the same members (same number, and each of the
same type and shape) in every unit that declares it holds the same variables
everywhere: its k-th member is one piece of storage whatever its local name.
A block declared differently in some unit (``COMMON /B/ A(100)`` here,
``COMMON /B/ A(10,10)`` or ``COMMON /B/ X(50), Y(50)`` there) overlays its
members by storage sequence: HPF calls it *sequential* and maps none of its
variables, and a member's position no longer names one piece of storage.  For
such a block every member is the whole block (:data:`WHOLE_BLOCK`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .nodes import Span
from .units import Common, Program, Symbol, Unit

__all__ = ["WHOLE_BLOCK", "Slot", "AssociatedBlock", "CommonLayouts", "common_layouts", "block_label"]

Slot = tuple[str, int]
"""A COMMON variable: (block name, position in the block), or
(block name, :data:`WHOLE_BLOCK`) for any member of a storage-associated block."""

WHOLE_BLOCK = -1


def block_label(name: str) -> str:
    return f"/{name}/" if name else "blank COMMON"


@dataclass(frozen=True)
class AssociatedBlock:
    """A block declared differently: ``first`` and ``other`` are two units whose
    declarations differ, ``span`` is where ``other`` declares it."""

    name: str
    first: str
    other: str
    span: Span

    @property
    def reason(self) -> str:
        return f"COMMON {block_label(self.name)} declared differently in {self.first} and {self.other} (storage associated)"


@dataclass(frozen=True)
class CommonLayouts:
    """The blocks of a program that are declared differently in some unit."""

    associated: tuple[AssociatedBlock, ...] = ()

    @cached_property
    def _by_name(self) -> dict[str, AssociatedBlock]:
        out: dict[str, AssociatedBlock] = {}
        for b in self.associated:
            out.setdefault(b.name, b)
        return out

    def block(self, name: str) -> AssociatedBlock | None:
        return self._by_name.get(name)

    def slot(self, sym: Symbol | None) -> Slot | None:
        """The storage a COMMON variable names across units (None: not in COMMON)."""
        if sym is None or sym.common is None or sym.common_index is None:
            return None
        if sym.common in self._by_name:
            return (sym.common, WHOLE_BLOCK)
        return (sym.common, sym.common_index)

    def symbol_at(self, unit: Unit, slot: Slot | None) -> Symbol | None:
        """The variable of ``unit`` naming COMMON storage ``slot`` (its first
        member there for a storage-associated block's :data:`WHOLE_BLOCK`)."""
        table = self._unit_slots.get(id(unit))
        if table is None or table[0] is not unit:
            found: dict[Slot, Symbol] = {}
            for sym in unit.symbols:
                k = self.slot(sym)
                if k is not None:
                    found.setdefault(k, sym)
            table = self._unit_slots[id(unit)] = (unit, found)
        return table[1].get(slot) if slot is not None else None

    @cached_property
    def _unit_slots(self) -> dict[int, tuple[Unit, dict[Slot, Symbol]]]:
        return {}


def _layout(unit: Unit, common: Common) -> tuple:
    out = []
    for m in common.members:
        sym = unit.symbol(m)
        if sym is None:
            out.append(None)
        else:  # the declared bounds where they are not known numbers
            out.append((sym.type, sym.shape if sym.shape is not None else sym.dims))
    return tuple(out)


def common_layouts(program: Program) -> CommonLayouts:
    """Compare every unit's declaration of each block with the first one."""
    first: dict[str, tuple[str, tuple]] = {}
    associated: dict[str, AssociatedBlock] = {}
    for u in program.units:
        for c in u.commons:
            layout = _layout(u, c)
            if c.name not in first:
                first[c.name] = (u.name, layout)
            elif c.name not in associated and layout != first[c.name][1]:
                associated[c.name] = AssociatedBlock(c.name, first[c.name][0], u.name, c.span)
    return CommonLayouts(tuple(associated.values()))
