"""Fortran output formatting as gfortran writes it.

* :func:`list_directed` — one record of ``PRINT *`` / ``WRITE (*,*)``:
  a blank in column 1, a blank before every item except between two
  character items, integers right-justified in 11 columns, REAL as
  ``1PG16.9E2``, DOUBLE PRECISION as ``1PG25.17E3`` (libgfortran's choice:
  enough digits to read the value back exactly), LOGICAL as ``T``/``F``,
  complex as ``(re,im)``; records are not split.
* :func:`parse_format` and :func:`format_records` — formatted output with a
  FORMAT: ``Iw[.m]``, ``Fw.d``, ``Ew.d[Ee]``, ``Dw.d``, ``ESw.d``, ``ENw.d``,
  ``Gw.d``, ``Lw``, ``A[w]`` (of a numeric item: its bytes, as gfortran
  writes the Hollerith text legacy codes keep in INTEGER arrays), ``nX``, ``Tn``, ``TLn``, ``TRn``, ``/``, ``:``,
  ``kP``, ``S``/``SP``/``SS``, ``BN``/``BZ``, quoted strings and ``nH``
  Hollerith, repeat counts, nested groups and format reversion.

Items are ``(value, kind)`` pairs where ``kind`` is the runtime's kind code
(``i``, ``r4``, ``r8``, ``c8``, ``c16``, ``l``, ``s``; see
:mod:`autodist.runtime.fortran.intrinsics`).  Decimal conversion uses Python's
correctly rounded formatting, as glibc's ``printf`` that libgfortran calls.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from ...errors import UnsupportedError

Item = tuple[object, str]

#: (width, significant digits, exponent digits) of list-directed reals.
_LIST_REAL = {"r4": (16, 9, 2), "r8": (25, 17, 3)}


# --------------------------------------------------------------------------- numbers


def _digits(x: float, sig: int) -> tuple[str, int]:
    """``x`` (finite, non-zero) rounded to ``sig`` significant digits:
    the digit string and the decimal exponent ``e`` with ``x ~ 0.d1d2... * 10**e``."""
    s = f"{abs(x):.{sig - 1}e}"
    mant, exp = s.split("e")
    return mant.replace(".", ""), int(exp) + 1


def _special(x: float, width: int) -> str | None:
    if x != x:
        return "NaN".rjust(width)
    if x in (math.inf, -math.inf):
        text = ("-" if x < 0 else "") + ("Infinity" if width >= 8 + (x < 0) else "Inf")
        return text.rjust(width) if len(text) <= width else "*" * width
    return None


def _exp_field(e: int, edigits: int | None) -> str | None:
    """``E+nn`` (or ``+nnn`` without the letter when 3 digits do not fit)."""
    sign = "-" if e < 0 else "+"
    mag = abs(e)
    if edigits is None:
        if mag <= 99:
            return f"E{sign}{mag:02d}"
        if mag <= 999:
            return f"{sign}{mag:03d}"
        return None
    if mag >= 10 ** edigits:
        return None
    return f"E{sign}{mag:0{edigits}d}"


def e_edit(x: float, w: int, d: int, e: int | None = None, scale: int = 0, letter: str = "E",
           plus: bool = False) -> str:
    """``Ew.d[Ee]`` with scale factor ``kP`` (``D`` editing: ``letter="D"``)."""
    sp = _special(x, w)
    if sp is not None:
        return sp
    neg = x < 0 or (x == 0 and math.copysign(1.0, x) < 0)
    if scale > 0:
        sig = d + 1
    else:
        sig = d + scale
    if x == 0:
        digits, exp = "0" * max(sig, 1), 0 if scale <= 0 else scale
        exp_val = 0
    else:
        digits, exp = _digits(x, max(sig, 1))
        exp_val = exp - scale
    if scale <= 0:
        mant = "0." + "0" * (-scale) + digits[: max(sig, 0)]
        if sig <= 0:
            mant = "0." + "0" * d
    else:
        mant = digits[:scale] + "." + digits[scale: scale + d - scale + 1]
    if x == 0:
        exp_val = 0
    ef = _exp_field(exp_val, e)
    if ef is None:
        return "*" * w
    if letter != "E":
        ef = ef.replace("E", letter)
    body = mant + ef
    sign = "-" if neg else ("+" if plus else "")
    text = sign + body
    if len(text) > w:
        if mant.startswith("0.") and len(text) - 1 == w:
            text = sign + body[1:]
        else:
            return "*" * w
    return text.rjust(w)


def f_edit(x: float, w: int, d: int, scale: int = 0, plus: bool = False) -> str:
    """``Fw.d`` (with scale factor: the value times ``10**k``)."""
    sp = _special(x, w)
    if sp is not None:
        return sp
    v = x * 10 ** scale if scale else x
    s = f"{abs(v):.{d}f}"
    neg = math.copysign(1.0, v) < 0  # gfortran keeps the sign of -0.0 and of what rounds to zero
    if s.startswith("0.") and w > 0:
        # the leading zero is optional: dropped when it does not fit
        if len(s) + neg + (plus and not neg) > w:
            s = s[1:]
    if d == 0 and "." not in s:
        s += "."
    text = ("-" if neg else ("+" if plus else "")) + s
    if len(text) > w:
        return "*" * w
    return text.rjust(w)


def g_list(x: float, k: str, in_complex: bool = False) -> str:
    """A real in list-directed output (``1PGw.dEe`` as libgfortran writes it); a part
    of a complex value written in E form gets one digit more, as libgfortran's does."""
    w, sig, edig = _LIST_REAL[k]
    sp = _special(x, w)
    if sp is not None:
        return sp
    if x == 0:
        s = ("-" if math.copysign(1.0, x) < 0 else "") + "0." + "0" * (sig - 1)
        return s.rjust(w - edig - 2) + " " * (edig + 2)
    digits, n = _digits(x, sig)
    if 0 <= n <= sig:
        dec = sig - n
        s = f"{abs(x):.{dec}f}"
        if dec == 0:
            s += "."
        # rounding may carry into one more digit than planned: F has room
        s = ("-" if x < 0 else "") + s
        return s.rjust(w - edig - 2) + " " * (edig + 2)
    if in_complex:
        digits, n = _digits(x, sig + 1)
    mant = digits[0] + "." + digits[1:]
    exp = n - 1
    s = ("-" if x < 0 else "") + mant + f"E{'-' if exp < 0 else '+'}{abs(exp):0{edig}d}"
    return s.rjust(w)


def g_edit(x: float, w: int, d: int, e: int | None, scale: int, plus: bool) -> str:
    """``Gw.d[Ee]``: F editing for moderate magnitudes, else E editing."""
    sp = _special(x, w)
    if sp is not None:
        return sp
    n = 0 if x == 0 else _digits(x, d)[1]
    if x == 0 or 0 <= n <= d:
        blanks = (e or 2) + 2
        return f_edit(x, w - blanks, max(d - n, 0) if x != 0 else d - 1, 0, plus) + " " * blanks
    return e_edit(x, w, d, e, scale, "E", plus)


# --------------------------------------------------------------------------- list-directed


#: List-directed width of an INTEGER by kind code: the longest value of its size.
_LIST_INT = {"i1": 4, "i2": 6, "i": 11, "i8": 20}


#: The storage of a numeric or LOGICAL value of each kind, for A editing.
_STORED = {"i1": np.int8, "i2": np.int16, "i": np.int32, "i8": np.int64, "r4": np.float32, "r8": np.float64,
           "c8": np.complex64, "c16": np.complex128, "l": np.int32}


def _stored_text(value: object, k: str) -> str:
    """A numeric item under A editing: its bytes as characters, as gfortran writes
    them (legacy codes keep Hollerith text in INTEGER and REAL variables)."""
    if k not in _STORED:
        raise UnsupportedError(f"A editing of a {k} value")
    return np.array(value, _STORED[k]).tobytes().decode("latin-1")


def _item_text(value: object, k: str) -> str:
    if k in _LIST_INT:
        return f"{int(value):>{_LIST_INT[k]}d}"
    if k in ("r4", "r8"):
        return g_list(float(value), k)
    if k == "l":
        return "T" if value else "F"
    if k in ("c8", "c16"):
        rk = "r4" if k == "c8" else "r8"
        z = complex(value)  # type: ignore[arg-type]
        w = _LIST_REAL[rk][0]
        text = f"({g_list(z.real, rk, True).strip()},{g_list(z.imag, rk, True).strip()})"
        return text.rjust(2 * w + 3)
    if k == "s":
        return str(value)
    raise UnsupportedError(f"cannot write a value of kind {k!r}")


def list_directed(items: list[Item]) -> str:
    """One list-directed output record (without the newline): empty for an empty list."""
    if not items:
        return ""
    out = [" "]
    prev = None
    for value, k in items:
        if prev is not None and not (prev == "s" and k == "s"):
            out.append(" ")
        out.append(_item_text(value, k))
        prev = k
    return "".join(out)


# --------------------------------------------------------------------------- FORMAT


@dataclass(frozen=True)
class Edit:
    """One edit descriptor: ``code`` (``I``, ``F``, ``E``, ``X``, ``'``, ...),
    its numbers and, for strings, the text."""

    code: str
    w: int | None = None
    d: int | None = None
    e: int | None = None
    text: str = ""


@dataclass(frozen=True)
class Group:
    """A parenthesized list with a repeat count."""

    items: tuple
    repeat: int = 1


_DATA = set("IFEDGLAB") | {"ES", "EN"}
_TOKEN = re.compile(
    r"\s*(?:(?P<str>'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\")"
    r"|(?P<num>[+-]?\d+)"
    r"|(?P<word>ES|EN|TL|TR|BN|BZ|SP|SS|[A-Z])"
    r"|(?P<sym>[(),/:.*$]))",
    re.IGNORECASE,
)


def _tokens(text: str) -> list[tuple[str, str]]:
    out = []
    pos = 0
    while pos < len(text):
        if text[pos].isspace():
            pos += 1
            continue
        # Hollerith: nH followed by n characters
        mh = re.match(r"(\d+)[Hh]", text[pos:])
        if mh and (not out or out[-1][1] in ("(", ",", "/", ":")):
            n = int(mh.group(1))
            start = pos + mh.end()
            out.append(("str", text[start:start + n]))
            pos = start + n
            continue
        m = _TOKEN.match(text, pos)
        if not m:
            raise UnsupportedError(f"cannot read the format {text!r} at {text[pos:]!r}")
        for kind in ("str", "num", "word", "sym"):
            if m.group(kind) is not None:
                tok = m.group(kind)
                if kind == "str":
                    q = tok[0]
                    tok = tok[1:-1].replace(q + q, q)
                out.append((kind, tok.upper() if kind == "word" else tok))
                break
        pos = m.end()
    return out


def parse_format(text: str) -> Group:
    """A FORMAT specification (with its outer parentheses) as a :class:`Group`."""
    toks = _tokens(text.strip())
    pos = 0

    def num() -> int | None:
        nonlocal pos
        if pos < len(toks) and toks[pos][0] == "num":
            pos += 1
            return int(toks[pos - 1][1])
        return None

    def group() -> tuple:
        nonlocal pos
        items: list = []
        while pos < len(toks):
            kind, tok = toks[pos]
            if kind == "str":
                items.append(Edit("'", text=tok))
                pos += 1
                continue
            if tok == ")":
                pos += 1
                return tuple(items)
            if tok == ",":
                pos += 1
                continue
            if tok in ("/", ":"):
                items.append(Edit(tok))
                pos += 1
                continue
            rep = num()
            if pos < len(toks) and toks[pos][1] == "(":
                pos += 1
                items.append(Group(group(), rep or 1))
                continue
            if pos >= len(toks):
                raise UnsupportedError(f"format {text!r} ends early")
            kind, tok = toks[pos]
            pos += 1
            if tok == "/":
                items.extend([Edit("/")] * (rep or 1))
                continue
            if tok == "P":
                items.append(Edit("P", w=rep if rep is not None else 0))
                continue
            if tok == "X":
                items.append(Edit("X", w=rep if rep is not None else 1))
                continue
            if tok in ("T", "TL", "TR"):
                items.append(Edit(tok, w=num()))
                continue
            if tok in ("S", "SP", "SS", "BN", "BZ"):
                items.append(Edit(tok))
                continue
            if tok in _DATA:
                w = num()
                d = e = None
                if pos < len(toks) and toks[pos][1] == ".":
                    pos += 1
                    d = num()
                if pos < len(toks) and toks[pos][1] == "E" and tok in ("E", "ES", "EN", "G", "D"):
                    pos += 1
                    e = num()
                items.extend([Edit(tok, w, d, e)] * (rep or 1))
                continue
            raise UnsupportedError(f"edit descriptor {tok!r} in format {text!r} is outside the runtime's subset")
        raise UnsupportedError(f"format {text!r} is missing a closing parenthesis")

    if not toks or toks[0][1] != "(":
        raise UnsupportedError(f"a format must start with '(': {text!r}")
    pos = 1
    return Group(group())


class _Writer:
    def __init__(self, items: list[Item]):
        self.items = list(items)
        self.next = 0
        self.records: list[str] = []
        self.line: list[str] = []
        self.col = 0
        self.scale = 0
        self.plus = False

    def put(self, text: str) -> None:
        # positions may move left with T/TL: overwrite
        line = "".join(self.line)
        if self.col > len(line):
            line += " " * (self.col - len(line))
        line = line[: self.col] + text + line[self.col + len(text):]
        self.line = [line]
        self.col += len(text)

    def newline(self) -> None:
        self.records.append("".join(self.line))
        self.line = []
        self.col = 0

    def more(self) -> bool:
        return self.next < len(self.items)

    def edit(self, ed: Edit) -> None:
        c = ed.code
        if c == "'":
            self.put(ed.text)
        elif c == "/":
            self.newline()
        elif c == "X":
            self.col += ed.w or 1
        elif c == "T":
            self.col = max((ed.w or 1) - 1, 0)
        elif c == "TL":
            self.col = max(self.col - (ed.w or 1), 0)
        elif c == "TR":
            self.col += ed.w or 1
        elif c == "P":
            self.scale = ed.w or 0
        elif c in ("S", "SS"):
            self.plus = False
        elif c == "SP":
            self.plus = True
        elif c in ("BN", "BZ", ":"):
            pass
        else:
            value, k = self.items[self.next]
            self.next += 1
            self.put(self.data(ed, value, k))

    def data(self, ed: Edit, value: object, k: str) -> str:
        c, w, d, e = ed.code, ed.w, ed.d, ed.e
        if c == "A":
            s = str(value) if k == "s" else _stored_text(value, k)
            if w is None:
                return s
            return s[:w] if len(s) >= w else s.rjust(w)
        if c == "L":
            return ("T" if value else "F").rjust(w or 2)
        if c == "I":
            if k not in _LIST_INT:
                raise UnsupportedError(f"I editing of a {k} value")
            v = int(value)  # type: ignore[arg-type]
            digits = str(abs(v))
            if d is not None:
                digits = digits.rjust(d, "0")
                if d == 0 and v == 0:
                    digits = ""
            text = ("-" if v < 0 else ("+" if self.plus else "")) + digits
            w = w if w is not None else 12
            return "*" * w if len(text) > w else text.rjust(w)
        x = float(value)  # type: ignore[arg-type]
        if k in _LIST_INT:
            raise UnsupportedError(f"{c} editing of an integer value")
        if w is None:
            w, d, e = {"r4": (15, 7, 2), "r8": (25, 16, 3)}.get(k, (15, 7, 2))
        if d is None:
            d = 0
        if c == "F":
            return f_edit(x, w, d, self.scale, self.plus)
        if c in ("E", "D"):
            return e_edit(x, w, d, e, self.scale, c, self.plus)
        if c == "ES":
            return e_edit(x, w, d, e, 1, "E", self.plus)
        if c == "EN":
            return _en_edit(x, w, d, e, self.plus)
        if c == "G":
            return g_edit(x, w, d, e, self.scale, self.plus)
        raise UnsupportedError(f"edit descriptor {c} is outside the runtime's subset")


def _en_edit(x: float, w: int, d: int, e: int | None, plus: bool) -> str:
    sp = _special(x, w)
    if sp is not None:
        return sp
    if x == 0:
        exp = 0
        mant = "0." + "0" * d
    else:
        exp = int(math.floor(math.log10(abs(x)) / 3) * 3)
        m = abs(x) / 10 ** exp
        s = f"{m:.{d}f}"
        if float(s) >= 1000:
            exp += 3
            s = f"{abs(x) / 10 ** exp:.{d}f}"
        mant = s
    ef = _exp_field(exp, e)
    if ef is None:
        return "*" * w
    text = ("-" if x < 0 else ("+" if plus else "")) + mant + ef
    return "*" * w if len(text) > w else text.rjust(w)


def _has_data(group: Group) -> bool:
    for it in group.items:
        if isinstance(it, Group):
            if _has_data(it):
                return True
        elif it.code in _DATA:
            return True
    return False


def _parts(item: Item) -> tuple[Item, ...]:
    value, k = item
    if k not in ("c8", "c16"):
        return (item,)
    z, rk = complex(value), "r4" if k == "c8" else "r8"  # type: ignore[arg-type]
    if rk == "r4":
        return ((np.float32(z.real), rk), (np.float32(z.imag), rk))
    return ((z.real, rk), (z.imag, rk))


def format_records(fmt: Group, items: list[Item]) -> list[str]:
    """The records written by a formatted WRITE (without newlines).  A complex
    value is two reals, each edited by its own descriptor."""
    items = [part for item in items for part in _parts(item)]
    wr = _Writer(items)
    if items and not _has_data(fmt):
        raise UnsupportedError("a format without data edit descriptors for a non-empty output list")

    def run(group: Group, top: bool) -> bool:
        """Process ``group``; False when output stops (items exhausted at a
        data descriptor or a colon)."""
        for _ in range(group.repeat):
            for it in group.items:
                if isinstance(it, Group):
                    if not run(it, False):
                        return False
                    continue
                if it.code in _DATA and not wr.more():
                    return False
                if it.code == ":" and not wr.more():
                    return False
                wr.edit(it)
        return True

    if not run(fmt, True):
        wr.newline()
        return wr.records
    # format reversion: restart at the last top-level group (or the start)
    while wr.more():
        wr.newline()
        last = None
        for k, it in enumerate(fmt.items):
            if isinstance(it, Group):
                last = k
        rest = Group(fmt.items[last:] if last is not None else fmt.items, 1)
        if not run(rest, True):
            break
    wr.newline()
    return wr.records


def flatten(values: np.ndarray) -> list:
    """Array elements in Fortran (column-major) order, as Python values."""
    flat = np.asarray(values).reshape(-1, order="F")
    if flat.dtype == np.float32:
        return list(flat)
    return flat.tolist()


def as_output(text: str) -> str:
    """Records of byte characters (the runtime's CHARACTER values) as the text a
    UTF-8 stream with ``errors="surrogateescape"`` writes as those same bytes."""
    if text.isascii():
        return text
    return text.encode("latin-1", "replace").decode("utf-8", "surrogateescape")
