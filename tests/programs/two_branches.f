      PROGRAM BR
      INTEGER N, K
      PARAMETER (N = 64)
      DOUBLE PRECISION A(N,N)
      DO 5 J = 1, N
      DO 5 I = 1, N
    5 A(I,J) = I + J
      READ (*,*) K
      IF (K .GT. 0) THEN
         DO 10 J = 1, N
         DO 10 I = 2, N
   10    A(I,J) = A(I-1,J) * 0.5D0 + A(I,J)
      ELSE
         DO 20 J = 2, N
         DO 20 I = 1, N
   20    A(I,J) = A(I,J-1) * 0.5D0 + A(I,J)
      ENDIF
      PRINT *, A(N,N)
      END
