C     A routine called once that runs long: scalar code with a GO TO, which
C     stays a routine of its own (it cannot move to compiled code in the
C     middle of its only call).
      PROGRAM ONCE
      INTEGER N
      PARAMETER (N = 40000)
      DOUBLE PRECISION X(N), S
      CALL FILLUP(X, N, S)
      PRINT *, S, X(1), X(N)
      END

      SUBROUTINE FILLUP(X, N, S)
      INTEGER N, I, K
      DOUBLE PRECISION X(N), S
      S = 0.0D0
      DO 20 K = 1, 5
         DO 10 I = 1, N
            IF (MOD(I, 7) .EQ. 0) GO TO 10
            X(I) = DBLE(I) * 0.5D0 + K
            S = S + X(I) / DBLE(K)
   10    CONTINUE
   20 CONTINUE
      END
