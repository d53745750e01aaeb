C     A grid smoothed in a loop and a 4-entry table set once and printed,
C     used by no loop: distributing the table gains nothing, so it stays
C     whole on every processor (a tie breaks towards replication).
      PROGRAM UNUSED
      INTEGER N
      PARAMETER (N = 64)
      DOUBLE PRECISION G(N), H(N), TAB(4)
      INTEGER I
      TAB(1) = 1.0D0
      TAB(2) = 2.0D0
      TAB(3) = 3.0D0
      TAB(4) = 4.0D0
      DO 10 I = 1, N
         G(I) = DBLE(I)
   10 CONTINUE
      DO 20 I = 2, N - 1
         H(I) = G(I-1) + G(I+1)
   20 CONTINUE
      WRITE (*,*) H(N/2), TAB(3)
      END
