"""What the generated code calls besides the Fortran intrinsics: the exceptions
of a jump out of a nested loop and of STOP, and string helpers (padding,
substring assignment, blank-padded comparison)."""

from __future__ import annotations


class _Goto(Exception):
    """A jump to ``label`` leaving a nested loop (caught by the statement
    list that holds the label)."""

    def __init__(self, label: int):
        super().__init__(label)
        self.label = label


class StopProgram(Exception):
    """A STOP statement: ends the program (every rank runs it)."""

    def __init__(self, code=None):
        super().__init__(code)
        self.code = code


def _pad(s: str, n: int) -> str:
    return s[:n].ljust(n) if n else s


def _subset(s: str, lo: int, hi: int, value: str) -> str:
    n = hi - lo + 1
    return s[: lo - 1] + value[:n].ljust(n) + s[hi:]


def _streq(a: str, b: str, op: str) -> bool:
    n = max(len(a), len(b))
    a, b = a.ljust(n), b.ljust(n)
    return {"==": a == b, "/=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def _fault(message: str):
    from ...errors import RuntimeFault

    return RuntimeFault(message)


_FORMATS: dict = {}


def _fmt_of(text: str):
    """A format held in a CHARACTER variable or expression, parsed (once per text);
    what follows its closing parenthesis is ignored, as gfortran does."""
    got = _FORMATS.get(text)
    if got is None:
        from ..fortran.formats import parse_format

        spec = text.strip()
        depth = 0
        for k, ch in enumerate(spec):
            depth += (ch == "(") - (ch == ")")
            if depth == 0 and ch == ")":
                spec = spec[:k + 1]
                break
        got = _FORMATS[text] = parse_format(spec)
    return got


def _no_routine(message: str):
    raise _fault(message)


GENERATED_HELPERS = {"_Goto": _Goto, "StopProgram": StopProgram, "_pad": _pad, "_subset": _subset,
                     "_streq": _streq, "_fault": _fault, "_no_routine": _no_routine, "_fmt_of": _fmt_of}
