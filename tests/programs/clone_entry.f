C     clone.f with a second name for SCALE (an ENTRY): a clone would
C     define HALVE twice, so both calls use the one SCALE.
      PROGRAM CLONEN
      INTEGER N
      PARAMETER (N = 64)
      DOUBLE PRECISION X(N,N), Y(N,N)
      DO 1 J = 1, N
      DO 1 I = 1, N
         X(I,J) = DBLE(I + J)
         Y(I,J) = DBLE(I - J)
    1 CONTINUE
      DO 100 IT = 1, 10
         DO 10 J = 2, N
         DO 10 I = 1, N
   10    X(I,J) = X(I,J-1) * 0.5D0 + X(I,J)
         DO 20 J = 1, N
         DO 20 I = 2, N
   20    Y(I,J) = Y(I-1,J) * 0.5D0 + Y(I,J)
         CALL SCALE(X, N)
         CALL SCALE(Y, N)
  100 CONTINUE
      PRINT *, X(N,N), Y(N,N)
      END
      SUBROUTINE SCALE(A, N)
      INTEGER N
      DOUBLE PRECISION A(N,N)
      ENTRY HALVE(A, N)
      DO 10 J = 1, N
      DO 10 I = 1, N
   10 A(I,J) = A(I,J) * 0.5D0
      END
