"""The one place where an ILP solver is chosen.

HiGHS (through ``highspy``) is preferred: faster than CBC on autodist's models
and it reports its own status and bounds honestly.  PuLP's bundled CBC is the
fallback.  Callers use :func:`solve` and read the returned :class:`SolveResult`:
the status comes from the solver's own report, and a time-limited answer is
never called optimal.

Statuses (:attr:`SolveResult.status`):

``optimal``
    the solver proved optimality (within ``rel_gap``, 1e-9 by default: autodist
    wants exact answers, not HiGHS's default 0.01 %);
``feasible``
    a limit (time) stopped the search with an incumbent: ``objective`` is that
    incumbent's value, ``bound`` the best proven bound, ``gap`` the relative gap;
``no_solution``
    a limit stopped the search before any feasible point was found;
``infeasible`` / ``unbounded``
    as proved by the solver;
``error``
    anything else (the solver's own words are in :attr:`SolveResult.message`).

PuLP itself reads a time-limited HiGHS run as "Optimal" (measured: a 13 % gap);
this module never trusts ``problem.status`` alone.  For HiGHS it reads the model
status, ``mip_dual_bound`` and ``mip_gap`` of the ``highspy`` model that PuLP
keeps in ``problem.solverModel``.  For CBC it reads the first line of the
solution file (through PuLP's ``sol_status``) and the "Lower bound"/"Gap"
lines of CBC's own log; when the log gives no bound the gap is unknown (None).
"""

from __future__ import annotations

import math
import os
import re
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass
from functools import lru_cache

import pulp

from .errors import SolverError

@dataclass(frozen=True)
class SolveResult:
    """What a solver reported about one run (see the module docstring).

    ``objective`` and ``bound`` are in the problem's own sense and include the
    objective's constant term; ``gap`` is relative (``|objective - bound| /
    max(|objective|, tiny)``), ``math.inf`` when no bound is known to be finite
    and None when the solver gave no bound at all.  ``seconds`` is wall time of
    the solve call, model transfer from PuLP included; ``solver_seconds`` the
    time the solver itself reports (None when unknown): on large models PuLP's
    transfer is a large share of the difference.
    """

    solver: str
    status: str
    objective: float | None
    bound: float | None
    gap: float | None
    seconds: float
    message: str = ""
    solver_seconds: float | None = None

    @property
    def has_solution(self) -> bool:
        """True when the variables hold a feasible point (optimal or not)."""
        return self.status in ("optimal", "feasible")

    @property
    def optimal(self) -> bool:
        return self.status == "optimal"

    def describe(self) -> str:
        """One line for reports: ``HiGHS optimal, objective 2.5, gap 0``."""
        parts = [f"{self.solver} {self.status}"]
        if self.objective is not None:
            parts.append(f"objective {self.objective:.6g}")
        if self.bound is not None:
            parts.append(f"bound {self.bound:.6g}")
        parts.append("gap unknown" if self.gap is None else f"gap {self.gap:.3g}")
        parts.append(f"{self.seconds:.3f} s")
        return ", ".join(parts)


def variable(
    problem: pulp.LpProblem,
    name: str,
    low: float | None = None,
    up: float | None = None,
    binary: bool = False,
) -> pulp.LpVariable:
    """A new variable of ``problem`` (``problem.add_variable`` where PuLP has it:
    PuLP 3.3 deprecates creating ``LpVariable`` directly)."""
    cat = pulp.LpBinary if binary else pulp.LpContinuous
    if hasattr(problem, "add_variable"):
        return problem.add_variable(name, low, up, cat=cat)
    return pulp.LpVariable(name, low, up, cat)  # pragma: no cover - PuLP < 3.3


@lru_cache(maxsize=1)
def available_solvers() -> tuple[str, ...]:
    """Names of the usable MILP backends, preferred first ("HiGHS", "CBC")."""
    names = []
    try:
        if pulp.HiGHS(msg=False).available():
            names.append("HiGHS")
    except Exception:  # pragma: no cover - depends on the installation
        pass
    try:
        if _cbc(msg=False).available():
            names.append("CBC")
    except Exception:  # pragma: no cover
        pass
    return tuple(names)


def pick_solver(solver: str | None = None) -> str:
    """The backend to use: ``solver`` if given and usable, else the preferred one."""
    found = available_solvers()
    if solver is None:
        if not found:
            raise SolverError(
                "no ILP solver available: install highspy (pip install highspy) "
                "or a PuLP with its bundled CBC"
            )
        return found[0]
    by_lower = {"highs": "HiGHS", "cbc": "CBC"}
    name = by_lower.get(solver.lower())
    if name is None:
        raise SolverError(f"unknown ILP solver {solver!r} (known: HiGHS, CBC)")
    if name not in found:
        raise SolverError(f"ILP solver {name} is not available on this machine")
    return name


def solve(
    problem: pulp.LpProblem,
    time_limit: float,
    solver: str | None = None,
    *,
    rel_gap: float = 1e-9,
) -> SolveResult:
    """Solve ``problem`` in place (variables get their values) and report honestly.

    ``time_limit`` is in seconds (> 0).  ``solver`` is "HiGHS", "CBC" or None
    (the preferred available one).  Raises :class:`SolverError` when no solver
    is available or the name is unknown; a solver failure is reported as
    status "error", not raised.
    """
    if not (time_limit > 0 and math.isfinite(time_limit)):
        raise SolverError(f"ILP time limit must be a positive number of seconds, got {time_limit!r}")
    name = pick_solver(solver)
    if name == "HiGHS":
        return _solve_highs(problem, time_limit, rel_gap)
    return _solve_cbc(problem, time_limit, rel_gap)


# --------------------------------------------------------------------------- HiGHS


@lru_cache(maxsize=1)
def quiet_highs() -> bool:
    """HiGHS prints a copyright banner on stdout (file descriptor 1) the first
    time a model is created in a process, whatever ``output_flag`` says.  Create
    that first model with descriptor 1 pointed at /dev/null so that JSON
    written on stdout by the CLI stays clean."""
    import highspy

    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as sink:
            os.dup2(sink.fileno(), 1)
            highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
    return True


def _is_mip(problem: pulp.LpProblem) -> bool:
    return any(v.cat == pulp.LpInteger for v in problem.variables())


def _relative_gap(objective: float, bound: float) -> float:
    if objective == bound:
        return 0.0
    if not (math.isfinite(objective) and math.isfinite(bound)):
        return math.inf
    return abs(objective - bound) / max(abs(objective), 1e-10)


def _solve_highs(problem: pulp.LpProblem, time_limit: float, rel_gap: float) -> SolveResult:
    quiet_highs()
    # one thread: HiGHS's worker pool does not survive a fork, so a process that had
    # solved with it and then forked (a test harness, a multiprocessing pool) hung
    # in the child's first solve; one thread also makes every solve deterministic
    backend = pulp.HiGHS(msg=False, timeLimit=time_limit, gapRel=rel_gap, gapAbs=1e-9, threads=1)
    start = time.perf_counter()
    try:
        problem.solve(backend)
    except Exception as exc:  # a solver failure is a status, not a crash
        return SolveResult("HiGHS", "error", None, None, None, time.perf_counter() - start, str(exc))
    seconds = time.perf_counter() - start

    sense = -1.0 if problem.sense == pulp.LpMaximize else 1.0
    constant = problem.objective.constant if problem.objective is not None else 0.0
    return highs_result(problem.solverModel, _is_mip(problem), sense, constant, seconds)


def highs_result(h, mip: bool, sense: float, constant: float, seconds: float) -> SolveResult:
    """The report of a HiGHS run on ``h`` (a ``highspy.Highs`` that has run),
    the objective in the user's sense (``sense`` -1 for a maximization) with
    its ``constant``."""
    import highspy

    model_status = h.getModelStatus()
    info = h.getInfo()
    message = h.modelStatusToString(model_status)
    has_point = info.primal_solution_status == 2  # kSolutionStatusFeasible
    S = highspy.HighsModelStatus

    def user(value: float) -> float:  # HiGHS minimizes sense * objective without the constant
        return sense * value + constant

    objective = bound = gap = None
    if model_status == S.kOptimal:
        status = "optimal"
    elif model_status in (S.kInfeasible, S.kUnboundedOrInfeasible):
        status = "infeasible"
    elif model_status == S.kUnbounded:
        status = "unbounded"
    elif model_status in (
        S.kTimeLimit, S.kIterationLimit, S.kInterrupt, S.kSolutionLimit,
        S.kObjectiveBound, S.kObjectiveTarget, S.kMemoryLimit,
    ):
        status = "feasible" if has_point else "no_solution"
    else:
        status = "error"

    if status in ("optimal", "feasible"):
        objective = user(info.objective_function_value)
        if mip:
            raw_bound = info.mip_dual_bound
            bound = user(raw_bound) if math.isfinite(raw_bound) else -sense * math.inf
            gap = _relative_gap(objective, bound)
        else:  # an LP at optimality is its own bound
            bound, gap = (objective, 0.0) if status == "optimal" else (None, None)
    elif status == "no_solution" and mip and math.isfinite(info.mip_dual_bound):
        bound = user(info.mip_dual_bound)
    return SolveResult("HiGHS", status, objective, bound, gap, seconds, message, h.getRunTime())


# --------------------------------------------------------------------------- CBC

_CBC_RESULT = re.compile(r"^Result - (.*)$", re.M)
_CBC_FIELD = re.compile(r"^(Objective value|Lower bound|Upper bound|Gap|Time \(Wallclock seconds\)):\s*(\S+)", re.M)


def _solve_cbc(problem: pulp.LpProblem, time_limit: float, rel_gap: float) -> SolveResult:
    with tempfile.TemporaryDirectory(prefix="autodist-cbc-") as tmp:
        log_path = os.path.join(tmp, "cbc.log")
        backend = _cbc(
            msg=False, timeLimit=time_limit, gapRel=rel_gap, logPath=log_path, keepFiles=False
        )
        start = time.perf_counter()
        try:
            problem.solve(backend)
        except Exception as exc:
            return SolveResult("CBC", "error", None, None, None, time.perf_counter() - start, str(exc))
        seconds = time.perf_counter() - start
        try:
            with open(log_path) as f:
                log = f.read()
        except OSError:
            log = ""

    result = _CBC_RESULT.search(log)
    message = result.group(1).strip() if result else pulp.LpStatus.get(problem.status, "")
    fields = {k: v for k, v in _CBC_FIELD.findall(log)}
    sol = problem.sol_status
    if sol == pulp.LpSolutionOptimal:
        status = "optimal"
    elif sol == pulp.LpSolutionIntegerFeasible:
        status = "feasible"
    elif sol == pulp.LpSolutionInfeasible or problem.status == pulp.LpStatusInfeasible:
        status = "infeasible"
    elif sol == pulp.LpSolutionUnbounded or problem.status == pulp.LpStatusUnbounded:
        status = "unbounded"
    elif problem.status == pulp.LpStatusNotSolved:
        status = "no_solution"
    else:
        status = "error"

    objective = bound = gap = None
    if status in ("optimal", "feasible"):
        objective = pulp.value(problem.objective)
        objective = float(objective) if objective is not None else 0.0
        if status == "optimal":
            bound, gap = objective, 0.0
        else:
            # CBC logs "Lower bound" (minimization) or "Upper bound"
            # (maximization) in the problem's sense, without its constant.
            raw = _float(fields.get("Lower bound", fields.get("Upper bound", "")))
            if raw is not None:
                bound = raw + problem.objective.constant
                gap = _relative_gap(objective, bound)
    wall = _float(fields.get("Time (Wallclock seconds)", ""))
    return SolveResult("CBC", status, objective, bound, gap, seconds, message, wall)


def _cbc(**options) -> pulp.LpSolver:
    """PuLP's bundled CBC (deprecated by PuLP 3.3, gone in PuLP 4: the fallback only)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return pulp.PULP_CBC_CMD(**options)


def _float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None
