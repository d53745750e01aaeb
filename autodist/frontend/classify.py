"""What a statement is, from its text alone (its blank-free, string-masked key).

Used before and around fparser2: to find program-unit headers and END lines,
deleted F77 features fparser2 cannot read, declarations, and the block
structure (DO/IF/END) when an error has to be located without a parse tree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .lexical import MASK, holleriths, matching_paren, scan, top_level
from .lines import Statement

NAME = r"[A-Z][A-Z0-9_$]*"
_TYPE = (
    r"(?:INTEGER|REAL|DOUBLEPRECISION|DOUBLECOMPLEX|COMPLEX|LOGICAL|CHARACTER|BYTE)"
    r"(?:\*(?:\d+|\(\*\)|\(\d+\))|\((?:KIND=|LEN=)?\d+\))?"
)
_PREFIX = r"(?:EXTRINSIC\([A-Z_]+\)|PURE|IMPURE|ELEMENTAL|RECURSIVE)"
_HEADER = re.compile(
    rf"(?P<pre>(?:{_PREFIX}|{_TYPE})*)(?P<kw>PROGRAM|SUBROUTINE|FUNCTION|BLOCKDATA)"
    rf"(?P<name>{NAME})?(?P<args>\(.*\))?"
)
_PREFIX_TOKEN = re.compile(_PREFIX)
_TYPE_TOKEN = re.compile(_TYPE)
_END = re.compile(rf"END(?:(?:PROGRAM|SUBROUTINE|FUNCTION|BLOCKDATA)(?:{NAME})?)?")

_DECLARATION = re.compile(
    r"(?:INTEGER|REAL|DOUBLEPRECISION|DOUBLECOMPLEX|COMPLEX|LOGICAL|CHARACTER|BYTE|IMPLICIT|DIMENSION"
    r"|COMMON|EQUIVALENCE|PARAMETER|EXTERNAL|INTRINSIC|SAVE|NAMELIST)"
)
_ASSIGN = re.compile(rf"ASSIGN\d+TO{NAME}")
_ASSIGNED_GOTO = re.compile(rf"GOTO{NAME}(?:,?\(.*\))?")
_PAUSE = re.compile(rf"PAUSE(?:\d*|'{MASK}*'|\"{MASK}*\")")
_HEX = re.compile(rf"('{MASK}*'|\"{MASK}*\")X(?![A-Z0-9_$])")
_HEX_TEXT = re.compile(r"(['\"])([0-9A-Fa-f]+)\1\s*[xX](?![A-Za-z0-9_$])")
_GOTO = re.compile(r"GOTO(\d+)")

#: Statements written with blanks inside their keyword (``S T O P``) fparser2 rejects:
#: their key -> the text fparser2 is given instead.
CANONICAL = {
    "STOP": "STOP",
    "RETURN": "RETURN",
    "CONTINUE": "CONTINUE",
    "ELSE": "ELSE",
    "ENDIF": "END IF",
    "ENDDO": "END DO",
}


@dataclass(frozen=True)
class Header:
    """A program-unit header: kind, name, HPF/F90 prefixes, and the header as
    fparser2 reads it (prefixes stripped, one line)."""

    kind: str  # "program" | "subroutine" | "function" | "blockdata"
    name: str
    prefixes: tuple[str, ...]
    text: str


_KINDS = {"PROGRAM": "program", "SUBROUTINE": "subroutine", "FUNCTION": "function", "BLOCKDATA": "blockdata"}


def header(st: Statement) -> Header | None:
    """The header of a program unit, or None when ``st`` is not one."""
    key = st.key
    if top_level(key, "="):
        return None
    m = _HEADER.fullmatch(key)
    if m is None:
        return None
    kw, name, args, pre = m.group("kw"), m.group("name"), m.group("args") or "", m.group("pre")
    prefixes: list[str] = []
    type_text = ""
    rest = pre
    while rest:
        p = _PREFIX_TOKEN.match(rest)
        if p:
            prefixes.append(p.group())
            rest = rest[p.end() :]
            continue
        t = _TYPE_TOKEN.match(rest)
        if t is None or type_text:
            return None
        type_text = t.group().replace("DOUBLEPRECISION", "DOUBLE PRECISION").replace("DOUBLECOMPLEX", "DOUBLE COMPLEX")
        rest = rest[t.end() :]
    if kw != "FUNCTION" and type_text:
        return None
    if kw in ("PROGRAM", "BLOCKDATA") and (args or prefixes):
        return None
    if kw == "FUNCTION" and not args:
        return None
    if name is None:
        if kw != "BLOCKDATA":
            return None
        name = "BLOCKDATA"
        text = "BLOCK DATA"
    else:
        words = {"BLOCKDATA": "BLOCK DATA"}.get(kw, kw)
        text = f"{type_text + ' ' if type_text else ''}{words} {name}{args}"
    return Header(_KINDS[kw], name, tuple(prefixes), text)


def is_end(st: Statement) -> bool:
    """Whether ``st`` ends a program unit (``END``, ``END SUBROUTINE X``, ...)."""
    return _END.fullmatch(st.key) is not None and not top_level(st.key, "=")


def is_module(st: Statement) -> bool:
    """``MODULE name`` or ``SUBMODULE (...) name`` (not ``MODULE PROCEDURE``)."""
    key = st.key
    if top_level(key, "="):
        return False
    return bool(re.fullmatch(rf"MODULE{NAME}", key) and not key.startswith("MODULEPROCEDURE")) or key.startswith(
        "SUBMODULE("
    )


def is_data(st: Statement) -> bool:
    return st.key.startswith("DATA") and not top_level(st.key, "=")


def is_format(st: Statement) -> bool:
    return st.key.startswith("FORMAT(") and not top_level(st.key, "=")


def is_declaration(st: Statement) -> bool:
    return _DECLARATION.match(st.key) is not None and not top_level(st.key, "=")


def action_key(key: str) -> str:
    """The action statement of a logical IF (``IF(cond)action``), else ``key`` itself."""
    if key.startswith("IF("):
        close = matching_paren(key, 2)
        if close is not None and close + 1 < len(key) and key[close + 1 :] != "THEN":
            rest = key[close + 1 :]
            if not re.fullmatch(r"\d+,\d+,\d+", rest):  # arithmetic IF
                return rest
    return key


def deleted_feature(st: Statement, fixed: bool) -> str | None:
    """Why fparser2 cannot read ``st`` (an executable statement), or None.

    Such statements are given to fparser2 as CONTINUE and become ``ir.Opaque``.
    """
    key = action_key(st.key)
    if _ASSIGN.fullmatch(key):
        return "ASSIGN statement (deleted feature)"
    if _ASSIGNED_GOTO.fullmatch(key):
        return "assigned GO TO (deleted feature)"
    if _PAUSE.fullmatch(key):
        return "PAUSE statement (deleted feature)"
    if is_data(st) or is_format(st) or is_declaration(st):
        return None
    if fixed and holleriths(st.text):
        return "Hollerith constant outside FORMAT (deleted feature)"
    if _HEX.search(st.key):
        return "hexadecimal constant 'nn'X (DEC extension)"
    return None


def data_rewrite(st: Statement, fixed: bool) -> tuple[str, tuple[str, ...]] | None:
    """A DATA statement with Holleriths or ``'nn'X`` constants, as fparser2 can read
    it (Holleriths as strings, ``Z'nn'``), with the Hollerith texts in order."""
    if not is_data(st):
        return None
    found = holleriths(st.text) if fixed else []
    if not found and not _HEX.search(st.key):
        return None
    text = st.text
    for h in reversed(found):
        text = text[: h.start] + "'" + h.chars.replace("'", "''") + "'" + text[h.end :]
    text = _HEX_TEXT.sub(lambda m: f"Z'{m.group(2)}'", text)
    return text, tuple(st.text[h.start : h.end] for h in found)


def actual_rewrite(st: Statement, fixed: bool) -> tuple[str, tuple[str, ...]] | None:
    """An executable statement whose Holleriths are all actual arguments
    (``CALL XERROR(26HABNORMAL RETURN FROM DQAG ,26,IER,LVL)``, a deleted feature
    gfortran -std=legacy accepts), as fparser2 can read it (the Holleriths as
    strings), with the Hollerith texts in order; None for any other statement."""
    if not fixed or is_data(st) or is_format(st) or is_declaration(st):
        return None
    found = holleriths(st.text)
    if not found:
        return None
    plain = st.text
    for h in found:  # a quote inside a Hollerith opens no string
        plain = plain[: h.start] + MASK * (h.end - h.start) + plain[h.end :]
    masked = scan(plain)[0]
    if not all(_is_actual(masked, h.start, h.end) for h in found):
        return None
    text = st.text
    for h in reversed(found):
        text = text[: h.start] + "'" + h.chars.replace("'", "''") + "'" + text[h.end :]
    return text, tuple(st.text[h.start : h.end] for h in found)


def _is_actual(masked: str, start: int, end: int) -> bool:
    """Whether ``masked[start:end]`` is a whole argument of a reference ``name(...)``."""
    before, after = masked[:start].rstrip(), masked[end:].lstrip()
    if not before or before[-1] not in "(," or not after or after[0] not in ",)":
        return False
    depth = 0
    for k in range(len(before) - 1, -1, -1):
        c = before[k]
        if c == ")":
            depth += 1
        elif c == "(":
            if depth == 0:
                head = before[:k].rstrip()
                return bool(head) and (head[-1].isalnum() or head[-1] in "_$")
            depth -= 1
    return False


_SPACED_POWER = re.compile(r"\*[ \t]+\*")


def power_rewrite(st: Statement, fixed: bool) -> str | None:
    """A fixed-form statement with blanks inside the power operator (``2.0D+00* * ( I - 1 )``:
    fixed form ignores blanks, and gfortran reads ``**``), with ``**``; None for any other."""
    if not fixed or "**" not in st.key or is_format(st) or not _SPACED_POWER.search(st.masked):
        return None
    if holleriths(st.text):
        return None
    masked, text = st.masked, st.text
    for m in reversed(list(_SPACED_POWER.finditer(masked))):
        text = text[: m.start()] + "**" + text[m.end():]
    return text


def canonical(st: Statement) -> str | None:
    """The text fparser2 reads for a keyword statement written with odd blanks, or None."""
    if st.key in CANONICAL:
        return CANONICAL[st.key]
    m = _GOTO.fullmatch(st.key)
    if m:
        return f"GO TO {int(m.group(1))}"
    return None


def structure(key: str) -> tuple[str, int | None]:
    """The block-structure role of a statement: ("do", term label or None), ("if", None),
    ("elseif", None), ("else", None), ("endif", None), ("enddo", None) or ("stmt", None)."""
    m = re.match(r"DO(\d+),?(.*)", key)
    if m and (m.group(2).startswith("WHILE(") or _counted(m.group(2))):
        return ("do", int(m.group(1)))
    if key == "DO" or key.startswith("DOWHILE(") or (key.startswith("DO") and _counted(key[2:])):
        return ("do", None)
    for opener, kind in (("IF(", "if"), ("ELSEIF(", "elseif")):
        if key.startswith(opener):
            close = matching_paren(key, len(opener) - 1)
            if close is not None and key[close + 1 :] == "THEN":
                return (kind, None)
    return {"ELSE": ("else", None), "ENDIF": ("endif", None), "ENDDO": ("enddo", None)}.get(key, ("stmt", None))


def _counted(control: str) -> bool:
    """``I=1,N[,S]`` (a loop control), not ``I=1.5`` (an assignment to ``DO...``)."""
    m = re.match(rf"{NAME}=", control)
    return m is not None and top_level(control[m.end() :], ",")
