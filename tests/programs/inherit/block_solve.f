C     Block solves through element actuals, as in the line solvers of
C     NAS BT and SP: per grid point a 5x5 block of LHS(5,5,3,N) and the
C     5 components of RHS(5,N,N) are handed to small routines as
C     LHS(1,1,2,I) and RHS(1,I,J).  Each routine works on a block that
C     lies in the leading (undistributed) dimensions of its actual, so an
C     HPF expert distributes the grids BLOCK along a grid dimension (never
C     the 5 components, never the 5x5 block) and lets each call run where
C     its element lives (the dummies inherit the block: no directive).
C     The block phase rebuilds LHS for every line J before the calls read
C     it (a work array, dead after the phase): private to the J loop
C     (NEW), which is then parallel like the I loop inside it.
      PROGRAM BLKSLV
      INTEGER N
      PARAMETER (N=24)
      DOUBLE PRECISION U(5,N,N), RHS(5,N,N), LHS(5,5,3,N)
      INTEGER I, J, M, L, IT
      DO J = 1, N
        DO I = 1, N
          DO M = 1, 5
            U(M,I,J) = 1.0D0 + DBLE(MOD(M*I + 3*J, 7))/8.0D0
          END DO
        END DO
      END DO
      DO IT = 1, 4
C       residual: a five-point stencil on the grid
        DO J = 2, N-1
          DO I = 2, N-1
            DO M = 1, 5
              RHS(M,I,J) = U(M,I,J) - 0.125D0*(U(M,I-1,J) + U(M,I+1,J)
     &                   + U(M,I,J-1) + U(M,I,J+1))
            END DO
          END DO
        END DO
C       per line J: blocks built per point, then solved through calls
        DO J = 2, N-1
          DO I = 2, N-1
            DO L = 1, 5
              DO M = 1, 5
                LHS(M,L,1,I) = 0.01D0*DBLE(M-L)*U(L,I,J)
                LHS(M,L,2,I) = 0.0D0
                LHS(M,L,3,I) = 0.02D0*DBLE(M+L)
              END DO
              LHS(L,L,2,I) = 4.0D0 + U(L,I,J)
            END DO
            CALL MATVEC(LHS(1,1,1,I), U(1,I,J), RHS(1,I,J))
            CALL BINVRHS(LHS(1,1,2,I), RHS(1,I,J))
          END DO
        END DO
C       update
        DO J = 2, N-1
          DO I = 2, N-1
            CALL AXPY5(0.5D0, RHS(1,I,J), U(1,I,J))
          END DO
        END DO
      END DO
      PRINT '(3F18.12)', U(1,2,2), U(3,N/2,N/2), U(5,N-1,N-1)
      END

C     R = R - A*X
      SUBROUTINE MATVEC(A, X, R)
      DOUBLE PRECISION A(5,5), X(5), R(5)
      INTEGER M, L
      DO M = 1, 5
        DO L = 1, 5
          R(M) = R(M) - A(M,L)*X(L)
        END DO
      END DO
      END

C     R = inverse(A) * R by Gaussian elimination (A is overwritten)
      SUBROUTINE BINVRHS(A, R)
      DOUBLE PRECISION A(5,5), R(5), P, C
      INTEGER M, L, K
      DO K = 1, 5
        P = 1.0D0/A(K,K)
        DO L = K+1, 5
          A(K,L) = A(K,L)*P
        END DO
        R(K) = R(K)*P
        DO M = 1, 5
          IF (M .NE. K) THEN
            C = A(M,K)
            DO L = K+1, 5
              A(M,L) = A(M,L) - C*A(K,L)
            END DO
            R(M) = R(M) - C*R(K)
          END IF
        END DO
      END DO
      END

C     Y = Y + S*X on 5 components
      SUBROUTINE AXPY5(S, X, Y)
      DOUBLE PRECISION S, X(5), Y(5)
      INTEGER M
      DO M = 1, 5
        Y(M) = Y(M) + S*X(M)
      END DO
      END
