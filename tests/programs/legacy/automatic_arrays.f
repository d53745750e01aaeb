C     Automatic arrays: local arrays whose bounds are dummies, COMMON
C     scalars and expressions of them, allocated on each entry (two sizes),
C     in a SUBROUTINE (two of them distributed by directives) and a FUNCTION.
      PROGRAM AUTOA
      INTEGER N, M
      PARAMETER (N = 12)
      DOUBLE PRECISION A(N), B(N, 3)
      INTEGER K
      DOUBLE PRECISION TOTAL
      COMMON /SIZES/ M
      DO 10 K = 1, N
         A(K) = K * 0.5D0
   10 CONTINUE
      M = 3
      CALL WORK(N, A, B)
      PRINT *, B(1, 1), B(N, 3), B(5, 2)
      CALL WORK(N - 4, A, B)
      PRINT *, B(1, 1), B(N, 3), B(5, 2)
      PRINT *, TOTAL(N, A), TOTAL(5, A)
      END

      SUBROUTINE WORK(ND, X, Y)
      INTEGER ND, M, I, J
      COMMON /SIZES/ M
      DOUBLE PRECISION X(ND), Y(ND, *)
      DOUBLE PRECISION T(ND), U(0:ND+1, M), W(MAX(ND, 2) * 2)
CHPF$ DISTRIBUTE T(BLOCK)
CHPF$ DISTRIBUTE U(BLOCK, *)
      DO 20 I = 1, ND
         T(I) = X(I) * 2.0D0
   20 CONTINUE
      U(0, 1) = 1.0D0
      U(ND + 1, M) = 2.0D0
      DO 30 J = 1, M
         DO 25 I = 1, ND
            U(I, J) = T(I) + J
            Y(I, J) = U(I, J) + U(0, 1) + U(ND + 1, M)
   25    CONTINUE
   30 CONTINUE
      W(2 * ND) = Y(ND, M)
      Y(1, 1) = W(2 * ND)
      END

      DOUBLE PRECISION FUNCTION TOTAL(N, X)
      INTEGER N, I
      DOUBLE PRECISION X(N), S(N)
      TOTAL = 0.0D0
      DO 40 I = 1, N
         S(I) = X(I) ** 2
   40 CONTINUE
      DO 50 I = 1, N
         TOTAL = TOTAL + S(I)
   50 CONTINUE
      END
