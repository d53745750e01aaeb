C     A Jacobi sweep on a 200x200 grid that prints, every step, parts of
C     ten columns through implied DO loops: eight elements with stride 1,
C     a strided pair of rows and a triangle whose bounds follow the
C     column.  Twin of printed_elements.f, which prints the same elements
C     one per WRITE from explicit DO loops.
      PROGRAM PRCOLS
      INTEGER N, I, J, K, L, IT
      PARAMETER (N = 200)
      REAL V(N, N), W(N, N)
      DO J = 1, N
        DO I = 1, N
          V(I, J) = REAL(I + J)
        END DO
      END DO
      DO IT = 1, 20
        DO J = 2, N - 1
          DO I = 2, N - 1
            W(I, J) = 0.25 * (V(I-1, J) + V(I+1, J) + V(I, J-1)
     &                + V(I, J+1))
          END DO
        END DO
        DO J = 2, N - 1
          DO I = 2, N - 1
            V(I, J) = W(I, J)
          END DO
        END DO
        DO J = 1, 10
          WRITE (*, '(8F10.3)') (V(K, J+1), K = 2, 9)
          WRITE (*, '(8F10.3)') ((V(K, L), K = 1, 30, 7), L = J, J+1)
          WRITE (*, '(8F10.3)') (W(K, 3), K = J, 2*J)
        END DO
      END DO
      END
