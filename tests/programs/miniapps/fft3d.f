C     A 3-D discrete Fourier transform by lines, the structure of NAS FT:
C     a 1-D transform along each dimension in turn (every output point of
C     a line reads the whole line), on the real and imaginary parts as two
C     REAL*8 grids, with a table of twiddle factors.  An HPF expert
C     distributes the grids BLOCK along the last dimension (Z) for the X
C     and Y transforms, which are then local, and transposes (remaps the
C     grids onto X or Y) for the Z transform when a transpose is cheaper
C     than reading the Z lines across processors; the 32x32 twiddle tables
C     are replicated (every processor reads all of them).
      PROGRAM FFT3D
      INTEGER N, NITER
      PARAMETER (N = 32, NITER = 4)
      DOUBLE PRECISION XR(N,N,N), XI(N,N,N), YR(N,N,N), YI(N,N,N)
      DOUBLE PRECISION CR(N,N), CI(N,N)
      DOUBLE PRECISION PI, SR, SI, CHK
      INTEGER I, J, K, M, IT
      PI = 4.0D0 * ATAN(1.0D0)
      DO 5 M = 1, N
      DO 5 I = 1, N
         CR(I,M) = COS(2.0D0 * PI * DBLE((I - 1) * (M - 1)) / DBLE(N))
         CI(I,M) = -SIN(2.0D0 * PI * DBLE((I - 1) * (M - 1)) / DBLE(N))
    5 CONTINUE
      DO 10 K = 1, N
      DO 10 J = 1, N
      DO 10 I = 1, N
         XR(I,J,K) = DBLE(MOD(I * 7 + J * 3 + K, 11)) / 11.0D0
         XI(I,J,K) = 0.0D0
   10 CONTINUE
      DO 100 IT = 1, NITER
C        transform along X: local when Z (or Y) is distributed
         DO 20 K = 1, N
         DO 20 J = 1, N
         DO 20 I = 1, N
            SR = 0.0D0
            SI = 0.0D0
            DO 15 M = 1, N
               SR = SR + CR(I,M) * XR(M,J,K) - CI(I,M) * XI(M,J,K)
               SI = SI + CR(I,M) * XI(M,J,K) + CI(I,M) * XR(M,J,K)
   15       CONTINUE
            YR(I,J,K) = SR / DBLE(N)
            YI(I,J,K) = SI / DBLE(N)
   20    CONTINUE
C        transform along Y
         DO 30 K = 1, N
         DO 30 J = 1, N
         DO 30 I = 1, N
            SR = 0.0D0
            SI = 0.0D0
            DO 25 M = 1, N
               SR = SR + CR(J,M) * YR(I,M,K) - CI(J,M) * YI(I,M,K)
               SI = SI + CR(J,M) * YI(I,M,K) + CI(J,M) * YR(I,M,K)
   25       CONTINUE
            XR(I,J,K) = SR
            XI(I,J,K) = SI
   30    CONTINUE
C        transform along Z: local only when X or Y is distributed
         DO 40 K = 1, N
         DO 40 J = 1, N
         DO 40 I = 1, N
            SR = 0.0D0
            SI = 0.0D0
            DO 35 M = 1, N
               SR = SR + CR(K,M) * XR(I,J,M) - CI(K,M) * XI(I,J,M)
               SI = SI + CR(K,M) * XI(I,J,M) + CI(K,M) * XR(I,J,M)
   35       CONTINUE
            YR(I,J,K) = SR
            YI(I,J,K) = SI
   40    CONTINUE
C        back into X, damped, for the next iteration
         DO 50 K = 1, N
         DO 50 J = 1, N
         DO 50 I = 1, N
            XR(I,J,K) = 0.5D0 * YR(I,J,K)
            XI(I,J,K) = 0.5D0 * YI(I,J,K)
   50    CONTINUE
  100 CONTINUE
      CHK = 0.0D0
      DO 60 K = 1, N
      DO 60 J = 1, N
      DO 60 I = 1, N
         CHK = CHK + XR(I,J,K) * DBLE(I) + XI(I,J,K) * DBLE(J + K)
   60 CONTINUE
      WRITE (*,*) 'CHECKSUM ', CHK
      END
