C     A COMMON array passed whole to a dummy distributed by the callee's
C     directives, written there in a phase through a window.
      PROGRAM WINDOW
      DOUBLE PRECISION H(3, 3), HT(3, 3), G
      COMMON /WALLS/ G(3, 3)
      INTEGER I, J
      DO 10 J = 1, 3
      DO 10 I = 1, 3
         H(I, J) = I + 10 * J
         HT(J, I) = H(I, J)
   10 CONTINUE
      CALL MTXMTP(HT, H, G)
      PRINT *, G
      END
      SUBROUTINE MTXMTP(A, B, C)
      DOUBLE PRECISION A(3, 3), B(3, 3), C(3, 3)
      INTEGER J
CHPF$ PROCESSORS P(3)
CHPF$ TEMPLATE T1(3, 3), T2(3, 3)
CHPF$ ALIGN A(I, J) WITH T1(I, J)
CHPF$ ALIGN (I, J) WITH T2(I, J) :: B, C
CHPF$ DISTRIBUTE T1(BLOCK, *) ONTO P
CHPF$ DISTRIBUTE T2(*, CYCLIC) ONTO P
CHPF$ INDEPENDENT
      DO 1 J = 1, 3
      C(1,J)=A(1,1)*B(1,J)+A(1,2)*B(2,J)+A(1,3)*B(3,J)
      C(2,J)=A(2,1)*B(1,J)+A(2,2)*B(2,J)+A(2,3)*B(3,J)
      C(3,J)=A(3,1)*B(1,J)+A(3,2)*B(2,J)+A(3,3)*B(3,J)
    1 CONTINUE
      END
