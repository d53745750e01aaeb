C     An automatic array whose bounds read an element of a dummy array
C     (CSR row pointers: L(IA(N+1)+1)), as a sparse solver declares its
C     work space.
      PROGRAM ELBND
      INTEGER N, I
      PARAMETER (N = 6)
      INTEGER IA(N + 1)
      DOUBLE PRECISION S
      DO I = 1, N + 1
        IA(I) = 2 * I - 1
      END DO
      CALL WORK(N, IA, S)
      PRINT '(A, F10.3)', 'S', S
      END

      SUBROUTINE WORK(N, IA, S)
      INTEGER N, IA(N + 1), I
      DOUBLE PRECISION S, L(IA(N + 1) + 1), H(IA(2):IA(N))
      DO I = 1, IA(N + 1) + 1
        L(I) = DBLE(I) * 0.5D0
      END DO
      DO I = IA(2), IA(N)
        H(I) = L(I) + 1.0D0
      END DO
      S = 0.0D0
      DO I = IA(2), IA(N)
        S = S + H(I)
      END DO
      PRINT '(A, 2F10.3)', 'ENDS', L(IA(N + 1) + 1), H(IA(N))
      END
