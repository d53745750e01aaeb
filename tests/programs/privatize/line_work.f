C     A line solver's COMMON work array, as in the x/y/z solvers of block
C     tridiagonal codes: per line J, a callee clears the two end blocks
C     LHS(.,.,0) and LHS(.,.,ISIZE) through a local copy of its bound
C     (I = SIZE), the interior blocks are filled element by element
C     (LHS(1,1,I) = ..., LHS(1,2,I) = ..., one statement per element),
C     and a forward sweep reads block I-1 and the last interior block
C     ISIZE-1 through element actuals.  Every block is written before it
C     is read in each iteration of DO J and LHS is dead after the loop:
C     an HPF expert writes INDEPENDENT, NEW(LHS) on DO J.
      PROGRAM LINEW
      INTEGER N
      PARAMETER (N = 12)
      DOUBLE PRECISION U(3, 0:N, N)
      INTEGER I, J, M
      DO J = 1, N
        DO I = 0, N
          DO M = 1, 3
            U(M, I, J) = DBLE(M + I) / DBLE(J + 1)
          END DO
        END DO
      END DO
C     two line lengths: the solver's bound stays a variable
      CALL SOLVE(U, N - 1)
      CALL SOLVE(U, N - 3)
      PRINT '(3F16.10)', U(1, 3, 4), U(2, N - 1, N), U(3, 1, 1)
      END

      SUBROUTINE SOLVE(U, ISIZE)
      INTEGER N
      PARAMETER (N = 12)
      INTEGER ISIZE
      DOUBLE PRECISION U(3, 0:N, N), LHS(3, 3, 0:N)
      COMMON /WORK/ LHS
      INTEGER I, J
      DO J = 1, N
        CALL LHSINI(LHS, ISIZE)
        DO I = 1, ISIZE - 1
          LHS(1, 1, I) = 4.0D0 + U(1, I, J)
          LHS(2, 1, I) = 0.1D0 * U(2, I, J)
          LHS(3, 1, I) = 0.1D0 * U(3, I, J)
          LHS(1, 2, I) = 0.2D0 * U(1, I, J)
          LHS(2, 2, I) = 4.0D0 + U(2, I, J)
          LHS(3, 2, I) = 0.2D0 * U(3, I, J)
          LHS(1, 3, I) = 0.3D0 * U(1, I, J)
          LHS(2, 3, I) = 0.3D0 * U(2, I, J)
          LHS(3, 3, I) = 4.0D0 + U(3, I, J)
        END DO
        DO I = 1, ISIZE - 1
          CALL SWEEP(LHS(1, 1, I - 1), LHS(1, 1, I), U(1, I, J))
        END DO
        CALL SWEEP(LHS(1, 1, ISIZE - 1), LHS(1, 1, ISIZE),
     &             U(1, ISIZE, J))
      END DO
      END

      SUBROUTINE LHSINI(LHS, SIZE)
      INTEGER SIZE
      DOUBLE PRECISION LHS(3, 3, 0:SIZE)
      INTEGER I, M, L
      I = SIZE
      DO L = 1, 3
        DO M = 1, 3
          LHS(M, L, 0) = 0.0D0
          LHS(M, L, I) = 0.0D0
        END DO
        LHS(L, L, 0) = 1.0D0
        LHS(L, L, I) = 1.0D0
      END DO
      END

C     X = X - A*(diagonal of B): reads the 3x3 blocks A and B, writes X
      SUBROUTINE SWEEP(A, B, X)
      DOUBLE PRECISION A(3, 3), B(3, 3), X(3)
      INTEGER M, L
      DO M = 1, 3
        DO L = 1, 3
          X(M) = X(M) - 0.01D0 * A(M, L) * X(L) / B(L, L)
        END DO
      END DO
      END
