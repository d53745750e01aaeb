"""One family of errors for everything a user can get wrong.

Every error a user can cause (bad Fortran, a missing include, recursion, a bad
machine profile, a wrong option, an HPF directive that makes no sense) is an
:class:`AutodistError`.  The CLI prints ``str(error)`` as one line on stderr and
exits with status 2; it never shows a traceback for these.

``str(error)`` is ``file:line: message`` when the location is known,
``file: message`` when only the file is, and ``message`` otherwise.
"""

from __future__ import annotations


class AutodistError(Exception):
    """A user-facing error with an optional source location."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line

    def __str__(self) -> str:
        if self.file and self.line:
            return f"{self.file}:{self.line}: {self.message}"
        if self.file:
            return f"{self.file}: {self.message}"
        return self.message


class FortranError(AutodistError):
    """Invalid Fortran, or Fortran outside what autodist can read."""


class IncludeError(FortranError):
    """An INCLUDE file that cannot be found on the search path."""


class RecursionInProgram(AutodistError):
    """A cycle in the call graph (Fortran 77 forbids recursion)."""


class HpfError(AutodistError):
    """An HPF directive that is malformed or inconsistent."""


class ProfileError(AutodistError):
    """A machine profile (YAML) that does not validate; names the key."""


class UsageError(AutodistError):
    """A wrong command-line option or argument."""


class UnsupportedError(AutodistError):
    """A construct outside the subset a stage supports (e.g. the runtime)."""


class SolverError(AutodistError):
    """No ILP solver is available, or a model could not be solved."""


class RuntimeFault(AutodistError):
    """An error while executing a program under the MPI runtime."""


#: The attribute :class:`autodist.pipeline.StageClock` sets on an internal
#: error (an exception that is not an :class:`AutodistError`) raised inside a
#: pipeline stage: the stage's name, which the CLI reports.
STAGE_ATTRIBUTE = "autodist_stage"


def stage_of(exc: BaseException) -> str | None:
    """The pipeline stage an internal error was raised in, if any."""
    return getattr(exc, STAGE_ATTRIBUTE, None)
