C     A loop made of an IF and a GOTO whose condition calls a FUNCTION (a
C     timing loop, a convergence test): the function runs at every test.
      PROGRAM REPEAT
      INTEGER N
      PARAMETER (N = 300)
      REAL X(N), Y(N)
      INTEGER I, K
      LOGICAL AGAIN
      DO 10 I = 1, N
         Y(I) = REAL(I)
   10 CONTINUE
      K = 0
    1 DO 20 I = 2, N
         X(I) = Y(I) + 0.5 * Y(I-1)
   20 CONTINUE
      K = K + 1
      IF (AGAIN(X, Y, N, K)) GO TO 1
      WRITE (*,*) X(N), K
      END

      LOGICAL FUNCTION AGAIN(X, Y, N, K)
      INTEGER N, K, I
      REAL X(N), Y(N)
      DO 30 I = 1, N
         Y(I) = 0.5 * (X(I) + Y(I))
   30 CONTINUE
      AGAIN = K .LT. 10
      END
