C     A local work array of the caller passed as a dummy to a routine that
C     fills it and then uses it, once per iteration of the caller's loop:
C     INDEPENDENT, NEW(WK) on DO J.
      PROGRAM DUMMYW
      INTEGER N
      PARAMETER (N = 12)
      DOUBLE PRECISION A(N, N), WK(0:N+1)
      INTEGER I, J
      DO J = 1, N
         DO I = 1, N
            A(I, J) = DBLE(I * I + J)
         END DO
      END DO
      DO J = 1, N
         CALL SMOOTH(A(1, J), WK, N)
      END DO
      PRINT *, A(2, 3), A(N, N)
      END

      SUBROUTINE SMOOTH(X, W, N)
      INTEGER N, I
      DOUBLE PRECISION X(N), W(0:N+1)
      W(0) = 0.0D0
      W(N + 1) = 0.0D0
      DO I = 1, N
         W(I) = X(I)
      END DO
      DO I = 1, N
         X(I) = 0.25D0 * W(I - 1) + 0.5D0 * W(I) + 0.25D0 * W(I + 1)
      END DO
      END
