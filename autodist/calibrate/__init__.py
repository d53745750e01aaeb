"""``autodist calibrate``: measure this machine with MPI microbenchmarks and
write a machine profile.

>>> raw = measure(2, Settings.quick())        # launches mpiexec -n 2
>>> cal = calibration(raw)                      # medians, spreads, the compute split
>>> write_profile(Path("local.yaml"), profile_text(cal, "local", like=load_profile(...)))

:mod:`.bench` holds the microbenchmarks (run on the ranks), :mod:`.fit` the
statistics, :mod:`.profile` the derivation of the profile's values and its
text.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import asdict
from pathlib import Path

from ..errors import RuntimeFault, UsageError
from .bench import KERNELS, Kernel, Settings
from .fit import Split, Summary, split_compute, summarize
from .profile import Calibration, calibration, check_target, profile_text, write_profile


def check_ranks(nranks: int) -> None:
    if nranks < 2:
        raise UsageError(f"-np {nranks}: calibration needs at least 2 ranks to measure communication")


def measure(nranks: int, settings: Settings, timeout: float | None = 600.0) -> dict:
    """Run the microbenchmarks on ``nranks`` ranks and return the raw record.

    Inside an MPI job (``mpiexec -n N autodist calibrate``) this process is
    one of the ranks and measures in place (every rank returns the record);
    otherwise it launches ``nranks`` workers with :mod:`autodist.runtime.job.launch`."""
    from ..runtime.job.launch import in_mpi_job, launch

    check_ranks(nranks)
    if in_mpi_job():
        from mpi4py import MPI

        from .worker import measure_here

        size = MPI.COMM_WORLD.Get_size()
        if size != nranks:
            raise UsageError(f"-np {nranks}: this MPI job has {size} ranks")
        return measure_here(MPI.COMM_WORLD, settings)
    with tempfile.TemporaryDirectory(prefix="autodist-calibrate-") as tmp:
        out, conf = Path(tmp) / "record.json", Path(tmp) / "settings.json"
        conf.write_text(json.dumps(asdict(settings)))
        status = launch(["-m", "autodist.calibrate.worker", str(out), str(conf)], nranks, timeout)
        if status != 0 or not out.is_file():
            raise RuntimeFault(f"the calibration job on {nranks} ranks failed (exit status {status})")
        return json.loads(out.read_text())


__all__ = [
    "Calibration", "KERNELS", "Kernel", "Settings", "Split", "Summary", "calibration", "check_ranks", "check_target",
    "measure", "profile_text", "split_compute", "summarize", "write_profile",
]
