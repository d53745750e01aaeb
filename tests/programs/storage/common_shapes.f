      PROGRAM SHAPES
C     One COMMON block declared with other ranks and members in another
C     unit: A(100), C(50) here, A(10,10), D(50) in TWICE.  The arrays
C     overlay one another by storage sequence and must stay replicated.
      REAL A(100), C(50)
      COMMON /B/ A, C
      INTEGER I
      DO 10 I = 1, 100
         A(I) = REAL(I)
   10 CONTINUE
      DO 15 I = 1, 50
         C(I) = 0.5 * A(I)
   15 CONTINUE
      CALL TWICE
      PRINT *, A(1), A(100), C(50)
      END
      SUBROUTINE TWICE
      REAL A(10, 10), D(50)
      COMMON /B/ A, D
      INTEGER I, J
      DO 20 J = 1, 10
         DO 20 I = 1, 10
            A(I, J) = 2.0 * A(I, J) + D(I + J)
   20 CONTINUE
      END
