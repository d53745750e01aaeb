"""The sample programs: exact structure as read, and each compiles and runs with gfortran."""

from __future__ import annotations

import re
import subprocess

import pytest

from autodist import ir
from autodist.frontend import read_program
from tests.conftest import SAMPLES, requires_gfortran

from .helpers import c, loops, outline, sym

NAMES = ["adi", "jacobi", "transpose", "shallow", "tred2", "rhs"]


@pytest.fixture(scope="module")
def samples():
    return {name: read_program([SAMPLES / f"{name}.f"]) for name in NAMES}


def test_adi(samples):
    (u,) = samples["adi"].units
    assert (u.kind, u.name, u.decl_end) == ("program", "ADI", 20)
    assert [(s.name, s.value) for s in u.symbols if s.kind == "parameter"] == [("N", c(256)), ("NITER", c(10))]
    assert [(a.name, a.shape, a.type) for a in u.arrays] == [
        ("X", (256, 256), ir.DOUBLE),
        ("A", (256, 256), ir.DOUBLE),
        ("B", (256, 256), ir.DOUBLE),
    ]
    # three initialisation nests, then ITER with the six sweep phases
    assert loops(u.body) == [
        ("J", 22, [("I", 23, [])]),
        ("J", 27, [("I", 28, [])]),
        ("J", 32, [("I", 33, [])]),
        ("ITER", 36, [
            ("J", 39, [("I", 40, [])]),
            ("I", 45, []),
            ("J", 49, [("I", 50, [])]),
            ("J", 55, [("I", 56, [])]),
            ("J", 61, []),
            ("J", 65, [("I", 66, [])]),
        ]),
    ]
    row_sweep = u.body[3].body[0]
    assert outline([row_sweep]) == [
        ("Do", "J", 39, 43, 4, [("Do", "I", 40, 43, 4, [("Assign", None, 41), ("Assign", None, 42), ("Continue", 4, 43)])])
    ]
    assert (row_sweep.start, row_sweep.end) == (c(2), c(256))
    backward = u.body[3].body[2]
    assert (backward.start, backward.end, backward.step) == (c(255), c(1), c(-1))
    x_update = row_sweep.body[0].body[0]
    assert x_update.target == ir.Index("X", (ir.Name("I"), ir.Name("J")))
    refs = [r for r in ir.array_refs(x_update.value)]
    assert [(r.name, [str(ir.affine(s)) for s in r.subscripts]) for r in refs] == [
        ("X", ["I", "J"]), ("X", ["I", "J-1"]), ("A", ["I", "J"]), ("B", ["I", "J-1"])
    ]
    assert [type(s).__name__ for s in u.body[4:]] == ["Io", "Io", "Io"]


def test_jacobi(samples):
    (u,) = samples["jacobi"].units
    assert sym(u, "U").dims == (ir.Dim(c(0), c(129)), ir.Dim(c(0), c(129)))
    assert loops(u.body) == [
        ("J", 22, [("I", 23, [])]),
        ("I", 28, []),
        ("ITER", 32, [("J", 34, [("I", 35, [])]), ("J", 41, [("I", 42, [])]), ("J", 46, [("I", 47, [])])]),
        ("J", 53, [("I", 54, [])]),
    ]
    iteration = u.body[2]
    stencil, reset, residual, copy = iteration.body[:4]
    assert (stencil.term_label, residual.term_label, copy.term_label) == (30, 40, None)
    assert reset == ir.Assign(ir.Span(str(SAMPLES / "jacobi.f"), 40, 40), None, ir.Name("RESID"), c(0.0, ir.DOUBLE))
    update = stencil.body[0].body[0]
    assert update.span.first == 36 and update.span.last == 37
    reduction = residual.body[0].body[0].value
    assert isinstance(reduction, ir.FuncRef) and (reduction.name, reduction.kind) == ("MAX", "intrinsic")


def test_transpose(samples):
    (u,) = samples["transpose"].units
    assert (sym(u, "M").shape, sym(u, "M").type, sym(u, "T").type) == ((100, 100), ir.REAL, ir.REAL)
    swap = u.body[1]
    assert (swap.var, swap.start, swap.end, swap.term_label) == ("I", c(1), c(99), None)
    inner = swap.body[0]
    assert (inner.var, inner.start, inner.end) == ("J", ir.BinOp("+", ir.Name("I"), c(1)), c(100))
    m_ij, m_ji = ir.Index("M", (ir.Name("I"), ir.Name("J"))), ir.Index("M", (ir.Name("J"), ir.Name("I")))
    assert [(s.target, s.value) for s in inner.body] == [(ir.Name("T"), m_ij), (m_ij, m_ji), (m_ji, ir.Name("T"))]


def test_shallow(samples):
    program = samples["shallow"]
    assert [(u.kind, u.name) for u in program.units] == [
        ("program", "SHALOW"),
        ("subroutine", "INITAL"),
        ("subroutine", "CALC1"),
        ("subroutine", "CALC2"),
        ("subroutine", "CALC3Z"),
        ("subroutine", "CALC3"),
    ]
    main = program.main
    arrays = ("U", "V", "P", "UNEW", "VNEW", "PNEW", "UOLD", "VOLD", "POLD")
    assert [(b.name, b.members) for b in main.commons] == [
        ("ARRAYS", arrays),
        ("WORK", ("CU", "CV", "Z", "H", "PSI")),
        ("CONS", ("DT", "TDT", "DX", "DY", "A", "ALPHA", "EL", "PI", "TPI", "DI", "DJ", "PCF")),
    ]
    for unit in program.units:
        for name in arrays:
            s = unit.symbol(name)
            if s is not None:
                assert (s.common, s.common_index, s.shape, s.type) == ("ARRAYS", arrays.index(name), (65, 65), ir.REAL)
    calls = outline(main.body)[:2]
    assert calls == [
        ("Call", None, 33),
        ("Assign", None, 34),
    ]
    cycle = main.body[2]
    assert (cycle.var, cycle.end) == ("NCYCLE", c(12))
    assert [type(s).__name__ for s in cycle.body] == ["Call", "Call", "If", "Continue"]
    choice = cycle.body[2]
    assert [[getattr(s, "name", None) for s in b.body] for b in choice.branches] == [[None, "CALC3Z"], ["CALC3"]]
    assert choice.branches[0].cond == ir.BinOp("<=", ir.Name("NCYCLE"), c(1))
    calc1 = program.unit("CALC1")
    assert loops(calc1.body) == [("J", 135, [("I", 136, [])]), ("J", 147, []), ("I", 153, [])]
    periodic = calc1.body[-5]
    assert periodic.target == ir.Index("CU", (c(1), c(65)))
    assert periodic.value == ir.Index("CU", (c(65), c(1)))


def test_tred2(samples):
    program = samples["tred2"]
    assert [u.name for u in program.units] == ["TRIDIA", "TRED2"]
    t = program.unit("TRED2")
    assert t.args == ("NM", "N", "A", "D", "E", "Z")
    assert sym(t, "A").dims == (ir.Dim(c(1), ir.Name("NM")), ir.Dim(c(1), ir.Name("N")))
    assert all(sym(t, n).dummy for n in t.args)
    assert loops(t.body) == [
        ("J", 63, [("I", 64, [])]),
        ("II", 68, [
            ("K", 74, []),
            ("K", 80, []),
            ("J", 91, [("K", 94, []), ("K", 97, [])]),
            ("J", 104, [("K", 108, [])]),
        ]),
        ("I", 116, [("J", 119, [("K", 121, []), ("K", 123, [])]), ("J", 129, [])]),
    ]
    reduce = t.body[2]
    assert outline(reduce.body[:5]) == [
        ("Assign", None, 69),
        ("Assign", None, 70),
        ("Assign", None, 71),
        ("LogicalIf", 72, [[("Goto", None, 72)]]),
        ("Assign", None, 73),
    ]
    # triangular bounds and loops ending on assignments
    form_au = reduce.body[16]
    assert (form_au.var, form_au.term_label) == ("J", 70)
    k_low, k_high = form_au.body[2], form_au.body[4]
    assert (k_low.end, k_high.start) == (ir.Name("J"), ir.BinOp("+", ir.Name("J"), c(1)))
    assert outline(k_low.body) == [("Assign", 40, 95)]
    # a shared termination (DO 80 J / DO 80 K) and an arithmetic IF in the accumulation
    update = reduce.body[18]
    assert outline([update]) == [
        ("Do", "J", 104, 110, 80, [
            ("Assign", None, 105), ("Assign", None, 106), ("Assign", None, 107),
            ("Do", "K", 108, 110, 80, [("Assign", None, 109), ("Continue", 80, 110)]),
        ]),
    ]
    accumulate = t.body[-2]
    assert accumulate.body[1] == ir.ArithIf(ir.Span(str(SAMPLES / "tred2.f"), 118, 118), None, ir.Index("D", (ir.Name("I"),)), 110, 130, 110)
    assert accumulate.body[2].label == 110 and accumulate.body[2].term_label == 120


def test_rhs(samples):
    program = samples["rhs"]
    rhs = program.unit("RHS")
    assert sym(rhs, "U").shape == (5, 24, 24, 24)
    assert sym(rhs, "FLUX").shape == (5, 24)
    assert (sym(rhs, "U").common, sym(rhs, "FLUX").common) == ("CVAR", "WORK")
    assert loops(rhs.body) == [
        ("K", 89, [("J", 90, [("I", 91, [("M", 92, [])])])]),
        ("K", 96, [("J", 97, [("I", 98, []), ("I", 109, [("M", 110, [])])])]),
        ("K", 118, [("I", 119, [("J", 120, []), ("J", 131, [("M", 132, [])])])]),
        ("J", 140, [("I", 141, [("K", 142, []), ("K", 153, [("M", 154, [])])])]),
    ]
    first = rhs.body[0]
    assert [first.term_label, first.body[0].term_label, first.body[0].body[0].body[0].term_label] == [10, 10, 10]
    xi = rhs.body[1].body[0].body[1].body[0].body[0]
    refs = [(r.name, [str(ir.affine(s)) for s in r.subscripts]) for r in ir.array_refs(xi.value)]
    assert refs == [
        ("RSD", ["M", "I", "J", "K"]),
        ("FLUX", ["M", "I+1"]),
        ("FLUX", ["M", "I-1"]),
        ("U", ["M", "I+1", "J", "K"]),
        ("U", ["M", "I", "J", "K"]),
        ("U", ["M", "I-1", "J", "K"]),
    ]


@pytest.mark.parametrize("name", NAMES)
def test_every_sample_starts_with_a_comment_block(name):
    lines = (SAMPLES / f"{name}.f").read_text().splitlines()
    assert lines[0][:1] in "Cc*"
    assert any("exercises" in line for line in lines[:20])
    assert all(len(line) <= 72 for line in lines if line[:1] not in "Cc*!")


@requires_gfortran
@pytest.mark.gfortran
@pytest.mark.parametrize("name", NAMES)
def test_every_sample_compiles_and_runs_with_gfortran(name, tmp_path):
    exe = tmp_path / name
    build = subprocess.run(
        ["gfortran", "-std=legacy", "-O1", str(SAMPLES / f"{name}.f"), "-o", str(exe)],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert out.strip() and not re.search(r"nan|infinity", out, re.IGNORECASE), out
    numbers = {line.split("=")[0].strip(): line.split("=")[-1].split() for line in out.splitlines() if "=" in line}
    if name == "transpose":
        assert float(numbers["MAX ERROR"][0]) == 0.0
        assert float(numbers["M(1,2)"][0]) == 2001.0
    if name == "tred2":
        trace, sum_d = float(numbers["TRACE(A)"][0]), float(numbers["SUM(D)"][0])
        assert abs(trace - sum_d) < 1e-9 * trace
        assert float(numbers["ORTH ERR"][0]) < 1e-12
    if name == "jacobi":
        assert 0.0 < float(numbers["RESIDUAL"][0]) < 0.01
    if name == "shallow":
        assert numbers["CYCLES"] == ["12"]

