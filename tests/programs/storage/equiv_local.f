C     EQUIVALENCE of local variables: an array and scalars, INTEGER and
C     REAL (the bits), an array inside another, DATA on a member.
      PROGRAM EQLOC
      REAL A(6), B(4), X
      INTEGER IX, K(2)
      EQUIVALENCE (A(3), B(1)), (X, IX), (A(5), K(1))
      DATA B(2) /7.5/
      DO 10 I = 1, 6
         A(I) = I
 10   CONTINUE
      B(4) = -1.0
      PRINT *, A
      X = 1.0
      PRINT *, IX
      IX = 1078530011
      PRINT *, X
      PRINT *, K
      CALL TWICE(B, 4)
      PRINT *, A
      END

      SUBROUTINE TWICE(V, N)
      INTEGER N, I
      REAL V(N)
      DO 10 I = 1, N
         V(I) = 2 * V(I)
 10   CONTINUE
      END
