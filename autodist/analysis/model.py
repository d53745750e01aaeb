"""What analysis finds: frozen dataclasses, consumed by mapping and the reports."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Mapping

from .. import ir


@dataclass(frozen=True)
class LoopStats:
    """Measured behaviour of one loop: average trips per entry."""

    trips: float
    entries: float = 1.0


@dataclass(frozen=True)
class BranchStats:
    """Measured behaviour of one IF arm: fraction of evaluations that took it."""

    taken: float
    evaluations: float = 1.0


@dataclass(frozen=True)
class ProfileData:
    """Frequencies measured by ``autodist profile`` (keys are ``file:line``)."""

    loops: Mapping[str, LoopStats] = field(default_factory=dict)
    branches: Mapping[str, BranchStats] = field(default_factory=dict)
    phase_times: Mapping[str, float] = field(default_factory=dict)  # "UNIT:id" -> seconds per execution
    source: str = ""

    def __hash__(self) -> int:  # used as part of cache keys
        return hash((self.source, len(self.loops), len(self.branches), len(self.phase_times)))


@dataclass(frozen=True)
class AnalysisOptions:
    """Assumptions where the program does not say: trip counts and branch odds."""

    default_trip_count: int = 100
    branch_probability: float = 0.5
    profile: ProfileData | None = None
    #: values of variables the user states (``--trip-count NAME=N``):
    #: ``(("NITER", 60), ("GRID_POINTS(1)", 12))``
    trip_values: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class KnownValue:
    """An integer variable whose value is known or assumed when loops run
    (:mod:`autodist.analysis.knownvalues`).

    ``how``: "fixed" (every definition gives ``value``: substituted in the
    program), "stated" (``--trip-count NAME=N``, or computed from such values)
    or "default" (every definition gives ``value`` except READs: assumed, not
    known).  ``name`` is as the first of ``units`` names it; ``set_at`` and
    ``read_at`` are the ``file:line`` of its assignments and DATA, and of its
    READs.
    """

    name: str
    value: int
    how: str
    units: tuple[str, ...]
    set_at: tuple[str, ...] = ()
    read_at: tuple[str, ...] = ()


@dataclass(frozen=True)
class TripAssumption:
    """A DO loop whose trip count is not known: ``trips`` were assumed.

    ``source``: "default" (from the program's default values of ``names``) or
    "assumed" (``default_trip_count``); ``names`` are the variables its bounds
    use (what ``--trip-count NAME=N`` can state); ``note`` says where the
    value comes from.
    """

    procedure: str
    file: str
    line: int
    var: str
    bounds: str
    trips: float
    source: str
    names: tuple[str, ...] = ()
    note: str = ""

    @property
    def text(self) -> str:
        return f"DO {self.var} = {self.bounds}"


@dataclass(frozen=True)
class Access:
    """One array element reference.

    ``subscripts`` are affine forms (None where a subscript is not affine: an
    indirection ``A(IDX(I))``, a product of variables); ``loops`` are the
    variables of the enclosing DO loops of the unit, outermost first.
    ``implied`` are the implied DO loops around a reference in an I/O list
    (``(V(K, J), K = 2, 9)``), outermost first: their variable, first and
    last value (affine in the loop variables and the outer implied ones; None
    when not affine) and constant step (None when not constant).
    """

    array: str
    subscripts: tuple[ir.Affine | None, ...]
    write: bool
    line: int
    loops: tuple[str, ...]
    implied: tuple[tuple[str, ir.Affine | None, ir.Affine | None, int | None], ...] = ()

    @property
    def text(self) -> str:
        subs = ",".join("?" if s is None else str(s) for s in self.subscripts)
        return f"{self.array}({subs})"


@dataclass(frozen=True)
class RefPattern:
    """A DDT reference pattern ``A(...) = ... B(...) ...`` from one assignment.

    ``rhs`` holds the array reads of the right-hand side and of the conditions
    that control the assignment.  An output statement (PRINT, WRITE) is a
    pattern too, with ``output`` set, no left-hand side and its items' array
    reads as ``rhs``: every processor needs what it writes out (the runtime
    runs a loop with I/O on whole arrays).  ``count`` is how many times the assignment
    runs in one execution of its phase, ``flops`` its floating-point operations
    per run and ``accesses`` its array element loads and stores per run.
    """

    lhs: Access | None  # None for an assignment to a scalar
    lhs_scalar: str | None
    rhs: tuple[Access, ...]
    line: int
    loops: tuple[str, ...]
    count: float
    flops: int
    accesses: int
    loop_lines: tuple[int, ...] = ()  # lines of the enclosing DO loops of the phase, outermost first
    conditional: bool = False  # under an IF inside the phase
    reduction: str | None = None  # "+", "*", "max", "min" when the statement is a reduction update
    output: bool = False  # a PRINT or WRITE: ``rhs`` are the array elements it writes out
    #: latency units of the chain of dependent operations the innermost loop
    #: carries from one iteration to the next (see :mod:`.recurrence`), per run;
    #: a loop's longest chain, held by its first statement on it (0 for the others)
    chain: int = 0


@dataclass(frozen=True)
class Dependence:
    """Why a loop is not parallel: one carried dependence (or an obstacle)."""

    kind: str  # flow | anti | output | scalar | call | io | opaque | exit | unknown
    name: str  # array or scalar (or callee)
    source_line: int
    sink_line: int
    distance: int | None
    text: str


@dataclass(frozen=True)
class LoopInfo:
    """One DO loop inside a phase (or inside a procedure, for statistics)."""

    var: str
    line: int
    last_line: int
    depth: int
    parent: int | None  # line of the enclosing DO in the same phase
    bounds: str  # "1, N" as written (folded)
    trip_count: float | None  # average trips per entry; None when unknown
    trip_known: bool  # False: default_trip_count (or profile) was assumed
    iterations: float  # body executions per execution of the phase
    parallel: bool
    reason: str
    private: tuple[str, ...] = ()
    reductions: tuple[tuple[str, str], ...] = ()  # (name, op)
    dependences: tuple[Dependence, ...] = ()
    step: int | None = 1
    private_arrays: tuple[str, ...] = ()  # work arrays each iteration writes before reading
    do: ir.Do | None = field(default=None, compare=False, hash=False, repr=False)
    #: parallel loops: the dependence tests that proved the reference pairs
    #: independent (names from analysis.dependence.TESTS, in its order)
    independent_by: tuple[str, ...] = ()
    #: where the trip count comes from: "program" (its bounds), "stated"
    #: (--trip-count NAME=N), "measured" (a profile), "default" (the program's
    #: default values, see TripAssumption) or "assumed" (default_trip_count)
    trip_source: str = "program"
    trip_names: tuple[str, ...] = ()  # the variables the bounds use, when not known
    trip_note: str = ""  # e.g. "GRID_POINTS(1)=12" substituted, or where an assumed value comes from
    #: parallel loops: why each private array is private (written before read in
    #: each iteration, by which calls; dead after the loop)
    private_reasons: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class InnerCall:
    """A procedure called inside a loop phase: a CALL statement or an external
    function reference, ``count`` times per execution of the phase."""

    callee: str
    line: int
    args: tuple[ir.Expr, ...]
    count: float


@dataclass(frozen=True)
class Phase:
    """A computational phase (DDT §2): the outermost loop of a nest whose control
    variable subscripts an array, or a CALL outside such a loop."""

    unit: str
    id: int
    kind: str  # "loop" | "call" | "function" (a statement calling the program's functions)
    span: ir.Span
    loops: tuple[LoopInfo, ...]
    patterns: tuple[RefPattern, ...]
    accesses: tuple[Access, ...]
    reads: tuple[str, ...]
    writes: tuple[str, ...]
    flops: float  # per execution of the phase
    memory_accesses: float  # per execution
    callee: str | None = None
    call_args: tuple[ir.Expr, ...] = ()
    calls: tuple[str, ...] = ()  # procedures called inside a loop phase
    inner_calls: tuple[InnerCall, ...] = ()  # and each call, with its count
    opaque: tuple[str, ...] = ()  # reasons for opaque statements inside

    @property
    def private_arrays(self) -> tuple[str, ...]:
        """Arrays private to some loop of the phase (local work copies)."""
        return tuple(dict.fromkeys(a for lp in self.loops for a in lp.private_arrays))

    @property
    def key(self) -> str:
        return f"{self.unit}:{self.id}"

    @property
    def arrays(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.reads + self.writes))

    def loop(self, line: int) -> LoopInfo | None:
        for lp in self.loops:
            if lp.line == line:
                return lp
        return None


@dataclass(frozen=True)
class Transition:
    """Control passes from phase ``source`` to phase ``target`` ``count`` times
    per execution of the procedure (0 stands for the procedure's entry/exit)."""

    source: int
    target: int
    count: float


@dataclass(frozen=True)
class PhaseFlow:
    """Control flow between the phases of one procedure, with frequencies.

    ``executions[id]`` is how often phase ``id`` runs per call of the procedure;
    ``transitions`` are between consecutive phases; ``array_transitions[a]``
    between consecutive phases that *use* array ``a`` (phases that do not use
    it are passed through).  Source 0 is the entry, target 0 the exit.
    """

    executions: tuple[tuple[int, float], ...]
    transitions: tuple[Transition, ...]
    array_transitions: tuple[tuple[str, tuple[Transition, ...]], ...]
    assumptions: tuple[str, ...] = ()  # e.g. "trip count of DO K (line 12) assumed 100"

    @cached_property
    def _exec(self) -> dict[int, float]:
        return dict(self.executions)

    def execution(self, phase_id: int) -> float:
        return self._exec.get(phase_id, 0.0)


Slot = ir.Slot


@dataclass(frozen=True)
class Effects:
    """What a procedure may do that matters to its callers (transitively).

    ``reads_args``/``writes_args``: positions of dummy arguments read/written;
    ``reads_common``/``writes_common_slots``: COMMON arrays read/written (by
    block and position, whether or not the caller declares the block; the
    whole block for one declared differently somewhere).
    """

    writes_args: frozenset[int]
    writes_common: bool
    io: bool
    stops: bool
    reads_args: frozenset[int] = frozenset()
    reads_common: frozenset[Slot] = frozenset()
    writes_common_slots: frozenset[Slot] = frozenset()

    @property
    def pure(self) -> bool:
        return not (self.writes_args or self.writes_common or self.io or self.stops)


@dataclass(frozen=True)
class ProcedureAnalysis:
    name: str
    kind: str
    span: ir.Span
    phases: tuple[Phase, ...]
    flow: PhaseFlow
    opaque: tuple[tuple[ir.Span, str], ...]  # (where, reason) of unmodelled constructs
    calls: tuple[tuple[str, int], ...]  # (callee, line) of every call site
    effects: Effects  # what a call of the procedure may read and modify
    invocations: float = 1.0  # calls of this procedure per run of the program
    #: the DO loops (in phases and around them) whose trip counts are not known
    trip_assumptions: tuple[TripAssumption, ...] = ()

    def executions(self, phase_id: int) -> float:
        """Executions of a phase per run of the program."""
        return self.flow.execution(phase_id) * self.invocations

    def phase(self, phase_id: int) -> Phase:
        return self.phases[phase_id - 1]


@dataclass(frozen=True)
class ProgramAnalysis:
    program: ir.Program
    procedures: tuple[ProcedureAnalysis, ...]
    call_graph: tuple[tuple[str, str], ...]
    bottom_up: tuple[str, ...]  # callees before callers
    options: AnalysisOptions
    #: integer variables the program fixes, states or defaults (knownvalues)
    values: tuple[KnownValue, ...] = ()

    @property
    def trip_assumptions(self) -> tuple[TripAssumption, ...]:
        return tuple(t for p in self.procedures for t in p.trip_assumptions)

    @cached_property
    def _by_name(self) -> dict[str, ProcedureAnalysis]:
        return {p.name: p for p in self.procedures}

    def procedure(self, name: str) -> ProcedureAnalysis:
        return self._by_name[name]
