C     Loops the runtime runs inline (a GOTO out of the loop, a CALL in
C     the body) reading distributed arrays: an array such a loop only
C     reads in assignments gets just the elements it reads (every second
C     one of B, a corner of G), the others whole, and a COMMON array a
C     called routine may read whole too.
      PROGRAM INLRD
      INTEGER N, I, J, IT, M
      PARAMETER (N = 48)
      REAL B(N), C(N), G(N, N), X, Y
      REAL H(N)
      COMMON /TAB/ H
CHPF$ DISTRIBUTE B(BLOCK)
CHPF$ DISTRIBUTE C(BLOCK)
CHPF$ DISTRIBUTE G(*, BLOCK)
CHPF$ DISTRIBUTE H(BLOCK)
      DO I = 1, N
        B(I) = REAL(I) * 0.25
        C(I) = 0.0
        H(I) = REAL(N - I)
        DO J = 1, N
          G(J, I) = REAL(I - J)
        END DO
      END DO
      M = N / 2 - 3
      X = 0.0
      DO IT = 1, 4
        DO I = 1, N / 2
          IF (I .GT. M + IT) GOTO 10
          X = X + B(2 * I) * REAL(IT)
          C(I) = C(I) + B(2 * I) * 0.5
        END DO
   10   CONTINUE
      END DO
      Y = 0.0
      DO IT = 1, 3
        CALL ADDH(Y, IT)
        Y = Y + G(IT, N - IT) + H(IT + 5)
      END DO
      PRINT '(A, 2F12.3)', 'X Y', X, Y
      PRINT '(6F10.3)', (C(I), I = 1, N, 4)
      END

      SUBROUTINE ADDH(Y, K)
      INTEGER K
      REAL Y, H(48)
      COMMON /TAB/ H
      Y = Y + H(K) * 0.5
      END
