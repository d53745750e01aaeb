"""Program analysis: loops, references, dependences, phases, call graph, control flow.

The entry point is :func:`autodist.analysis.program.analyze`, which turns an
:class:`autodist.ir.Program` into a :class:`autodist.analysis.model.ProgramAnalysis`.
"""

from .model import (  # noqa: F401
    Access,
    AnalysisOptions,
    Dependence,
    LoopInfo,
    Phase,
    PhaseFlow,
    ProcedureAnalysis,
    ProgramAnalysis,
    RefPattern,
)
from .program import analyze  # noqa: F401
