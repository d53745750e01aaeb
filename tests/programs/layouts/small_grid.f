C     A 12-point grid of 5-component states (the class S size of the NAS
C     pseudo-applications) smoothed in every direction for a number of
C     steps.  On 16 processors the grid dimensions have fewer points than
C     processors: an expert still distributes a grid dimension BLOCK (some
C     processors idle), never the 5 components, and never replicates it all.
      PROGRAM SMALL
      INTEGER N, NSTEP
      PARAMETER (N = 12, NSTEP = 50)
      DOUBLE PRECISION U(5,N,N,N), R(5,N,N,N)
      INTEGER I, J, K, M, STEP
      DO 10 K = 1, N
      DO 10 J = 1, N
      DO 10 I = 1, N
      DO 10 M = 1, 5
         U(M,I,J,K) = DBLE(M + I + J + K)
   10 CONTINUE
      DO 50 STEP = 1, NSTEP
         DO 20 K = 2, N - 1
         DO 20 J = 2, N - 1
         DO 20 I = 2, N - 1
         DO 20 M = 1, 5
            R(M,I,J,K) = U(M,I-1,J,K) + U(M,I+1,J,K)
     &                 + U(M,I,J-1,K) + U(M,I,J+1,K)
     &                 + U(M,I,J,K-1) + U(M,I,J,K+1)
     &                 - 6.0D0 * U(M,I,J,K)
   20    CONTINUE
         DO 30 K = 2, N - 1
         DO 30 J = 2, N - 1
         DO 30 I = 2, N - 1
         DO 30 M = 1, 5
            U(M,I,J,K) = U(M,I,J,K) + 0.1D0 * R(M,I,J,K)
   30    CONTINUE
   50 CONTINUE
      WRITE (*,*) U(3,6,6,6)
      END
