      PROGRAM AXPY
C     BLAS from another file (--link blas.f) on distributed arrays: DAXPY
C     and DSCAL modify them, DDOT returns DOUBLE PRECISION; whole arrays,
C     a column and a piece starting at an element.
      INTEGER N, M
      PARAMETER (N = 30, M = 6)
      DOUBLE PRECISION X(N), Y(N), Z(N, M), DDOT, D
      INTEGER I, J
CHPF$ PROCESSORS P(3)
CHPF$ DISTRIBUTE X(BLOCK) ONTO P
CHPF$ DISTRIBUTE Y(CYCLIC) ONTO P
CHPF$ DISTRIBUTE Z(*, BLOCK) ONTO P
      DO 10 I = 1, N
         X(I) = DBLE(I) / 8.0D0
         Y(I) = DBLE(N - I)
   10 CONTINUE
      DO 20 J = 1, M
         DO 20 I = 1, N
            Z(I, J) = DBLE(I + J)
   20 CONTINUE
      CALL DAXPY(N, 2.0D0, X, 1, Y, 1)
      CALL DAXPY(N - 10, -1.0D0, X(5), 1, Y(11), 1)
      CALL DSCAL(N, 0.5D0, Z(1, 3), 1)
      D = DDOT(N, X, 1, Y, 1)
      DO 30 J = 1, M
         Z(1, J) = Z(1, J) + DDOT(N, Z(1, J), 1, X, 1)
   30 CONTINUE
      PRINT *, 'DOT', D
      PRINT *, 'Y', Y(1), Y(11), Y(N)
      PRINT *, 'Z', (Z(1, J), J = 1, M), Z(N, 3)
      END
