C     SSOR relaxation of a 5-point Poisson problem on a 2-D grid, the
C     kernel of NAS LU: each sweep is a forward (lower) and a backward
C     (upper) wavefront, U(I,J) reading the new U(I-1,J) and U(I,J-1),
C     then a residual computed in parallel and its norm.  An HPF expert
C     distributes the grid BLOCK along one dimension (the J columns):
C     the wavefronts run as a pipeline with one hand-off per processor
C     boundary, the residual has only nearest-neighbour exchanges, and
C     CYCLIC would hand the wavefront on at every column.
      PROGRAM SSOR
      INTEGER N, NITER
      PARAMETER (N = 128, NITER = 20)
      DOUBLE PRECISION U(N,N), F(N,N), R(N,N)
      DOUBLE PRECISION OMEGA, H2, RNORM
      INTEGER I, J, IT
      OMEGA = 1.5D0
      H2 = 1.0D0 / DBLE((N - 1) * (N - 1))
      DO 10 J = 1, N
      DO 10 I = 1, N
         U(I,J) = 0.0D0
         F(I,J) = H2 * DBLE(MOD(I * J, 7) - 3)
         R(I,J) = 0.0D0
   10 CONTINUE
      DO 100 IT = 1, NITER
C        lower sweep: a wavefront from (2,2) to (N-1,N-1)
         DO 20 J = 2, N - 1
         DO 20 I = 2, N - 1
            U(I,J) = (1.0D0 - OMEGA) * U(I,J) + OMEGA * 0.25D0 *
     &               (U(I-1,J) + U(I+1,J) + U(I,J-1) + U(I,J+1)
     &                - F(I,J))
   20    CONTINUE
C        upper sweep: the wavefront back
         DO 30 J = N - 1, 2, -1
         DO 30 I = N - 1, 2, -1
            U(I,J) = (1.0D0 - OMEGA) * U(I,J) + OMEGA * 0.25D0 *
     &               (U(I-1,J) + U(I+1,J) + U(I,J-1) + U(I,J+1)
     &                - F(I,J))
   30    CONTINUE
C        residual and its norm
         DO 40 J = 2, N - 1
         DO 40 I = 2, N - 1
            R(I,J) = F(I,J) - (U(I-1,J) + U(I+1,J) + U(I,J-1)
     &               + U(I,J+1) - 4.0D0 * U(I,J))
   40    CONTINUE
         RNORM = 0.0D0
         DO 50 J = 2, N - 1
         DO 50 I = 2, N - 1
            RNORM = RNORM + R(I,J) * R(I,J)
   50    CONTINUE
  100 CONTINUE
      WRITE (*,*) 'RESIDUAL NORM ', SQRT(RNORM)
      END
