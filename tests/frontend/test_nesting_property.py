"""Property: generated programs with labelled, shared-termination and block DO
nests, comment lines and directives anywhere between the DO statements, read
back into exactly the nesting they were generated from."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autodist import ir
from autodist.errors import FortranError
from autodist.frontend import read_text
from autodist.frontend.nesting import Item, nest


def loop(children):
    return st.fixed_dictionaries(
        {
            "block": st.booleans(),
            "share_last": st.booleans(),
            "action_end": st.booleans(),
            "directive": st.booleans(),
            "comment": st.booleans(),
            "children": children,
        }
    )


statement = st.just(None)
trees = st.recursive(
    st.lists(statement, min_size=1, max_size=2),
    lambda inner: st.lists(st.one_of(statement, loop(inner)), min_size=1, max_size=3),
    max_leaves=12,
)


class Writer:
    """Renders a generated tree as fixed-form source and says what the IR must be."""

    def __init__(self):
        self.lines: list[str] = []
        self.labels = itertools.count(10, 10)
        self.vars = itertools.count(1)

    def emit(self, text: str, label: int | None = None) -> int:
        self.lines.append(f"{label if label is not None else '':>5} {text}")
        return len(self.lines) + 1  # the program line comes first

    def body(self, nodes) -> list:
        expected = []
        for node in nodes:
            if node is None:
                self.emit("X = X + 1.0")
                expected.append(("Assign", None))
            else:
                expected.extend(self.loop(node, None))
        return expected

    def loop(self, node, shared: int | None) -> list:
        expected = []
        if node["comment"]:
            self.lines.append("C     a comment line before a DO statement")
        if node["directive"]:
            self.lines.append("CHPF$ INDEPENDENT")
            expected.append(("Directive", None))
        var = f"I{next(self.vars)}"
        block = node["block"] and shared is None
        label = None if block else (shared if shared is not None else next(self.labels))
        self.emit(f"DO {var} = 1, 2" if block else f"DO {label} {var} = 1, 2")
        children = node["children"]
        last = children[-1]
        share = not block and node["share_last"] and last is not None
        inner = self.body(children[:-1] if share else children)
        if share:
            inner.extend(self.loop(last, label))
        elif block:
            self.emit("END DO")
        elif node["action_end"]:
            self.emit("Y = Y + 1.0", label)
            inner.append(("Assign", label))
        else:
            self.emit("CONTINUE", label)
            inner.append(("Continue", label))
        expected.append(("Do", var, label, inner))
        return expected


def picture(stmts) -> list:
    out = []
    for s in stmts:
        if isinstance(s, ir.Do):
            out.append(("Do", s.var, s.term_label, picture(s.body)))
        else:
            out.append((type(s).__name__, s.label))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees)
def test_generated_nests_read_back_to_their_structure(tree):
    w = Writer()
    w.emit("X = 0.0")
    expected = [("Assign", None)] + w.body(tree)
    source = "      PROGRAM P\n" + "\n".join(w.lines) + "\n      END\n"
    (unit,) = read_text(source, "gen.f").units
    assert picture(unit.body) == expected, source


class _Tree:
    def do(self, opener, body, closer):
        return ("do", opener.line, body)

    def if_(self, arms, closer):
        return ("if", arms[0][0].line, [b for _, b in arms])

    def cont(self, item):
        return ("cont", item.line)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["do10", "do20", "do", "enddo", "if", "else", "endif", "s", "s10", "s20"]), max_size=12))
def test_nest_never_fails_other_than_with_a_located_error(roles):
    items = []
    for k, r in enumerate(roles, 1):
        if r.startswith("do"):
            items.append(Item("do", None, "f.f", k, int(r[2:]) if r[2:] else None))
        elif r.startswith("s"):
            items.append(Item("stmt", int(r[1:]) if r[1:] else None, "f.f", k, payload=("s", k)))
        else:
            items.append(Item(r, None, "f.f", k))
    try:
        tree = nest(items, _Tree())
    except FortranError as err:
        assert err.file == "f.f" and 1 <= err.line <= len(items)
        return

    def count(nodes):
        n = 0
        for x in nodes:
            if x[0] == "do":
                n += 1 + count(x[2])
            elif x[0] == "if":
                n += 1 + sum(count(b) for b in x[2])
            else:
                n += 1
        return n

    # every statement, opener and else/endif/enddo went somewhere: nothing is dropped
    closers = sum(1 for r in roles if r in ("endif", "enddo", "else"))
    assert count(tree) == len(roles) - closers
