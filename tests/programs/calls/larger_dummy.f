      PROGRAM LARGER
C     A work array rounded up in the callee's declaration (NPB LU's BUTS
C     declares TV(5, LDMX/2*2+1, LDMY) for an actual of 5*LDMX*LDMY): the
C     callee touches only elements the actual holds.
      DOUBLE PRECISION W(10), S
      INTEGER I
      DO 10 I = 1, 10
         W(I) = DBLE(I)
   10 CONTINUE
      CALL WORK(W, 2)
      S = 0.0D0
      DO 20 I = 1, 10
         S = S + W(I) * DBLE(I)
   20 CONTINUE
      PRINT *, S, W(10)
      END
      SUBROUTINE WORK(V, K)
      INTEGER K, I, J
      DOUBLE PRECISION V(4, K + 1)
      DO 10 J = 1, K
         DO 10 I = 1, 4
            V(I, J) = V(I, J) * 2.0D0 + V(I, J + 1)
   10 CONTINUE
      V(1, K + 1) = -V(1, K + 1)
      V(2, K + 1) = V(2, K + 1) + 1.0D0
      END
