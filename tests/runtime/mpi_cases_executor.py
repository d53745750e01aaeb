"""MPI cases of the executor (run by mpi_harness.py at 1, 2, 3 and 4 ranks).

Every sample (scaled down), annotated by autodist (static and dynamic; ADI
also for 16 processors, where the dynamic solution remaps) and with
hand-written mappings, must give the same arrays and printed values as the
gfortran-compiled program (see programs.py).  One function per case, so that
the harness reports each separately.
"""

from __future__ import annotations

from tests.runtime.programs import check_against_gfortran, variant


def _case(comm, sample: str, name: str) -> None:
    check_against_gfortran(comm, variant(sample, name) if comm.Get_rank() == 0 else "")


def mpi_case_adi_static(comm):
    _case(comm, 'adi', 'static')


def mpi_case_adi_dynamic(comm):
    _case(comm, 'adi', 'dynamic')


def mpi_case_adi_block_star(comm):
    _case(comm, 'adi', 'block_star')


def mpi_case_adi_star_block(comm):
    _case(comm, 'adi', 'star_block')


def mpi_case_adi_cyclic_star(comm):
    _case(comm, 'adi', 'cyclic_star')


def mpi_case_adi_block_block(comm):
    _case(comm, 'adi', 'block_block')


def mpi_case_adi_cyclic3(comm):
    _case(comm, 'adi', 'cyclic3')


def mpi_case_adi_remapping(comm):
    _case(comm, 'adi', 'remapping')


def mpi_case_jacobi_static(comm):
    _case(comm, 'jacobi', 'static')


def mpi_case_jacobi_dynamic(comm):
    _case(comm, 'jacobi', 'dynamic')


def mpi_case_jacobi_block_star(comm):
    _case(comm, 'jacobi', 'block_star')


def mpi_case_jacobi_star_block(comm):
    _case(comm, 'jacobi', 'star_block')


def mpi_case_jacobi_cyclic_star(comm):
    _case(comm, 'jacobi', 'cyclic_star')


def mpi_case_jacobi_block_block(comm):
    _case(comm, 'jacobi', 'block_block')


def mpi_case_jacobi_cyclic3(comm):
    _case(comm, 'jacobi', 'cyclic3')


def mpi_case_transpose_static(comm):
    _case(comm, 'transpose', 'static')


def mpi_case_transpose_dynamic(comm):
    _case(comm, 'transpose', 'dynamic')


def mpi_case_transpose_block_star(comm):
    _case(comm, 'transpose', 'block_star')


def mpi_case_transpose_star_block(comm):
    _case(comm, 'transpose', 'star_block')


def mpi_case_transpose_cyclic_star(comm):
    _case(comm, 'transpose', 'cyclic_star')


def mpi_case_transpose_block_block(comm):
    _case(comm, 'transpose', 'block_block')


def mpi_case_transpose_cyclic3(comm):
    _case(comm, 'transpose', 'cyclic3')


def mpi_case_tred2_static(comm):
    _case(comm, 'tred2', 'static')


def mpi_case_tred2_dynamic(comm):
    _case(comm, 'tred2', 'dynamic')


def mpi_case_tred2_block_star(comm):
    _case(comm, 'tred2', 'block_star')


def mpi_case_tred2_star_block(comm):
    _case(comm, 'tred2', 'star_block')


def mpi_case_tred2_cyclic_star(comm):
    _case(comm, 'tred2', 'cyclic_star')


def mpi_case_tred2_block_block(comm):
    _case(comm, 'tred2', 'block_block')


def mpi_case_tred2_cyclic3(comm):
    _case(comm, 'tred2', 'cyclic3')


def mpi_case_shallow_static(comm):
    _case(comm, 'shallow', 'static')


def mpi_case_shallow_dynamic(comm):
    _case(comm, 'shallow', 'dynamic')


def mpi_case_shallow_block_star(comm):
    _case(comm, 'shallow', 'block_star')


def mpi_case_shallow_star_block(comm):
    _case(comm, 'shallow', 'star_block')


def mpi_case_shallow_cyclic_star(comm):
    _case(comm, 'shallow', 'cyclic_star')


def mpi_case_shallow_block_block(comm):
    _case(comm, 'shallow', 'block_block')


def mpi_case_shallow_cyclic3(comm):
    _case(comm, 'shallow', 'cyclic3')


def mpi_case_rhs_static(comm):
    _case(comm, 'rhs', 'static')


def mpi_case_rhs_dynamic(comm):
    _case(comm, 'rhs', 'dynamic')


def mpi_case_rhs_block_star(comm):
    _case(comm, 'rhs', 'block_star')


def mpi_case_rhs_star_block(comm):
    _case(comm, 'rhs', 'star_block')


def mpi_case_rhs_cyclic_star(comm):
    _case(comm, 'rhs', 'cyclic_star')


def mpi_case_rhs_block_block(comm):
    _case(comm, 'rhs', 'block_block')


def mpi_case_rhs_cyclic3(comm):
    _case(comm, 'rhs', 'cyclic3')
