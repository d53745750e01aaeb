C     A 3-D ADI solver with 5x5 block-tridiagonal line solves, as in the
C     BT benchmark of the NAS suite: five unknowns per point of an N**3
C     grid (U(5,N,N,N)), an explicit residual (a stencil in all three
C     directions), then block-tridiagonal solves along X, Y and Z lines.
C     Each line solver builds its 5x5 blocks in a COMMON workspace
C     LHS(5,5,3,0:N) (cleared at both ends by LHSINI, filled point by
C     point from U) and eliminates through element actuals
C     (CALL BSOLVE(LHS(1,1,2,I), LHS(1,1,3,I), RHS(1,I,J,K))).
C
C     The layout an HPF expert writes (the NAS HPF version of BT does):
C     the grids U, RHS, FORCING BLOCK along one grid dimension, never the
C     five components; the workspace LHS private to the outer loops of
C     each line solver (INDEPENDENT, NEW(LHS)), which are then parallel
C     over the lines; the dummies of the block routines inherit the block
C     of their element actual.
      PROGRAM ADI3D
      INTEGER N, NSTEP
      PARAMETER (N = 16, NSTEP = 3)
      DOUBLE PRECISION U(5, N, N, N), RHS(5, N, N, N), FORCE(5, N, N, N)
      COMMON /FIELDS/ U, RHS, FORCE
      INTEGER I, J, K, M, STEP
      DO K = 1, N
        DO J = 1, N
          DO I = 1, N
            DO M = 1, 5
              U(M, I, J, K) = 1.0D0 + 0.01D0 * DBLE(M * I + J - K)
              FORCE(M, I, J, K) = 0.001D0 * DBLE(MOD(I + J + K + M, 7))
              RHS(M, I, J, K) = 0.0D0
            END DO
          END DO
        END DO
      END DO
      DO STEP = 1, NSTEP
        CALL RESID
        CALL XSOLVE
        CALL YSOLVE
        CALL ZSOLVE
        CALL UPDATE
      END DO
      PRINT '(3F18.12)', U(1, 2, 3, 4), U(3, N / 2, N / 2, N / 2),
     &                   U(5, N - 1, N - 1, N - 1)
      END

C     the explicit residual: a second-order stencil in X, Y and Z
      SUBROUTINE RESID
      INTEGER N
      PARAMETER (N = 16)
      DOUBLE PRECISION U(5, N, N, N), RHS(5, N, N, N), FORCE(5, N, N, N)
      COMMON /FIELDS/ U, RHS, FORCE
      INTEGER I, J, K, M
      DO K = 2, N - 1
        DO J = 2, N - 1
          DO I = 2, N - 1
            DO M = 1, 5
              RHS(M, I, J, K) = FORCE(M, I, J, K) + 0.02D0 * (
     &            U(M, I - 1, J, K) + U(M, I + 1, J, K)
     &          + U(M, I, J - 1, K) + U(M, I, J + 1, K)
     &          + U(M, I, J, K - 1) + U(M, I, J, K + 1)
     &          - 6.0D0 * U(M, I, J, K))
            END DO
          END DO
        END DO
      END DO
      END

      SUBROUTINE XSOLVE
      INTEGER N
      PARAMETER (N = 16)
      DOUBLE PRECISION U(5, N, N, N), RHS(5, N, N, N), FORCE(5, N, N, N)
      COMMON /FIELDS/ U, RHS, FORCE
      DOUBLE PRECISION LHS(5, 5, 3, 0:N)
      COMMON /WORK/ LHS
      INTEGER I, J, K, M, L, ISIZE
C     the points 2..N-1 of a line are blocks 1..ISIZE-1 (point I is block I-1)
      ISIZE = N - 1
      DO K = 2, N - 1
        DO J = 2, N - 1
          CALL LHSINI(LHS, ISIZE)
          DO I = 1, ISIZE - 1
            DO L = 1, 5
              DO M = 1, 5
                LHS(M, L, 1, I) = -0.01D0 * U(L, I, J, K)
                LHS(M, L, 2, I) = 0.001D0 * U(M, I + 1, J, K)
                LHS(M, L, 3, I) = -0.01D0 * U(L, I + 2, J, K)
              END DO
              LHS(L, L, 2, I) = 1.0D0 + 0.04D0 * U(L, I + 1, J, K)
            END DO
          END DO
          CALL BSOLVE(LHS(1, 1, 2, 1), LHS(1, 1, 3, 1),
     &                RHS(1, 2, J, K))
          DO I = 2, ISIZE - 1
            CALL MVSUB(LHS(1, 1, 1, I), RHS(1, I, J, K),
     &                 RHS(1, I + 1, J, K))
            CALL MMSUB(LHS(1, 1, 1, I), LHS(1, 1, 3, I - 1),
     &                 LHS(1, 1, 2, I))
            CALL BSOLVE(LHS(1, 1, 2, I), LHS(1, 1, 3, I),
     &                  RHS(1, I + 1, J, K))
          END DO
          DO I = ISIZE - 2, 1, -1
            CALL BACKS(LHS(1, 1, 3, I), RHS(1, I + 2, J, K),
     &                 RHS(1, I + 1, J, K))
          END DO
        END DO
      END DO
      END

      SUBROUTINE YSOLVE
      INTEGER N
      PARAMETER (N = 16)
      DOUBLE PRECISION U(5, N, N, N), RHS(5, N, N, N), FORCE(5, N, N, N)
      COMMON /FIELDS/ U, RHS, FORCE
      DOUBLE PRECISION LHS(5, 5, 3, 0:N)
      COMMON /WORK/ LHS
      INTEGER I, J, K, M, L, JSIZE
C     the points 2..N-1 of a line are blocks 1..JSIZE-1 (point J is block J-1)
      JSIZE = N - 1
      DO K = 2, N - 1
        DO I = 2, N - 1
          CALL LHSINI(LHS, JSIZE)
          DO J = 1, JSIZE - 1
            DO L = 1, 5
              DO M = 1, 5
                LHS(M, L, 1, J) = -0.01D0 * U(L, I, J, K)
                LHS(M, L, 2, J) = 0.001D0 * U(M, I, J + 1, K)
                LHS(M, L, 3, J) = -0.01D0 * U(L, I, J + 2, K)
              END DO
              LHS(L, L, 2, J) = 1.0D0 + 0.04D0 * U(L, I, J + 1, K)
            END DO
          END DO
          CALL BSOLVE(LHS(1, 1, 2, 1), LHS(1, 1, 3, 1),
     &                RHS(1, I, 2, K))
          DO J = 2, JSIZE - 1
            CALL MVSUB(LHS(1, 1, 1, J), RHS(1, I, J, K),
     &                 RHS(1, I, J + 1, K))
            CALL MMSUB(LHS(1, 1, 1, J), LHS(1, 1, 3, J - 1),
     &                 LHS(1, 1, 2, J))
            CALL BSOLVE(LHS(1, 1, 2, J), LHS(1, 1, 3, J),
     &                  RHS(1, I, J + 1, K))
          END DO
          DO J = JSIZE - 2, 1, -1
            CALL BACKS(LHS(1, 1, 3, J), RHS(1, I, J + 2, K),
     &                 RHS(1, I, J + 1, K))
          END DO
        END DO
      END DO
      END

      SUBROUTINE ZSOLVE
      INTEGER N
      PARAMETER (N = 16)
      DOUBLE PRECISION U(5, N, N, N), RHS(5, N, N, N), FORCE(5, N, N, N)
      COMMON /FIELDS/ U, RHS, FORCE
      DOUBLE PRECISION LHS(5, 5, 3, 0:N)
      COMMON /WORK/ LHS
      INTEGER I, J, K, M, L, KSIZE
C     the points 2..N-1 of a line are blocks 1..KSIZE-1 (point K is block K-1)
      KSIZE = N - 1
      DO J = 2, N - 1
        DO I = 2, N - 1
          CALL LHSINI(LHS, KSIZE)
          DO K = 1, KSIZE - 1
            DO L = 1, 5
              DO M = 1, 5
                LHS(M, L, 1, K) = -0.01D0 * U(L, I, J, K)
                LHS(M, L, 2, K) = 0.001D0 * U(M, I, J, K + 1)
                LHS(M, L, 3, K) = -0.01D0 * U(L, I, J, K + 2)
              END DO
              LHS(L, L, 2, K) = 1.0D0 + 0.04D0 * U(L, I, J, K + 1)
            END DO
          END DO
          CALL BSOLVE(LHS(1, 1, 2, 1), LHS(1, 1, 3, 1),
     &                RHS(1, I, J, 2))
          DO K = 2, KSIZE - 1
            CALL MVSUB(LHS(1, 1, 1, K), RHS(1, I, J, K),
     &                 RHS(1, I, J, K + 1))
            CALL MMSUB(LHS(1, 1, 1, K), LHS(1, 1, 3, K - 1),
     &                 LHS(1, 1, 2, K))
            CALL BSOLVE(LHS(1, 1, 2, K), LHS(1, 1, 3, K),
     &                  RHS(1, I, J, K + 1))
          END DO
          DO K = KSIZE - 2, 1, -1
            CALL BACKS(LHS(1, 1, 3, K), RHS(1, I, J, K + 2),
     &                 RHS(1, I, J, K + 1))
          END DO
        END DO
      END DO
      END

      SUBROUTINE UPDATE
      INTEGER N
      PARAMETER (N = 16)
      DOUBLE PRECISION U(5, N, N, N), RHS(5, N, N, N), FORCE(5, N, N, N)
      COMMON /FIELDS/ U, RHS, FORCE
      INTEGER I, J, K, M
      DO K = 2, N - 1
        DO J = 2, N - 1
          DO I = 2, N - 1
            DO M = 1, 5
              U(M, I, J, K) = U(M, I, J, K) + RHS(M, I, J, K)
            END DO
          END DO
        END DO
      END DO
      END

C     the blocks at both ends of a line: the identity
      SUBROUTINE LHSINI(LHS, SIZE)
      INTEGER SIZE
      DOUBLE PRECISION LHS(5, 5, 3, 0:SIZE)
      INTEGER I, M, L, B
      I = SIZE
      DO B = 1, 3
        DO L = 1, 5
          DO M = 1, 5
            LHS(M, L, B, 0) = 0.0D0
            LHS(M, L, B, I) = 0.0D0
          END DO
        END DO
      END DO
      DO M = 1, 5
        LHS(M, M, 2, 0) = 1.0D0
        LHS(M, M, 2, I) = 1.0D0
      END DO
      END

C     R = R - A*X
      SUBROUTINE MVSUB(A, X, R)
      DOUBLE PRECISION A(5, 5), X(5), R(5)
      INTEGER M, L
      DO M = 1, 5
        DO L = 1, 5
          R(M) = R(M) - A(M, L) * X(L)
        END DO
      END DO
      END

C     C = C - A*B
      SUBROUTINE MMSUB(A, B, C)
      DOUBLE PRECISION A(5, 5), B(5, 5), C(5, 5)
      INTEGER M, L, P
      DO L = 1, 5
        DO M = 1, 5
          DO P = 1, 5
            C(M, L) = C(M, L) - A(M, P) * B(P, L)
          END DO
        END DO
      END DO
      END

C     [A | C | R] := inverse(A) * [A | C | R] by Gauss-Jordan elimination
      SUBROUTINE BSOLVE(A, C, R)
      DOUBLE PRECISION A(5, 5), C(5, 5), R(5), P, F
      INTEGER M, L, Q
      DO Q = 1, 5
        P = 1.0D0 / A(Q, Q)
        DO L = 1, 5
          A(Q, L) = A(Q, L) * P
          C(Q, L) = C(Q, L) * P
        END DO
        R(Q) = R(Q) * P
        DO M = 1, 5
          IF (M .NE. Q) THEN
            F = A(M, Q)
            DO L = 1, 5
              A(M, L) = A(M, L) - F * A(Q, L)
              C(M, L) = C(M, L) - F * C(Q, L)
            END DO
            R(M) = R(M) - F * R(Q)
          END IF
        END DO
      END DO
      END

C     R = R - C*X (back substitution)
      SUBROUTINE BACKS(C, X, R)
      DOUBLE PRECISION C(5, 5), X(5), R(5)
      INTEGER M, L
      DO M = 1, 5
        DO L = 1, 5
          R(M) = R(M) - C(M, L) * X(L)
        END DO
      END DO
      END
