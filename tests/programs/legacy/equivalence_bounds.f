C     EQUIVALENCE of array elements whose lower bounds are not 1 (a COMMON
C     array from -2, a local one from -1), and an EQUIVALENCE naming an array
C     its DIMENSION statement declares after it.
      PROGRAM EQNEG
      INTEGER NM
      PARAMETER (NM = 6)
      DOUBLE PRECISION X0, X, H, H1, G
      COMMON /LCS/ X0(3, -2:NM), X(3, -2:NM, 2)
      DIMENSION H(3, NM + 3), H1(3, NM + 3), G(-1:4)
      DOUBLE PRECISION E(6)
      EQUIVALENCE (X0(1, -2), H(1, 1))
      EQUIVALENCE (X(1, -2, 2), H1(1, 1))
      EQUIVALENCE (G(-1), E(1))
      INTEGER I, J
      DO 10 I = -2, NM
         DO 10 J = 1, 3
            X0(J, I) = I * 10 + J
            X(J, I, 1) = -(I * 10 + J)
            X(J, I, 2) = I + J * 0.5D0
   10 CONTINUE
      DO 20 I = 1, 6
         E(I) = I * 1.5D0
   20 CONTINUE
      PRINT *, H(1, 1), H(3, 2), H(2, NM + 3)
      PRINT *, H1(1, 1), H1(3, 4), G(-1), G(2), G(4)
      CALL SHOW
      END

      SUBROUTINE SHOW
      INTEGER NM
      PARAMETER (NM = 6)
      DOUBLE PRECISION X0, X, H
      COMMON /LCS/ X0(3, -2:NM), X(3, -2:NM, 2)
      EQUIVALENCE (X(1, -2, 1), H(1, 1))
      DIMENSION H(3, NM + 3)
      PRINT *, H(1, 1), H(2, 5), X0(2, -1)
      END
