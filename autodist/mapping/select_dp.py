"""Selection by dynamic programming along the phases in program order (see
:func:`select_dp`; the problem is in :mod:`.selection`)."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from itertools import product
from typing import Mapping, Sequence

from .selection import DpNotApplicable, Key, Problem, Selection, _Compiled, _selection


# --------------------------------------------------------------------------- DP


@dataclass(frozen=True)
class _Slot:
    """A layout in flight in the DP state.

    Forward slot: the exit key of ``array`` at phase ``source``, open from just
    after ``source`` to its last target.  Back slot: the exit key guessed for
    ``array`` at ``source`` (the end of a loop), open from its first target to
    ``source`` where the guess is checked.
    """

    array: str
    source: int
    back: bool
    opens: int   # first phase processed with the slot present (before: absent)
    closes: int  # last phase processed with the slot present


class _Plan:
    """Slots and per-phase bookkeeping of the DP."""

    def __init__(self, comp: _Compiled):
        self.comp = comp
        last_target: dict[tuple[str, int], int] = {}
        first_target: dict[tuple[str, int], int] = {}
        for e in comp.edges:
            key = (e.array, e.source)
            if e.source < e.target:
                last_target[key] = max(last_target.get(key, e.target), e.target)
            else:
                first_target[key] = min(first_target.get(key, e.target), e.target)
        slots = []
        for (a, s), t in last_target.items():
            slots.append(_Slot(a, s, False, s + 1, t))
        for (a, s), t in first_target.items():
            slots.append(_Slot(a, s, True, t, s))
        self.slots = slots
        self.id = {(sl.array, sl.source, sl.back): n for n, sl in enumerate(slots)}
        n = len(comp.phases)
        # open_at[i]: slots present while phase i is processed, in slot order.
        self.open_at = [[k for k, sl in enumerate(slots) if sl.opens <= i <= sl.closes] for i in range(n)]
        # boundary[i]: slots in the state after phase i: those of phase i that
        # stay open, then the forward slots phase i opens.
        self.boundary = []
        for i in range(n):
            nxt = set(self.open_at[i + 1]) if i + 1 < n else set()
            carried = [k for k in self.open_at[i] if k in nxt]
            opened = [k for k in sorted(nxt) if not slots[k].back and slots[k].source == i]
            self.boundary.append(carried + opened)
        self.incoming = [[] for _ in range(n)]  # (edge, slot id) consumed at phase i
        for e in comp.edges:
            self.incoming[e.target].append((e, self.id[e.array, e.source, e.source > e.target]))

    def joint(self, ids: Sequence[int], known: Mapping[int, Key] | None = None) -> list[tuple]:
        """The distinct tuples of exit keys that slots ``ids`` (all of one source
        phase) can hold together, over that phase's candidates agreeing with the
        ``known`` keys of other slots of the same source."""
        source = self.slots[ids[0]].source
        out = {}
        for cand in self.comp.phases[source].candidates:
            if known and any(cand.exit(self.slots[k].array) != v for k, v in known.items()):
                continue
            out[tuple(cand.exit(self.slots[k].array) for k in ids)] = None
        return list(out)

    def work(self) -> tuple[int, int]:
        """Upper bounds on the (state, candidate) pairs the DP visits: at its
        widest phase, and over all phases.  Per source phase of the slots in
        flight, the distinct key tuples its candidates give them, multiplied."""
        widest = total = 0
        for i, ids in enumerate(self.open_at):
            groups: dict[tuple[int, bool], list[int]] = defaultdict(list)
            for k in ids:
                groups[self.slots[k].source, self.slots[k].back].append(k)
            pairs = math.prod(len(self.joint(g)) for g in groups.values()) * len(self.comp.phases[i].candidates)
            widest, total = max(widest, pairs), total + pairs
        return widest, total

    @property
    def cyclic(self) -> bool:
        return any(sl.back for sl in self.slots)


def dp_work(problem: Problem) -> tuple[int, int]:
    """Upper bounds on the (state, candidate) pairs :func:`select_dp` visits: at
    its widest phase and in all (about a microsecond each)."""
    return _Plan(_Compiled(problem)).work()


def select_dp(problem: Problem, max_work: int = 5_000_000) -> Selection:
    """Exact dynamic programming along the phases in program order (see the
    module docstring).  Raises :class:`DpNotApplicable` when it would visit
    more than ``max_work`` (state, candidate) pairs in all."""
    comp = _Compiled(problem)
    plan = _Plan(comp)
    width, work = plan.work()
    if work > max_work:
        raise DpNotApplicable(
            f"dynamic programming would visit up to {work} states (limit {max_work}; "
            f"{width} at the widest phase): too many layouts in flight at once"
        )
    slots = plan.slots
    n = len(comp.phases)
    # The state after phase i holds one key per slot of plan.boundary[i], in order.
    layer: dict[tuple, float] = {(): 0.0}
    back: list[dict[tuple, tuple[tuple, int]]] = []
    for i, phase in enumerate(comp.phases):
        ids = plan.open_at[i]
        prev_ids = plan.boundary[i - 1] if i else []
        opening = [k for k in ids if slots[k].back and slots[k].opens == i]  # guessed here
        by_source: dict[int, list[int]] = defaultdict(list)
        for k in opening:
            by_source[slots[k].source].append(k)
        earlier = {  # back slots of the same sources guessed before phase i
            s: [k for k in prev_ids if slots[k].back and slots[k].source == s] for s in by_source
        }
        checked = [k for k in ids if slots[k].back and slots[k].source == i]
        pos = {k: m for m, k in enumerate(ids)}
        nxt_ids = plan.boundary[i]
        carried = [pos[k] for k in nxt_ids if k in pos]  # the rest are opened by phase i
        cands = phase.candidates
        # Per candidate: the keys it must match (back slots closing here) and the
        # keys it opens; per incoming edge: the cost for each key in flight.
        must = [tuple(c.exit(slots[k].array) for k in checked) for c in cands]
        opens = [tuple(c.exit(slots[k].array) for k in nxt_ids if k not in pos) for c in cands]
        incoming = [(pos[k], e, {}) for e, k in plan.incoming[i]]
        base = comp.base[i]
        joint_memo: dict[tuple, list[tuple]] = {}
        table: dict[tuple, tuple[float, tuple, int]] = {}
        for state, cost in layer.items():
            known = dict(zip(prev_ids, state))
            options = []
            for s, group in by_source.items():
                agreed = tuple(known[k] for k in earlier[s])
                if (s, agreed) not in joint_memo:
                    joint_memo[s, agreed] = plan.joint(group, dict(zip(earlier[s], agreed)))
                options.append(joint_memo[s, agreed])
            for guess in product(*options):
                for group, keys in zip(by_source.values(), guess):
                    known.update(zip(group, keys))
                full = tuple(known[k] for k in ids)
                totals = [cost + b for b in base]
                for at, e, memo in incoming:
                    key = full[at]
                    row = memo.get(key)
                    if row is None:
                        row = memo[key] = [
                            e.frequency * comp.remap(e.array, key, c.entry(e.array)) for c in cands
                        ]
                    totals = [t + r for t, r in zip(totals, row)]
                closing = tuple(full[pos[k]] for k in checked)
                kept = tuple(full[m] for m in carried)
                for c, total in enumerate(totals):
                    if must[c] != closing:
                        continue
                    nxt = kept + opens[c]
                    best = table.get(nxt)
                    if best is None or total < best[0]:
                        table[nxt] = (total, state, c)
        layer = {st: v[0] for st, v in table.items()}
        back.append({st: (v[1], v[2]) for st, v in table.items()})
    # Walk back from the single final state ().
    choice = [0] * n
    state: tuple = ()
    for i in range(n - 1, -1, -1):
        state, choice[i] = back[i][state]
    shape = "with back edges (loops)" if plan.cyclic else "acyclic"
    return _selection(comp, choice, "dp", True,
                      f"dynamic programming over {len(comp.phases)} phases, transitions {shape}, "
                      f"at most {width} states at a phase, {work} in all")
