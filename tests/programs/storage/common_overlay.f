      PROGRAM OVER
C     SETZ declares /W/ as one array Z(100): its Z(51:100) is Y here, so
C     CALL SETZ writes Y although Y is not the block's first member.
      REAL X(50), Y(50), S
      COMMON /W/ X, Y
      INTEGER I
      DO 10 I = 1, 50
         X(I) = 1.0
         Y(I) = 2.0
   10 CONTINUE
      CALL SETZ
      S = 0.0
      DO 20 I = 1, 50
         S = S + Y(I)
   20 CONTINUE
      PRINT *, S
      END
      SUBROUTINE SETZ
      REAL Z(100)
      COMMON /W/ Z
      INTEGER I
      DO 30 I = 51, 100
         Z(I) = 3.0
   30 CONTINUE
      END
