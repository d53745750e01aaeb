C     Two phases that sweep an array along different dimensions, with a
C     transposed copy between them, many times.  On a machine whose network
C     is slow, keeping both arrays whole on every processor is cheapest; a
C     processor memory too small for that makes a distributed mapping the
C     only feasible one.
      PROGRAM TRANSP
      INTEGER N, NSTEP
      PARAMETER (N = 64, NSTEP = 10)
      DOUBLE PRECISION A(N,N), B(N,N)
      INTEGER I, J, STEP
      DO 10 J = 1, N
      DO 10 I = 1, N
         A(I,J) = DBLE(I) + DBLE(J) / N
   10 CONTINUE
      DO 50 STEP = 1, NSTEP
         DO 20 J = 1, N
         DO 20 I = 1, N
            B(I,J) = A(J,I) * 0.5D0
   20    CONTINUE
         DO 30 J = 1, N
         DO 30 I = 2, N
            A(I,J) = A(I-1,J) + B(I,J)
   30    CONTINUE
   50 CONTINUE
      WRITE (*,*) A(N,N)
      END
