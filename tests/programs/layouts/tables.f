C     A grid of 5-component states initialized from a constant table of
C     coefficients CE(5,13) (as the NAS pseudo-applications do) and scaled
C     by a 4-entry table of weights W(4).  An expert distributes the grid
C     and replicates both tables: they are tiny and every processor reads
C     them whole.
      PROGRAM TABLES
      INTEGER N, NSTEP
      PARAMETER (N = 24, NSTEP = 20)
      DOUBLE PRECISION U(5,N,N,N), R(5,N,N,N), CE(5,13), W(4)
      DOUBLE PRECISION X, Y, Z
      INTEGER I, J, K, M, STEP, L
      DO 5 L = 1, 13
      DO 5 M = 1, 5
         CE(M,L) = DBLE(M) / DBLE(L + 1)
    5 CONTINUE
      W(1) = 0.5D0
      W(2) = 0.25D0
      W(3) = 0.125D0
      W(4) = 0.0625D0
      DO 10 K = 1, N
      DO 10 J = 1, N
      DO 10 I = 1, N
         X = DBLE(I) / N
         Y = DBLE(J) / N
         Z = DBLE(K) / N
      DO 10 M = 1, 5
         U(M,I,J,K) = CE(M,1) + X*(CE(M,2) + X*CE(M,5))
     &              + Y*(CE(M,3) + Y*CE(M,6)) + Z*(CE(M,4) + Z*CE(M,7))
   10 CONTINUE
      DO 50 STEP = 1, NSTEP
         DO 20 K = 2, N - 1
         DO 20 J = 2, N - 1
         DO 20 I = 2, N - 1
         DO 20 M = 1, 5
            R(M,I,J,K) = W(1) * (U(M,I-1,J,K) + U(M,I+1,J,K))
     &                 + W(2) * (U(M,I,J-1,K) + U(M,I,J+1,K))
     &                 + W(3) * (U(M,I,J,K-1) + U(M,I,J,K+1))
     &                 - W(4) * U(M,I,J,K)
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
