C     A Jacobi sweep whose boundary IF on the loop variables guards the
C     shifted references U(I-1,J), U(I,J+1)... (out of the array where the IF
C     is true): only what the IF lets through is evaluated.
      PROGRAM GUARD
      INTEGER NX, NY
      PARAMETER (NX = 11, NY = 9)
      DOUBLE PRECISION F(NX, NY), U(NX, NY), UNEW(NX, NY)
      INTEGER I, J, IT
      DO 10 J = 1, NY
      DO 10 I = 1, NX
         F(I, J) = DBLE(I * J) / (NX * NY)
         U(I, J) = 0.0D0
   10 CONTINUE
      DO 30 IT = 1, 5
         CALL SWEEP(NX, NY, F, U, UNEW)
         DO 20 J = 1, NY
         DO 20 I = 1, NX
            U(I, J) = UNEW(I, J)
   20    CONTINUE
   30 CONTINUE
      PRINT *, U(2, 2), U(6, 5), U(NX - 1, NY - 1)
      END
      SUBROUTINE SWEEP(NX, NY, F, U, UNEW)
      INTEGER NX, NY, I, J
      DOUBLE PRECISION F(NX, NY), U(NX, NY), UNEW(NX, NY)
      DO J = 1, NY
        DO I = 1, NX
          IF (J .EQ. 1 .OR. J .EQ. NY .OR. I .EQ. 1 .OR. I .EQ. NX) THEN
            UNEW(I, J) = F(I, J)
          ELSE
            UNEW(I, J) = 0.25D0 * (U(I-1, J) + U(I, J+1) + U(I, J-1)
     &        + U(I+1, J) + F(I, J))
          END IF
        END DO
      END DO
      END
