C     Twin of printed_columns.f: the same elements printed one per WRITE
C     from explicit DO loops.
      PROGRAM PRELTS
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
          DO K = 2, 9
            WRITE (*, '(F10.3)') V(K, J+1)
          END DO
          DO L = J, J+1
            DO K = 1, 30, 7
              WRITE (*, '(F10.3)') V(K, L)
            END DO
          END DO
          DO K = J, 2*J
            WRITE (*, '(F10.3)') W(K, 3)
          END DO
        END DO
      END DO
      END
