"""MPI cases of calls (run by mpi_harness.py at 1, 2, 3 and 4 ranks): the
Fortran 90 and GNU scalar intrinsics, gfortran's timers, clocks and random
numbers, and arguments written by FUNCTIONs and SUBROUTINEs (variables,
COMMON scalars, array elements); each program of tests/programs/calls must
print what the gfortran-compiled program prints."""

from __future__ import annotations

from pathlib import Path

from tests.runtime.programs import check_against_gfortran

PROGRAMS = Path(__file__).resolve().parents[1] / "programs" / "calls"


def _case(comm, name: str) -> None:
    check_against_gfortran(comm, (PROGRAMS / name).read_text() if comm.Get_rank() == 0 else "")


def mpi_case_scalar_intrinsics(comm):
    _case(comm, "scalar_intrinsics.f")


def mpi_case_timers_clocks_and_rand(comm):
    _case(comm, "extensions.f")


def mpi_case_arguments_by_reference(comm):
    _case(comm, "by_reference.f")


def mpi_case_storage_association_across_types(comm):
    _case(comm, "storage_association.f")


def mpi_case_a_dummy_larger_than_its_actual(comm):
    _case(comm, "larger_dummy.f")


def mpi_case_functions_changing_common_in_conditions_and_bounds(comm):
    _case(comm, "common_functions.f")
