      PROGRAM ZCOPY
C     Line sweeps along each dimension of a 3-D grid, an ADI step as the
C     HPF version of the NAS SP benchmark writes it: the X and Y sweeps
C     work on U, the Z sweep on a copy UZ of it.  An HPF expert
C     distributes U along Z (BLOCK on its last dimension: its X and Y
C     lines are local) and the copy along Y (its Z lines local): the two
C     copies UZ = U and U = UZ are then the transposes, and nothing else
C     moves, with one mapping for the whole run.
      INTEGER N, NSTEP
      PARAMETER (N = 48, NSTEP = 10)
      DOUBLE PRECISION U(N,N,N), UZ(N,N,N), S
      INTEGER I, J, K, STEP
      DO 10 K = 1, N
         DO 10 J = 1, N
            DO 10 I = 1, N
               U(I,J,K) = DBLE(I + 2*J + 3*K) / DBLE(N)
   10 CONTINUE
      DO 100 STEP = 1, NSTEP
C        the X sweep: a recurrence along I
         DO 20 K = 1, N
            DO 20 J = 1, N
               DO 20 I = 2, N
                  U(I,J,K) = U(I,J,K) + 0.5D0 * U(I-1,J,K)
   20    CONTINUE
C        the Y sweep
         DO 30 K = 1, N
            DO 30 J = 2, N
               DO 30 I = 1, N
                  U(I,J,K) = U(I,J,K) + 0.5D0 * U(I,J-1,K)
   30    CONTINUE
C        the copy for the Z sweep
         DO 40 K = 1, N
            DO 40 J = 1, N
               DO 40 I = 1, N
                  UZ(I,J,K) = U(I,J,K)
   40    CONTINUE
C        the Z sweep on the copy
         DO 50 K = 2, N
            DO 50 J = 1, N
               DO 50 I = 1, N
                  UZ(I,J,K) = UZ(I,J,K) + 0.5D0 * UZ(I,J,K-1)
   50    CONTINUE
C        and back
         DO 60 K = 1, N
            DO 60 J = 1, N
               DO 60 I = 1, N
                  U(I,J,K) = UZ(I,J,K)
   60    CONTINUE
  100 CONTINUE
      S = 0.0D0
      DO 70 K = 1, N
         DO 70 J = 1, N
            DO 70 I = 1, N
               S = S + U(I,J,K)
   70 CONTINUE
      PRINT *, S
      END
