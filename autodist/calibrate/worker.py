"""One rank of ``autodist calibrate``'s MPI job:
``python -m autodist.calibrate.worker OUT.json SETTINGS.json``.

Every rank measures (:func:`.bench.measure_all`, :func:`.starts.phase_start`,
:func:`.kernels.element_times`); rank 0 writes the raw
samples, the rank count and the MPI library to ``OUT.json``.  An error on one
rank ends the whole job (:func:`autodist.runtime.job.launch.guarded`).
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict

from .bench import Settings, measure_all


def phase_starts(comm, settings: Settings) -> list[float]:
    """The start of a phase measured through the runtime (:mod:`.starts`)."""
    from .starts import phase_start

    phase_start(comm, 20)  # numba, the runtime's modules: loaded before the measurements
    return [phase_start(comm, settings.phase_calls) for _ in range(max(3, settings.repeat // 3))]


def runtime_kernels(comm, settings: Settings) -> dict[str, list[float]]:
    """The kernels' and the recurrences' seconds per element as the runtime runs
    them (:mod:`.kernels`)."""
    from .bench import KERNELS
    from .kernels import RECURRENCES, element_times

    element_times(comm, 16, 2)  # the kernels compiled before the measurements
    runs = [element_times(comm, settings.kernel_elements, settings.kernel_calls)
            for _ in range(max(3, settings.repeat // 3))]
    keys = [f"runtime:{k.name}" for k in KERNELS] + [f"recurrence:{r.name}" for r in RECURRENCES]
    return {key: [r[i] for r in runs] for i, key in enumerate(keys)}


def measure_here(comm, settings: Settings) -> dict:
    """Measure on ``comm`` (every rank calls this); the raw record."""
    from mpi4py import MPI
    import mpi4py
    import numpy

    samples = measure_all(comm, settings)
    samples["phase_start"] = phase_starts(comm, settings)
    samples.update(runtime_kernels(comm, settings))
    return {
        "nranks": comm.Get_size(),
        "settings": asdict(settings),
        "samples": samples,
        "mpi_library": " ".join(MPI.Get_library_version().strip().splitlines()[0].split()),
        "mpi4py": mpi4py.__version__,
        "numpy": numpy.__version__,
    }


def _main(out: str, settings_file: str) -> int:
    from mpi4py import MPI

    with open(settings_file) as fh:
        settings = Settings(**json.load(fh))
    record = measure_here(MPI.COMM_WORLD, settings)
    if MPI.COMM_WORLD.Get_rank() == 0:
        with open(out, "w") as fh:
            json.dump(record, fh)
    return 0


if __name__ == "__main__":  # pragma: no cover - runs under mpiexec
    from ..runtime.job.launch import guarded

    sys.exit(guarded(_main, sys.argv[1], sys.argv[2]))
