"""The runtime's plan builders by name: how each routine of
:mod:`autodist.layout.routines` is carried out on MPI.

A routine names its builders (``Routine.builders``); :func:`builder` gives
the function, so the runtime plans a routine from the same object the cost
model prices it with, and a routine whose builder is missing fails at once
(``tests/runtime/test_routines.py`` checks that the two lists agree).
"""

from __future__ import annotations

from typing import Callable

from ...layout.routines import Routine
from .pipeline import pipeline_link
from .plans import (
    allreduce,
    broadcast_plan,
    exchange_plan,
    gather_plan,
    halo_plan,
    redistribute_plan,
    reduce,
    scatter_plan,
    shift_plan,
)

#: Builder name -> builder.
BUILDERS: dict[str, Callable] = {f.__name__: f for f in (
    exchange_plan, pipeline_link, redistribute_plan, scatter_plan, halo_plan, shift_plan, broadcast_plan,
    gather_plan, allreduce, reduce)}


def builder(routine: Routine, name: str | None = None) -> Callable:
    """The builder that carries out ``routine`` (its first, or the one named)."""
    if name is None:
        name = routine.builders[0]
    elif name not in routine.builders:
        raise ValueError(f"{routine.name} is not carried out by {name}")
    return BUILDERS[name]
