C     Two recurrences, one along each dimension of a 256x256 grid, inside
C     a time-step loop: phase 20 walks J sequentially (A(I,J-1)) with I
C     parallel inside, phase 30 walks I sequentially (B(I-1,J)) with J
C     parallel outside.  Distributed along the walked dimension, the work
C     passes from processor to processor: under BLOCK once per block
C     boundary (each processor runs all parallel iterations of its part
C     before handing on), under CYCLIC at every step.
      PROGRAM RECUR
      INTEGER N, NSTEP
      PARAMETER (N = 256, NSTEP = 10)
      DOUBLE PRECISION A(N,N), B(N,N)
      INTEGER I, J, STEP
      DO 10 J = 1, N
      DO 10 I = 1, N
         A(I,J) = DBLE(I + J)
         B(I,J) = DBLE(I - J)
   10 CONTINUE
      DO 50 STEP = 1, NSTEP
         DO 20 J = 2, N
         DO 20 I = 1, N
            A(I,J) = A(I,J-1) * 0.5D0 + B(I,J)
   20    CONTINUE
         DO 30 J = 1, N
         DO 30 I = 2, N
            B(I,J) = B(I-1,J) * 0.5D0 + A(I,J)
   30    CONTINUE
   50 CONTINUE
      WRITE (*,*) A(N,N), B(N,N)
      END
