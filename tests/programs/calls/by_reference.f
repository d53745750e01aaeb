      PROGRAM BYREF
      DOUBLE PRECISION X, A, Y(5), S, RNG
      INTEGER N, M(4), K
      COMMON /CNT/ N
      X = 314159265.0D0
      A = 1220703125.0D0
      S = 0.0D0
      DO 10 K = 1, 5
         Y(K) = RNG(X, A)
         S = S + Y(K)
   10 CONTINUE
      PRINT *, X, S
      N = 2
      CALL BUMP(N)
      CALL BUMP(N)
      PRINT *, N
      M(1) = 10
      M(3) = 30
      CALL BUMP(M(3))
      K = ITWICE(M(1)) + 1
      PRINT *, M(1), M(3), K
      IF (RNG(Y(2), A) .GT. 0.5D0) PRINT *, 'HIGH', Y(2)
      PRINT *, Y(2) .NE. 0.0D0
      END
      DOUBLE PRECISION FUNCTION RNG(X, A)
      DOUBLE PRECISION X, A, T
      T = MOD(A * X, 2147483647.0D0)
      X = T
      RNG = T / 2147483647.0D0
      END
      SUBROUTINE BUMP(I)
      INTEGER I, N
      COMMON /CNT/ N
      I = I + 1
      END
      INTEGER FUNCTION ITWICE(I)
      INTEGER I
      I = 2 * I
      ITWICE = I
      END
