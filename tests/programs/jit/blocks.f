C     Block-tridiagonal sweeps as NPB BT writes them: 5x5 blocks of a
C     4-D array passed as element actuals (LHS(1,1,2,I)) to small
C     routines whose subscripts are constants (unrolled by hand), called
C     in the innermost loop; dummies of constant shape, one X(1)-style
C     "any size" dummy, an adjustable one; the main program prints an
C     array, so it runs in Python and its loops as compiled phases.
      PROGRAM BLOCKS
      INTEGER N
      PARAMETER (N = 9)
      DOUBLE PRECISION LHS(5,5,3,N), RHS(5,N), W(7), S
      INTEGER I, J, K, IT
      DO 10 I = 1, N
         DO 10 K = 1, 3
            DO 10 J = 1, 5
               DO 10 IT = 1, 5
                  LHS(IT,J,K,I) = 1.0D0 / DBLE(IT + 2*J + K + I)
                  IF (IT .EQ. J .AND. K .EQ. 2) LHS(IT,J,K,I) = 4.0D0
   10 CONTINUE
      DO 20 I = 1, N
         DO 20 J = 1, 5
            RHS(J,I) = DBLE(J) - 0.5D0 * DBLE(I)
   20 CONTINUE
      DO 40 IT = 1, 3
         DO 30 I = 2, N
            CALL MATVEC(LHS(1,1,1,I), RHS(1,I-1), RHS(1,I))
            CALL MATMUL(LHS(1,1,1,I), LHS(1,1,3,I-1), LHS(1,1,2,I))
            CALL BINV(LHS(1,1,2,I), RHS(1,I))
   30    CONTINUE
   40 CONTINUE
      CALL FILL(W(2), 5)
      S = 0.0D0
      DO 50 I = 1, N
         S = S + RHS(1,I) + RHS(5,I) + LHS(3,4,2,I)
   50 CONTINUE
      PRINT *, S, W(5), W(6)
      PRINT *, (RHS(J,N), J = 1, 5)
      END

      SUBROUTINE MATVEC(A, X, Y)
      DOUBLE PRECISION A(5,5), X(5), Y(5)
      Y(1) = Y(1) - A(1,1)*X(1) - A(1,2)*X(2) - A(1,3)*X(3)
     >     - A(1,4)*X(4) - A(1,5)*X(5)
      Y(2) = Y(2) - A(2,1)*X(1) - A(2,2)*X(2) - A(2,3)*X(3)
     >     - A(2,4)*X(4) - A(2,5)*X(5)
      Y(3) = Y(3) - A(3,1)*X(1) - A(3,2)*X(2) - A(3,3)*X(3)
     >     - A(3,4)*X(4) - A(3,5)*X(5)
      Y(4) = Y(4) - A(4,1)*X(1) - A(4,2)*X(2) - A(4,3)*X(3)
     >     - A(4,4)*X(4) - A(4,5)*X(5)
      Y(5) = Y(5) - A(5,1)*X(1) - A(5,2)*X(2) - A(5,3)*X(3)
     >     - A(5,4)*X(4) - A(5,5)*X(5)
      END

      SUBROUTINE MATMUL(A, B, C)
      DOUBLE PRECISION A(5,5), B(5,5), C(5,5)
      INTEGER J
      DO 10 J = 1, 5
         C(1,J) = C(1,J) - 0.1D0*(A(1,1)*B(1,J) + A(1,2)*B(2,J)
     >          + A(1,3)*B(3,J) + A(1,4)*B(4,J) + A(1,5)*B(5,J))
         C(2,J) = C(2,J) - 0.1D0*(A(2,1)*B(1,J) + A(2,2)*B(2,J)
     >          + A(2,3)*B(3,J) + A(2,4)*B(4,J) + A(2,5)*B(5,J))
         C(5,J) = C(5,J) - 0.1D0*(A(5,1)*B(1,J) + A(5,5)*B(5,J))
   10 CONTINUE
      END

      SUBROUTINE BINV(A, R)
      DOUBLE PRECISION A(5,*), R(1)
      DOUBLE PRECISION P, C
      P = 1.0D0 / A(1,1)
      A(1,2) = A(1,2)*P
      A(1,3) = A(1,3)*P
      R(1) = R(1)*P
      C = A(2,1)
      A(2,2) = A(2,2) - C*A(1,2)
      A(2,3) = A(2,3) - C*A(1,3)
      R(2) = R(2) - C*R(1)
      P = 1.0D0 / A(2,2)
      A(2,3) = A(2,3)*P
      R(2) = R(2)*P
      R(5) = R(5) - A(5,1)*R(1) - A(5,2)*R(2)
      END

      SUBROUTINE FILL(V, M)
      INTEGER M, K
      DOUBLE PRECISION V(M+3)
      DO 10 K = 1, M
         V(K) = DBLE(K*K)
   10 CONTINUE
      V(6) = 0.0D0
      END
