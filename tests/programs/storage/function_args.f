C     Arrays passed to FUNCTIONs as to subroutines: elements (the start of
C     a column) for dummies of lower rank, and a whole 2-D array for a 1-D
C     dummy; the same element passing to a subroutine (sequence association)
      PROGRAM FARGS
      INTEGER ND, NP, I, J
      PARAMETER (ND = 3, NP = 200)
      DOUBLE PRECISION VEL(ND,NP), W(ND,NP), R(ND), S, D, DOT, TOT
      EXTERNAL DOT, TOT
      DO 10 J = 1, NP
      DO 10 I = 1, ND
         VEL(I,J) = I + 0.5D0 * J
         W(I,J) = I - J
   10 CONTINUE
      S = 0
      DO 20 J = 2, NP
         S = S + DOT(ND, VEL(1,J), VEL(1,J-1))
         CALL DIFF(ND, VEL(1,J), VEL(1,J-1), R, D)
         S = S + D
   20 CONTINUE
      PRINT *, S, TOT(ND*NP, W), R(2)
      END

      DOUBLE PRECISION FUNCTION DOT(N, X, Y)
      INTEGER N, I
      DOUBLE PRECISION X(N), Y(N)
      DOT = 0
      DO 10 I = 1, N
         DOT = DOT + X(I) * Y(I)
   10 CONTINUE
      END

      DOUBLE PRECISION FUNCTION TOT(N, X)
      INTEGER N, I
      DOUBLE PRECISION X(N)
      TOT = 0
      DO 10 I = 1, N
         TOT = TOT + X(I)
   10 CONTINUE
      END

      SUBROUTINE DIFF(N, A, B, R, D)
      INTEGER N, I
      DOUBLE PRECISION A(N), B(N), R(N), D
      D = 0
      DO 10 I = 1, N
         R(I) = A(I) - B(I)
         D = D + R(I) * R(I)
   10 CONTINUE
      END
