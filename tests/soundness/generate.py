"""Random small Fortran 77 programs whose loops mix every situation the
dependence analysis must get right: shifts forward and backward, sweeps,
transposition, induction variables, private and carried scalars, reductions,
conditionals, triangular nests, dependence distances held in variables,
subscripts through private integers (coarse-grid indices).  Used
to check end to end that what analysis calls parallel really is (the runtime
vectorizes those loops) and, with ``mapped=True`` (HPF directives: BLOCK,
CYCLIC(k), stride, offset and reflection alignments, transposed alignment to
another array), that every rank count gives gfortran's results."""

from __future__ import annotations

import random

HEADER = """      PROGRAM FZ
      INTEGER N, I, J, IX, K
      PARAMETER (N = 12)
      DOUBLE PRECISION A(0:N+3), B(N,N), C(N,N), W(0:N+1), S, T
      INTEGER IDX(N)
      DO 1 J = 1, N
      DO 1 I = 1, N
         B(I,J) = DBLE(I + 2 * J) / DBLE(N)
         C(I,J) = DBLE(I * J) / DBLE(N * N)
    1 CONTINUE
      DO 2 I = 0, N + 3
    2 A(I) = DBLE(I) / DBLE(N)
      DO 3 I = 1, N
    3 IDX(I) = MOD(7 * I, N) + 1
      DO 4 I = 0, N + 1
    4 W(I) = 0.0D0
"""

FOOTER = """      S = 0.0D0
      DO 98 J = 1, N
      DO 98 I = 1, N
   98 S = S + B(I,J) * DBLE(I + J) + C(I,J) * DBLE(I - J)
      T = 0.0D0
      DO 99 I = 0, N + 3
   99 T = T + A(I) * DBLE(I + 1)
      PRINT *, S, T
      END
"""


def _c(rng: random.Random) -> str:
    return f"{rng.choice([0.25, 0.5, 0.75, 1.25])}D0"


def _nest(rng: random.Random, k: int, mapped: bool = False) -> str:
    lbl = 10 * (k + 1)
    # mapped programs favour the dependences that cross rank boundaries
    kind = rng.choice(range(20)) if not mapped else rng.choice((*range(20), 0, 1, 11, 18, 18, 18, 18))
    d = rng.choice([-2, -1, 1, 2])
    if kind == 0:  # 1-D shift, either direction
        lo, hi = 2, 12
        sign = "+" if d > 0 else "-"
        return (f"      DO {lbl} I = {lo}, {hi}\n"
                f"   {lbl} A(I) = A(I {sign} {abs(d)}) * {_c(rng)} + {_c(rng)}\n")
    if kind == 1:  # 2-D sweep carried along J (or not, dj = 0)
        dj = rng.choice([0, 1, 2])
        return (f"      DO {lbl} J = 3, N\n      DO {lbl} I = 1, N\n"
                f"   {lbl} B(I,J) = B(I,J-{dj}) * {_c(rng)} + C(I,J)\n")
    if kind == 2:  # transposed read
        return (f"      DO {lbl} J = 1, N\n      DO {lbl} I = 1, N\n"
                f"   {lbl} C(I,J) = B(J,I) + C(I,J) * {_c(rng)}\n")
    if kind == 3:  # induction variable set before the loop
        step = rng.choice([1, 1, 2])
        return (f"      IX = 1\n      DO {lbl} I = 1, 6\n"
                f"         A(IX) = A(IX) * {_c(rng)} + B(I,1)\n"
                f"         IX = IX + {step}\n   {lbl} CONTINUE\n")
    if kind == 4:  # private temporary
        return (f"      DO {lbl} I = 1, N\n         T = B(I,1) * {_c(rng)}\n"
                f"         A(I) = T + A(I)\n   {lbl} CONTINUE\n")
    if kind == 5:  # carried scalar (a recurrence)
        return (f"      T = 0.0D0\n      DO {lbl} I = 1, N\n         T = T * {_c(rng)} + A(I)\n"
                f"         A(I) = T\n   {lbl} CONTINUE\n")
    if kind == 6:  # reduction, then used
        return (f"      S = 0.0D0\n      DO {lbl} I = 1, N\n   {lbl} S = S + A(I) * {_c(rng)}\n"
                f"      A(0) = S / DBLE(N)\n")
    if kind == 7:  # conditional update
        return (f"      DO {lbl} I = 1, N\n"
                f"         IF (A(I) .GT. {_c(rng)}) A(I) = A(I) - {_c(rng)}\n   {lbl} CONTINUE\n")
    if kind == 8:  # in-place transposition of B's upper triangle
        return (f"      DO {lbl} I = 1, N - 1\n      DO {lbl} J = I + 1, N\n"
                f"         T = B(I,J)\n         B(I,J) = B(J,I)\n         B(J,I) = T\n   {lbl} CONTINUE\n")
    if kind == 9:  # a dot product through a strided index (LINPACK's VDOT)
        return (f"      S = 0.0D0\n      IX = 1\n      DO {lbl} I = 1, 6\n"
                f"         S = S + A(IX) * B(I,2)\n         IX = IX + 2\n   {lbl} CONTINUE\n"
                f"      A(N+3) = S * {_c(rng)}\n")
    if kind == 11:  # backward sweep along J reading the right neighbour
        return (f"      DO {lbl} J = N - 1, 1, -1\n      DO {lbl} I = 1, N\n"
                f"   {lbl} B(I,J) = B(I,J+1) * {_c(rng)} + B(I,J)\n")
    if kind == 12:  # a conditionally assigned scalar used later in the iteration
        return (f"      T = 1.0D0\n      DO {lbl} I = 1, N\n"
                f"         IF (A(I) .GT. {_c(rng)}) T = A(I)\n         A(I) = T * {_c(rng)}\n   {lbl} CONTINUE\n")
    if kind == 13:  # a private work array
        return (f"      DO {lbl} J = 1, N\n         DO {lbl + 1} I = 0, N + 1\n"
                f"   {lbl + 1}    W(I) = B(MAX(1, MIN(N, I)), J) * {_c(rng)}\n"
                f"         DO {lbl + 2} I = 1, N\n   {lbl + 2}    C(I,J) = W(I+1) - W(I-1) + C(I,J)\n"
                f"   {lbl} CONTINUE\n")
    if kind == 14:  # MAX reduction in the IF form
        return (f"      S = -1.0D9\n      DO {lbl} I = 1, N\n         IF (A(I) .GT. S) S = A(I)\n   {lbl} CONTINUE\n"
                f"      A(N+2) = S\n")
    if kind == 15:  # triangular sums over an inner loop bounded by the outer one
        return (f"      DO {lbl} I = 1, N\n         T = 0.0D0\n         DO {lbl + 1} J = 1, I\n"
                f"   {lbl + 1}    T = T + B(I,J)\n         C(I,1) = T * {_c(rng)}\n   {lbl} CONTINUE\n")
    if kind == 16:  # non-affine subscripts (MOD): written where read
        return (f"      DO {lbl} I = 1, N\n   {lbl} A(MOD(I,5)+1) = A(MOD(I,5)+1) * {_c(rng)} + A(I+1)\n")
    if kind == 17:  # indirection through an integer array (a permutation)
        return (f"      DO {lbl} I = 1, N\n   {lbl} C(IDX(I),2) = C(I,3) * {_c(rng)} + C(IDX(I),2)\n")
    if kind == 18:  # a distance held in a variable the analysis cannot know, either direction
        if rng.random() < 0.5:  # a value constant propagation finds
            k = f"      K = {rng.randrange(1, 8)}\n"
        else:
            k = f"      K = MOD(IDX({rng.randrange(1, 13)}), {rng.choice([3, 5, 7])}) + 1\n"
        if rng.random() < 0.5:
            return k + f"      DO {lbl} I = K, N + 3\n   {lbl} A(I) = A(I - K) * {_c(rng)} + {_c(rng)}\n"
        return k + (f"      DO {lbl} J = 1, N\n      DO {lbl} I = N - K, 1, -1\n"
                    f"   {lbl} B(I,J) = B(I + K,J) * {_c(rng)} + C(I,J)\n")
    if kind == 19:  # private integers computed from the loop variables, used as subscripts (a coarse grid)
        return (f"      DO {lbl} J = 1, N\n      DO {lbl} I = 1, N\n         IX = (I + 1) / 2\n"
                f"         K = (J + {rng.choice([1, 2])}) / 2\n"
                f"         IF (MOD(I, 2) .EQ. 1 .AND. MOD(J, 2) .EQ. 0) THEN\n"
                f"            C(I,J) = B(IX,K) * {_c(rng)} + C(I,J)\n"
                f"         ELSE\n            C(I,J) = B(K,IX) - C(I,J)\n         END IF\n   {lbl} CONTINUE\n")
    # backward loop reading the left neighbour (a dependence only in one direction)
    return (f"      DO {lbl} I = N, 2, -1\n   {lbl} A(I) = A(I-1) * {_c(rng)} + A(I)\n")


#: Mappings of A (1-D, indices 0..N+3): distributions and alignments to a template.
A_MAPPINGS = (
    "CHPF$ DISTRIBUTE A(BLOCK)\n",
    "CHPF$ DISTRIBUTE A(CYCLIC)\n",
    "CHPF$ DISTRIBUTE A(CYCLIC(3))\n",
    "CHPF$ TEMPLATE TA(2*N+8)\nCHPF$ ALIGN A(I) WITH TA(2*I+1)\nCHPF$ DISTRIBUTE TA(BLOCK)\n",
    "CHPF$ TEMPLATE TA(N+4)\nCHPF$ ALIGN A(I) WITH TA(N+4-I)\nCHPF$ DISTRIBUTE TA(BLOCK)\n",
    "CHPF$ TEMPLATE TA(N+6)\nCHPF$ ALIGN A(I) WITH TA(I+2)\nCHPF$ DISTRIBUTE TA(CYCLIC(2))\n",
)
B_MAPPINGS = ("(BLOCK, *)", "(*, BLOCK)", "(BLOCK, BLOCK)", "(CYCLIC, *)", "(*, CYCLIC(2))")
C_MAPPINGS = (
    "CHPF$ ALIGN C(I,J) WITH B(I,J)\n",
    "CHPF$ ALIGN C(I,J) WITH B(J,I)\n",
    "CHPF$ DISTRIBUTE C(*, BLOCK)\n",
    "",
)


def directives(rng: random.Random) -> str:
    """HPF directives mapping A, B and C (W stays a replicated work array)."""
    return (rng.choice(A_MAPPINGS) + f"CHPF$ DISTRIBUTE B{rng.choice(B_MAPPINGS)}\n"
            + rng.choice(C_MAPPINGS))


def program(seed: int, nests: int = 5, mapped: bool = False) -> str:
    rng = random.Random(seed)
    body = "".join(_nest(rng, k, mapped) for k in range(nests))
    if not mapped:
        return HEADER + body + FOOTER
    head, _, rest = HEADER.partition("      DO 1 J = 1, N\n")
    return head + directives(random.Random(seed + 7919)) + "      DO 1 J = 1, N\n" + rest + body + FOOTER
