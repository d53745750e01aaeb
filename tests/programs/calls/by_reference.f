      PROGRAM BYREF
      DOUBLE PRECISION X, A, Y(5), S, RNG, POWER
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
      M(2) = 20
      M(3) = 30
      M(4) = 40
      CALL BUMP(M(3))
      K = ITWICE(M(1)) + 1
      PRINT *, M(1), M(3), K
      IF (RNG(Y(2), A) .GT. 0.5D0) PRINT *, 'HIGH', Y(2)
      PRINT *, Y(2) .NE. 0.0D0
C     a FUNCTION passing its own result variable to routines that write it
      PRINT *, POWER(A, 13), POWER(3.0D0, 0), IPOW(3, 5)
      END
      DOUBLE PRECISION FUNCTION POWER(A, N)
      DOUBLE PRECISION A, AJ, R, RNG
      INTEGER N, NJ
      POWER = 1.0D0
      NJ = N
      AJ = A
   20 IF (NJ .EQ. 0) RETURN
      IF (MOD(NJ, 2) .EQ. 1) R = RNG(POWER, AJ)
      R = RNG(AJ, AJ)
      NJ = NJ / 2
      GO TO 20
      END
      INTEGER FUNCTION IPOW(I, N)
      INTEGER I, N, K
      IPOW = 1
      DO 30 K = 1, N
         CALL TIMES(IPOW, I)
   30 CONTINUE
      END
      SUBROUTINE TIMES(J, I)
      INTEGER J, I
      J = J * I
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
