"""Communication: storage maps, planned exchanges, pipeline hand-offs, reductions, counters; one distributed array per rank part."""
