"""MPI cases: pipelined phases run in blocks of a parallel loop (coarse-grain
pipelining, :mod:`autodist.runtime.spmd.blocking`) give gfortran's results,
receive the same elements as run whole, an SSOR wavefront (sequential along
both loops) runs in blocks too, and a sweep whose blocks would read values
the rank before has not computed yet runs whole."""

from __future__ import annotations

from pathlib import Path

from autodist.runtime.spmd.planner import PIPELINE_BLOCKS_PER_RANK
from tests.runtime.programs import check_against_gfortran

PROGRAM = Path(__file__).resolve().parent.parent / "programs" / "pipeline" / "wavefronts.f"

#: the sweeps of wavefronts.f by line: the loop cut into blocks (None: whole)
SWEEPS = {28: "I", 33: "I", 38: "J", 44: "I", 50: None, 55: "I"}


def _text(comm) -> str:
    return PROGRAM.read_text() if comm.Get_rank() == 0 else ""


def _modes(ex) -> dict[int, tuple[str, str]]:
    by_id = {f"{unit}:{phase.id}": line for (unit, line), phase in ex.phases.items()}
    return {by_id[region]: (mode, reason) for region, (mode, reason, _) in ex.phase_modes.items() if region in by_id}


def _received(ex) -> dict[str, int]:
    return {name: reg.elements_received for name, reg in ex.comms.stats.regions.items()}


def mpi_case_pipelined_sweeps_run_in_blocks_as_gfortran(comm):
    ex = check_against_gfortran(comm, _text(comm))
    if comm.Get_rank() != 0 or comm.Get_size() == 1:
        return
    modes = _modes(ex)
    blocks = PIPELINE_BLOCKS_PER_RANK * comm.Get_size()
    for line, var in SWEEPS.items():
        mode, reason = modes[line]
        assert mode == "pipelined", (line, mode)
        if var is None:
            assert "blocks" not in reason, (line, reason)
        else:
            assert reason.endswith(f"blocks of {var}"), (line, reason)
            assert int(reason.split()[1]) == min(blocks, {44: 13, 55: 35}.get(line, 37)), reason


def mpi_case_pipelined_sweeps_move_the_same_elements_whole_or_in_blocks(comm):
    whole = check_against_gfortran(comm, _text(comm), pipeline_blocks=1)
    blocked = check_against_gfortran(comm, _text(comm), pipeline_blocks=5)
    mine = _received(blocked), _received(whole)
    everyone = comm.gather(mine, root=0)
    if comm.Get_rank() != 0:
        return
    assert all(b == w for b, w in everyone), everyone
    assert all("blocks" not in reason for _, reason in _modes(whole).values())
    if comm.Get_size() > 1:
        assert _modes(blocked)[38] == ("pipelined", "in 5 blocks of J")
