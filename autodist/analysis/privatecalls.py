"""Privatization across calls: work arrays (and COMMON scalars) that each
iteration of a loop writes before reading, through the procedures it calls,
and whose values nobody reads after the loop.

An array ``W`` is private to a loop ``L`` of unit ``C`` when

* one pass over ``L``'s body (:class:`.kills.Walker`, the callees' kill
  summaries included) finds every read of ``W`` covered by an earlier write
  of the same iteration, and ``W`` is written;
* the value ``L`` leaves is dead: ``W`` is a local of ``C`` (not a dummy, not
  SAVEd or in DATA, not EQUIVALENCEd) and every top-level statement of ``C``
  reads it only after writing it (the statements after ``L`` in the nest
  around it: after ``L``); or ``W`` is in COMMON and, in every unit of the
  program, every top-level statement reads it only after writing it, where
  ``L`` and every call of ``C`` (or of a unit that calls ``C``) write
  nothing (what they leave is what ``L`` left).

A dummy is never private: its value is the caller's.
"""

from __future__ import annotations

from functools import cached_property

from .. import ir
from .boxes import uses
from .kills import KillSummary, Target, target_of, walker
from .model import Effects


class ProgramFacts:
    """What loops of one unit need to know about the whole program."""

    def __init__(self, program: ir.Program, summaries: dict[str, KillSummary], effects: dict[str, Effects],
                 commons: ir.CommonLayouts, callers: dict[str, set[str]]):
        self.program = program
        self.summaries = summaries
        self.effects = effects
        self.commons = commons
        self.callers = callers  # unit -> units calling it directly
        self.units = {u.name: u for u in program.units}
        self._cache: dict = {}
        self._loops: dict = {}

    def ancestors(self, name: str) -> frozenset[str]:
        seen = {name}
        todo = [name]
        while todo:
            for c in self.callers.get(todo.pop(), ()):
                if c not in seen:
                    seen.add(c)
                    todo.append(c)
        return frozenset(seen)

    @cached_property
    def _touchers(self) -> dict:
        """COMMON slot -> units touching it (directly or through callees)."""
        out: dict = {}
        for name, s in self.summaries.items():
            for slot in s.commons:
                out.setdefault(slot, set()).add(name)
        return out

    def walk(self, unit: ir.Unit, t: Target, region, resets=frozenset(), stop_at=None):
        return walker(unit, t, self.summaries, self.effects, self.commons, self.units, region, resets, stop_at)

    def private(self, unit: ir.Unit, loop: ir.Do, name: str) -> tuple[bool, str]:
        """Is ``name`` private to ``loop``?  (yes/no, and why).  ``unit`` and
        ``loop`` may be the analyzed program's: the walk is over this one's
        (the same statements, related sizes substituted)."""
        unit, loop = self._own(unit, loop)
        t = target_of(unit, name, self.commons)
        sym = unit.symbol(name)
        if t is None or sym is None:
            return False, f"{name}: shape or storage not modelled"
        if sym.dummy:
            return False, f"{name} is a dummy argument (its value is the caller's)"
        if sym.save or sym.in_data:
            return False, f"{name} keeps its value between calls (SAVE or DATA)"
        if t.slot is not None and t.slot[1] == ir.WHOLE_BLOCK:
            return False, f"COMMON /{t.slot[0]}/ is declared differently in other units"
        w = self.walk(unit, t, loop.body)
        if not w.wrote:
            return False, f"{name} is not written"
        if not w.ok:
            why = w.unknown[0] if w.unknown else "a read sees a value of an earlier iteration"
            return False, f"{name} may be read before it is written in an iteration ({why})"
        how = "written before read in each iteration"
        killers = list(dict.fromkeys(w.killers))
        if killers:
            how += f" ({', '.join(killers[:3])}{', ...' if len(killers) > 3 else ''})"
        key = (unit.name, id(loop), t.slot if t.slot is not None else name)
        if key not in self._cache:
            self._cache[key] = self._dead_after(unit, loop, t)
        where = self._cache[key]
        if where is not None:
            return False, f"{name} may be read after the loop ({where})"
        if t.slot is None:
            return True, f"{how}; dead after the loop"
        return True, f"{how}; dead after the loop in every unit using /{t.slot[0]}/"

    def _own(self, unit: ir.Unit, loop: ir.Do) -> tuple[ir.Unit, ir.Do]:
        """This program's unit and loop for the analyzed program's."""
        mine = self.units.get(unit.name)
        if mine is None or mine is unit:
            return unit, loop
        key = (unit.name, loop.span, loop.var)
        if key not in self._loops:
            self._loops[key] = next((s for s in mine.statements() if isinstance(s, ir.Do) and s.span == loop.span
                                     and s.var == loop.var), None)
        found = self._loops[key]
        return (mine, found) if found is not None else (unit, loop)

    def _touches(self, unit: ir.Unit, nest: ir.Stmt, t: Target) -> bool:
        for s in ir.walk((nest,)):
            if t.name is not None and uses(s, t.name):
                return True
            if isinstance(s, ir.Call) and t.name is not None and any(
                    isinstance(a, (ir.Name, ir.Index)) and a.name == t.name for a in s.args):
                return True
            calls = ([s.name] if isinstance(s, ir.Call) else []) + [f.name for f in ir.external_calls(s)]
            if t.slot is not None and any(t.slot in getattr(self.summaries.get(c), "commons", {}) for c in calls):
                return True
            if any(f.name == t.name for f in ir.external_calls(s)):
                return True
        return False

    def _dead_after(self, unit: ir.Unit, loop: ir.Do, t: Target) -> str | None:
        """None when no read may see a value ``loop`` leaves in ``t`` (a local
        of ``unit`` or a COMMON slot); else where one may.  Each unit using it
        is walked whole: after the loop, and after each call of a procedure
        that may run it, only what is written again is known; a read of
        anything else may see the loop's value.  Reads of what the unit
        received are checked where it is called."""
        if t.slot is None:
            targets = [(unit, t)]
            resets: frozenset[str] = frozenset()
        else:
            resets = self.ancestors(unit.name)
            targets = []
            for u in self.program.units:
                sym = self.commons.symbol_at(u, t.slot)
                if sym is None and u.name not in self._touchers.get(t.slot, ()):
                    continue
                if sym is not None:
                    tu = target_of(u, sym.name, self.commons)
                    if tu is None:
                        return f"{u.name}: {sym.name} not modelled"
                else:
                    tu = Target(None, t.slot, 0)
                targets.append((u, tu))
        for u, tu in targets:
            v = self.walk(u, tu, u.body, resets, loop if u is unit else None)
            if v.unknown or v.after:
                return f"{u.name}: {(v.unknown or v.after)[0]}"
        return None
