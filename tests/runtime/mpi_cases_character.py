"""MPI cases of CHARACTER arrays (run by mpi_harness.py at 1, 2, 3 and 4
ranks): DATA, elements and their substrings, whole arrays in output,
CHARACTER*(*) and fixed-length dummy arrays, COMMON, internal files that are
elements or whole arrays, next to a distributed numeric array and under a
DISTRIBUTE directive of their own (the runtime keeps them whole on every
rank); each program of tests/programs/character must print what the
gfortran-compiled program prints and end with the same arrays."""

from __future__ import annotations

from pathlib import Path

from tests.runtime.programs import check_against_gfortran

PROGRAMS = Path(__file__).resolve().parents[1] / "programs" / "character"


def mpi_case_character_arrays(comm):
    check_against_gfortran(comm, (PROGRAMS / "arrays.f").read_text() if comm.Get_rank() == 0 else "")
