C     A time loop that records a history (so the loop is a phase of its
C     own) and calls the stencil sweep inside it: the sweep's cost belongs
C     to the loop phase in the dynamic selection as in the static one.
      PROGRAM HEAT
      INTEGER N, NSTEP
      PARAMETER (N = 400, NSTEP = 50)
      DOUBLE PRECISION U(N), UNEW(N), HIST(NSTEP)
      INTEGER I, IT
      DO 10 I = 1, N
         U(I) = DBLE(I) / N
   10 CONTINUE
      DO 20 IT = 1, NSTEP
         CALL SWEEP(U, UNEW, N)
         HIST(IT) = U(N / 2)
   20 CONTINUE
      WRITE (*,*) HIST(NSTEP)
      END

      SUBROUTINE SWEEP(U, UNEW, N)
      INTEGER N, I
      DOUBLE PRECISION U(N), UNEW(N)
      DO 30 I = 2, N - 1
         UNEW(I) = 0.5D0 * U(I) + 0.25D0 * (U(I-1) + U(I+1))
   30 CONTINUE
      DO 40 I = 2, N - 1
         U(I) = UNEW(I)
   40 CONTINUE
      END
