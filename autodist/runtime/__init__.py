"""The MPI runtime: distributed arrays, communication plans, counters, launching.

* :mod:`~autodist.runtime.distarray` — :class:`DistArray`, one rank's part of a
  global array under a layout (with ghost cells);
* :mod:`~autodist.runtime.comm` — communication plans built once from the pure
  schedules of :mod:`autodist.layout.schedule` and executed many times
  (remap, halo, shift, broadcast, gather, scatter) and reductions;
* :mod:`~autodist.runtime.storage` — global index -> local storage position,
  packing;
* :mod:`~autodist.runtime.stats` — per-region counters (elements, bytes,
  messages, time);
* :mod:`~autodist.runtime.launch` — start ``mpiexec``, detect a running MPI job,
  end the whole job on an error.

Importing this package does not initialize MPI; ``comm`` and ``distarray`` do
(they import ``mpi4py.MPI``).
"""
