      PROGRAM ASSOC
C     Sequence association across types, as in NPB FT: a COMPLEX*16
C     array handed to a DOUBLE PRECISION dummy sees its real and
C     imaginary parts as consecutive elements (bits kept, not converted).
      DOUBLE COMPLEX U(3, 4)
      INTEGER I, J
      DOUBLE PRECISION X
      X = 0.125D0
      DO 10 J = 1, 4
         CALL FILL(6, X, U(1, J))
   10 CONTINUE
      PRINT *, U(1, 1), U(3, 4)
      CALL SCALE(U(2, 2), 4)
      PRINT *, ((U(I, J), I = 1, 3), J = 2, 3)
      END
      SUBROUTINE FILL(N, X, Y)
      INTEGER N, I
      DOUBLE PRECISION X, Y(*)
      DO 10 I = 1, N
         X = MOD(X * 3.7D0 + 0.31D0, 1.0D0)
         Y(I) = X
   10 CONTINUE
      END
      SUBROUTINE SCALE(R, M)
      INTEGER M, K
      DOUBLE PRECISION R(2, M)
      DO 10 K = 1, M
         R(2, K) = -2.0D0 * R(2, K)
   10 CONTINUE
      END
