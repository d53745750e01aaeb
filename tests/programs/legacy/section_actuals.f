C     Contiguous array sections passed to the program's own routines
C     (Fortran 90 in F77 codes): a range of a vector, a column and part
C     of a column of a matrix, to a function that reads and a routine
C     that writes through its dummy.
      PROGRAM SECACT
      INTEGER N, I, J
      PARAMETER (N = 8)
      DOUBLE PRECISION X(0:N), A(N, N), D, DOT
      DO I = 0, N
        X(I) = DBLE(I) * 0.5D0
      END DO
      DO J = 1, N
        DO I = 1, N
          A(I, J) = DBLE(I + 10 * J)
        END DO
      END DO
      D = DOT(3, X(2:4)) + DOT(N, A(:, 2)) + DOT(4, A(3:6, N))
      CALL SCALE(5, A(2:6, 3), 2.0D0)
      CALL SCALE(N + 1, X(:), -1.0D0)
      PRINT '(A, F12.3)', 'D', D
      PRINT '(4F10.2)', (A(I, 3), I = 1, N)
      PRINT '(3F10.2)', (X(I), I = 0, N)
      END

      DOUBLE PRECISION FUNCTION DOT(N, V)
      INTEGER N, I
      DOUBLE PRECISION V(N)
      DOT = 0.0D0
      DO I = 1, N
        DOT = DOT + V(I) * DBLE(I)
      END DO
      END

      SUBROUTINE SCALE(N, V, S)
      INTEGER N, I
      DOUBLE PRECISION V(N), S
      DO I = 1, N
        V(I) = V(I) * S
      END DO
      END
