"""Large programs are read on several processes, with the same result and errors."""

from __future__ import annotations

import pytest

from autodist.errors import FortranError
from autodist.frontend import program as program_module
from autodist.frontend import read_program, workers
from autodist.frontend.workers import PARALLEL_LINES, workers_for


def _program(units: int, bad: int | None = None) -> str:
    out = ["      PROGRAM MAIN", "      REAL A(100)", "      COMMON /C/ A"]
    out += [f"      CALL S{k}" for k in range(units)]
    out += ["      PRINT *, A(1)", "      END"]
    for k in range(units):
        out += [f"      SUBROUTINE S{k}", "      REAL A(100), B(100, 100)", "      COMMON /C/ A",
                "      INTEGER I, J"]
        for j in range(10):
            label = 10 * (j + 1)
            out += [f"      DO {label} I = 1, 100",
                    f"         A(I) = A(I) + {k}.0 * I + {j}.0",
                    f"         B(I, {j + 1}) = A(I) * 2.0",
                    f"{label:>5} CONTINUE"]
        if k == bad:
            out.append("      A(1) = = 2")
        out.append("      END")
    return "\n".join(out) + "\n"


def _read(path, monkeypatch, processes: int):
    monkeypatch.setattr(program_module, "workers_for", lambda lines, units: processes)
    return read_program([str(path)])


def test_a_large_program_reads_the_same_on_several_processes(tmp_path, monkeypatch):
    path = tmp_path / "big.f"
    path.write_text(_program(24))
    one = _read(path, monkeypatch, 1)
    several = _read(path, monkeypatch, 3)
    assert several == one
    assert [u.name for u in several.units] == ["MAIN", *(f"S{k}" for k in range(24))]


def test_the_first_error_in_reading_order_is_reported_on_several_processes(tmp_path, monkeypatch):
    path = tmp_path / "bad.f"
    path.write_text(_program(24, bad=17))
    with pytest.raises(FortranError) as one:
        _read(path, monkeypatch, 1)
    with pytest.raises(FortranError) as several:
        _read(path, monkeypatch, 3)
    assert str(several.value) == str(one.value)
    assert "bad.f:" in str(one.value)


def test_small_programs_threads_and_mpi_jobs_read_here(monkeypatch):
    monkeypatch.setattr(workers, "_may_fork", lambda: True)
    assert workers_for(PARALLEL_LINES - 1, 40) == 1
    assert workers_for(10 * PARALLEL_LINES, 1) == 1
    assert workers_for(10 * PARALLEL_LINES, 40) >= 1
    monkeypatch.undo()
    monkeypatch.setenv("PMI_RANK", "0")
    assert workers_for(10 * PARALLEL_LINES, 40) == 1


_PARENT: list[int] = []


def _dies_on_the_fourth(k: int):
    """A worker's job that kills its process on unit 3 (a crash in C code)."""
    import os

    if os.getpid() != _PARENT[0] and k == 3:
        os._exit(9)
    return _REAL_ONE(k)


_REAL_ONE = workers._one


def test_a_worker_that_dies_leaves_the_reading_to_this_process(tmp_path, monkeypatch):
    import os

    path = tmp_path / "big.f"
    path.write_text(_program(12))
    one = _read(path, monkeypatch, 1)
    _PARENT[:] = [os.getpid()]
    monkeypatch.setattr(workers, "_one", _dies_on_the_fourth)
    assert _read(path, monkeypatch, 2) == one
