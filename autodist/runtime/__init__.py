"""The MPI runtime: run an HPF-annotated Fortran 77 program on ranks, measure it, verify it.

Five subpackages, one job each, each importing only those above it in this list
(and, from outside the runtime, :mod:`autodist.ir`, :mod:`autodist.analysis`,
:mod:`autodist.layout`, :mod:`autodist.owner` and the HPF language in
:mod:`autodist.hpf` — never :mod:`autodist.mapping`):

* :mod:`.fortran` — Fortran semantics the generated code runs against:
  integer division, powers, ``NINT`` and libm's own elementary functions
  (:mod:`~.fortran.intrinsics`), gfortran-style formatted and list-directed
  output (:mod:`~.fortran.formats`), the numpy helpers of vectorized phases
  (:mod:`~.fortran.vectors`);
* :mod:`.comm` — communication: global index -> local storage position and
  packing (:mod:`~.comm.storage`), plans built once from the pure schedules of
  :mod:`autodist.layout.schedule` and executed many times — remap, halo,
  shift, broadcast, gather, scatter, reductions (:mod:`~.comm.plans`) —,
  pipeline hand-offs (:mod:`~.comm.pipeline`), the builder of each routine of
  :mod:`autodist.layout.routines` (:mod:`~.comm.builders`), per-region counters
  (:mod:`~.comm.stats`);
* :mod:`.codegen` — code generation: every procedure translated once into
  Python (:mod:`~.codegen.units`; CALLs in :mod:`~.codegen.calls`, I/O in
  :mod:`~.codegen.io_code`; with :mod:`~.codegen.emitter` for typed
  expressions, :mod:`~.codegen.intrinsic_code` for intrinsic references and
  conversions, :mod:`~.codegen.scan` for what a statement list reads, writes
  and jumps to, :mod:`~.codegen.facts` for what a unit needs to know about
  the others), loop phases as vectorized functions (:mod:`~.codegen.vectorize`
  decides which loops, :mod:`~.codegen.fastgen` writes the code, with
  :mod:`~.codegen.fastrefs` for references and index checks and
  :mod:`~.codegen.fastchain` for the vectorized chains);
* :mod:`.spmd` — SPMD execution on one rank: the executor (storage, procedure
  entry and exit, REDISTRIBUTE/REALIGN, output; :mod:`~.spmd.executor`), the
  program's arrays under their current layouts (:mod:`~.spmd.arrays`), how each
  execution of a loop phase runs — distributed, pipelined, replicated or inline
  — planned once per layout state (:mod:`~.spmd.planner`, with the checks of
  what makes a distributed plan wrong in :mod:`~.spmd.hazards`) and run
  (:mod:`~.spmd.phaserun`);
* :mod:`.job` — the job: starting ``mpiexec`` and ending the whole job on an
  error (:mod:`~.job.launch`), one ``autodist run`` on the ranks
  (:mod:`~.job.runner`), its JSON report (:mod:`~.job.report`), verification
  against a sequential run and gfortran (:mod:`~.job.verify`), ``autodist
  profile`` (:mod:`~.job.profiler`), and :func:`~.job.api.run_file` for other
  commands.

Importing this package does not initialize MPI; the modules that communicate do
(they import ``mpi4py.MPI``).
"""
