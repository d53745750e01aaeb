"""The MPI runtime: run an HPF-annotated Fortran 77 program on ranks, measure it, verify it.

Executing programs:

* :mod:`~autodist.runtime.translate` — every procedure translated once into
  Python (typed Fortran arithmetic, GOTO, calls, COMMON, DATA, I/O);
* :mod:`~autodist.runtime.intrinsics` and :mod:`~autodist.runtime.fortran_io`
  — the intrinsic functions (libm's own), gfortran-style output;
* :mod:`~autodist.runtime.executor` — the program on one rank: storage,
  procedure entry and exit, REDISTRIBUTE/REALIGN, output;
* :mod:`~autodist.runtime.vectorize`, :mod:`~autodist.runtime.fastgen` and
  :mod:`~autodist.runtime.phases` — loop phases: which loops to vectorize,
  the generated numpy code, and how each execution runs (distributed,
  pipelined, replicated or inline) with its planned exchanges;
* :mod:`~autodist.runtime.arrays` — an array under its current layout, with
  element access and remaps;
* :mod:`~autodist.runtime.runner`, :mod:`~autodist.runtime.runreport`,
  :mod:`~autodist.runtime.verify`, :mod:`~autodist.runtime.profiler` and
  :mod:`~autodist.runtime.api` — ``autodist run`` (report, dump,
  verification), ``autodist profile``, and :func:`~autodist.runtime.api.run_file`
  for other commands.

Communication layer:

* :mod:`~autodist.runtime.distarray` — :class:`DistArray`, one rank's part of
  a global array under a layout (with ghost cells);
* :mod:`~autodist.runtime.comm` — communication plans built once from the pure
  schedules of :mod:`autodist.layout.schedule` and executed many times
  (remap, halo, shift, broadcast, gather, scatter) and reductions;
* :mod:`~autodist.runtime.storage` — global index -> local storage position,
  packing;
* :mod:`~autodist.runtime.stats` — per-region counters (elements, bytes,
  messages, time);
* :mod:`~autodist.runtime.launch` — start ``mpiexec``, detect a running MPI job,
  end the whole job on an error.

Importing this package does not initialize MPI; ``comm``, ``distarray`` and
the modules that use them do (they import ``mpi4py.MPI``).
"""
