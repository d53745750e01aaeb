"""Feasibility of small systems of affine constraints (Fourier-Motzkin).

Used by the dependence tests when subscripts are coupled (``M(I,J)`` against
``M(J,I)``) or loop bounds are triangular (``DO J = I+1, N``): the equations of
all subscript positions, the bounds of every loop and the direction
constraint form one system; if it has no rational solution there is no
dependence.  Integer tightening (divide by the gcd of the coefficients, round
the constant down) removes many integer-infeasible systems too.  The answer
"feasible" may be a false alarm (integer gaps); "infeasible" is always right.
"""

from __future__ import annotations

import math

#: A constraint ``sum(coefs[v] * v) + const >= 0`` (coefs without zeros).
Constraint = tuple[dict[str, int], int]

#: Give up (answer "feasible") beyond this many constraints during elimination.
MAX_CONSTRAINTS = 400


def _tighten(c: Constraint) -> Constraint | None:
    """Normalize; None for a trivially true constraint."""
    coefs, k = c
    coefs = {v: a for v, a in coefs.items() if a}
    if not coefs:
        return None if k >= 0 else ({}, k)
    g = 0
    for a in coefs.values():
        g = math.gcd(g, abs(a))
    if g > 1:
        coefs = {v: a // g for v, a in coefs.items()}
        k = math.floor(k / g)
    return coefs, k


def feasible(equalities: list[Constraint], inequalities: list[Constraint]) -> bool:
    """Is there a rational point (after integer tightening) satisfying
    ``eq == 0`` for every equality and ``ineq >= 0`` for every inequality?"""
    eqs = [dict(c) for c, _ in equalities]
    eq_k = [k for _, k in equalities]
    ineqs: list[Constraint] = list(inequalities)
    # eliminate equalities by substitution
    while eqs:
        coefs, k = eqs.pop(), eq_k.pop()
        coefs = {v: a for v, a in coefs.items() if a}
        if not coefs:
            if k != 0:
                return False
            continue
        g = 0
        for a in coefs.values():
            g = math.gcd(g, abs(a))
        if k % g:
            return False  # no integer solution (GCD test)
        var = min(coefs, key=lambda v: (abs(coefs[v]), v))
        a = coefs[var]
        # var = -(sum(others) + k) / a ; substitute in the rest (scaled by |a|)
        def subst(c2: dict[str, int], k2: int) -> tuple[dict[str, int], int]:
            b = c2.get(var, 0)
            if not b:
                return c2, k2
            s = abs(a)
            sign = 1 if a > 0 else -1
            out = {v: s * x for v, x in c2.items() if v != var}
            for v, x in coefs.items():
                if v != var:
                    out[v] = out.get(v, 0) - sign * b * x
            return out, s * k2 - sign * b * k
        for j in range(len(eqs)):
            eqs[j], eq_k[j] = subst(eqs[j], eq_k[j])
        ineqs = [subst(c2, k2) for c2, k2 in ineqs]
    work: list[Constraint] = []
    for c in ineqs:
        t = _tighten(c)
        if t is None:
            continue
        if not t[0]:
            return False
        work.append(t)
    while True:
        variables = sorted({v for c, _ in work for v in c})
        if not variables:
            return True
        # eliminate the variable producing the fewest new constraints
        def cost(v: str) -> int:
            pos = sum(1 for c, _ in work if c.get(v, 0) > 0)
            neg = sum(1 for c, _ in work if c.get(v, 0) < 0)
            return pos * neg - pos - neg
        var = min(variables, key=cost)
        pos = [(c, k) for c, k in work if c.get(var, 0) > 0]
        neg = [(c, k) for c, k in work if c.get(var, 0) < 0]
        rest = [(c, k) for c, k in work if c.get(var, 0) == 0]
        new: list[Constraint] = []
        for cp, kp in pos:
            for cn, kn in neg:
                a, b = cp[var], -cn[var]
                comb = {v: b * cp.get(v, 0) + a * cn.get(v, 0) for v in set(cp) | set(cn) if v != var}
                t = _tighten((comb, b * kp + a * kn))
                if t is None:
                    continue
                if not t[0]:
                    return False
                new.append(t)
        work = list({(tuple(sorted(c.items())), k): (c, k) for c, k in rest + new}.values())
        if len(work) > MAX_CONSTRAINTS:
            return True
