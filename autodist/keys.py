"""Frozen dataclasses that serve as cache keys: their hash computed once.

The generated ``__hash__`` of a frozen dataclass hashes every field again on
every call, recursively; a :class:`~autodist.layout.model.Layout` inside the
key of every phase evaluation was hashed some 40 million times in one
annotate run.  :func:`cached_hash` keeps the value on the instance (it is
immutable) and leaves it out of pickles, since string hashes differ between
processes.
"""

from __future__ import annotations

import dataclasses

_SLOT = "_cached_hash"


def cached_hash(cls):
    """Class decorator, applied above ``@dataclass(frozen=True)``."""
    names = tuple(f.name for f in dataclasses.fields(cls) if f.compare and (f.hash is None or f.hash))

    def __hash__(self) -> int:
        d = self.__dict__
        h = d.get(_SLOT)
        if h is None:
            h = hash(tuple(getattr(self, n) for n in names))
            d[_SLOT] = h
        return h

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if k != _SLOT}

    cls.__hash__ = __hash__
    cls.__getstate__ = __getstate__
    return cls
