"""Control flow between phases, with execution frequencies.

The body of a procedure is summarized bottom-up as a structured program of
phases: sequences, counted loops, DO WHILE loops, IF branches, and the two
common GOTO idioms (a backward ``GOTO`` to a label earlier in the same
statement list is a loop; ``IF (c) GOTO L`` to a label later in the list skips
the statements in between).  For every piece we keep, per execution of the
piece, the probability that each phase is the first (last) one to run, the
probability that no phase runs, the expected executions of each phase and the
expected number of direct transitions between phases.  Loops compose exactly:
``DO 10 ITER = 1, 10`` around phases 4..9 gives 9 -> 4 nine times and 3 -> 4
once.

Branch probabilities: decided exactly when the condition compares the
variable of an enclosing counted loop with constants (``IF (NCYCLE .LE. 1)``
inside ``DO NCYCLE = 1, ITMAX``: the loop is split into the iterations where it
holds and those where it does not); measured when a profile is given; the
``branch_probability`` of the options otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import warnings

import numpy as np
from scipy import sparse
from scipy.sparse import linalg as sparse_linalg

from .. import ir
from ..ir.evaluate import RELATIONS
from .loops import TripCounter, length_of, loop_values, walk_ctx
from .model import PhaseFlow, Transition

#: Loops are split by decidable conditions only into this many segments at most;
#: beyond that (MOD patterns) the fraction of iterations is used as a probability.
MAX_SEGMENTS = 8
#: Loop values enumerated to decide conditions.
MAX_ENUMERATED = 100_000


@dataclass
class Summary:
    """Behaviour of a piece of code per execution (phase ids as keys)."""

    first: dict[int, float] = field(default_factory=dict)
    last: dict[int, float] = field(default_factory=dict)
    empty: float = 1.0
    trans: dict[tuple[int, int], float] = field(default_factory=dict)
    freq: dict[int, float] = field(default_factory=dict)
    sites: dict[int, float] = field(default_factory=dict)  # id(stmt) -> executions


def _add(into: dict, other: dict, k: float = 1.0) -> None:
    if k == 0:
        return
    for key, v in other.items():
        into[key] = into.get(key, 0.0) + k * v


def _scaled(d: dict, k: float) -> dict:
    return {key: v * k for key, v in d.items()} if k else {}


def seq_into(a: Summary, b: Summary) -> None:
    """``a`` followed by ``b``, in place in ``a`` (work in the size of ``b``
    and of ``a``'s last phases, so a long statement list composes in linear time)."""
    for p, x in a.last.items():
        for q, y in b.first.items():
            a.trans[(p, q)] = a.trans.get((p, q), 0.0) + x * y
    _add(a.first, b.first, a.empty)
    if b.empty != 1.0:
        last = _scaled(a.last, b.empty)
        _add(last, b.last)
        a.last = last
    a.empty *= b.empty
    _add(a.trans, b.trans)
    _add(a.freq, b.freq)
    _add(a.sites, b.sites)


def loop(t: float, body: Summary) -> Summary:
    """``t`` executions of ``body`` in a row (t may be fractional: an average)."""
    out = Summary()
    if t <= 0:
        return out
    e = body.empty
    if e >= 1.0 - 1e-15:
        s, w = t, t * (t - 1) / 2
    else:
        et = e**t
        s = (1 - et) / (1 - e)
        w = ((t - 1) - t * e + et) / (1 - e) ** 2
    out.first = _scaled(body.first, s)
    out.last = _scaled(body.last, s)
    out.empty = e**t
    out.trans = _scaled(body.trans, t)
    if w:
        for p, x in body.last.items():
            for q, y in body.first.items():
                out.trans[(p, q)] = out.trans.get((p, q), 0.0) + w * x * y
    out.freq = _scaled(body.freq, t)
    out.sites = _scaled(body.sites, t)
    return out


def branch(arms: list[tuple[float, Summary]]) -> Summary:
    out = Summary()
    out.empty = 0.0
    total = 0.0
    for p, s in arms:
        total += p
        _add(out.first, s.first, p)
        _add(out.last, s.last, p)
        out.empty += p * s.empty
        _add(out.trans, s.trans, p)
        _add(out.freq, s.freq, p)
        _add(out.sites, s.sites, p)
    out.empty += max(0.0, 1.0 - total)
    return out


# ---------------------------------------------------------------------- decidable conditions


def _decide(cond: ir.Expr, env: dict[str, int]) -> bool | None:
    """Truth of a condition given loop variable values, or None when unknown."""
    if isinstance(cond, ir.Const) and isinstance(cond.value, bool):
        return cond.value
    if isinstance(cond, ir.UnOp) and cond.op == ir.UnaryOp.NOT:
        v = _decide(cond.operand, env)
        return None if v is None else not v
    if isinstance(cond, ir.BinOp):
        if cond.op in (ir.Op.AND, ir.Op.OR, ir.Op.EQV, ir.Op.NEQV):
            a, b = _decide(cond.left, env), _decide(cond.right, env)
            if cond.op == ir.Op.AND:
                return False if a is False or b is False else (None if a is None or b is None else True)
            if cond.op == ir.Op.OR:
                return True if a is True or b is True else (None if a is None or b is None else False)
            if a is None or b is None:
                return None
            return (a == b) if cond.op == ir.Op.EQV else (a != b)
        if cond.op in RELATIONS:
            x, y = ir.eval_affine(cond.left, env), ir.eval_affine(cond.right, env)
            if x is None or y is None:
                return None
            return RELATIONS[cond.op](x, y)
    return None


def _conditions(stmts: tuple[ir.Stmt, ...]) -> list[ir.Expr]:
    out = []
    for s in ir.walk(stmts):
        if isinstance(s, ir.If):
            out.extend(b.cond for b in s.branches if b.cond is not None)
    return out


# ---------------------------------------------------------------------- the builder


class FlowBuilder:
    """Summarizes one procedure body; ``phase_of`` maps phase statements to ids."""

    def __init__(self, phase_of: dict[int, int], counter: TripCounter, keep: set[int] | None = None):
        self.phase_of = phase_of
        self.counter = counter
        self.keep = keep  # phases that count (None: all); others are passed through
        self.decided: dict[int, bool] = {}  # id(cond) -> truth in the current loop segment
        self.fractions: dict[int, float] = {}  # id(cond) -> fraction of iterations where true
        self.env: dict[str, int] = {}
        self.assumptions: list[str] = []

    # --------------------------------------------------------------- statements

    def block(self, stmts: tuple[ir.Stmt, ...]) -> Summary:
        """A statement list: composed exactly when control only falls through,
        as a Markov chain over its statements when GOTOs jump inside it."""
        items = list(stmts)
        if not any(_jumps(s) for s in items):
            return self._straight(items)
        return self._chain(items)

    def _straight(self, items: list[ir.Stmt]) -> Summary:
        """Statements that only fall through, composed in sequence."""
        out = Summary()
        for s in items:
            seq_into(out, self.stmt(s))
        return out

    def _chain(self, items: list[ir.Stmt]) -> Summary:
        """Expected behaviour of a statement list with jumps (see module doc).

        The list is first cut into straight runs: a run starts at a statement a
        jump may reach and ends after a statement that jumps, so within a run
        control only falls through and the run composes exactly in sequence.
        The Markov chain is over runs (sparse: each has at most a few
        successors), so its size follows the jumps, not the statements."""
        targets = ir.jump_targets(items)
        runs: list[list[ir.Stmt]] = []
        for k, s in enumerate(items):
            if not runs or (s.label is not None and s.label in targets) or _jumps(items[k - 1]):
                runs.append([])
            runs[-1].append(s)
        n = len(runs)
        labels = {run[0].label: k for k, run in enumerate(runs) if run[0].label is not None}
        parts = [self._straight(run) for run in runs]
        rows, cols, probs = [], [], []  # P[i, j]: control leaves run i for run j (n: leaves the list)
        for i, run in enumerate(runs):
            for j, p in self._successors(run[-1], i, labels, n):
                rows.append(i)
                cols.append(j)
                probs.append(p)
        P = _matrix(rows, cols, probs, (n, n + 1))
        inner = P[:, :n]
        # expected visits per entry: v = e0 + P^T v
        e0 = np.zeros(n)
        e0[0] = 1.0
        v = _solve(_identity(n, inner) - inner.T, e0)
        phases = sorted({q for part in parts for q in part.first})
        col = {q: k for k, q in enumerate(phases)}
        # H[i, k]: after leaving run i, probability that phase k is the next to
        # run (last column: the list is left before any further phase)
        F = np.zeros((n, len(phases) + 1))
        empty = np.array([part.empty for part in parts])
        for j, part in enumerate(parts):
            for q, x in part.first.items():
                F[j, col[q]] = x
        R = np.asarray(inner @ F)
        R[:, -1] += np.asarray(P[:, n].toarray()).ravel() if hasattr(P, "toarray") else P[:, n]
        H = _solve(_identity(n, inner) - _scale_columns(inner, empty), R)
        out = Summary()
        for i, part in enumerate(parts):
            _add(out.freq, part.freq, v[i])
            _add(out.trans, part.trans, v[i])
            _add(out.sites, part.sites, v[i])
            if not part.last:
                continue
            nexts = [(phases[k], H[i, k]) for k in np.flatnonzero(H[i, :-1] > 1e-15)]
            for p_, x in part.last.items():
                for q, h in nexts:
                    out.trans[(p_, q)] = out.trans.get((p_, q), 0.0) + v[i] * x * h
                if H[i, -1] > 1e-15:
                    out.last[p_] = out.last.get(p_, 0.0) + v[i] * x * H[i, -1]
        first = F[0] + empty[0] * H[0]
        out.first = {q: float(first[k]) for q, k in col.items() if first[k] > 1e-15}
        out.empty = float(first[-1])
        return out

    def _successors(self, s: ir.Stmt, i: int, labels: dict[int, int], n: int) -> list[tuple[int, float]]:
        """Where control goes after item ``i`` (index ``n``: out of the list)."""
        nxt = i + 1

        def to(label: int) -> int:
            return labels.get(label, n)

        if isinstance(s, ir.Goto):
            return [(to(s.target), 1.0)]
        if isinstance(s, (ir.Return, ir.Stop)):
            return [(n, 1.0)]
        if isinstance(s, ir.ComputedGoto):
            k = len(s.targets) + 1
            return [(to(t), 1.0 / k) for t in s.targets] + [(nxt, 1.0 / k)]
        if isinstance(s, ir.ArithIf):
            return [(to(t), 1.0 / 3) for t in (s.neg, s.zero, s.pos)]
        exits = _exit_arms(s)
        if exits:
            # IF (...) THEN ... STOP / RETURN / GO TO L: control leaves for the
            # list's end or L; a STOP or RETURN test nobody measured is taken as
            # a loop's exit test (default trips), as is a backward GO TO
            out: dict[int, float] = {}
            rest = 1.0
            for b in s.branches:  # type: ignore[attr-defined]
                p = 1.0 if b.cond is None else self._probability(b.cond, b.span)
                last = b.body[-1] if b in exits else None
                j = to(last.target) if isinstance(last, ir.Goto) else n
                if last is not None and b.cond is not None and not self._known(b.cond, b.span):
                    if j <= i:
                        p = 1.0 - 1.0 / max(self._goto_loop_trips(s), 1.0)
                    elif not isinstance(last, ir.Goto):
                        p = 1.0 / max(self._goto_loop_trips(s), 1.0)
                if last is not None:
                    out[j] = out.get(j, 0.0) + rest * p
                rest *= 1.0 - p
            out[nxt] = out.get(nxt, 0.0) + rest
            return list(out.items())
        target = _forward_target(s)
        if target is not None:
            j = to(target)
            cond = s.branches[0].cond  # type: ignore[attr-defined]
            p = self._probability(cond, s.branches[0].span)  # type: ignore[attr-defined]
            if j <= i and id(cond) not in self.decided:
                # a backward conditional jump closes a loop: default trips unless measured
                p = 1.0 - 1.0 / max(self._goto_loop_trips(s), 1.0)
            return [(j, p), (nxt, 1.0 - p)]
        leaving = _leaving(s)
        if leaving:
            # a loop left by a jump from its body: left early as often as an
            # IF is taken (the loop's own work is counted whole)
            p = self.counter.options.branch_probability
            return [(to(t), p / len(leaving)) for t in leaving] + [(nxt, 1.0 - p)]
        return [(nxt, 1.0)]

    def _goto_loop_trips(self, s: ir.Stmt) -> float:
        prof = self.counter.options.profile
        key = f"{s.span.file}:{s.span.first}"
        if prof is not None and key in prof.loops:
            return prof.loops[key].trips
        n = self.counter.options.default_trip_count
        self.assumptions.append(f"GOTO loop at line {s.span.first}: {n} trips assumed")
        return float(n)

    def stmt(self, s: ir.Stmt) -> Summary:
        pid = self.phase_of.get(id(s))
        if pid is not None and isinstance(s, ir.If):  # a function phase: its conditions, then the IF
            out = self._atom(pid)
            seq_into(out, self._if(s))
            out.sites[id(s)] = out.sites.get(id(s), 0.0) + 1.0
            return out
        if pid is not None:
            out = self._atom(pid)
            out.sites[id(s)] = 1.0
            self._inner_sites(s, out)
            return out
        if isinstance(s, ir.Do):
            return self._do(s)
        if isinstance(s, ir.DoWhile):
            prof = self.counter.options.profile
            key = f"{s.span.file}:{s.span.first}"
            if prof is not None and key in prof.loops:
                n = prof.loops[key].trips
            else:
                n = float(self.counter.options.default_trip_count)
                self.assumptions.append(f"DO WHILE at line {s.span.first}: {n:g} trips assumed")
            return loop(n, self.block(s.body))
        if isinstance(s, ir.If) and _calls(s):
            out = self._if(s)
            out.sites[id(s)] = out.sites.get(id(s), 0.0) + 1.0
            return out
        if isinstance(s, ir.If):
            return self._if(s)
        if _calls(s):
            out = Summary()
            out.sites[id(s)] = 1.0
            return out
        return Summary()

    def _atom(self, pid: int) -> Summary:
        """Phase ``pid`` run once (nothing when the pass ignores it)."""
        out = Summary()
        if self.keep is None or pid in self.keep:
            out.first = {pid: 1.0}
            out.last = {pid: 1.0}
            out.empty = 0.0
            out.freq = {pid: 1.0}
        return out

    def _if(self, s: ir.If) -> Summary:
        arms = []
        rest = 1.0
        for b in s.branches:
            if b.cond is None:
                arms.append((rest, self.block(b.body)))
                rest = 0.0
                break
            p = self._probability(b.cond, b.span)
            arms.append((rest * p, self.block(b.body)))
            rest *= 1.0 - p
        return branch(arms)

    def _inner_sites(self, s: ir.Stmt, out: Summary) -> None:
        """Frequencies of the statements that call procedures nested in a loop
        phase, per phase execution."""
        for stmt, w in inner_call_sites(s, self.counter):
            out.sites[id(stmt)] = out.sites.get(id(stmt), 0.0) + w

    def _known(self, cond: ir.Expr, span: ir.Span) -> bool:
        """Is the probability of ``cond`` decided or measured (not the default)?"""
        prof = self.counter.options.profile
        return (id(cond) in self.decided or id(cond) in self.fractions or _decide(cond, self.env) is not None
                or (prof is not None and f"{span.file}:{span.first}" in prof.branches))

    def _probability(self, cond: ir.Expr, span: ir.Span) -> float:
        if id(cond) in self.decided:
            return 1.0 if self.decided[id(cond)] else 0.0
        if id(cond) in self.fractions:
            return self.fractions[id(cond)]
        v = _decide(cond, self.env)
        if v is not None:
            return 1.0 if v else 0.0
        prof = self.counter.options.profile
        key = f"{span.file}:{span.first}"
        if prof is not None and key in prof.branches:
            return prof.branches[key].taken
        return self.counter.options.branch_probability

    def _do(self, s: ir.Do) -> Summary:
        values = loop_values(s, self.env)
        if values is None:
            n = self.counter.average_trips((), s, self.env)
            if not self.counter.known(s):
                self.assumptions.append(
                    f"DO {s.var} at line {s.span.first}: trip count {self.counter.assumed[(s.span.file, s.span.first)]}")
            return loop(n, self.block(s.body))
        conds = [c for c in _conditions(s.body) if ir.mentions(c, s.var)]
        if not conds or length_of(values) > MAX_ENUMERATED:
            return self._counted(s, length_of(values))
        # truth vector of every decidable condition for every iteration
        segments: list[tuple[int, tuple[bool | None, ...], int]] = []  # (start value, truths, count)
        for v in values:
            env = dict(self.env)
            env[s.var] = v
            truths = tuple(_decide(c, env) for c in conds)
            if segments and segments[-1][1] == truths:
                start, t, n = segments[-1]
                segments[-1] = (start, t, n + 1)
            else:
                segments.append((v, truths, 1))
        if len(segments) > MAX_SEGMENTS:
            saved = dict(self.fractions)
            for k, c in enumerate(conds):
                known = [seg for seg in segments if seg[1][k] is not None]
                if len(known) == len(segments):
                    self.fractions[id(c)] = sum(n for _, t, n in segments if t[k]) / len(values)
            out = self._counted(s, len(values))
            self.fractions = saved
            return out
        out = Summary()
        saved = dict(self.decided)
        for _start, truths, n in segments:
            for c, t in zip(conds, truths):
                if t is not None:
                    self.decided[id(c)] = t
                else:
                    self.decided.pop(id(c), None)
            seq_into(out, self._counted(s, n))
        self.decided = saved
        return out

    def _counted(self, s: ir.Do, n: int) -> Summary:
        return loop(float(n), self.block(s.body))


def inner_call_sites(s: ir.Stmt, counter: TripCounter) -> list[tuple[ir.Stmt, float]]:
    """The statements nested in the loop phase ``s`` that call procedures (CALL,
    or an external function in an expression), each with its executions per
    execution of the phase (the branch probability under an IF)."""
    if not isinstance(s, ir.Do):
        return []
    out = []
    for ctx in walk_ctx(s.body, (s,)):
        if _calls(ctx.stmt):
            w = counter.count(ctx.loops)
            if ctx.conditional:
                w *= counter.options.branch_probability
            out.append((ctx.stmt, w))
    return out


def _calls(s: ir.Stmt) -> bool:
    """Does ``s`` itself call a procedure (CALL, or an external function in its expressions)?"""
    if isinstance(s, ir.Call):
        return True
    return bool(ir.external_calls(s))


def _forward_target(s: ir.Stmt) -> int | None:
    """The label of ``IF (c) GOTO label``, else None."""
    if isinstance(s, ir.If) and s.logical and len(s.branches[0].body) == 1:
        inner = s.branches[0].body[0]
        if isinstance(inner, ir.Goto):
            return inner.target
    return None


def _exit_arms(s: ir.Stmt) -> list:
    """The arms of an IF that end with STOP, RETURN or (block IF) GO TO:
    control does not fall through them.  A logical IF GO TO is
    :func:`_forward_target`'s; a logical IF RETURN or STOP is an exit."""
    if not isinstance(s, ir.If):
        return []
    leaving = (ir.Return, ir.Stop) if s.logical else (ir.Return, ir.Stop, ir.Goto)
    return [b for b in s.branches if b.body and isinstance(b.body[-1], leaving)]


def _leaving(s: ir.Stmt) -> tuple[int, ...]:
    """The labels outside the DO loop ``s`` that jumps in its body go to (the
    exits of a search loop: ``IF (found) GO TO 400`` inside ``DO``)."""
    if not isinstance(s, (ir.Do, ir.DoWhile)):
        return ()
    targets = ir.jump_targets(s.body)
    if not targets:
        return ()
    inside = {x.label for x in ir.walk(s.body) if x.label is not None}
    return tuple(sorted(t for t in targets if t not in inside))


def _jumps(s: ir.Stmt) -> bool:
    """Does control leave ``s`` other than by falling through (at this level)?"""
    if isinstance(s, (ir.Goto, ir.ComputedGoto, ir.ArithIf, ir.Return, ir.Stop)):
        return True
    return _forward_target(s) is not None or bool(_exit_arms(s)) or bool(_leaving(s))


#: Statement lists with more straight runs than this are solved as sparse systems.
SPARSE_FROM = 64


def _matrix(rows: list[int], cols: list[int], vals: list[float], shape: tuple[int, int]):
    """The transition matrix: dense for short lists, sparse (CSR) for long ones."""
    if shape[0] <= SPARSE_FROM:
        m = np.zeros(shape)
        np.add.at(m, (rows, cols), vals)
        return m
    return sparse.csr_matrix((vals, (rows, cols)), shape=shape)


def _identity(n: int, like):
    return np.eye(n) if isinstance(like, np.ndarray) else sparse.identity(n, format="csr")


def _scale_columns(m, k: np.ndarray):
    return m * k[None, :] if isinstance(m, np.ndarray) else m @ sparse.diags(k)


def _solve(a, b: np.ndarray) -> np.ndarray:
    if not isinstance(a, np.ndarray):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", sparse_linalg.MatrixRankWarning)
                x = sparse_linalg.splu(a.tocsc()).solve(b)
            if np.all(np.isfinite(x)):
                return x
        except (RuntimeError, sparse_linalg.MatrixRankWarning):
            pass
        a = a.toarray()
    try:
        return np.linalg.solve(a, b)
    except np.linalg.LinAlgError:  # a loop that never exits: least squares keeps it finite
        return np.clip(np.nan_to_num(np.linalg.lstsq(a, b, rcond=None)[0]), 0.0, None)


def build_flow(unit: ir.Unit, phase_of: dict[int, int], arrays_of: dict[int, tuple[str, ...]],
               counter: TripCounter) -> tuple[PhaseFlow, dict[int, float]]:
    """The phase flow of ``unit`` and the executions of each call statement
    (keyed by ``id(stmt)``) per call of the unit."""
    builder = FlowBuilder(phase_of, counter)
    whole = builder.block(unit.body)
    transitions = _transitions(whole)
    per_array = []
    arrays = sorted({a for names in arrays_of.values() for a in names})
    by_phases: dict[frozenset[int], tuple[Transition, ...]] = {}  # arrays used in the same phases share one pass
    for a in arrays:
        keep = frozenset(pid for pid, names in arrays_of.items() if a in names)
        if keep not in by_phases:
            by_phases[keep] = _transitions(FlowBuilder(phase_of, counter, set(keep)).block(unit.body))
        per_array.append((a, by_phases[keep]))
    executions = tuple(sorted(whole.freq.items()))
    assumptions = tuple(dict.fromkeys(builder.assumptions))
    return PhaseFlow(executions, transitions, tuple(per_array), assumptions), whole.sites


def _transitions(s: Summary) -> tuple[Transition, ...]:
    out = [Transition(0, q, x) for q, x in sorted(s.first.items()) if x > 1e-12]
    out += [Transition(p, q, x) for (p, q), x in sorted(s.trans.items()) if x > 1e-12]
    out += [Transition(p, 0, x) for p, x in sorted(s.last.items()) if x > 1e-12]
    return tuple(out)

