"""The dependence tests are one ordered registry of named tests; the name of
the test that proved a loop's reference pairs independent reaches the loop's
reason in the ``analyze`` report."""

from __future__ import annotations

import json

import pytest

from autodist.analysis import analyze
from autodist.analysis import dependence as dep
from autodist.cli import main
from autodist.frontend import read_text


def _line(text: str) -> str:
    label, _, rest = text.partition(" ")
    return f"{label:>5} {rest}\n" if label.isdigit() else f"      {text}\n"


def loops(body: str):
    src = ("      PROGRAM T\n      DOUBLE PRECISION A(100,100), B(1000)\n"
           + "".join(_line(t) for t in body.strip().splitlines()) + "      END\n")
    an = analyze(read_text(src, "t.f"))
    return {lp.var: lp for ph in an.procedures[0].phases for lp in ph.loops}


def test_the_registry_order():
    assert [t.name for t in dep.TESTS] == [
        "ZIV", "GCD", "strong SIV", "weak-zero SIV", "Banerjee", "Fourier-Motzkin"]
    assert [t.scope for t in dep.TESTS] == ["position"] * 5 + ["system"]


@pytest.mark.parametrize("body, var, names", [
    # A(1,I) against A(2,I): the first position holds no loop variable, the constants differ
    ("DO 1 I = 1, 10\n1 A(1,I) = A(2,I) * 2", "I", ("ZIV", "strong SIV")),
    # 2*I = 2*I' + 1 has no integer solution
    ("DO 1 I = 1, 10\n1 B(2*I) = B(2*I+1) * 2", "I", ("GCD", "strong SIV")),
    # B(20) is never written by I = 1..10
    ("DO 1 I = 1, 10\n1 B(I) = B(20) * 2", "I", ("strong SIV", "weak-zero SIV")),
    # 10*I+J and 10*I'+J+200 with J in 1..5: too far apart for any I, I' in 1..10
    ("DO 1 I = 1, 10\nDO 1 J = 1, 5\n1 B(10*I+J) = B(10*I+J+200) * 2", "I", ("Banerjee",)),
    # A(I,J) against A(J,I) over the triangle J > I: only the coupled system says no
    ("DO 1 I = 1, 10\nDO 1 J = I+1, 10\n1 A(I,J) = A(J,I) * 2", "I", ("strong SIV", "Fourier-Motzkin")),
])
def test_the_test_that_proved_independence_is_named(body, var, names):
    lp = loops(body)[var]
    assert lp.parallel
    assert lp.independent_by == names
    assert lp.reason == f"no loop-carried dependence (independent by {', '.join(names)})"


def test_a_dependent_loop_names_no_test():
    lp = loops("DO 1 I = 2, 10\n1 B(I) = B(I-1) * 2")["I"]
    assert not lp.parallel and lp.independent_by == ()
    assert "distance 1" in lp.reason


def test_a_loop_without_written_arrays_keeps_the_plain_reason():
    lp = loops("S = 0\nDO 1 I = 1, 10\n1 S = S + B(I)")["I"]
    assert lp.parallel and lp.independent_by == ()
    assert lp.reason == "no loop-carried dependence; reduction S(+)"


def test_a_test_added_to_the_registry_is_tried_in_its_place(monkeypatch):
    def everything_independent(eq):
        return dep.Outcome(False, None)

    first = dep.DependenceTest("always", "position", everything_independent, "for this test only")
    monkeypatch.setattr(dep, "TESTS", (first,) + dep.TESTS)
    lp = loops("DO 1 I = 2, 10\n1 B(I) = B(I-1) * 2")["I"]
    assert lp.parallel and lp.independent_by == ("always",)


def test_analyze_shows_the_names(tmp_path, capsys):
    src = tmp_path / "g.f"
    src.write_text("      PROGRAM G\n      DOUBLE PRECISION B(100)\n      DO 1 I = 1, 10\n"
                   "    1 B(2*I) = B(2*I+1) * 2\n      END\n")
    assert main(["analyze", str(src)]) == 0
    assert "parallel   trips 10     no loop-carried dependence (independent by GCD, strong SIV)" in \
        capsys.readouterr().out
    assert main(["analyze", str(src), "--format", "json"]) == 0
    loop = json.loads(capsys.readouterr().out)["procedures"][0]["phases"][0]["loops"][0]
    assert loop["independent_by"] == ["GCD", "strong SIV"]
    assert loop["reason"] == "no loop-carried dependence (independent by GCD, strong SIV)"
