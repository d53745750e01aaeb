"""Large 0-1 models built as arrays and handed to HiGHS in one call.

PuLP builds a model out of one Python object per variable and per term and
then walks them again to pass them to the solver; for the selection models of
real programs (tens of thousands of variables, hundreds of thousands of
terms) that costs more than HiGHS takes to solve them.  An :class:`IlpModel`
holds the columns (cost, bounds, integrality) and the rows (sparse, with
their bounds) in lists of numbers and passes them to HiGHS through highspy's
``passModel``; :func:`solve_model` reports as :func:`autodist.solvers.solve`
does.  Where CBC is the solver (no highspy), the model is written out as a
PuLP problem and solved through :func:`autodist.solvers.solve`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from .solvers import SolveResult, highs_result, pick_solver, quiet_highs, solve


@dataclass
class IlpModel:
    """A minimization over columns ``0 .. n-1`` with rows ``lo <= a.x <= hi``."""

    cost: list[float] = field(default_factory=list)
    lower: list[float] = field(default_factory=list)
    upper: list[float] = field(default_factory=list)
    integer: list[bool] = field(default_factory=list)
    starts: list[int] = field(default_factory=lambda: [0])
    index: list[int] = field(default_factory=list)
    value: list[float] = field(default_factory=list)
    row_lower: list[float] = field(default_factory=list)
    row_upper: list[float] = field(default_factory=list)

    @property
    def columns(self) -> int:
        return len(self.cost)

    @property
    def rows(self) -> int:
        return len(self.row_lower)

    def add_column(self, cost: float = 0.0, lower: float = 0.0, upper: float = 1.0, binary: bool = False) -> int:
        self.cost.append(cost)
        self.lower.append(lower)
        self.upper.append(upper)
        self.integer.append(binary)
        return len(self.cost) - 1

    def add_columns(self, count: int, binary: bool = False) -> list[int]:
        """``count`` columns in ``[0, 1]`` costing nothing yet."""
        first = len(self.cost)
        self.cost.extend([0.0] * count)
        self.lower.extend([0.0] * count)
        self.upper.extend([1.0] * count)
        self.integer.extend([binary] * count)
        return list(range(first, first + count))

    def add_row(self, terms: list[tuple[int, float]], lower: float, upper: float) -> None:
        for j, a in terms:
            self.index.append(j)
            self.value.append(a)
        self.starts.append(len(self.index))
        self.row_lower.append(lower)
        self.row_upper.append(upper)


def solve_model(model: IlpModel, time_limit: float, solver: str | None = None,
                rel_gap: float = 1e-9, presolve: bool = True) -> tuple[SolveResult, list[float] | None]:
    """Solve ``model``: the report and the columns' values (None without a
    solution); ``presolve=False`` skips HiGHS's presolve."""
    name = pick_solver(solver)
    if name != "HiGHS":
        return _through_pulp(model, time_limit, name, rel_gap)
    import highspy

    quiet_highs()
    h = highspy.Highs()
    for option, value in (("output_flag", False), ("time_limit", float(time_limit)),
                          ("mip_rel_gap", rel_gap), ("mip_abs_gap", 1e-9), ("threads", 1),
                          ("presolve", "on" if presolve else "off")):
        h.setOptionValue(option, value)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = model.columns, model.rows
    lp.col_cost_ = np.asarray(model.cost, dtype=np.float64)
    lp.col_lower_ = np.asarray(model.lower, dtype=np.float64)
    lp.col_upper_ = np.asarray(model.upper, dtype=np.float64)
    lp.row_lower_ = np.asarray(model.row_lower, dtype=np.float64)
    lp.row_upper_ = np.asarray(model.row_upper, dtype=np.float64)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.start_ = np.asarray(model.starts, dtype=np.int32)
    lp.a_matrix_.index_ = np.asarray(model.index, dtype=np.int32)
    lp.a_matrix_.value_ = np.asarray(model.value, dtype=np.float64)
    mip = any(model.integer)
    if mip:
        lp.integrality_ = [highspy.HighsVarType.kInteger if i else highspy.HighsVarType.kContinuous
                           for i in model.integer]
    start = time.perf_counter()
    try:
        h.passModel(lp)
        h.run()
    except Exception as exc:  # a solver failure is a status, not a crash
        return SolveResult("HiGHS", "error", None, None, None, time.perf_counter() - start, str(exc)), None
    result = highs_result(h, mip, 1.0, 0.0, time.perf_counter() - start)
    values = list(h.getSolution().col_value) if result.has_solution else None
    return result, values


def _through_pulp(model: IlpModel, time_limit: float, solver: str,
                  rel_gap: float) -> tuple[SolveResult, list[float] | None]:
    import pulp

    from .solvers import variable

    prob = pulp.LpProblem("model", pulp.LpMinimize)
    cols = [variable(prob, f"c{j}", model.lower[j] if math.isfinite(model.lower[j]) else None,
                     model.upper[j] if math.isfinite(model.upper[j]) else None, binary=model.integer[j])
            for j in range(model.columns)]
    for r in range(model.rows):
        a, b = model.starts[r], model.starts[r + 1]
        expr = pulp.LpAffineExpression([(cols[j], v) for j, v in zip(model.index[a:b], model.value[a:b])])
        lo, hi = model.row_lower[r], model.row_upper[r]
        if lo == hi:
            prob.addConstraint(expr == lo, f"r{r}")
        else:
            if math.isfinite(lo):
                prob.addConstraint(expr >= lo, f"r{r}lo")
            if math.isfinite(hi):
                prob.addConstraint(expr <= hi, f"r{r}hi")
    prob.setObjective(pulp.LpAffineExpression([(c, v) for c, v in zip(cols, model.cost) if v]))
    result = solve(prob, time_limit, solver, rel_gap=rel_gap)
    values = [c.varValue or 0.0 for c in cols] if result.has_solution else None
    return result, values
