C     Strided loops reading distributed arrays: what a rank receives is
C     every step-th element (the loop's start fixes which), and a WRITE
C     whose implied DO lists part of a column inside a loop.
      PROGRAM STRIDE
      INTEGER N, I, J, K, IT
      PARAMETER (N = 40)
      REAL A(N), B(N), C(N, N), S
CHPF$ DISTRIBUTE A(BLOCK)
CHPF$ DISTRIBUTE B(BLOCK)
CHPF$ DISTRIBUTE C(*, BLOCK)
      DO I = 1, N
        A(I) = 0.0
        B(I) = REAL(I) * 0.5
      END DO
      DO K = 1, N - 3, 3
        A(K) = B(K + 3) * 2.0
      END DO
      DO K = N, 4, -4
        A(K) = A(K) + B(K - 3)
      END DO
      DO I = 1, N
        DO K = 2, N, 5
          C(K, I) = B(K) + A(I)
        END DO
        DO K = 1, N
          IF (MOD(K - 2, 5) .NE. 0) C(K, I) = 0.0
        END DO
      END DO
      DO IT = 1, 3
        DO J = 1, N - 3, 13
          WRITE (*, '(8F8.2)') (C(K, J + IT - 1), K = 2, 30, 4),
     &                         (A(K), K = J, J + 2)
        END DO
      END DO
      S = 0.0
      DO I = 1, N
        S = S + A(I)
      END DO
      PRINT '(A, F12.3)', 'SUM A', S
      END
