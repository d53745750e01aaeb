      PROGRAM SCALAR
C     C routines (--link scalars.c) writing a variable, a COMMON scalar,
C     an array element, a LOGICAL and a CHARACTER argument; REAL, INTEGER
C     and DOUBLE PRECISION functions.
      INTEGER N, NCALL, K(6), I, ISUM
      DOUBLE PRECISION X, V(8), DNORM1
      LOGICAL EVEN
      CHARACTER*8 WORD
      REAL R, HALF
      COMMON /CNT/ NCALL
CHPF$ PROCESSORS P(3)
CHPF$ DISTRIBUTE V(BLOCK) ONTO P
      NCALL = 0
      N = 7
      CALL TRIPLE(N)
      CALL TRIPLE(N)
      X = 0.5D0
      CALL ADDTO(X, 0.25D0, NCALL)
      CALL ADDTO(X, DBLE(N), NCALL)
      PRINT *, N, X, NCALL
      DO 10 I = 1, 6
         K(I) = I
   10 CONTINUE
      CALL TRIPLE(K(4))
      PRINT *, K, ISUM(6, K), ISUM(2, K(3))
      CALL SETFLAG(EVEN, N)
      PRINT *, EVEN
      CALL SETFLAG(EVEN, K(4))
      PRINT *, EVEN
      WORD = 'mixed Up'
      CALL UPCASE(WORD)
      PRINT *, '[', WORD, ']'
      R = HALF(2.0) + HALF(1.0)
      PRINT *, R
      DO 20 I = 1, 8
         V(I) = (-1.0D0) ** I * DBLE(I) / 4.0D0
   20 CONTINUE
      PRINT *, DNORM1(8, V), DNORM1(3, V(6))
      CALL ADDTO(V(5), 100.0D0, NCALL)
      PRINT *, V(5), NCALL
      END
