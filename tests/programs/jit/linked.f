      PROGRAM LINKED
C     Procedures calling C routines (--link ../link/scalars.c and
C     ../link/wtime.c): a subroutine and functions, scalars written back
C     (a local, a COMMON scalar, an array element), whole arrays and
C     arrays from an element on, INTEGER, REAL and DOUBLE PRECISION
C     results, a LOGICAL written by C.  On one rank the procedures run
C     compiled and call the routines from the kernel.
      INTEGER N, NCALL, K(6), I
      DOUBLE PRECISION X, V(8), T
      LOGICAL EVEN
      REAL R
      COMMON /CNT/ NCALL
      NCALL = 0
      DO 10 I = 1, 3
         CALL WORK(I, N, X, K, V, EVEN, R)
   10 CONTINUE
      PRINT *, N, X, NCALL
      PRINT *, K
      PRINT *, V
      PRINT *, EVEN, R
      CALL CLOCKED(T)
      PRINT *, T .GE. 0.0D0
      END

      SUBROUTINE WORK(IT, N, X, K, V, EVEN, R)
      INTEGER IT, N, NCALL, K(6), I, ISUM, S
      DOUBLE PRECISION X, V(8), DNORM1
      LOGICAL EVEN
      REAL R, HALF
      COMMON /CNT/ NCALL
      N = 7 + IT
      CALL TRIPLE(N)
      X = 0.5D0
      CALL ADDTO(X, 0.25D0 * IT, NCALL)
      DO 10 I = 1, 6
         K(I) = I + IT
         CALL TRIPLE(K(I))
   10 CONTINUE
      S = ISUM(6, K) + ISUM(2, K(3))
      CALL SETFLAG(EVEN, S / 3)
      R = HALF(2.0) + HALF(REAL(S))
      DO 20 I = 1, 8
         V(I) = (-1.0D0) ** I * DBLE(I + IT) / 4.0D0
   20 CONTINUE
      X = X + DNORM1(8, V) + DNORM1(3, V(6))
      CALL ADDTO(V(5), X, NCALL)
      END

      SUBROUTINE CLOCKED(T)
      DOUBLE PRECISION T, T0, T1
      CALL WTIME(T0)
      CALL WTIME(T1)
      T = T1 - T0
      END
