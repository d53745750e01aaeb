C     An iterative solver whose convergence test calls a FUNCTION from a
C     scalar assignment inside DO WHILE: the norm's loop runs every sweep.
      PROGRAM SOLVE
      INTEGER N
      PARAMETER (N = 200)
      DOUBLE PRECISION A(N,N), B(N,N), ERR, RMS
      INTEGER I, J, IT
      DO 10 J = 1, N
      DO 10 I = 1, N
         A(I,J) = 0.0D0
         B(I,J) = DBLE(I + J)
   10 CONTINUE
      ERR = 1.0D0
      IT = 0
      DO WHILE (ERR .GT. 1.0D-3 .AND. IT .LT. 20)
         DO 20 J = 2, N - 1
         DO 20 I = 2, N - 1
            A(I,J) = 0.25D0 * (B(I-1,J) + B(I+1,J)
     &             + B(I,J-1) + B(I,J+1))
   20    CONTINUE
         ERR = RMS(A, B, N)
         DO 30 J = 2, N - 1
         DO 30 I = 2, N - 1
            B(I,J) = A(I,J)
   30    CONTINUE
         IT = IT + 1
      END DO
      WRITE (*,*) IT, ERR
      END

      DOUBLE PRECISION FUNCTION RMS(A, B, N)
      INTEGER N, I, J
      DOUBLE PRECISION A(N,N), B(N,N), S
      S = 0.0D0
      DO 40 J = 1, N
      DO 40 I = 1, N
         S = S + (A(I,J) - B(I,J))**2
   40 CONTINUE
      RMS = SQRT(S / (N * N))
      END
