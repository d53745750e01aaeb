"""MPI cases of storage association (run by mpi_harness.py at 1, 2, 3 and 4
ranks): COMMON blocks declared with other members in other units,
EQUIVALENCE of local variables and extending COMMON blocks, DATA and BLOCK
DATA on associated members; each program of tests/programs/storage must
give what the gfortran-compiled program gives, its storage-associated arrays
replicated and its other arrays under their directives."""

from __future__ import annotations

from pathlib import Path

from tests.runtime.programs import check_against_gfortran, run_text

PROGRAMS = Path(__file__).resolve().parents[1] / "programs" / "storage"


def _text(comm, name: str) -> str:
    return (PROGRAMS / name).read_text() if comm.Get_rank() == 0 else ""


def mpi_case_common_with_other_members_in_other_units(comm):
    check_against_gfortran(comm, _text(comm, "common_views.f"))


def mpi_case_equivalence_of_locals(comm):
    check_against_gfortran(comm, _text(comm, "equiv_local.f"))


def mpi_case_equivalence_extending_common_next_to_a_distributed_array(comm):
    check_against_gfortran(comm, _text(comm, "equiv_common.f"))


def mpi_case_block_data_on_a_common_of_another_shape(comm):
    check_against_gfortran(comm, _text(comm, "blockdata.f"))


def mpi_case_associated_arrays_are_replicated_the_others_keep_their_mapping(comm):
    _, _, _, ex = run_text(comm, _text(comm, "equiv_common.f"))
    arrays = ex.arrays()
    for name in ("EQCOM.P", "EQCOM.Q", "EQCOM.KK", "EQCOM.FLAGS", "USE.R"):
        assert arrays[name].fixed and arrays[name].everywhere, name
        assert name in ex.kept_replicated, name
    if comm.Get_size() > 1:
        assert not arrays["EQCOM.U"].everywhere and not arrays["EQCOM.U"].fixed
    assert "EQCOM.U" not in ex.kept_replicated
