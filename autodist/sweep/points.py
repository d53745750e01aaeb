"""One point of a sweep: the best static and dynamic solutions at some values
of the varied quantities, their speedups and which one is chosen."""

from __future__ import annotations

from dataclasses import dataclass

from .axes import PROCS, Axis, value_of
from .planner import Outcome, Planner, outcome


@dataclass(frozen=True)
class SweepPoint:
    """``values``: the varied quantities (axis key -> value, axes order);
    ``procs``: the processor count (varied or not); ``sequential``: the
    predicted time on one processor of the same machine."""

    values: tuple[tuple[str, float], ...]
    procs: int
    sequential: float
    static: Outcome
    dynamic: Outcome
    chosen: str  # "static" | "dynamic" (static on a tie)

    def value(self, key: str) -> float:
        return dict(self.values)[key]

    def solution(self, kind: str) -> Outcome:
        return self.static if kind == "static" else self.dynamic

    def speedup(self, kind: str) -> float:
        total = self.solution(kind).total
        return self.sequential / total if total > 0 else float("inf")

    @property
    def best(self) -> Outcome:
        return self.solution(self.chosen)

    @property
    def regime(self) -> tuple[str, str]:
        """What a crossover is a change of: the chosen kind and its mapping."""
        return self.chosen, self.best.mapping


def profile_changes(axes: tuple[Axis, ...], values: dict[str, float]) -> dict[str, float]:
    return {a.key: value_of(a, values[a.key]) for a in axes if a.key != PROCS}


def evaluate_point(planner: Planner, axes: tuple[Axis, ...], values: dict[str, float], procs: int) -> SweepPoint:
    """Plan at ``values`` (and ``procs`` unless it is an axis) and keep the summary."""
    if PROCS in values:
        procs = int(values[PROCS])
    changes = profile_changes(axes, values)
    plan = planner.plan(changes, procs)
    return SweepPoint(
        values=tuple((a.key, values[a.key]) for a in axes),
        procs=procs,
        sequential=planner.sequential(changes),
        static=outcome(plan.static, procs),
        dynamic=outcome(plan.dynamic, procs),
        chosen=plan.chosen,
    )
