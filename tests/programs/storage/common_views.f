C     One COMMON block, other members in other units: /W/ is A(10), N
C     here, B(2,5), M in FILL and two DOUBLE PRECISION halves in SHOW.
      PROGRAM CVIEWS
      INTEGER N, I
      REAL A(10)
      COMMON /W/ A, N
      COMMON /R/ X(4)
      REAL X
      DOUBLE PRECISION S
      CALL FILL
      DO 10 I = 1, 10
         A(I) = A(I) + 0.5
 10   CONTINUE
      PRINT *, A, N
      X(1) = 1.0
      X(2) = 2.0
      X(3) = 3.0
      X(4) = 4.0
      CALL SHOW(S)
      PRINT *, S
      END

      SUBROUTINE FILL
      INTEGER M, I, J
      REAL B(2,5)
      COMMON /W/ B, M
      DO 20 J = 1, 5
         DO 20 I = 1, 2
            B(I,J) = I + 10 * J
 20   CONTINUE
      M = 7
      END

      SUBROUTINE SHOW(S)
      DOUBLE PRECISION D(2), S
      COMMON /R/ D
      S = D(1) + D(2)
      D(2) = 0.0D0
      END
