"""When a pipelined sweep may run in blocks of another loop (coarse-grain pipelining).

A sweep walks a distributed dimension with a sequential loop ``S``; run in
blocks of another loop ``P`` around every statement, a processor executes
block ``b`` of ``P``'s values (all its iterations of ``S``) before block
``b + 1``: the iterations are reordered as by tiling ``P`` and moving the
tile loop outermost.  That keeps every dependence unless one goes forward in
``S`` and backward in ``P``, or backward in ``S`` and forward in ``P``:
legal when no dependence distance has components of opposite signs along
``S`` and ``P`` (for ``P`` outside ``S`` the same holds with the roles
swapped).  The SSOR wavefront ``U(I,J)`` from ``U(I-1,J)``, ``U(I+1,J)``,
``U(I,J-1)``, ``U(I,J+1)`` passes (distances ``(0,±1)``, ``(±1,0)``);
``Z(I,J)`` from ``Z(I+1,J-1)`` does not (``(1,-1)``).

The test here is for uniformly generated references: each array the phase
writes is indexed, in every reference, by ``S`` and by ``P`` each in one
subscript of the form ``a*v + c`` with the same dimension and ``a``; a
dependence between two references then has distance ``(c_w - c_r) / a``
along each (no dependence when not an integer).  What a processor hands on
per block is what it wrote in that block: every write of an array uses one
form along ``P`` (its dimension, scale and shift are returned), and a value
read across processors is handed on with the block that writes it, which
the test guarantees comes no later than the block reading it.
"""

from __future__ import annotations

from typing import Iterable

from ..ir import Affine

#: one reference: (array, written?, affine subscripts (None: not affine))
Ref = tuple[str, bool, tuple[Affine | None, ...]]


def blocking_forms(refs: Iterable[Ref], s_var: str, p_var: str) -> dict[str, tuple[int, int, int]] | None:
    """Per array written, the ``(dimension, scale, shift)`` of ``p_var`` in its
    writes, when the sweep along ``s_var`` may run in blocks of ``p_var``;
    None when it may not (see the module docstring)."""
    refs = list(refs)
    written = {name for name, write, _ in refs if write}
    forms: dict[str, list[tuple[bool, tuple[int, int, int], tuple[int, int, int]]]] = {}
    for name, write, subs in refs:
        if name not in written:
            continue
        s_form, p_form = _form(subs, s_var), _form(subs, p_var)
        if s_form is None or p_form is None or s_form[0] == p_form[0]:
            return None
        forms.setdefault(name, []).append((write, s_form, p_form))
    out: dict[str, tuple[int, int, int]] = {}
    for name, uses in forms.items():
        writes = {p for w, _, p in uses if w}
        if len(writes) != 1:
            return None
        out[name] = next(iter(writes))
        for w_s, w_p in ((s, p) for w, s, p in uses if w):
            for _, r_s, r_p in uses:
                if (w_s[0], w_s[1]) != (r_s[0], r_s[1]) or (w_p[0], w_p[1]) != (r_p[0], r_p[1]):
                    return None  # not uniformly generated
                ds, ms = divmod(w_s[2] - r_s[2], w_s[1])
                dp, mp = divmod(w_p[2] - r_p[2], w_p[1])
                if not ms and not mp and ds * dp < 0:
                    return None
    return out


def _form(subs: tuple[Affine | None, ...], var: str) -> tuple[int, int, int] | None:
    """``(dimension, a, c)`` when ``var`` appears in one subscript, as ``a*var + c``."""
    found = None
    for d, s in enumerate(subs):
        if s is None:
            return None
        if s.coef(var):
            if found is not None or set(s.vars) != {var}:
                return None
            found = (d, s.coef(var), s.const)
    return found
