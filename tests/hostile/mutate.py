"""Careless and hostile changes to Fortran sources and machine profiles.

Each mutator takes a ``random.Random`` and the text (Fortran: latin-1 decoded
bytes, so any byte survives; profiles: YAML text) and returns the changed
text.  :func:`mutate_source` and :func:`mutate_profile` apply one to three of
them.  They aim at what users really do wrong — a deleted or doubled line, a
shifted column, a typo, an absurd number, a stray directive, Windows line
endings, a truncated file — and at what an attacker would try: huge sizes,
deep nesting, alias bombs, bytes that are not text.
"""

from __future__ import annotations

import random
import re

#: Characters a typo puts in: Fortran punctuation, digits, letters, blanks,
#: a TAB, a form feed, non-ASCII and control bytes.
TYPO_CHARS = " ()=,+-*/.:0123456789ABCIJKNXYZ'\"\t\f&!$;\x00\x7f\xe9\xff"

#: Numbers a user (or an attacker) puts where a size or a bound goes.
ABSURD_NUMBERS = ("0", "-1", "1", "2", "2147483647", "2147483648", "9223372036854775808", "10**30",
                  "999999999999999999999", "1E308", "1D-320", "0.0", "-0", "1000000000")

#: Whole lines inserted somewhere: statements out of place, invalid ones,
#: HPF directives good and bad.
STRAY_LINES = (
    "      GOTO 10", "      GO TO 99999", "      CALL NOWHERE(A, 1)", "      X = 1 / 0", "      I = 0 / 0",
    "      DO 10 I = 1, 10, 0", "      END", "      PROGRAM Q", "      SUBROUTINE S", "      RETURN",
    "      STOP 3", "      PRINT *, 'caf\xe9'", "      READ *, X", "     &  + 1", "\f", "",
    "      INCLUDE 'nothere.h'", "      EQUIVALENCE (A, B)", "      COMMON /C/ A", "      A(1,2,3) = 0",
    "      IMPLICIT NONE", "      DIMENSION Z(0)", "      DIMENSION Z(-5)", "      DIMENSION Z(10:1)",
    "      REAL W(2147483647, 2147483647)", "      PARAMETER (M = 2**62 * 4)", "      ENTRY E",
    "      DATA X /1.0/", "      ASSIGN 10 TO K", "      IF (X) 10, 20, 30", "   10 CONTINUE", "   10 FORMAT (I5)",
    "CHPF$ DISTRIBUTE A(BLOCK)", "CHPF$ DISTRIBUTE A(CYCLIC(0))", "CHPF$ DISTRIBUTE A(CYCLIC(-3))",
    "CHPF$ DISTRIBUTE A(BLOCK(1000000000000))", "CHPF$ PROCESSORS P(1000000000, 1000000000)",
    "CHPF$ PROCESSORS P(0)", "CHPF$ TEMPLATE T(10**30)", "CHPF$ ALIGN A(I) WITH T(I+1)",
    "CHPF$ ALIGN A(I, J) WITH A(J, I)", "CHPF$ FROBNICATE A", "CHPF$ INDEPENDENT", "CHPF$ INDEPENDENT, NEW(I)",
    "CHPF$ REDISTRIBUTE A(CYCLIC)", "CHPF$ DYNAMIC A", "!HPF$ DISTRIBUTE (BLOCK) :: A",
)

FORMATS = ("BLOCK", "CYCLIC", "CYCLIC(2)", "*", "CYCLIC(0)", "BLOCK(1)", "BLOCK(0)", "CYCLIC(99999999999)")

_NUMBER = re.compile(r"(?<![A-Za-z_\d.])\d+(\.\d*)?([EeDd][+-]?\d+)?")
_NAME = re.compile(r"\b[A-Z][A-Z0-9]{0,5}\b")


def _lines(text: str) -> list[str]:
    return text.split("\n")


def delete_line(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines)


def duplicate_line(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    k = rng.randrange(len(lines))
    lines.insert(k, lines[k])
    return "\n".join(lines)


def swap_lines(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[a], lines[b] = lines[b], lines[a]
    return "\n".join(lines)


def typo(rng: random.Random, text: str) -> str:
    if not text:
        return rng.choice(TYPO_CHARS)
    k = rng.randrange(len(text))
    return text[:k] + rng.choice(TYPO_CHARS) + text[k + rng.choice((0, 1)):]


def absurd_number(rng: random.Random, text: str) -> str:
    found = list(_NUMBER.finditer(text))
    if not found:
        return typo(rng, text)
    m = rng.choice(found)
    return text[:m.start()] + rng.choice(ABSURD_NUMBERS) + text[m.end():]


def stray_line(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    lines.insert(rng.randrange(len(lines) + 1), rng.choice(STRAY_LINES))
    return "\n".join(lines)


def stray_directive(rng: random.Random, text: str) -> str:
    """A directive about names the program really has."""
    names = sorted(set(_NAME.findall(text.upper())) - {"DO", "END", "IF", "THEN", "CALL", "REAL", "GOTO"}) or ["A"]
    a, b = rng.choice(names), rng.choice(names)
    line = rng.choice((
        f"CHPF$ DISTRIBUTE {a}({rng.choice(FORMATS)})",
        f"CHPF$ DISTRIBUTE {a}({rng.choice(FORMATS)}, {rng.choice(FORMATS)})",
        f"CHPF$ ALIGN {a}(I) WITH {b}({rng.choice(('I', '2*I', 'I+1', '-I', 'I*I', 'J'))})",
        f"CHPF$ ALIGN {a}(I, J) WITH {b}(J, I)",
        f"CHPF$ TEMPLATE {a}({rng.choice(ABSURD_NUMBERS)})",
        f"CHPF$ INDEPENDENT, NEW({a}), REDUCTION({b})",
        f"CHPF$ REDISTRIBUTE {a}({rng.choice(FORMATS)})",
        f"CHPF$ REALIGN {a}(I) WITH {b}(I)",
        f"CHPF$ DYNAMIC {a}, {b}",
    ))
    lines = _lines(text)
    lines.insert(rng.randrange(len(lines) + 1), line)
    return "\n".join(lines)


def shift_columns(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    k = rng.randrange(len(lines))
    n = rng.choice((1, 2, 5, 6, 70))
    lines[k] = lines[k][n:] if rng.random() < 0.5 else " " * n + lines[k]
    return "\n".join(lines)


def truncate(rng: random.Random, text: str) -> str:
    return text[:rng.randrange(len(text) + 1)]


def line_endings(rng: random.Random, text: str) -> str:
    choice = rng.randrange(3)
    if choice == 0:
        return text.replace("\n", "\r\n")
    if choice == 1:
        return text.replace("\n", "\r")
    return text.rstrip("\n")


SOURCE_MUTATORS = (delete_line, duplicate_line, swap_lines, typo, typo, absurd_number, absurd_number, stray_line,
                   stray_directive, stray_directive, shift_columns, truncate, line_endings)

#: Changes that mostly leave a program that still runs: what the wrong-result
#: check needs (absurd sizes and mappings, stray directives, line endings).
RUNNABLE_MUTATORS = (absurd_number, stray_directive, stray_directive, stray_directive, line_endings, duplicate_line)


def mutate_source(rng: random.Random, text: str, runnable: bool = False) -> str:
    mutators = RUNNABLE_MUTATORS if runnable else SOURCE_MUTATORS
    for _ in range(rng.choice((1, 1, 2, 3))):
        text = rng.choice(mutators)(rng, text)
    return text


# ---------------------------------------------------------------- machine profiles

PROFILE_VALUES = ("-1", "0", "1", "1e308", "-1e308", "nan", ".inf", "abc", "null", "[]", "{}", "true",
                  "1000000000000000000000000000000", "0.5", "[BLOCK, CYCLIC(0)]", "[GEN_BLOCK]", "''",
                  "\"\xe9\"", "2147483648")


def _set_value(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    keyed = [k for k, line in enumerate(lines) if re.match(r"^[a-z_]+\s*:", line)]
    if not keyed:
        return text + "\nprocessors: " + rng.choice(PROFILE_VALUES)
    k = rng.choice(keyed)
    key = lines[k].split(":", 1)[0]
    lines[k] = f"{key}: {rng.choice(PROFILE_VALUES)}"
    return "\n".join(lines)


def _unknown_key(rng: random.Random, text: str) -> str:
    return text + f"\n{rng.choice(('procesors', 'flop_tme', 'x', 'processors'))}: {rng.choice(PROFILE_VALUES)}\n"


def _alias_bomb(rng: random.Random, text: str) -> str:
    bomb = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for k in range(1, rng.choice((3, 6, 9))):
        bomb.append(f"a{k}: &a{k} [" + ", ".join([f"*a{k - 1}"] * 9) + "]")
    return text + "\n" + "\n".join(bomb) + "\n"


def _deep(rng: random.Random, text: str) -> str:
    depth = rng.choice((50, 1000, 10000))
    return text + "\nnested: " + "[" * depth + "]" * depth + "\n"


def _not_text(rng: random.Random, text: str) -> str:
    return text.encode("utf-16").decode("latin-1") if rng.random() < 0.5 else text + "\n\xff\xfe\x00bad: \x81\n"


PROFILE_MUTATORS = (_set_value, _set_value, _set_value, _unknown_key, delete_line, duplicate_line, typo, truncate,
                    _alias_bomb, _deep, _not_text)


def mutate_profile(rng: random.Random, text: str) -> str:
    for _ in range(rng.choice((1, 1, 2))):
        text = rng.choice(PROFILE_MUTATORS)(rng, text)
    return text
