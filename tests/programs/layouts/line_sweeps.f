C     Line sweeps along the three dimensions of a 12-point grid (the
C     class S size of the NAS pseudo-applications), each a recurrence
C     with a scalar temporary (no pipeline).  A dimension distributed
C     BLOCK runs the sweep along it processor after processor, a hand-off
C     between each: on a machine whose messages cost microseconds, 12
C     processors along a 12-point dimension hand off more than the two
C     parallel sweeps save, and the layout over 4 of 16 processors (the
C     best on 4) would be the best on 16.
      PROGRAM SWEEPS
      INTEGER N, NSTEP
      PARAMETER (N = 12, NSTEP = 100)
      DOUBLE PRECISION U(N,N,N), R(N,N,N), S(N,N,N), T
      INTEGER I, J, K, STEP
      DO 10 K = 1, N
      DO 10 J = 1, N
      DO 10 I = 1, N
         U(I,J,K) = DBLE(I + J + K)
         R(I,J,K) = DBLE(I - J)
         S(I,J,K) = DBLE(K - I)
   10 CONTINUE
      DO 50 STEP = 1, NSTEP
         DO 20 K = 1, N
         DO 20 J = 1, N
         DO 20 I = 2, N
            T = 0.5D0 * U(I-1,J,K)
            U(I,J,K) = U(I,J,K) - T + R(I,J,K) + S(I,J,K)
   20    CONTINUE
         DO 30 K = 1, N
         DO 30 J = 2, N
         DO 30 I = 1, N
            T = 0.5D0 * U(I,J-1,K)
            U(I,J,K) = U(I,J,K) - T + R(I,J,K) + S(I,J,K)
   30    CONTINUE
         DO 40 K = 2, N
         DO 40 J = 1, N
         DO 40 I = 1, N
            T = 0.5D0 * U(I,J,K-1)
            U(I,J,K) = U(I,J,K) - T + R(I,J,K) + S(I,J,K)
   40    CONTINUE
   50 CONTINUE
      WRITE (*,*) U(6,6,6)
      END
