"""The program's static storage, allocated before it runs, as a Fortran 77
compiler does: COMMON blocks (shared by every unit that declares them, by
slot), every unit's local arrays and SAVEd scalars, the views of
storage-associated blocks and EQUIVALENCEd storage, and the DATA values.
Layouts come from the units' HPF directives; arrays without directives, and
CHARACTER arrays, are held whole on every rank.

:class:`StaticStorage` is a part of :class:`~.executor.Executor` (it uses its
program, units, facts, mappings and communicator).
"""

from __future__ import annotations

import numpy as np

from ... import ir
from ...errors import UnsupportedError
from ...layout.model import Layout
from ..codegen import intrinsic_code as ic
from ..comm.storage import storable
from ..fortran import intrinsics as it
from .arrays import RtArray
from .data import data_targets, data_value

Bounds = tuple[tuple[int, int], ...]


class StaticStorage:
    """Allocation of the program's static storage (see the module docstring)."""

    def _setup_storage(self) -> None:
        main = self.program.main
        order = [main] + [u for u in self.program.units if u is not main]
        plan = self.facts.storage
        # COMMON blocks: scalars in lists, arrays shared by slot; storage-associated
        # ones are views of a buffer (_associate)
        for u in order:
            for c in u.commons:
                if c.name in self.commons or plan.associated(c.name):
                    continue
                slots = self.facts.commons[c.name]
                values: list = []
                for k, (member, t, shape) in enumerate(slots):
                    sym = u.symbol(member)
                    if sym is not None and sym.is_array:
                        values.append(None)
                        lay = self._declared_layout(u, member)
                        arr = RtArray(member, sym.type, self._static_bounds(u, sym), lay, self.comms,
                                      label=f"{u.name}.{member}")
                        self.common_arrays[(c.name, k)] = arr
                    else:
                        values.append(zero(t))
                self.commons[c.name] = values
        for u in order:
            if u.kind == "blockdata":
                continue
            cm = {m for c in u.commons for m in c.members}
            for sym in u.arrays:
                if sym.dummy or sym.name in cm or plan.place(u.name, sym.name):
                    continue
                if ir.is_automatic(u, sym):  # allocated on each entry (enter)
                    self.automatic.setdefault(u.name, []).append(sym)
                    continue
                lay = self._declared_layout(u, sym.name)
                self.locals[(u.name, sym.name)] = RtArray(sym.name, sym.type, self._static_bounds(u, sym), lay,
                                                          self.comms, label=f"{u.name}.{sym.name}")
            tr = self.translations[u.name]
            self.saved[u.name] = [zero(u.symbol(n).type) for n in tr.saved]
        for u in order:
            self._associate(u)
        for u in order:
            self._apply_data(u)

    def _associate(self, u: ir.Unit) -> None:
        """The unit's views of storage-associated storage: its arrays there
        (replicated, in the report's list), the scalars of its associated
        COMMON blocks and its EQUIVALENCEd scalars."""
        plan = self.facts.storage
        places = plan.places.get(u.name, {})
        arrays = self.associated[u.name] = {}
        for name, p in places.items():
            if p.bounds is not None:
                label = f"{u.name}.{name}"
                arrays[name] = RtArray.over(name, p.type, p.bounds, self.storages.view(p), self.comms, label)
                self.kept_replicated[label] = p.why
        for c in u.commons:
            if plan.associated(c.name):
                self.block_slots[(u.name, c.name)] = self.storages.slots(
                    [places[m] if places[m].bounds is None else None for m in c.members])
        scalars = plan.local_scalars(u)
        if scalars:
            self.equivalenced[u.name] = self.storages.slots([places[n] for n in scalars])

    def _block(self, unit: str, block: str):
        """What the unit's code indexes for COMMON ``block``: the block's list,
        or the unit's slots of a storage-associated block."""
        slots = self.block_slots.get((unit, block))
        return self.commons[block] if slots is None else slots

    def _static_bounds(self, u: ir.Unit, sym: ir.Symbol) -> Bounds:
        out = []
        for d in sym.dims or ():
            b = d.bounds
            if b is None:
                raise UnsupportedError(f"array {sym.name} needs constant bounds here", (sym.span or u.span).file,
                                       (sym.span or u.span).first)
            out.append(b)
        return tuple(out)

    def _declared_layout(self, u: ir.Unit, name: str) -> Layout | None:
        m = self.entry_mappings.get(u.name)
        if m is None or name in m.replicated or name in m.unresolved:
            return None
        if is_character(u, name):
            if name in m.placements:
                self.kept_replicated[f"{u.name}.{name}"] = "a CHARACTER array: every rank holds it whole"
            return None
        try:
            return m.layout(name)
        except KeyError:
            return None

    def _apply_data(self, u: ir.Unit) -> None:
        """DATA statements: scalars into the saved lists or COMMON, arrays into storage."""
        if not u.data:
            return
        tr = self.translations.get(u.name)
        saved_names = list(tr.saved) if tr else []
        common_slot = {m: (c.name, k) for c in u.commons for k, m in enumerate(c.members)}
        equivalenced = self.facts.storage.local_scalars(u)
        arrays: dict[str, np.ndarray] = {}
        for d in u.data:
            values = [v for n, v in d.values for _ in range(n)]
            targets: list[tuple[str, tuple[int, ...] | None]] = []
            for t in d.targets:
                targets.extend(data_targets(u, t, {}))
            if len(values) != len(targets):
                raise UnsupportedError(f"DATA with {len(targets)} target(s) and {len(values)} value(s)",
                                       d.span.file, d.span.first)
            for (name, idx), v in zip(targets, values):
                sym = u.symbol(name)
                val = data_value(v, sym.type)
                if idx is None:
                    if name in common_slot:
                        blk, k = common_slot[name]
                        self._block(u.name, blk)[k] = val
                    elif name in equivalenced:
                        self.equivalenced[u.name][equivalenced.index(name)] = val
                    elif name in saved_names:
                        self.saved[u.name][saved_names.index(name)] = val
                    continue
                arr = self._static_array(u, name)
                pos = tuple(i - lo for i, (lo, _) in zip(idx, arr.bounds))
                if arr.fixed:  # straight into the shared storage
                    arr.local[pos] = storable(arr.dtype)(val)
                    continue
                if name not in arrays:
                    arrays[name] = arr.full()
                arrays[name][pos] = storable(arr.dtype)(val)
        for name, full in arrays.items():
            self._static_array(u, name).keep_part(full)

    def _static_array(self, u: ir.Unit, name: str) -> RtArray:
        if name in self.associated.get(u.name, {}):
            return self.associated[u.name][name]
        for c in u.commons:
            if name in c.members:
                return self.common_arrays[(c.name, c.members.index(name))]
        return self.locals[(u.name, name)]


def is_character(u: ir.Unit, name: str) -> bool:
    """CHARACTER arrays are replicated whatever the directives say: their
    elements are strings the runtime reads and writes outside loop phases."""
    sym = u.symbol(name)
    return sym is not None and sym.type.base == "character"


def zero(t: ir.Type):
    """The zero value of a scalar of type ``t``."""
    return eval(ic.zero_code(t), dict(it.HELPERS))
