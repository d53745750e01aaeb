C     Scalar code for the compiled path: a recurrence with IF and GO TO,
C     procedures called in loops, integer division and MOD with negative
C     operands, REAL next to DOUBLE PRECISION, a FUNCTION that writes its
C     argument, COMMON and SAVE, an element passed as the start of a dummy.
      PROGRAM SCALAR
      INTEGER N
      PARAMETER (N = 60)
      DOUBLE PRECISION X(N), S, SEED, RANDX
      REAL R(N), T
      INTEGER ID(-7:7), I, K, KSTEP
      INTEGER*8 BIG
      COMMON /CNT/ KSTEP, T
      SEED = 314159.0D0
      KSTEP = 0
      T = 0.0
      DO 10 I = 1, N
         X(I) = RANDX(SEED)
         R(I) = REAL(I) / 7.0
   10 CONTINUE
      CALL RECUR(X, N, S, K)
      CALL IDIVS(ID, BIG)
      CALL REALS(R, N)
      CALL SHIFT(X(N / 2), N / 2)
      PRINT *, S, K, KSTEP, T
      PRINT *, ID
      PRINT *, BIG, R(1), R(N), X(1), X(N)
      END

      DOUBLE PRECISION FUNCTION RANDX(SEED)
C     a linear congruential generator that updates its argument
      DOUBLE PRECISION SEED
      SEED = MOD(SEED * 16807.0D0, 2147483647.0D0)
      RANDX = SEED / 2147483647.0D0
      END

      SUBROUTINE RECUR(X, N, S, K)
      INTEGER N, K, I, J, M
      DOUBLE PRECISION X(N), S, D
      S = 0.0D0
      K = 0
      DO 30 I = 2, N
         D = X(I) - X(I - 1)
         IF (D) 21, 22, 23
   21    S = S - D * 0.5D0
         GOTO 24
   22    K = K + 100
         GOTO 24
   23    S = S + D
   24    DO 26 J = 1, I
            IF (X(J) .GT. 0.97D0) GOTO 28
            IF (MOD(I + J, 17) .EQ. 0) GOTO 30
   26    CONTINUE
         GOTO 29
   28    K = K + 1
         CALL TICK(K)
   29    S = S * 0.999D0 + X(I)
   30 CONTINUE
      M = 0
   40 M = M + 3
      IF (M .LT. 40) GOTO 40
      GOTO (41, 42, 43) MOD(M, 3) + 1
   41 K = K + M
      GOTO 44
   42 K = K - M
      GOTO 44
   43 K = K * 2
   44 CONTINUE
      DO WHILE (S .GT. 10.0D0)
         S = S / 3.0D0
      END DO
      END

      SUBROUTINE TICK(K)
      INTEGER K, CALLS, KSTEP
      REAL T
      COMMON /CNT/ KSTEP, T
      SAVE CALLS
      DATA CALLS /0/
      CALLS = CALLS + 1
      KSTEP = KSTEP + CALLS
      T = T + 0.1 * REAL(K)
      END

      SUBROUTINE IDIVS(ID, BIG)
      INTEGER ID(-7:7), I, L
      INTEGER*8 BIG
      DO 50 I = -7, 7
         L = I + 8
         ID(I) = I / 3 + MOD(I, 4) * 10 + MOD(-29, L) * 100
     &         + ISIGN(L, I) * 1000 + MODULO(I, 5) * 7 + (I * 3) ** 2
         IF (I .NE. 0) ID(I) = ID(I) + 2147483647 / I + (-I) ** 3
   50 CONTINUE
      L = 2147483647
      ID(0) = L + 100
      BIG = 1
      DO 55 I = 1, 62
         BIG = BIG * 2 + MOD(I, 2)
   55 CONTINUE
      END

      SUBROUTINE REALS(R, N)
      INTEGER N, I
      REAL R(N), A, B
      DOUBLE PRECISION D
      A = 0.1
      D = 0.1D0
      DO 60 I = 1, N
         B = R(I) * A + 1.0 / 3.0
         R(I) = B ** 2 + SQRT(B) - B ** 3 / 7.0 + B ** (-2) + A ** I
     &        + SIN(B) * EXP(-B) + ATAN2(B, 2.0) + REAL(D * DBLE(B))
     &        + ANINT(B * 10.0) + AINT(-B) + DIM(B, 0.5) + SIGN(B, -1.0)
     &        + MOD(B, 0.3) + FLOAT(NINT(B * 7.5)) + B ** 1.5
         D = D + DBLE(R(I)) / 3.0D0
   60 CONTINUE
      R(1) = REAL(D)
      END

      SUBROUTINE SHIFT(Y, M)
      INTEGER M, I
      DOUBLE PRECISION Y(*)
      DO 70 I = 1, M
         Y(I) = Y(I) * 2.0D0 - 1.0D0
   70 CONTINUE
      END
