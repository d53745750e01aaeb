"""Block structure from a flat list of statements: DO loops (labelled, shared
termination, DO ... END DO) and IF blocks.

fparser2 returns the loops of a shared-termination nest (``DO 10 J`` /
``DO 10 I`` / ``10 CONTINUE``) as siblings, so the front end flattens whatever
structure it got and rebuilds it here, by label: a labelled DO stays open until
a statement carrying its terminating label has been added to the innermost
body; that statement closes every loop of the nest that ends on that label.
A GOTO to the terminating label from inside the nest is fine (it means "next
iteration"): labels are only used to close loops here.

The algorithm is independent of what the statements are: :func:`nest` takes
:class:`Item` records (role, label, location, payload) and a :class:`Builder`
that makes the compound statements.  Mismatched structure raises a
:class:`FortranError` naming the statement that is not closed (not the END of the
unit, where fparser2 reports it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, Sequence

from ..errors import FortranError

ROLES = ("do", "if", "elseif", "else", "endif", "enddo", "stmt")


@dataclass(frozen=True)
class Item:
    """One statement for :func:`nest`.

    ``role`` is one of :data:`ROLES`; ``term`` is the terminating label of a
    labelled DO (None for DO ... END DO); ``payload`` is whatever the builder
    needs (for "stmt" items: the statement itself).
    """

    role: str
    label: int | None
    file: str
    line: int
    term: int | None = None
    payload: object = None


class Builder(Protocol):
    def do(self, opener: Item, body: list, closer: Item | None) -> object:
        """The loop opened by ``opener`` (``closer`` is its END DO, if any)."""

    def if_(self, arms: list[tuple[Item, list]], closer: Item) -> object:
        """The IF block whose arms are (IF/ELSE IF/ELSE item, body)."""

    def cont(self, item: Item) -> object:
        """A CONTINUE standing for the label of an END DO / END IF ``item``."""


@dataclass
class _Frame:
    opener: Item
    arms: list[tuple[Item, list]] = field(default_factory=list)

    @property
    def is_do(self) -> bool:
        return self.opener.role == "do"

    @property
    def body(self) -> list:
        return self.arms[-1][1]


def _error(item: Item, message: str) -> FortranError:
    return FortranError(message, item.file, item.line)


def _unclosed(frame: _Frame, context: str = "") -> FortranError:
    o = frame.opener
    if not frame.is_do:
        what = "IF block has no END IF"
    elif o.term is not None:
        what = f"DO loop has no terminating statement labelled {o.term}"
    else:
        what = "DO loop has no END DO"
    return _error(o, what + context)


def nest(items: Sequence[Item], builder: Builder) -> list:
    """The statements of ``items`` with loops and IF blocks built by ``builder``."""
    root: list = []
    stack: list[_Frame] = []

    def body() -> list:
        return stack[-1].body if stack else root

    def close_loops(label: int, at: Item) -> None:
        while stack and stack[-1].is_do and stack[-1].opener.term == label:
            frame = stack.pop()
            body().append(builder.do(frame.opener, frame.body, None))
        for frame in stack:
            if frame.is_do and frame.opener.term == label:
                raise _unclosed(
                    stack[-1], f" before the end of the DO loop at line {frame.opener.line} (label {label} at line {at.line})"
                )

    def expect_if(item: Item, word: str) -> _Frame:
        if not stack:
            raise _error(item, f"{word} without a matching IF ... THEN")
        if stack[-1].is_do:
            raise _unclosed(stack[-1], f" before the {word} at line {item.line}")
        return stack[-1]

    for item in items:
        role = item.role
        if role == "stmt":
            body().append(item.payload)
            if item.label is not None:
                close_loops(item.label, item)
        elif role == "do":
            stack.append(_Frame(item, [(item, [])]))
        elif role == "if":
            stack.append(_Frame(item, [(item, [])]))
        elif role in ("elseif", "else"):
            frame = expect_if(item, "ELSE IF" if role == "elseif" else "ELSE")
            if frame.arms[-1][0].role == "else":
                raise _error(item, f"{'ELSE IF' if role == 'elseif' else 'ELSE'} after the ELSE of the IF block at line {frame.opener.line}")
            frame.arms.append((item, []))
        elif role == "endif":
            frame = expect_if(item, "END IF")
            stack.pop()
            body().append(builder.if_(frame.arms, item))
            if item.label is not None:
                body().append(builder.cont(item))
                close_loops(item.label, item)
        elif role == "enddo":
            if not stack:
                raise _error(item, "END DO without a matching DO")
            frame = stack[-1]
            if not frame.is_do:
                raise _unclosed(frame, f" before the END DO at line {item.line}")
            term = frame.opener.term
            if term is not None and term == item.label:
                frame.body.append(builder.cont(item))
                close_loops(term, item)
            elif term is None:
                if item.label is not None:
                    frame.body.append(builder.cont(item))
                stack.pop()
                body().append(builder.do(frame.opener, frame.body, item))
            else:
                raise _error(item, f"END DO does not end the DO loop at line {frame.opener.line}, which ends at label {term}")
        else:
            raise ValueError(f"unknown role {role!r}")
    if stack:
        raise _unclosed(stack[-1])
    return root
