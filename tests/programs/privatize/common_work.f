C     A work array in COMMON filled by one procedure and read by another
C     in each iteration of the caller's loop over columns: an HPF expert
C     writes INDEPENDENT, NEW(W) on DO J (W is scratch, dead after the loop).
      PROGRAM MAIN
      INTEGER N
      PARAMETER (N = 16)
      DOUBLE PRECISION A(N, N), B(N, N)
      DOUBLE PRECISION W(N)
      COMMON /WORK/ W
      INTEGER I, J
      DO J = 1, N
         DO I = 1, N
            A(I, J) = DBLE(I + 2 * J)
         END DO
      END DO
      DO J = 1, N
         CALL FILL(A(1, J))
         CALL USE(B(1, J))
      END DO
      PRINT *, B(3, 4), B(N, N)
      END

      SUBROUTINE FILL(A)
      INTEGER N
      PARAMETER (N = 16)
      DOUBLE PRECISION A(N)
      INTEGER I
      DOUBLE PRECISION W(N)
      COMMON /WORK/ W
      DO I = 1, N
         W(I) = 2.0D0 * A(I)
      END DO
      END

      SUBROUTINE USE(B)
      INTEGER N
      PARAMETER (N = 16)
      DOUBLE PRECISION B(N)
      INTEGER I
      DOUBLE PRECISION W(N)
      COMMON /WORK/ W
      DO I = 2, N - 1
         B(I) = W(I - 1) + W(I + 1)
      END DO
      B(1) = W(1)
      B(N) = W(N)
      END
