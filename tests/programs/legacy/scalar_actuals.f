C     A scalar passed where the routine declares an array (the legacy
C     idiom gfortran -std=legacy accepts: CALL EVAL(..., 1, T, U) into
C     XV(NV), YV(NV) with NV = 1): a variable, an expression and a COMMON
C     scalar, the routine reading one and defining the other.
      PROGRAM SCALAC
      DOUBLE PRECISION T, U, XD(3), YD(3), W
      INTEGER K
      COMMON /C/ W
      DATA XD /0.0D0, 1.0D0, 2.0D0/, YD /5.0D0, 7.0D0, 4.0D0/
      W = 0
      DO K = 0, 4
        T = 0.5D0 * K
        CALL EVAL(3, XD, YD, 1, T, U)
        CALL EVAL(3, XD, YD, 1, T + 0.25D0, W)
        PRINT '(3F10.4)', T, U, W
      END DO
      CALL EVAL(3, XD, YD, 1, 1.5D0, W)
      PRINT '(F10.4)', W
      END

      SUBROUTINE EVAL(ND, XD, YD, NV, XV, YV)
      INTEGER ND, NV, I, J
      DOUBLE PRECISION XD(ND), YD(ND), XV(NV), YV(NV)
      DO J = 1, NV
        YV(J) = YD(ND)
        DO I = 1, ND - 1
          IF (XD(I) .LE. XV(J) .AND. XV(J) .LE. XD(I + 1)) THEN
            YV(J) = YD(I) + (YD(I+1) - YD(I)) * (XV(J) - XD(I))
     &              / (XD(I+1) - XD(I))
          END IF
        END DO
      END DO
      END
