C     An EQUIVALENCE extending a COMMON block, DATA on an associated
C     member, a distributed array next to them (it keeps its mapping).
      PROGRAM EQCOM
      INTEGER NX
      PARAMETER (NX = 64)
      REAL U(NX), V(NX)
      REAL P(3), Q(5)
      INTEGER NP, KK(2)
      LOGICAL OK, FLAGS(2)
      COMMON /PAR/ P, NP
      COMMON /FL/ OK
      EQUIVALENCE (P(3), Q(1)), (Q(5), KK(1))
      EQUIVALENCE (OK, FLAGS(1))
CHPF$ DISTRIBUTE U(BLOCK)
CHPF$ ALIGN V(I) WITH U(I)
      DATA NP /3/
      DO 10 I = 1, 3
         P(I) = I * 1.5
 10   CONTINUE
      Q(4) = 9.0
      KK(2) = 42
      FLAGS(2) = .TRUE.
      CALL SETOK
      DO 20 I = 1, NX
         U(I) = I
         V(I) = 0.0
 20   CONTINUE
      DO 30 I = 2, NX - 1
         V(I) = U(I-1) + U(I+1) + P(2)
 30   CONTINUE
      CALL USE(S)
      PRINT *, P, NP, Q, KK
      PRINT *, OK, FLAGS, S
      PRINT *, V(2), V(NX-1)
      END

      SUBROUTINE SETOK
      LOGICAL OK
      COMMON /FL/ OK
      OK = .TRUE.
      END

      SUBROUTINE USE(S)
      REAL R(4), S
      INTEGER M
      COMMON /PAR/ R, M
      S = R(1) + R(2) + R(3) + R(4) + M
      M = M + 1
      END
