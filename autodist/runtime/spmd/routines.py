"""The routines a program calls outside itself: gfortran's extension routines as
a run gives them, which routines the ``--link`` libraries define, and the one
error naming every other one with each place it is called."""

from __future__ import annotations

import time

from ... import ir
from ...errors import UnsupportedError
from ..codegen.procedures import is_dummy_procedure, passed_procedure
from ..fortran.extensions import ROUTINES, Extensions
from ..fortran.foreign import Foreign


def outside_routines(program: ir.Program) -> dict[str, list[str]]:
    """Every routine the program calls or passes as an argument that is neither
    one of its units nor a runtime extension, with the places (``file:line``)
    it is called or passed, in order (a call through a dummy procedure calls
    what was passed)."""
    units = {u.name for u in program.units}
    outside: dict[str, list[str]] = {}
    for u in program.units:
        for s in ir.walk(u.body):
            names = [s.name] if isinstance(s, ir.Call) else []
            names += [x.name for e in s.exprs() for x in e.walk()
                      if isinstance(x, ir.FuncRef) and x.kind == "external"]
            names = [n for n in names if not is_dummy_procedure(u, n)]
            for e in s.exprs():
                for x in e.walk():
                    args = x.args if isinstance(x, ir.FuncRef) else ()
                    for a in args:
                        p = passed_procedure(u, a)
                        if p is not None and not p[1] and not is_dummy_procedure(u, p[0]):
                            names.append(p[0])
                if isinstance(e, ir.Name) and isinstance(s, ir.Call):
                    p = passed_procedure(u, e)
                    if p is not None and not p[1] and not is_dummy_procedure(u, p[0]):
                        names.append(p[0])
            for n in names:
                if n not in units and n not in ROUTINES:
                    outside.setdefault(n, []).append(f"{s.span.file}:{s.span.first}")
    return outside


def linked_routines(program: ir.Program, foreign: Foreign | None) -> frozenset[str]:
    """The routines outside the program that the ``--link`` libraries define."""
    if foreign is None:
        return frozenset()
    return frozenset(n for n in outside_routines(program) if foreign.provides(n))


def check_routines(program: ir.Program, foreign: Foreign | None) -> frozenset[str]:
    """The routines of the ``--link`` libraries the program calls; one error
    naming every other routine outside the program, with every place it is called."""
    linked = linked_routines(program, foreign)
    missing = {n: w for n, w in outside_routines(program).items() if n not in linked}
    if missing:
        first = next(iter(missing.values()))[0].rsplit(":", 1)
        listed = "; ".join(f"{n} (called at {', '.join(dict.fromkeys(w))})" for n, w in sorted(missing.items()))
        what = ("routines outside the program are outside the runtime's subset" if foreign is None else
                f"routines in neither the program nor the --link files ({', '.join(foreign.labels)})")
        hint = " (give their sources or a shared library with --link FILE)" if foreign is None else ""
        raise UnsupportedError(f"{what}: {listed}{hint}", first[0], int(first[1]))
    return linked


def run_extensions(ex) -> Extensions:
    """The extension routines of a run: timers read rank 0's clock (from the
    executor's creation) and every rank gets that reading (a broadcast), so
    control flow that depends on a time is the same on every rank."""
    import datetime

    comm, start = ex.comms.comm, time.perf_counter()

    def shared(read):
        return lambda: comm.bcast(read() if ex.rank == 0 else None, root=0) if ex.nprocs > 1 else read()

    return Extensions(shared(lambda: time.perf_counter() - start),
                      shared(lambda: datetime.datetime.now().astimezone()),
                      lambda: ex.out.flush(), ex.program.files[0] if ex.program.files else "")
