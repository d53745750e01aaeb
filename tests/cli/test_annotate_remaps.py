"""The writer of a solution's remaps: an event that names what is no array of the
unit it is placed in (a callee's SAVEd table whose name is a scalar of the caller,
as Burkardt's quadpack has ``KOUNT``) writes nothing there; it stopped annotate
with an internal error."""

from __future__ import annotations

import dataclasses

from autodist.annotate.source import annotate
from autodist.frontend import read_program
from autodist.layout.model import replicated
from autodist.machine import resolve_profile
from autodist.mapping.plan import remap_event
from autodist.pipeline import Pipeline

PROGRAM = """\
      PROGRAM KT
      INTEGER I, K
      DO 20 K = 1, 50
        DO 10 I = 1, 10
          CALL REPORT(I, K)
   10   CONTINUE
   20 CONTINUE
      END

      SUBROUTINE REPORT(NERR, LEVEL)
      INTEGER NERR, LEVEL, KOUNT
      CALL SAVER(NERR, LEVEL, KOUNT)
      IF (KOUNT .GT. 3) PRINT *, 'MANY', NERR, KOUNT
      END

      SUBROUTINE SAVER(NERR, LEVEL, ICOUNT)
      INTEGER NERR, LEVEL, ICOUNT, I
      INTEGER KOUNT(10)
      SAVE KOUNT
      DATA KOUNT /10*0/
      DO 30 I = 1, 10
        KOUNT(I) = KOUNT(I) + NERR * LEVEL
   30 CONTINUE
      ICOUNT = KOUNT(1)
      END
"""


def test_a_remap_of_a_name_that_is_a_scalar_in_the_unit_writes_nothing_there(tmp_path):
    src = tmp_path / "kt.f"
    src.write_text(PROGRAM)
    pipe = Pipeline(read_program([src]))
    machine, _ = resolve_profile("ddt1997")
    an = pipe.analysis(machine)
    plan = pipe.plan(machine, 4)
    solution = plan.solution("dynamic")
    (gid,) = [a.id for a in plan.table.arrays if ("SAVER", "KOUNT") in a.members]
    block = solution.entry_of("SAVER").layout(gid)
    assert block is not None and block.distribute_str() != replicated(block.bounds).distribute_str()
    # the selection may place a remap of SAVER's table on REPORT's phase boundary
    # (REPORT's call runs SAVER's loop); there KOUNT is an INTEGER scalar
    event = remap_event(plan.table, 4, machine, "REPORT", gid, 1, 1, 1.0, block, replicated(block.bounds))
    assert event.name == "KOUNT"
    result = annotate(an, dataclasses.replace(solution, remaps=solution.remaps + (event,)), plan.table)
    text = "".join("".join(lines) for _, lines in result.files)
    report = text[text.index("SUBROUTINE REPORT"):text.index("SUBROUTINE SAVER")]
    assert "KOUNT" not in "".join(l for l in report.splitlines(True) if l.upper().startswith("CHPF$"))
    saver = text[text.index("SUBROUTINE SAVER"):]
    assert "CHPF$ DISTRIBUTE" in saver.upper() or "CHPF$ ALIGN" in saver.upper()  # its own unit keeps them
