"""The microbenchmarks, run on every rank of an MPI job (mpi4py, numpy).

Each quantity is measured ``repeat`` times; one measurement times a loop of
``inner`` operations sized (by rank 0, for everyone) to last at least
``min_time`` seconds, and records the time of one operation:

* ``latency``: ping-pong of ``small_bytes`` between ranks 0 and 1, half the
  round trip;
* ``large``: the same with ``large_bytes`` (bandwidth);
* ``halo``: every rank exchanges ``halo_bytes`` with both neighbours of a
  ring (``Sendrecv`` right then left, as the runtime's shift exchange does);
  the slowest rank's time;
* ``barrier``: one ``Barrier`` (the start of a parallel loop);
* ``kernel:<name>``: per element, the numpy kernels of :data:`KERNELS` on
  vectors of ``vector_length`` doubles, the way the runtime executes a
  statement over a parallel loop's local range (every rank at once).

The worker adds the start of a phase measured through the runtime itself
(:mod:`.starts`).

Nothing here decides what the numbers mean: :mod:`.fit` and :mod:`.profile` do.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class Settings:
    repeat: int = 15
    small_bytes: int = 8
    large_bytes: int = 4 << 20
    halo_bytes: int = 32 << 10
    vector_length: int = 256
    min_time: float = 0.02  # seconds per measurement
    phase_calls: int = 200  # calls of the one-phase subroutine per start measurement (:mod:`.starts`)
    kernel_elements: int = 1 << 15  # elements per rank of the runtime's kernels (:mod:`.kernels`)
    kernel_calls: int = 40  # calls of each kernel's subroutine per measurement

    @classmethod
    def quick(cls, repeat: int = 3) -> "Settings":
        """Few, short measurements: seconds in all (tests, a first look)."""
        return cls(repeat=repeat, large_bytes=256 << 10, halo_bytes=8 << 10, min_time=0.002, phase_calls=50,
                   kernel_elements=1 << 14, kernel_calls=20)


@dataclass(frozen=True)
class Kernel:
    """A loop body as the runtime runs it: one numpy statement over a range."""

    name: str
    flops: int
    accesses: int  # loads and stores per element, as the cost model counts them
    run: Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int], None]


def _sweep(y, x, a, b, n):
    y[1:n] = x[1:n] - x[0:n - 1] * a[1:n] / b[0:n - 1]


def _divide(y, x, a, b, n):
    y[1:n] = x[1:n] / b[1:n]


def _copy(y, x, a, b, n):
    y[1:n] = a[1:n]


def _five(y, x, a, b, n):
    y[1:n] = (x[1:n] - a[0:n - 1] * x[0:n - 1]) / b[1:n] + a[1:n] * b[0:n - 1]


def _horner(y, x, a, b, n):
    y[1:n] = ((x[1:n] * a[1:n] + b[1:n]) * x[1:n] + a[1:n]) * x[1:n] + b[1:n]


#: The kernels whose times are split into flops and accesses (they write
#: ``y`` and only read ``x``, ``a``, ``b``, so values never drift).
KERNELS = (
    Kernel("y(i) = x(i) - x(i-1)*a(i)/b(i-1)", 3, 5, _sweep),
    Kernel("y(i) = x(i)/b(i)", 1, 3, _divide),
    Kernel("y(i) = a(i)", 0, 2, _copy),
    Kernel("y(i) = (x(i) - a(i-1)*x(i-1))/b(i) + a(i)*b(i-1)", 5, 7, _five),
    Kernel("y(i) = ((x(i)*a(i) + b(i))*x(i) + a(i))*x(i) + b(i)", 6, 8, _horner),
)


def _timed(fn: Callable[[], None], inner: int) -> float:
    t0 = time.perf_counter()
    for _ in range(inner):
        fn()
    return (time.perf_counter() - t0) / inner


def _inner(comm, fn: Callable[[], None], min_time: float, limit: int, ranks: int | None = None) -> int:
    """Operations per measurement, so that one lasts about ``min_time`` on
    the slowest rank; the same count on every rank.  ``ranks``: only ranks
    below it run ``fn`` (the others wait)."""
    active = ranks is None or comm.Get_rank() < ranks
    n = 1
    while True:
        t = comm.allreduce(_timed(fn, n) * n if active else 0.0, op=_max())
        if t >= min_time / 4 or n >= limit:
            break
        n *= 4
    return max(1, int(n * min_time / max(t, 1e-9)))


def _max():
    from mpi4py import MPI

    return MPI.MAX


def _measure(comm, fn: Callable[[], None], settings: Settings, ranks: int | None = None) -> list[float]:
    """``repeat`` times the duration of one ``fn`` on the slowest rank."""
    inner = _inner(comm, fn, settings.min_time, 1 << 22, ranks)
    active = ranks is None or comm.Get_rank() < ranks
    out = []
    for _ in range(settings.repeat):
        comm.Barrier()
        t = _timed(fn, inner) if active else 0.0
        out.append(comm.allreduce(t, op=_max()))
    return out


def _ping_pong(comm, nbytes: int) -> Callable[[], None]:
    rank = comm.Get_rank()
    buf = np.zeros(max(nbytes, 1), dtype=np.uint8)
    if rank == 0:
        def op():
            comm.Send(buf, dest=1, tag=7)
            comm.Recv(buf, source=1, tag=7)
    elif rank == 1:
        def op():
            comm.Recv(buf, source=0, tag=7)
            comm.Send(buf, dest=0, tag=7)
    else:
        def op():
            pass
    return op


def _pair_time(comm, nbytes: int, settings: Settings) -> list[float]:
    """Half round trips between ranks 0 and 1 (the others wait)."""
    return [t / 2 for t in _measure(comm, _ping_pong(comm, nbytes), settings, ranks=2)]


def _halo(comm, nbytes: int) -> Callable[[], None]:
    size, rank = comm.Get_size(), comm.Get_rank()
    right, left = (rank + 1) % size, (rank - 1) % size
    send = np.ones(nbytes // 8, dtype=np.float64)
    recv = np.empty_like(send)

    def op():
        comm.Sendrecv(send, dest=right, sendtag=1, recvbuf=recv, source=left, recvtag=1)
        comm.Sendrecv(send, dest=left, sendtag=2, recvbuf=recv, source=right, recvtag=2)

    return op


def measure_all(comm, settings: Settings) -> dict[str, list[float]]:
    """Every measurement on every rank of ``comm`` (at least two ranks);
    the same dictionary on all ranks."""
    if comm.Get_size() < 2:
        raise ValueError("the communication benchmarks need at least two ranks")
    samples: dict[str, list[float]] = {}
    samples["latency"] = _pair_time(comm, settings.small_bytes, settings)
    samples["large"] = _pair_time(comm, settings.large_bytes, settings)
    samples["halo"] = _measure(comm, _halo(comm, settings.halo_bytes), settings)
    samples["barrier"] = _measure(comm, comm.Barrier, settings)
    n = settings.vector_length + 1
    rng = np.random.default_rng(comm.Get_rank())
    x, a = rng.uniform(1.0, 2.0, n), rng.uniform(0.1, 0.5, n)
    b, y = rng.uniform(3.0, 5.0, n), np.zeros(n)
    for k in KERNELS:
        per_call = _measure(comm, lambda k=k: k.run(y, x, a, b, n), settings)
        samples[f"kernel:{k.name}"] = [t / (n - 1) for t in per_call]
    return samples
