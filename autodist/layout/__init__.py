"""The HPF data layout of arrays and its index mathematics.

``model`` says where each element of an array lives (template, alignment,
distribution, processor arrangement); the other modules are pure functions on
it: ownership and global/local index maps in closed form, section
intersections, and exact communication volumes.  Both the cost model
(:mod:`autodist.mapping`) and the runtime (:mod:`autodist.runtime`) use them, so
the volume autodist predicts is the volume the runtime sends.
"""


def clear_caches() -> None:
    """Forget every memoized ownership map, schedule and volume (they are
    cached by value: layouts are frozen; benchmarks clear them to time cold
    planning)."""
    from . import ownership, schedule, sections, volume

    for fn in (ownership.effective_grid, ownership._owned, ownership.ownership, ownership._template_map, sections._prime_factors,
               schedule._meet, schedule._meet_count, schedule._coord_counts, schedule._incoming,
               schedule._outgoing, volume.redistribution_volume, volume.exchange_volume):
        fn.cache_clear()
