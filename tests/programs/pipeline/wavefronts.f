C     Sweeps along a distributed dimension (pipelined phases) that run in
C     blocks of a parallel loop, and one that must not.
C     X, A, Z: columns distributed; the J sweeps walk them.  Y, B: rows
C     distributed; the I sweeps walk them inside a parallel J loop.  W:
C     an SSOR wavefront, sequential along both loops, in blocks of I.
      PROGRAM WAVES
      INTEGER N, NITER
      PARAMETER (N = 37, NITER = 3)
      DOUBLE PRECISION X(N,N), A(N,N), Z(N,N), Y(N,N), B(N,N), W(N,N)
CHPF$ PROCESSORS P(NUMBER_OF_PROCESSORS())
CHPF$ DISTRIBUTE (*,BLOCK) ONTO P :: X, A, Z, W
CHPF$ DISTRIBUTE (BLOCK,*) ONTO P :: Y, B
      INTEGER I, J, IT
      DO 1 J = 1, N
      DO 1 I = 1, N
         X(I,J) = DBLE(MOD(I * 7 + J * 3, 11)) / 11.0D0
         A(I,J) = 0.25D0 / DBLE(1 + MOD(I * J, 5))
         Z(I,J) = DBLE(MOD(I + 2 * J, 13)) / 13.0D0
         W(I,J) = DBLE(MOD(I * J, 17)) / 17.0D0
    1 CONTINUE
      DO 2 J = 1, N
      DO 2 I = 1, N
         Y(I,J) = DBLE(MOD(I * 5 + J, 9)) / 9.0D0
         B(I,J) = 4.0D0 + DBLE(MOD(I + 2 * J, 3))
    2 CONTINUE
      DO 100 IT = 1, NITER
C        forward along J, in blocks of I (the inner parallel loop)
         DO 10 J = 2, N
         DO 10 I = 1, N
            X(I,J) = X(I,J) - X(I,J-1) * A(I,J)
   10    CONTINUE
C        backward along J, both loops downwards
         DO 20 J = N - 1, 1, -1
         DO 20 I = N, 1, -1
            X(I,J) = (X(I,J) - A(I,J+1) * X(I,J+1)) * 0.5D0
   20    CONTINUE
C        along I inside a parallel J loop, in blocks of J (the outer one)
         DO 30 J = 1, N
         DO 30 I = 2, N
            Y(I,J) = Y(I,J) - Y(I-1,J) * 0.25D0 / B(I-1,J)
            B(I,J) = B(I,J) - 0.125D0 / B(I-1,J)
   30    CONTINUE
C        in blocks of every third I
         DO 40 J = 2, N
         DO 40 I = 1, N, 3
            X(I,J) = X(I,J) + 0.5D0 * X(I,J-1)
   40    CONTINUE
C        Z(I,J) reads Z(I+1,J-1): a block of I would need the next block
C        of the rank before; this sweep must run whole
         DO 50 J = 2, N
         DO 50 I = 1, N - 1
            Z(I,J) = 0.5D0 * (Z(I,J) + Z(I+1,J-1))
   50    CONTINUE
C        SSOR: the new W(I-1,J), W(I,J-1), the old W(I+1,J), W(I,J+1)
         DO 60 J = 2, N - 1
         DO 60 I = 2, N - 1
            W(I,J) = 0.25D0 * (W(I-1,J) + W(I+1,J) + W(I,J-1)
     &               + W(I,J+1))
   60    CONTINUE
  100 CONTINUE
      WRITE (*,*) X(1,1), X(N,N), Y(N,1), Y(N,N), Z(1,N), Z(N-1,N),
     &            W(2,2), W(N-1,N-1)
      END
