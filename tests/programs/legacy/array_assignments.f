C     Fortran 90 array assignments in an F77 program, each rank-1: whole
C     vectors, columns and rows of matrices, strided sections, elemental
C     intrinsics, a reduction on the right side, and sections that overlap
C     their target (the whole right side is read before the assignment).
      PROGRAM ARRASG
      INTEGER N, M, J, K
      PARAMETER (N = 24, M = 12)
      REAL A(N, M), B(N, M), X(N), Y(0:N+1), W(N)
      DOUBLE PRECISION D(N), E(N)
      INTEGER IX(N)
      Y = 0.0
      DO 10 J = 1, M
         B(:, J) = 0.5 * J
         B(1:N:3, J) = 1.0 + J
   10 CONTINUE
      DO 20 K = 1, N
         A(K, :) = K + 0.25 * B(K, 1:M)
   20 CONTINUE
      DO 30 J = 2, M - 1
         A(2:N-1, J) = A(2:N-1, J) + 0.25 * (B(1:N-2, J) + B(3:N, J))
     &               - B(2:N-1, J-1) * B(2:N-1, J+1)
   30 CONTINUE
      X = A(:, 3)
      X(1:N:2) = SQRT(ABS(A(1:N:2, 4))) + MAX(X(2:N:2), 1.5)
      Y(1:N) = X
C     shifts of a vector onto itself, both ways
      Y(2:N+1) = Y(1:N) + 1.0
      Y(0:N-1) = Y(1:N) * 2.0
      W = Y(1:N)
      W(2:N) = W(1:N-1) + W(2:N)
      D = DBLE(W)
      E(N:2:-2) = D(1:N/2) * 3.0D0
      E(N-1:1:-2) = -D(N/2+1:N)
      IX = INT(W) + MOD(INT(E), 7)
      PRINT 100, (A(K, 3), K = 1, N, 5)
      PRINT 100, (A(7, J), J = 1, M)
      PRINT 100, X
      PRINT 100, Y
      PRINT 100, W
      PRINT 110, E
      PRINT 120, IX
  100 FORMAT (6F12.4)
  110 FORMAT (4F18.8)
  120 FORMAT (12I6)
      END
