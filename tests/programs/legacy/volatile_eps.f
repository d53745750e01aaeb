C     A VOLATILE statement (Fortran 2003, added to legacy codes to keep
C     the compiler from folding a unit-roundoff estimate): it changes
C     nothing for autodist, which evaluates every reference in turn.
      PROGRAM VOLEPS
      INTEGER N, I
      PARAMETER (N = 64)
      DOUBLE PRECISION X(N), EPS, ROUND
      EPS = ROUND(1.0D0)
      DO I = 1, N
        X(I) = DBLE(I) * (1.0D0 + EPS)
      END DO
      WRITE (*, '(E12.4)') EPS
      WRITE (*, '(4F12.6)') X(1), X(N / 2), X(N - 1), X(N)
      END

      DOUBLE PRECISION FUNCTION ROUND(X)
      DOUBLE PRECISION X, A, B, C, E
      VOLATILE A, B, C, E
      A = 4.0D0 / 3.0D0
   10 B = A - 1.0D0
      C = B + B + B
      E = ABS(C - 1.0D0)
      IF (E .EQ. 0.0D0) GO TO 10
      ROUND = E * ABS(X)
      END
