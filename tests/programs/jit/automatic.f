C     Automatic arrays in routines run compiled: bounds from a dummy, from a
C     COMMON scalar and from an element of a dummy array, allocated on each
C     call (the values of the last call are not seen by the next), written
C     before they are read, a LOGICAL one among them.
      PROGRAM AUTOS
      INTEGER N, K, IDX(3)
      PARAMETER (N = 50)
      DOUBLE PRECISION X(N), S
      INTEGER M
      COMMON /SIZES/ M
      M = 7
      IDX(1) = 1
      IDX(2) = 4
      IDX(3) = 9
      S = 0.0D0
      DO 10 K = 1, N
         X(K) = DBLE(K) / 3.0D0
   10 CONTINUE
      DO 20 K = 1, 40
         CALL SMOOTH(X, N, IDX, S)
   20 CONTINUE
      PRINT *, S, X(1), X(N / 2), X(N)
      END

      SUBROUTINE SMOOTH(X, N, IDX, S)
      INTEGER N, IDX(3), I, M
      DOUBLE PRECISION X(N), S
      COMMON /SIZES/ M
      DOUBLE PRECISION W(0:N+1), V(M)
      INTEGER IW(IDX(3) - IDX(2))
      LOGICAL BIG(N)
      W(0) = X(N)
      W(N+1) = X(1)
      DO 10 I = 1, N
         W(I) = X(I)
         BIG(I) = X(I) .GT. 5.0D0
   10 CONTINUE
      DO 20 I = 1, N
         X(I) = 0.25D0 * W(I-1) + 0.5D0 * W(I) + 0.25D0 * W(I+1)
         IF (BIG(I)) X(I) = X(I) - 1.0D-3
   20 CONTINUE
      DO 30 I = 1, M
         V(I) = X(I) * I
   30 CONTINUE
      DO 40 I = 1, IDX(3) - IDX(2)
         IW(I) = I * I
         S = S + V(MOD(I, M) + 1) + IW(I)
   40 CONTINUE
      END
