"""Distribution formats: one type per HPF format of a template dimension.

A :class:`Format` value (``Format("CYCLIC", 3)``, also importable from
:mod:`autodist.layout.model`) names its type by ``kind``; the type
(:data:`SCHEMES`, by HPF keyword; ``Format.scheme``) supplies everything that
differs between formats:

* the ownership map — :meth:`Scheme.block_size` (the cells of one block) and
  :attr:`Scheme.contiguous` (each processor's cells form one interval: blocks
  are never dealt round robin), from which
  :mod:`~autodist.layout.ownership` builds its closed-form maps;
* its HPF text — :meth:`Scheme.text` (``BLOCK``, ``BLOCK(4)``, ``CYCLIC(3)``,
  ``*``);
* its candidates — :meth:`Scheme.candidates`: the formats the optimizer tries
  for a name a machine profile lists in ``distributions`` (``BLOCK``,
  ``CYCLIC``, ``CYCLIC(k)``; the names are :attr:`Scheme.profile_names`).

Adding a format (``GEN_BLOCK``: one block size per processor) means one more
type here with its ownership map, text and candidates, its profile name in
:data:`autodist.machine.FORMATS`, and the reader of its directive in
:mod:`autodist.hpf`.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil
from typing import ClassVar

from ..errors import HpfError


@dataclass(frozen=True)
class Scheme:
    """How one distribution format lays out the cells of a template dimension."""

    keyword: ClassVar[str]
    distributed: ClassVar[bool] = True
    contiguous: ClassVar[bool] = True
    profile_names: ClassVar[tuple[str, ...]] = ()

    def check(self, k: int | None) -> None:
        """Raises ValueError when ``k`` is no block size of this format."""
        if k is not None and k < 1:
            raise ValueError(f"bad block size {k!r} for {self.keyword}")

    def block_size(self, k: int | None, n: int, procs: int, t: int, where: str) -> int:
        """Cells per block of a dimension of ``n`` cells on ``procs`` processors
        (``t``: the template dimension, ``where``: for error messages)."""
        raise NotImplementedError

    def text(self, k: int | None) -> str:
        """The HPF text of the format."""
        return self.keyword if k is None else f"{self.keyword}({k})"

    def candidates(self, name: str, extent: int, procs: int, triangular: bool) -> list[Format]:
        """The formats to try for profile name ``name`` along a template
        dimension of ``extent`` cells on ``procs`` processors (``triangular``: a
        loop over it has bounds that depend on another loop)."""
        return []


@dataclass(frozen=True)
class Block(Scheme):
    """``BLOCK``: blocks of ``ceil(n / p)`` cells, one per processor;
    ``BLOCK(k)``: blocks of ``k`` cells (``k * p >= n``)."""

    keyword: ClassVar[str] = "BLOCK"
    profile_names: ClassVar[tuple[str, ...]] = ("BLOCK",)

    def block_size(self, k: int | None, n: int, procs: int, t: int, where: str) -> int:
        if k is None:
            return max(1, -(-n // procs))
        if k * procs < n:
            raise HpfError(
                f"{where}: BLOCK({k}) on {procs} processors covers {k * procs} cells, "
                f"fewer than the {n} of template dimension {t + 1} (HPF needs k*p >= n)"
            )
        return k

    def candidates(self, name: str, extent: int, procs: int, triangular: bool) -> list[Format]:
        return [Format(self.keyword)]


@dataclass(frozen=True)
class Cyclic(Scheme):
    """``CYCLIC(k)``: blocks of ``k`` cells dealt round robin (``CYCLIC``: ``k = 1``)."""

    keyword: ClassVar[str] = "CYCLIC"
    contiguous: ClassVar[bool] = False
    profile_names: ClassVar[tuple[str, ...]] = ("CYCLIC", "CYCLIC(k)")

    def block_size(self, k: int | None, n: int, procs: int, t: int, where: str) -> int:
        return k or 1

    def candidates(self, name: str, extent: int, procs: int, triangular: bool) -> list[Format]:
        if name == "CYCLIC":
            return [Format(self.keyword)]
        if not triangular:
            return []
        # CYCLIC(k) balances triangular loops; blocks of a quarter and an
        # eighth of a processor's share, smaller than BLOCK's
        sizes = sorted({max(2, ceil(extent / (procs * 4))), max(2, ceil(extent / (procs * 8)))})
        return [Format(self.keyword, k) for k in sizes if k < ceil(extent / procs)]


@dataclass(frozen=True)
class Collapsed(Scheme):
    """``*``: the dimension is not distributed (every processor holds it whole)."""

    keyword: ClassVar[str] = "*"
    distributed: ClassVar[bool] = False

    def check(self, k: int | None) -> None:
        if k is not None:
            raise ValueError(f"bad block size {k!r} for {self.keyword}")

    def block_size(self, k: int | None, n: int, procs: int, t: int, where: str) -> int:
        return max(n, 1)


#: Every format type by its HPF keyword.
SCHEMES: dict[str, Scheme] = {s.keyword: s for s in (Block(), Cyclic(), Collapsed())}


@dataclass(frozen=True)
class Format:
    """Distribution format of one template dimension.

    ``kind`` is the HPF keyword of its type: "BLOCK", "CYCLIC" or "*" (not
    distributed).  ``k`` is the block size of ``BLOCK(k)``/``CYCLIC(k)``; None
    means the default (BLOCK: the ceiling of extent / processors; CYCLIC: 1).
    """

    kind: str
    k: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in SCHEMES:
            raise ValueError(f"unknown distribution format {self.kind!r}")
        SCHEMES[self.kind].check(self.k)

    @property
    def scheme(self) -> Scheme:
        """The format's type."""
        return SCHEMES[self.kind]

    @property
    def distributed(self) -> bool:
        return SCHEMES[self.kind].distributed

    def block_size(self, n: int, procs: int, t: int, where: str) -> int:
        """Cells per block along a template dimension of ``n`` cells on ``procs`` processors."""
        return SCHEMES[self.kind].block_size(self.k, n, procs, t, where)

    def __str__(self) -> str:
        return SCHEMES[self.kind].text(self.k)


def candidate_formats(names, extent: int, procs: int, triangular: bool) -> list[Format]:
    """The formats to try along a template dimension, for the profile's
    ``distributions`` names in their order."""
    out = []
    for name in names:
        for s in SCHEMES.values():
            if name in s.profile_names:
                out.extend(s.candidates(name, extent, procs, triangular))
    return out
