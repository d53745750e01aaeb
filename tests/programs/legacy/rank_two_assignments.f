C     Fortran 90 array assignments of rank 2 and 3 in an F77 program:
C     whole matrices, sections with symbolic bounds in a routine with
C     adjustable dummies, strided sections, a scalar subscript between two
C     triplets, and sections overlapping their target both ways (the whole
C     right side is read before the assignment).
      PROGRAM RANK2
      INTEGER N, M, I, J, K
      PARAMETER (N = 12, M = 9)
      DOUBLE PRECISION A(N, M), B(N, M), C(4, 5, 6), S
      INTEGER L(0:N, 3)
      A = 0.0D+00
      B = 1.5D+00
      DO 10 J = 1, M
         DO 10 I = 1, N
            B(I, J) = B(I, J) + I + 100 * J
   10 CONTINUE
      CALL FILL(A, N, N - 2, M - 1)
      A(2:N, 1:M) = A(1:N-1, 1:M) + B(2:N, 1:M)
      A(1:N, 1:M-1) = A(1:N, 2:M) * 0.5D+00
      A(1:N:3, 2:M:2) = -B(2:N:3, 1:M-1:2)
      C = 2.0D+00
      C(2:4, 3, 1:6:2) = B(1:3, 4:6)
      C(:, 1, :) = C(:, 2, :) + SQRT(C(:, 3, :))
      L = 7
      L(1:N, 2:3) = L(0:N-1, 1:2) + MOD(L(1:N, 1:2), 3)
      S = 0.0D+00
      DO 20 J = 1, M
         DO 20 I = 1, N
            S = S + A(I, J)
   20 CONTINUE
      PRINT 100, S
      PRINT 100, (A(I, 5), I = 1, N)
      PRINT 100, (A(3, J), J = 1, M)
      PRINT 100, (((C(I, J, K), I = 1, 4), J = 1, 5), K = 1, 6, 5)
      PRINT 110, L
  100 FORMAT (4F16.6)
  110 FORMAT (13I4)
      END

      SUBROUTINE FILL(A, LDA, N, M)
      INTEGER LDA, N, M
      DOUBLE PRECISION A(LDA, *)
      A(1:N, 1:M) = 3.0D+00
      A(2:N, 2:M) = A(2:N, 2:M) + A(1:N-1, 1:M-1)
      END
