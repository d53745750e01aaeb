"""Mapping: from a phase's reference patterns to array layouts (DDT §3–6).

The optimization engines live here, each in one module that says what it does:

* :mod:`.dag` -- the Dimension Alignment Graph (nodes = array dimensions,
  affinity edges with offsets kept apart, parallelization edges);
* :mod:`.align` -- inter-dimensional alignment: DDT's greedy heuristic with
  min-cut bipartite weights, an exact 0-1 ILP, enumeration for tiny graphs;
* :mod:`.offsets` -- intra-dimensional alignment (offsets) by retiming;
* :mod:`.select` -- choice of one candidate mapping per phase with remapping
  costs over control flow: 0-1 ILP, dynamic programming, enumeration, and the
  static (one layout per array) variant.
"""
