"""Where compiled code can fault, and the runtime's message for each fault.

A kernel cannot walk back from a fault to a Fortran line as the Python path
does (through its traceback and line map), so the generated code names the
place instead: every subscript check, integer division, MOD, power and DO
step that may fault gets a *site*, a number baked into the source; the
helpers raise :class:`~.helpers.JitFault` with it, and :meth:`Sites.fault`
writes the :class:`~autodist.errors.RuntimeFault` the Python path would have
raised, at the same ``file:line``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import RuntimeFault


@dataclass(frozen=True)
class Site:
    """One place that may fault: the message, a template of the fault's
    ``{value}``, ``{lo}``, ``{hi}`` and ``{label}`` (an array named at run time)."""

    text: str
    file: str | None
    line: int | None


class Sites:
    """The sites of one generated module, numbered in order of appearance."""

    def __init__(self) -> None:
        self.table: list[Site] = []
        self._index: dict[Site, int] = {}

    def message(self, text: str, where: tuple[str, int] | None) -> int:
        site = Site(text, *(where or (None, None)))
        k = self._index.get(site)
        if k is None:
            k = self._index[site] = len(self.table)
            self.table.append(site)
        return k

    def index(self, what: str, where: tuple[str, int] | None) -> int:
        """A subscript check of ``what`` (``X dimension 2``; ``{label}`` for the array
        named at run time)."""
        return self.message(f"index {{value}} of {what} is outside {{lo}}:{{hi}}", where)

    def fault(self, args: tuple, labels: list[str] = ()) -> RuntimeFault:
        """The runtime's fault for the arguments of a :class:`~.helpers.JitFault`:
        ``(site, value, lo, hi, label)``."""
        k, value, lo, hi, label = (tuple(args) + (0, 0, 0, -1))[:5]
        site = self.table[k]
        name = labels[label] if 0 <= label < len(labels) else "?"
        return RuntimeFault(site.text.format(value=value, lo=lo, hi=hi, label=name), site.file, site.line)
