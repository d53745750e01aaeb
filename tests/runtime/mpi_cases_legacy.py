"""MPI cases of constructs real legacy programs use (issue 13; run by
mpi_harness.py at 1, 2, 3 and 4 ranks): routines passed as arguments and
called through dummies, automatic arrays, EXIT and CYCLE, EQUIVALENCE of
elements with other lower bounds, Fortran 90 array assignments (rank 2 and
more, CHARACTER arrays, array constructors), Hollerith actual arguments.
Each program of tests/programs/legacy must give what the gfortran-compiled
program gives, as written and as annotated by autodist."""

from __future__ import annotations

from pathlib import Path

from tests.runtime.programs import annotated, check_against_gfortran, hand_mapped, run_text

PROGRAMS = Path(__file__).resolve().parents[1] / "programs" / "legacy"


def _text(comm, name: str, annotate: bool = False) -> str:
    if comm.Get_rank() != 0:
        return ""
    text = (PROGRAMS / name).read_text()
    return annotated(text, "static") if annotate else text


def mpi_case_routines_passed_as_arguments(comm):
    check_against_gfortran(comm, _text(comm, "dummy_procedures.f"))


def mpi_case_routines_passed_as_arguments_annotated(comm):
    check_against_gfortran(comm, _text(comm, "dummy_procedures.f", annotate=True))


def mpi_case_automatic_arrays_with_and_without_directives(comm):
    check_against_gfortran(comm, _text(comm, "automatic_arrays.f"))


def mpi_case_automatic_arrays_annotated(comm):
    check_against_gfortran(comm, _text(comm, "automatic_arrays.f", annotate=True))


def mpi_case_exit_and_cycle(comm):
    check_against_gfortran(comm, _text(comm, "loop_exits.f"))


def mpi_case_exit_and_cycle_annotated(comm):
    check_against_gfortran(comm, _text(comm, "loop_exits.f", annotate=True))


def mpi_case_equivalence_of_elements_with_other_lower_bounds(comm):
    check_against_gfortran(comm, _text(comm, "equivalence_bounds.f"))


def mpi_case_a_format_held_in_a_variable(comm):
    check_against_gfortran(comm, _text(comm, "format_variable.f"))


def mpi_case_inner_bounds_from_a_scalar_of_the_parallel_loop(comm):
    check_against_gfortran(comm, _text(comm, "triangular_fill.f"))


def mpi_case_a_boundary_if_guarding_shifted_references(comm):
    check_against_gfortran(comm, _text(comm, "guarded_boundary.f"))


def mpi_case_a_boundary_if_guarding_shifted_references_annotated(comm):
    check_against_gfortran(comm, _text(comm, "guarded_boundary.f", annotate=True))


def mpi_case_a_common_array_written_through_a_distributed_dummy(comm):
    check_against_gfortran(comm, _text(comm, "common_window.f"))


def mpi_case_a_block_if_holding_only_a_format(comm):
    check_against_gfortran(comm, _text(comm, "format_only_block.f"))


def mpi_case_array_sections_in_io_lists(comm):
    check_against_gfortran(comm, _text(comm, "io_sections.f"))


def mpi_case_array_sections_in_io_lists_annotated(comm):
    check_against_gfortran(comm, _text(comm, "io_sections.f", annotate=True))


def mpi_case_dummies_indexed_past_their_declared_bounds(comm):
    check_against_gfortran(comm, _text(comm, "past_declared.f"))


def mpi_case_dummies_indexed_past_their_declared_bounds_annotated(comm):
    check_against_gfortran(comm, _text(comm, "past_declared.f", annotate=True))


def mpi_case_a_volatile_statement(comm):
    check_against_gfortran(comm, _text(comm, "volatile_eps.f"))


def mpi_case_strided_loops_and_implied_do_writes(comm):
    check_against_gfortran(comm, _text(comm, "strided_reads.f"))


def mpi_case_strided_loops_receive_every_step_th_element(comm):
    """A rank receives what ``phase_needs`` says, and for a strided loop
    that is every step-th element (8 of B's 40 for ``DO K = 2, N, 5``)."""
    text = _text(comm, "strided_reads.f")
    _, _, _, ex = run_text(comm, text)
    per_rank = ex.comms.stats.gather(comm, root=0)
    if comm.Get_rank() != 0:
        return
    checked = 0
    for region, predicted in ex.predicted.items():
        if ex.phase_modes[region][0] != "distributed":
            continue
        got = [d["regions"].get(region, {}).get("elements_received", 0) for d in per_rank]
        assert got == predicted, (region, got, predicted)
        checked += 1
    if comm.Get_size() > 1:
        assert checked >= 3
        strided = ex.predicted.get("STRIDE:4")
        assert strided is not None and sum(strided) <= 8 * (comm.Get_size() - 1), strided


def mpi_case_strided_loops_annotated(comm):
    check_against_gfortran(comm, _text(comm, "strided_reads.f", annotate=True))


def mpi_case_inline_loops_reading_distributed_arrays(comm):
    check_against_gfortran(comm, _text(comm, "inline_reads.f"))


def mpi_case_inline_loops_reading_distributed_arrays_annotated(comm):
    check_against_gfortran(comm, _text(comm, "inline_reads.f", annotate=True))


def mpi_case_inline_loops_receive_what_they_read(comm):
    """A loop run inline gets the elements it reads of an array it only
    reads in assignments (every second element of B, 3x3 of the 48x48 G),
    and the others whole: C, which it writes, and H, in COMMON, which the
    routine it calls may read."""
    _, _, _, ex = run_text(comm, _text(comm, "inline_reads.f"))
    per_rank = ex.comms.stats.gather(comm, root=0)
    if comm.Get_rank() != 0 or comm.Get_size() == 1:
        return
    n, p = 48, comm.Get_size()

    def received(region: str) -> list[int]:
        return [d["regions"].get(region, {}).get("elements_received", 0) for d in per_rank]

    held = [len(range(r * -(-n // p), min(n, (r + 1) * -(-n // p)))) for r in range(p)]
    evens = [sum(1 for i in range(2, n + 1, 2) if not r * -(-n // p) < i <= (r + 1) * -(-n // p)) for r in range(p)]
    # GOTO loop, 4 executions: C whole, the even elements of B
    assert received("INLRD:2") == [4 * (n - held[r] + evens[r]) for r in range(p)]
    # CALL loop: H whole, at most a 3x3 corner of G
    got = received("INLRD:3")
    assert all(n - held[r] <= got[r] <= n - held[r] + 9 for r in range(p)), got


def mpi_case_automatic_array_bounds_from_array_elements(comm):
    check_against_gfortran(comm, _text(comm, "element_bounds.f"))


def mpi_case_automatic_array_bounds_from_array_elements_annotated(comm):
    check_against_gfortran(comm, _text(comm, "element_bounds.f", annotate=True))


def mpi_case_contiguous_array_sections_passed_to_routines(comm):
    check_against_gfortran(comm, _text(comm, "section_actuals.f"))


def mpi_case_contiguous_array_sections_passed_to_routines_annotated(comm):
    check_against_gfortran(comm, _text(comm, "section_actuals.f", annotate=True))


def mpi_case_strided_array_sections_copied_in_and_out(comm):
    check_against_gfortran(comm, _text(comm, "strided_sections.f"))


def mpi_case_strided_array_sections_copied_in_and_out_annotated(comm):
    check_against_gfortran(comm, _text(comm, "strided_sections.f", annotate=True))


def mpi_case_scalars_passed_to_array_dummies(comm):
    check_against_gfortran(comm, _text(comm, "scalar_actuals.f"))


def mpi_case_scalars_passed_to_array_dummies_annotated(comm):
    check_against_gfortran(comm, _text(comm, "scalar_actuals.f", annotate=True))


def mpi_case_rank_one_array_assignments(comm):
    check_against_gfortran(comm, _text(comm, "array_assignments.f"))


def mpi_case_rank_one_array_assignments_annotated(comm):
    """As annotated: distributed, and no INDEPENDENT written before an array
    assignment (no DO stands there) nor a NEW naming a loop the front end made."""
    text = _text(comm, "array_assignments.f", annotate=True)
    if comm.Get_rank() == 0:
        lines = text.splitlines()
        marked = [lines[k + 1] for k, l in enumerate(lines) if "INDEPENDENT" in l.upper()]
        assert marked and all(l.split()[0] == "DO" for l in marked), marked
        assert "DISTRIBUTE" in text and "_S" not in text
    check_against_gfortran(comm, text)


def mpi_case_forall_statements(comm):
    check_against_gfortran(comm, _text(comm, "forall.f"))


def mpi_case_forall_statements_annotated(comm):
    check_against_gfortran(comm, _text(comm, "forall.f", annotate=True))


def mpi_case_rank_two_and_three_array_assignments(comm):
    check_against_gfortran(comm, _text(comm, "rank_two_assignments.f"))


def mpi_case_rank_two_and_three_array_assignments_annotated(comm):
    """As annotated: the collapsed loops the front end made carry no directive
    (they are sequential: their subscripts are not affine)."""
    text = _text(comm, "rank_two_assignments.f", annotate=True)
    if comm.Get_rank() == 0:
        assert "INDEPENDENT" in text and "_S" not in text
    check_against_gfortran(comm, text)


def mpi_case_rank_two_and_three_array_assignments_on_distributed_arrays(comm):
    """The collapsed loops write and read arrays distributed in both
    dimensions (BLOCK, BLOCK on a 2x2 grid) and CYCLIC(3) in the last one."""
    for mapping in ("block_block", "cyclic3"):
        text = hand_mapped(_text(comm, "rank_two_assignments.f"), mapping) if comm.Get_rank() == 0 else ""
        check_against_gfortran(comm, text)


def mpi_case_character_array_assignments(comm):
    check_against_gfortran(comm, _text(comm, "character_array_assignments.f"))


def mpi_case_character_array_assignments_annotated(comm):
    check_against_gfortran(comm, _text(comm, "character_array_assignments.f", annotate=True))


def mpi_case_array_constructors(comm):
    check_against_gfortran(comm, _text(comm, "array_constructors.f"))


def mpi_case_array_constructors_annotated(comm):
    text = _text(comm, "array_constructors.f", annotate=True)
    if comm.Get_rank() == 0:
        assert "DISTRIBUTE" in text and "_S" not in text and "_C" not in text
    check_against_gfortran(comm, text)


def mpi_case_hollerith_constants_as_actual_arguments(comm):
    check_against_gfortran(comm, _text(comm, "hollerith_actuals.f"))


def mpi_case_hollerith_constants_as_actual_arguments_annotated(comm):
    check_against_gfortran(comm, _text(comm, "hollerith_actuals.f", annotate=True))
