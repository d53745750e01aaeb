"""From physical lines to statements, HPF directives and preprocessor lines.

Fixed form: columns 1-5 label, column 6 continuation, 7-72 text (columns 73-80
are cut: card sequence numbers); ``C``, ``c``, ``*``, ``!``, ``D`` in column 1
and blank lines are comments; a TAB in columns 1-6 starts the text (a TAB then a
non-zero digit is a continuation).  Free form: ``!`` comments, ``&``
continuations, labels as leading digits.  In both forms ``;`` separates
statements on one line.

HPF directive lines (``CHPF$``, ``*HPF$``, ``!HPF$`` in column 1 in fixed form,
``!HPF$`` anywhere before the text in free form) are collected with their
continuations joined.  Lines starting with ``#`` are preprocessor lines: kept,
not expanded.  Comment lines are dropped here: they never reach fparser2 (which
rejects comments between the DO statements of a shared-termination nest and
overflows its recursion limit on long runs of comments).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ..errors import FortranError
from .lexical import OUTSIDE, ScanState, mask, scan, split_semicolons, squeeze
from .source import FIXED, Source

FIXED_SENTINELS = ("CHPF$", "*HPF$", "!HPF$")
FREE_SENTINEL = "!HPF$"
_COMMENT_COLUMN_1 = "Cc*!Dd"


@dataclass(frozen=True)
class Statement:
    """One statement: label, code text (continuations joined, comments removed),
    the indices of its physical lines in :attr:`Source.lines`, and the lines
    fparser2 is to read for it (fixed form: columns 1-72, TABs expanded)."""

    label: int | None
    text: str
    lines: tuple[int, ...]
    code: tuple[str, ...]

    @property
    def first(self) -> int:
        return self.lines[0]

    @property
    def last(self) -> int:
        return self.lines[-1]

    @cached_property
    def masked(self) -> str:
        return mask(self.text)

    @cached_property
    def key(self) -> str:
        """Upper case, no blanks, string contents masked: what classification looks at."""
        return squeeze(self.masked)


@dataclass(frozen=True)
class DirectiveText:
    """An HPF directive: the sentinel as written, the text after it (continuations
    joined, marks removed) and the indices of its physical lines."""

    sentinel: str
    text: str
    lines: tuple[int, ...]

    @property
    def first(self) -> int:
        return self.lines[0]


@dataclass(frozen=True)
class PreprocLine:
    """A ``#`` line (``#if``, ``#define``, ...), kept as it is."""

    text: str
    line: int

    @property
    def first(self) -> int:
        return self.line


@dataclass(frozen=True)
class Scan:
    statements: tuple[Statement, ...]
    directives: tuple[DirectiveText, ...]
    preprocs: tuple[PreprocLine, ...]


@dataclass
class _Pending:
    """A statement being assembled (mutable, local to :func:`split`)."""

    label: int | None
    lines: list[int] = field(default_factory=list)
    code: list[str] = field(default_factory=list)
    pieces: list[str] = field(default_factory=list)
    state: ScanState = OUTSIDE
    is_format: bool = False


def _error(source: Source, index: int, message: str) -> FortranError:
    o = source.origins[index]
    return FortranError(message, o.file, o.line)


def _fixed_label(source: Source, index: int, label_field: str) -> int | None:
    digits = label_field.replace(" ", "")
    if not digits:
        return None
    if not digits.isdigit() or int(digits) == 0:
        raise _error(source, index, f"invalid statement label '{label_field.strip()}' in columns 1-5")
    return int(digits)


def code_line(label: int | None, text: str, fixed: bool) -> str:
    """One line of code as fparser2 reads it: ``text`` with ``label`` in columns 1-5
    (fixed form) or in front (free form)."""
    if fixed:
        return f"{label if label is not None else '':>5} {text}"
    return f"{label} {text}" if label is not None else text


def _canonical_fixed(raw: str) -> str:
    """A fixed-form code line with a TAB in columns 1-6 expanded, cut at column 72."""
    head = raw[:6]
    if "\t" in head:
        t = raw.index("\t")
        rest = raw[t + 1 :]
        if rest[:1] in tuple("123456789"):
            raw = raw[:t].ljust(5)[:5] + rest[0] + rest[1:]
        else:
            raw = raw[:t].ljust(5)[:5] + " " + rest
    return raw[:72]


class _Splitter:
    """Walks the physical lines once; a small state machine (local, not shared)."""

    def __init__(self, source: Source):
        self.source = source
        self.fixed = source.form == FIXED
        self.statements: list[Statement] = []
        self.directives: list[DirectiveText] = []
        self.preprocs: list[PreprocLine] = []
        self.pending: _Pending | None = None
        self.free_continues = False  # free form: the last code line ended with '&'
        self.directive_open = False  # the last directive may be continued

    # -- statements -----------------------------------------------------------------

    def add_text(self, text: str) -> None:
        p = self.pending
        assert p is not None
        if not p.pieces and self.fixed:
            p.is_format = squeeze(text).startswith("FORMAT(")
        code, _bang, p.state = scan(text, p.state, hollerith=p.is_format)
        p.pieces.append(text[: len(code)])

    def flush(self) -> None:
        p, self.pending = self.pending, None
        if p is None:
            return
        text = "".join(s.rstrip() if self.fixed else s for s in p.pieces).strip()
        if not text:
            if p.label is not None:
                raise _error(self.source, p.lines[0], f"statement label {p.label} without a statement")
            return
        if len(p.lines) == 1:
            parts = split_semicolons(text)
            if len(parts) > 1:
                for k, part in enumerate(parts):
                    label = p.label if k == 0 else None
                    code = code_line(label, part.strip(), self.fixed)
                    self.statements.append(Statement(label, part.strip(), tuple(p.lines), (code,)))
                return
        self.statements.append(Statement(p.label, text, tuple(p.lines), tuple(p.code)))

    def fixed_code(self, index: int, raw: str) -> None:
        line = _canonical_fixed(raw)
        cont = line[5:6]
        if cont not in ("", " ", "0"):
            if self.pending is None:
                raise _error(self.source, index, "continuation line without a statement to continue")
            if line[:5].strip():
                raise _error(self.source, index, "a continuation line cannot carry a label")
            self.pending.lines.append(index)
            self.pending.code.append(line)
            self.add_text(line[6:])
            return
        self.flush()
        self.pending = _Pending(_fixed_label(self.source, index, line[:5]))
        self.pending.lines.append(index)
        self.pending.code.append(line)
        self.add_text(line[6:])

    def free_code(self, index: int, raw: str) -> None:
        p = self.pending
        if self.free_continues and p is not None:
            body = raw.lstrip()
            body = body[1:] if body.startswith("&") else body
            p.lines.append(index)
            p.code.append(raw)
        else:
            self.flush()
            body = raw.lstrip()
            digits = len(body) - len(body.lstrip("0123456789"))
            label = None
            if 0 < digits <= 5 and body[digits : digits + 1] in (" ", "\t"):
                label = int(body[:digits])
                body = body[digits:].lstrip()
            p = self.pending = _Pending(label)
            p.lines.append(index)
            p.code.append(raw)
        masked, _bang, p.state = scan(body, p.state)
        code = body[: len(masked)].rstrip()
        self.free_continues = code.endswith("&")
        p.pieces.append(code[:-1] if self.free_continues else code)

    # -- directives ---------------------------------------------------------------

    def directive(self, index: int, raw: str) -> None:
        blank6 = ("", " ", "\t", "0")
        if self.fixed:
            sentinel, col6 = raw[:5], raw[5:6]
            is_cont = col6 not in blank6 and self.directive_open
            body = raw[6:72] if (is_cont or col6 in blank6) else raw[5:72]
            lead_amp = False
        else:
            stripped = raw.lstrip()
            sentinel, body = stripped[:5], stripped[5:]
            is_cont = self.directive_open
            lead_amp = is_cont and body.lstrip().startswith("&")
            if lead_amp:
                body = body.lstrip()[1:]
        masked, bang, _ = scan(body)
        if bang is not None:
            body = body[:bang]
        continued = not self.fixed and body.rstrip().endswith("&")
        if continued:
            body = body.rstrip()[:-1]
        if is_cont and self.directives:
            last = self.directives[-1]
            if lead_amp and last.text[-1:].strip() and body[:1].strip():
                text = last.text + body  # a word split across the lines
            else:
                text = last.text.rstrip() + " " + body.strip()
            self.directives[-1] = DirectiveText(last.sentinel, text, last.lines + (index,))
        elif body.strip() or continued:
            self.directives.append(DirectiveText(sentinel, body.lstrip(), (index,)))
        else:
            return  # an empty directive line says nothing
        self.directive_open = continued or self.fixed

    # -- driver -------------------------------------------------------------------

    def run(self) -> Scan:
        for index, raw in enumerate(self.source.lines):
            kind = self.kind(raw)
            if kind == "code":
                self.directive_open = False
                (self.fixed_code if self.fixed else self.free_code)(index, raw)
            elif kind == "directive":
                self.directive(index, raw)
            elif kind == "preproc":
                self.preprocs.append(PreprocLine(raw, index))
        self.flush()
        directives = tuple(DirectiveText(d.sentinel, d.text.strip(), d.lines) for d in self.directives)
        return Scan(tuple(self.statements), directives, tuple(self.preprocs))

    def kind(self, raw: str) -> str:
        if raw.startswith("#"):
            return "preproc"
        if self.fixed:
            if raw[:5].upper() in FIXED_SENTINELS:
                return "directive"
            if raw[:1] in _COMMENT_COLUMN_1 and raw[:1] != "":
                return "comment"
            stripped = raw[:72].strip()
            if not stripped:
                return "comment"
            if stripped.startswith("!") and raw.index("!") != 5:
                return "comment"
            return "code"
        stripped = raw.lstrip()
        if not stripped:
            return "comment"
        if stripped.startswith("!"):
            return "directive" if stripped[:5].upper() == FREE_SENTINEL else "comment"
        return "code"


def split(source: Source) -> Scan:
    """The statements, HPF directives and preprocessor lines of ``source``, in order."""
    return _Splitter(source).run()
