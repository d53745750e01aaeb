"""`autodist info`: versions, ILP solvers, the MPI library."""

from __future__ import annotations

import importlib.metadata as md
import platform
import shutil

from .. import __version__
from ..machine import PROFILE_DIR
from ..solvers import available_solvers


def configure(parser) -> None:
    pass


def _version(dist: str) -> str:
    try:
        return md.version(dist)
    except md.PackageNotFoundError:
        return "not installed"


def _mpi_library() -> str:
    try:
        from mpi4py import MPI
    except Exception as exc:  # pragma: no cover - depends on the installation
        return f"unavailable ({exc})"
    return MPI.Get_library_version().strip().splitlines()[0]


def run(args) -> int:
    print(f"autodist {__version__} (Python {platform.python_version()}, {platform.machine()})")
    for dist in ("fparser", "networkx", "PuLP", "highspy", "numpy", "PyYAML", "mpi4py", "mpich", "matplotlib", "tqdm"):
        print(f"  {dist:<11} {_version(dist)}")
    solvers = available_solvers()
    print(f"ILP solvers: {', '.join(solvers) if solvers else 'none found'}"
          + (f" (using {solvers[0]})" if solvers else ""))
    print(f"MPI library: {_mpi_library()}")
    print(f"mpiexec:     {shutil.which('mpiexec') or 'not found'}")
    print(f"gfortran:    {shutil.which('gfortran') or 'not found (comparisons with gfortran are skipped)'}")
    print(f"profiles:    {PROFILE_DIR}")
    return 0
