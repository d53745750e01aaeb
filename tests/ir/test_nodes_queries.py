"""Kinds as string enums, and the common queries on statements."""

from __future__ import annotations

import json

from autodist import ir
from autodist.frontend.program import read_text

SOURCE = """\
      PROGRAM Q
      INTEGER I, J, K, N
      REAL A(10), B(10)
      N = 10
      DO 20 I = 1, N
         IF (A(I) .GT. 0.0) GOTO 10
         B(I) = A(I) + K
   10    CONTINUE
   20 CONTINUE
      GO TO (30, 40) J
   30 IF (N - 1) 40, 40, 50
   40 PRINT *, B(1)
   50 STOP
      END
"""


def unit():
    return read_text(SOURCE, "q.f").units[0]


def test_kinds_are_their_strings():
    assert ir.Op("+") is ir.Op.ADD
    assert ir.BinOp("**", ir.Name("I"), ir.Name("J")).op is ir.Op.POW
    assert ir.UnOp("not", ir.Name("L")).op is ir.UnaryOp.NOT
    assert ir.Op.NE == "/=" and f"{ir.Op.NE}" == "/=" and str(ir.IoKind.READ) == "read"
    assert repr(ir.SymbolKind.PARAMETER) == "'parameter'"
    assert {"variable": 1}[ir.SymbolKind.VARIABLE] == 1
    assert json.dumps({"k": ir.UnitKind.PROGRAM}) == '{"k": "program"}'
    u = unit()
    assert u.kind is ir.UnitKind.PROGRAM
    assert u.symbol("A").kind is ir.SymbolKind.VARIABLE
    assert [s.kind for s in u.statements() if isinstance(s, ir.Io)] == [ir.IoKind.PRINT]


def test_labels_and_jumps():
    u = unit()
    do = next(s for s in u.body if isinstance(s, ir.Do))
    assert ir.labels(do.body) == {10, 20}
    assert ir.jump_targets(do.body) == {10}
    assert ir.jump_targets(u.body) == {10, 30, 40, 50}
    gotos = [s for s in u.statements() if ir.branch_targets(s)]
    assert [ir.branch_targets(s) for s in gotos] == [(10,), (30, 40), (40, 40, 50)]


def test_names_and_mentions():
    u = unit()
    do = next(s for s in u.body if isinstance(s, ir.Do))
    assign = next(s for s in ir.walk(do.body) if isinstance(s, ir.Assign))
    assert ir.names(assign.value) == {"I", "K"}  # subscripts included
    assert ir.stmt_names(do) == {"N"}
    assert ir.mentions(assign.value, "A") and ir.mentions(assign.value, "K")
    assert not ir.mentions(assign.value, "B")
    assert ir.stmts_mention(do.body, "B") and not ir.stmts_mention(do.body, "N")
    assert [x.name for x in ir.array_refs(assign.target)] == ["B"]
    assert {x.name for x in ir.stmt_exprs(assign) if isinstance(x, ir.Index)} == {"A", "B"}


def test_map_exprs_rebuilds_only_what_changes():
    u = unit()
    ten = ir.Const(10, ir.INTEGER)
    new = ir.map_exprs(u, lambda e: ten if e == ir.Name("N") else e)
    do, new_do = (next(s for s in x.body if isinstance(s, ir.Do)) for x in (u, new))
    assert new_do.end == ten and do.end == ir.Name("N")
    assert new_do.body is do.body  # nothing to replace inside: shared
    assert not any(ir.mentions(e, "N") for s in new.statements() for e in s.exprs())
    assert ir.map_exprs(u, lambda e: e) is u
