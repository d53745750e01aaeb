C     TRANSPOSE: in-place transposition of a square matrix, the example
C     of the PIPS report (seed 004, "Transposition de matrice"): a
C     triangular nest that swaps M(I,J) and M(J,I) through the scalar
C     temporary T.
C
C     What it exercises:
C       - a triangular iteration space (J = I+1, SIZE): load imbalance
C         under BLOCK, the case for CYCLIC;
C       - a transposition-like reference pair M(I,J) / M(J,I): the two
C         loop variables subscript the same dimension of M in turn, an
C         All_to_All pattern on any distributed dimension;
C       - a private scalar (T) assigned before use in every iteration;
C       - DO ... ENDDO loops, an initialisation phase, a checksum phase.
      PROGRAM TRANSP
      INTEGER SIZE
      PARAMETER (SIZE = 100)
      REAL M(SIZE, SIZE), T, CHECK
      INTEGER I, J
C     Initialisation: M(I,J) = 1000 I + J
      DO J = 1, SIZE
         DO I = 1, SIZE
            M(I,J) = REAL(1000 * I + J)
         ENDDO
      ENDDO
C     The transposition of the PIPS report
      DO I = 1, SIZE - 1
         DO J = I + 1, SIZE
            T = M(I,J)
            M(I,J) = M(J,I)
            M(J,I) = T
         ENDDO
      ENDDO
C     Check: M(I,J) must now be 1000 J + I
      CHECK = 0.0
      DO J = 1, SIZE
         DO I = 1, SIZE
            CHECK = MAX(CHECK, ABS(M(I,J) - REAL(1000 * J + I)))
         ENDDO
      ENDDO
      PRINT *, 'M(1,2)    =', M(1,2)
      PRINT *, 'M(100,1)  =', M(100,1)
      PRINT *, 'MAX ERROR =', CHECK
      END
