C     A solver pass repeated once more through GO TO: the loop back to
C     label 10 is left only by a logical IF RETURN (a second-order pass
C     after the first), as deferred-correction solvers are written.
      PROGRAM RLOOP
      INTEGER N
      PARAMETER (N = 50)
      DOUBLE PRECISION U(N), F(N)
      INTEGER I
      DO 5 I = 1, N
         U(I) = 0.0D0
         F(I) = DBLE(I) / DBLE(N)
    5 CONTINUE
      CALL SOLVE(U, F, N)
      PRINT *, U(N / 2)
      END

      SUBROUTINE SOLVE(U, F, N)
      INTEGER N, I, IORD
      DOUBLE PRECISION U(N), F(N)
      IORD = 1
   10 CONTINUE
      DO 20 I = 2, N - 1
         U(I) = 0.5D0 * (U(I-1) + U(I+1)) + F(I)
   20 CONTINUE
      IF (IORD .EQ. 2) RETURN
      IORD = 2
      DO 30 I = 1, N
         F(I) = 0.5D0 * F(I)
   30 CONTINUE
      GO TO 10
      END
