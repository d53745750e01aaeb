      PROGRAM ASSUME
C     A 2-D array handed to a 1-D assumed-size dummy (sequence
C     association, as legacy codes clear work arrays): T is replicated.
      REAL T(10, 20)
      INTEGER I, J
      DO 10 J = 1, 20
         DO 10 I = 1, 10
            T(I, J) = REAL(I + J)
   10 CONTINUE
      CALL ZERO(T, 100)
      PRINT *, T(1, 1), T(10, 20)
      END
      SUBROUTINE ZERO(T, N)
      INTEGER N, L
      REAL T(*)
      DO 20 L = 1, N
         T(L) = 0.0
   20 CONTINUE
      END
