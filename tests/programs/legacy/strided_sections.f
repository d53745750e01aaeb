C     Array sections that are not one stretch of storage passed to the
C     program's own routines (Fortran 90 in F77 codes): a row, every other
C     element of a column, a reversed stride, a plane of a 3-D grid in a
C     loop over the grid, a section of a dummy passed on, and a read-only
C     section to a function.  Compilers pass a packed copy and store it back
C     after the call (copy-in/copy-out).
      PROGRAM STRSEC
      INTEGER N, I, J, K
      PARAMETER (N = 8)
      DOUBLE PRECISION A(N, N), G(N, N, 4), D, DOT
      DO J = 1, N
        DO I = 1, N
          A(I, J) = DBLE(I + 10 * J)
          DO K = 1, 4
            G(I, J, K) = DBLE(I * J + K)
          END DO
        END DO
      END DO
      CALL SCALE(N - 1, A(2, 2:N), 2.0D0)
      CALL SCALE(N / 2, A(1:N:2, 3), -1.0D0)
      CALL SCALE(3, A(7:1:-3, 5), 0.5D0)
      DO K = 1, 4
        CALL RELAX(N, G(:, 2:N:2, K), DBLE(K))
      END DO
      D = DOT(N, A(3, :)) + DOT(4, G(2, 1:N:2, 3))
      PRINT '(A, F14.3)', 'D', D
      DO J = 1, N
        PRINT '(8F9.2)', (A(I, J), I = 1, N)
      END DO
      DO K = 1, 4
        PRINT '(8F9.2)', (G(I, 4, K), I = 1, N)
      END DO
      END

      SUBROUTINE SCALE(N, V, S)
      INTEGER N, I
      DOUBLE PRECISION V(N), S
      DO I = 1, N
        V(I) = V(I) * S + DBLE(I)
      END DO
      END

      SUBROUTINE RELAX(N, P, W)
      INTEGER N, I, J
      DOUBLE PRECISION P(N, N / 2), W
      DO J = 1, N / 2
        DO I = 2, N - 1
          P(I, J) = P(I, J) + W * (P(I - 1, J) - P(I + 1, J))
        END DO
      END DO
      CALL SCALE(N / 2, P(1, 1:N/2), W)
      END

      DOUBLE PRECISION FUNCTION DOT(N, V)
      INTEGER N, I
      DOUBLE PRECISION V(N)
      DOT = 0.0D0
      DO I = 1, N
        DOT = DOT + V(I) * DBLE(I)
      END DO
      END
