C     A loop whose bounds come from a scalar assigned in the parallel loop
C     around it (the fill-in columns of LINPACK's banded DGBFA).
      PROGRAM TRI
      DOUBLE PRECISION A(7, 10)
      INTEGER I, J
      DO 10 J = 1, 10
      DO 10 I = 1, 7
         A(I, J) = I + J
   10 CONTINUE
      CALL ZAP(A, 7, 10, 3, 2)
      PRINT *, A
      END
      SUBROUTINE ZAP(A, LDA, N, ML, MU)
      INTEGER LDA, N, ML, MU, M, J0, J1, JZ, I0, I
      DOUBLE PRECISION A(LDA, N)
      M = ML + MU + 1
      J0 = MU + 2
      J1 = MIN(N, M)
      DO JZ = J0, J1
        I0 = M + 1 - JZ
        DO I = I0, ML
          A(I, JZ) = 0.0E+00
        END DO
      END DO
      END
