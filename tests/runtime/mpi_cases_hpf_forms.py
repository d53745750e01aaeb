"""MPI cases: HPF mapping forms as real programs write them (issue 7), run
by the executor at 1, 2, 3 and 4 ranks and compared with gfortran (arrays of
the main program and printed values; see programs.py).

Collapsed and replicated alignment, reflection, strides, CYCLIC(k) in one and
two dimensions, REALIGN and REDISTRIBUTE, arrangements larger than the rank
count and smaller than it (idle ranks), dummies with prescriptive and
inherited mappings, COMMON arrays mapped in two units, and a phase the fast
path cannot take (GOTO and CALL inside the loop).
"""

from __future__ import annotations

from tests.runtime.programs import check_against_gfortran

COLLAPSED_REPLICATED = """
      PROGRAM COLREP
      INTEGER N
      PARAMETER (N = 12)
      DOUBLE PRECISION A(N,N), B(N), C(N,N), D(N)
      INTEGER I, J
CHPF$ PROCESSORS PR(2,2)
CHPF$ TEMPLATE T(N,N)
CHPF$ DISTRIBUTE T(BLOCK,BLOCK) ONTO PR
CHPF$ ALIGN A(I,J) WITH T(I,J)
CHPF$ ALIGN B(I) WITH T(I,*)
CHPF$ ALIGN (*,:) WITH T(:,1) :: C
CHPF$ ALIGN D(J) WITH T(*,J)
      DO 10 J = 1, N
      DO 10 I = 1, N
         A(I,J) = DBLE(I) + 10.0D0 * DBLE(J)
   10 CONTINUE
      DO 20 I = 1, N
         B(I) = A(I,3) * 0.5D0
         D(I) = A(2,I) - 1.0D0
   20 CONTINUE
      DO 30 J = 1, N
      DO 30 I = 1, N
         C(I,J) = A(J,I) + B(J) * D(I)
   30 CONTINUE
      DO 40 J = 2, N - 1
      DO 40 I = 2, N - 1
         A(I,J) = C(I,J) - 0.25D0 * (A(I-1,J) + A(I+1,J))
   40 CONTINUE
      PRINT *, A(5,7), C(11,2), B(4), D(9)
      END
"""

REFLECTION_STRIDE = """
      PROGRAM REFSTR
      INTEGER N
      PARAMETER (N = 20)
      REAL A(N), B(N), C(N), E(N)
      INTEGER I
CHPF$ PROCESSORS PR(4)
CHPF$ TEMPLATE T(N), T2(2*N)
CHPF$ DISTRIBUTE T(BLOCK) ONTO PR
CHPF$ DISTRIBUTE T2(BLOCK) ONTO PR
CHPF$ ALIGN A(I) WITH T(I)
CHPF$ ALIGN B(I) WITH T(N-I+1)
CHPF$ ALIGN C(I) WITH T2(2*I-1)
CHPF$ ALIGN E(I) WITH T2(2*I)
      DO 10 I = 1, N
         A(I) = REAL(I) * 1.5
         C(I) = REAL(N - I) + 0.25
   10 CONTINUE
      DO 20 I = 1, N
         B(I) = A(N-I+1) * 2.0 + A(I)
   20 CONTINUE
      DO 30 I = 2, N - 1
         E(I) = C(I-1) + C(I+1) - B(I)
   30 CONTINUE
      E(1) = B(1)
      E(N) = B(N)
      PRINT *, B(1), B(N), E(2), E(N-1)
      END
"""

CYCLIC_K = """
      PROGRAM CYCK
      INTEGER N, M
      PARAMETER (N = 23, M = 14)
      DOUBLE PRECISION A(N), B(N), G(N,M), H(N,M), S
      INTEGER I, J
CHPF$ PROCESSORS PR(4), Q(2,2)
CHPF$ DISTRIBUTE A(CYCLIC(2)) ONTO PR
CHPF$ DISTRIBUTE B(CYCLIC(3)) ONTO PR
CHPF$ DISTRIBUTE G(CYCLIC(2),BLOCK) ONTO Q
CHPF$ DISTRIBUTE H(BLOCK,CYCLIC(3)) ONTO Q
      DO 10 I = 1, N
         A(I) = DBLE(I * I)
   10 CONTINUE
      DO 20 I = 1, N - 1
         B(I) = A(I) + A(I+1)
   20 CONTINUE
      B(N) = A(1)
      DO 30 J = 1, M
      DO 30 I = 1, N
         G(I,J) = B(I) * DBLE(J)
         H(I,J) = 0.0D0
   30 CONTINUE
      DO 40 J = 2, M
      DO 40 I = 1, N - 2
         H(I,J) = G(I+2,J-1) - G(I,J)
   40 CONTINUE
      S = 0.0D0
      DO 50 J = 2, M
      DO 50 I = 1, N - 2
         S = S + H(I,J)
   50 CONTINUE
      PRINT *, S, H(7,9), B(N)
      END
"""

REALIGN_REDISTRIBUTE = """
      PROGRAM REMAP
      INTEGER N
      PARAMETER (N = 18)
      REAL X(N,N), Y(N,N), V(N)
      INTEGER I, J, K
CHPF$ PROCESSORS PR(4), Q(2,2)
CHPF$ TEMPLATE T(N,N), W(N)
CHPF$ DISTRIBUTE T(BLOCK,*) ONTO PR
CHPF$ DISTRIBUTE W(BLOCK) ONTO PR
CHPF$ DYNAMIC T, V
CHPF$ ALIGN X(I,J) WITH T(I,J)
CHPF$ ALIGN Y(I,J) WITH T(J,I)
CHPF$ ALIGN V(I) WITH W(I)
      DO 10 J = 1, N
      DO 10 I = 1, N
         X(I,J) = REAL(I + 2 * J)
         Y(I,J) = 0.0
   10 CONTINUE
      DO 5 I = 1, N
         V(I) = REAL(I)
    5 CONTINUE
      DO 40 K = 1, 2
CHPF$ REDISTRIBUTE T(*,CYCLIC(3)) ONTO PR
         DO 20 J = 1, N
         DO 20 I = 2, N
            X(I,J) = X(I,J) + 0.5 * X(I-1,J)
   20    CONTINUE
CHPF$ REDISTRIBUTE T(BLOCK,BLOCK) ONTO Q
         DO 30 J = 1, N
         DO 30 I = 1, N
            Y(I,J) = Y(I,J) + X(J,I) * V(I)
   30    CONTINUE
CHPF$ REALIGN V(I) WITH W(N-I+1)
         DO 35 I = 1, N
            V(I) = V(I) + 1.0
   35    CONTINUE
CHPF$ REALIGN V(I) WITH W(I)
   40 CONTINUE
      PRINT *, X(N,N), Y(3,5), V(2)
      END
"""

LARGE_ARRANGEMENT = """
      PROGRAM BIGPR
      INTEGER N, M
      PARAMETER (N = 40, M = 30)
      DOUBLE PRECISION U(N,M), W(N,M), R
      INTEGER I, J, IT
CHPF$ PROCESSORS P2(20,10)
CHPF$ TEMPLATE T(N,M)
CHPF$ DISTRIBUTE T(BLOCK,BLOCK) ONTO P2
CHPF$ ALIGN (I,J) WITH T(I,J) :: U, W
      DO 10 J = 1, M
      DO 10 I = 1, N
         U(I,J) = DBLE(MOD(I * J, 7))
         W(I,J) = 0.0D0
   10 CONTINUE
      DO 40 IT = 1, 3
         DO 20 J = 2, M - 1
         DO 20 I = 2, N - 1
            W(I,J) = 0.25D0 * (U(I-1,J) + U(I+1,J)
     &                       + U(I,J-1) + U(I,J+1))
   20    CONTINUE
         R = 0.0D0
         DO 30 J = 2, M - 1
         DO 30 I = 2, N - 1
            R = MAX(R, ABS(W(I,J) - U(I,J)))
            U(I,J) = W(I,J)
   30    CONTINUE
   40 CONTINUE
      PRINT *, R, U(20,15)
      END
"""

SMALL_ARRANGEMENT = """
      PROGRAM SMALLP
      INTEGER N
      PARAMETER (N = 10)
      INTEGER K(N), L(N)
      INTEGER I
CHPF$ PROCESSORS PR(2)
CHPF$ DISTRIBUTE K(BLOCK) ONTO PR
CHPF$ ALIGN L(I) WITH K(I)
      DO 10 I = 1, N
         K(I) = I * I - 3 * I
   10 CONTINUE
      DO 20 I = 2, N
         L(I) = K(I) / 3 + MOD(K(I-1), 4) - K(I) / (-2)
   20 CONTINUE
      L(1) = K(N)
      PRINT *, L(1), L(N), K(5)
      END
"""

DUMMIES_AND_COMMON = """
      PROGRAM DUMCOM
      INTEGER N
      PARAMETER (N = 16)
      REAL A(N,N), B(N,N), S
      COMMON /SHARED/ B
      INTEGER I, J
CHPF$ PROCESSORS PR(4)
CHPF$ DISTRIBUTE A(BLOCK,*) ONTO PR
CHPF$ DISTRIBUTE B(*,BLOCK) ONTO PR
      DO 10 J = 1, N
      DO 10 I = 1, N
         A(I,J) = REAL(I - J)
         B(I,J) = REAL(I * J) / 8.0
   10 CONTINUE
      CALL SWEEP(A, N, S)
      CALL SWEEP(A, N, S)
      CALL KEEP(A, N)
      PRINT *, S, A(3,4), B(7,9)
      END

      SUBROUTINE SWEEP(X, M, T)
      INTEGER M
      REAL X(M,M), T
      REAL B(16,16)
      COMMON /SHARED/ B
      INTEGER I, J
CHPF$ PROCESSORS PR(4)
CHPF$ DISTRIBUTE X(*,BLOCK) ONTO PR
CHPF$ DISTRIBUTE B(*,BLOCK) ONTO PR
      T = 0.0
      DO 10 J = 1, M
      DO 10 I = 2, M
         X(I,J) = X(I,J) + X(I-1,J) * 0.5 + B(I,J)
   10 CONTINUE
      DO 20 J = 1, M
         T = MAX(T, X(M,J))
   20 CONTINUE
      END

      SUBROUTINE KEEP(Y, M)
      INTEGER M
      REAL Y(M,M)
      INTEGER I, J
CHPF$ INHERIT Y
      DO 10 J = 1, M
      DO 10 I = 1, M
         Y(I,J) = Y(I,J) * 2.0 - 1.0
   10 CONTINUE
      END
"""

INLINE_PHASE = """
      PROGRAM INLINE
      INTEGER N
      PARAMETER (N = 14)
      DOUBLE PRECISION A(N), B(N)
      INTEGER I, K
CHPF$ PROCESSORS PR(4)
CHPF$ DISTRIBUTE A(BLOCK) ONTO PR
CHPF$ DISTRIBUTE B(CYCLIC) ONTO PR
      DO 10 I = 1, N
         A(I) = DBLE(I) / 3.0D0
         B(I) = 0.0D0
   10 CONTINUE
      DO 30 I = 1, N
         K = 0
   20    K = K + 1
         B(I) = B(I) + A(N - I + 1) / DBLE(K)
         IF (K .LT. MOD(I, 3) + 1) GO TO 20
         CALL BUMP(B(I))
   30 CONTINUE
      PRINT *, B(1), B(N), A(2)
      END

      SUBROUTINE BUMP(X)
      DOUBLE PRECISION X
      X = X * 1.5D0 + 0.125D0
      END
"""


def mpi_case_collapsed_and_replicated_alignment(comm):
    check_against_gfortran(comm, COLLAPSED_REPLICATED)


def mpi_case_reflection_and_strides(comm):
    check_against_gfortran(comm, REFLECTION_STRIDE)


def mpi_case_cyclic_k_in_one_and_two_dimensions(comm):
    check_against_gfortran(comm, CYCLIC_K)


def mpi_case_realign_and_redistribute(comm):
    check_against_gfortran(comm, REALIGN_REDISTRIBUTE)


def mpi_case_arrangement_larger_than_the_ranks(comm):
    check_against_gfortran(comm, LARGE_ARRANGEMENT)


def mpi_case_arrangement_smaller_than_the_ranks(comm):
    check_against_gfortran(comm, SMALL_ARRANGEMENT)


def mpi_case_dummies_and_common_arrays(comm):
    check_against_gfortran(comm, DUMMIES_AND_COMMON)


def mpi_case_phase_outside_the_fast_path(comm):
    check_against_gfortran(comm, INLINE_PHASE)


EMPTY_PARTS = """
      PROGRAM EMPTY
C     BLOCK over fewer columns than some rank counts cover: with 4 columns
C     on 3 ranks the third rank holds nothing (it crashed copying its part
C     into a phase window), and CYCLIC of 2 elements on 3 or 4 ranks.
      DOUBLE PRECISION Z(5, 4), W(2), S
      INTEGER I, J
CHPF$ DISTRIBUTE Z(*, BLOCK)
CHPF$ DISTRIBUTE W(CYCLIC)
      DO 10 J = 1, 4
         DO 10 I = 1, 5
            Z(I, J) = DBLE(I + 10 * J)
   10 CONTINUE
      DO 20 J = 2, 4
         DO 20 I = 1, 5
            Z(I, J) = Z(I, J) + 0.5D0 * Z(I, J - 1)
   20 CONTINUE
      W(1) = Z(5, 4)
      W(2) = Z(1, 1)
      S = 0.0D0
      DO 30 I = 1, 2
         S = S + W(I)
   30 CONTINUE
      PRINT *, S, Z(3, 3)
      END
"""


def mpi_case_ranks_that_hold_nothing(comm):
    check_against_gfortran(comm, EMPTY_PARTS if comm.Get_rank() == 0 else "")


CSR_BOUNDS = """
      PROGRAM CSR
C     Inner loop bounds read from a distributed array, as in a CSR
C     sparse matrix (NPB CG): DO K = ROWSTR(J), ROWSTR(J+1)-1.  A rank
C     read the bounds from its own part of ROWSTR at global positions (an
C     index error, or other rows' bounds); such a phase runs replicated.
      INTEGER N, NZ
      PARAMETER (N = 6, NZ = 20)
      INTEGER ROWSTR(N + 1), COLIDX(NZ), J, K, IS
      DOUBLE PRECISION V(NZ), W(N)
CHPF$ DISTRIBUTE COLIDX(BLOCK)
CHPF$ DISTRIBUTE ROWSTR(BLOCK)
CHPF$ DISTRIBUTE V(CYCLIC)
CHPF$ DISTRIBUTE W(BLOCK)
      DO 5 J = 1, N + 1
         ROWSTR(J) = 1 + 3 * (J - 1)
    5 CONTINUE
      DO 6 K = 1, NZ
         COLIDX(K) = 10 * K
         V(K) = 0.5D0 * DBLE(K)
    6 CONTINUE
      DO 10 J = 1, N
CHPF$ INDEPENDENT
         DO 10 K = ROWSTR(J), ROWSTR(J + 1) - 1
            COLIDX(K) = COLIDX(K) - 5 + 1
   10 CONTINUE
      DO 20 J = 1, N
         W(J) = 0.0D0
         DO 20 K = ROWSTR(J), ROWSTR(J + 1) - 1
            W(J) = W(J) + V(K) * DBLE(COLIDX(K))
   20 CONTINUE
      IS = 0
      DO 30 K = 1, NZ
         IS = IS + COLIDX(K) * K
   30 CONTINUE
      PRINT *, IS, W(1), W(N)
      END
"""


def mpi_case_loop_bounds_read_from_a_distributed_array(comm):
    check_against_gfortran(comm, CSR_BOUNDS if comm.Get_rank() == 0 else "")
