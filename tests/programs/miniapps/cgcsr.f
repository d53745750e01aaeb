C     Conjugate gradient on a sparse symmetric matrix in compressed-row
C     storage, the structure of NAS CG: the matrix is assembled row by row
C     (a 7-point stencil on an NX x NY x NZ grid, so every row has at most
C     7 nonzeros), then each iteration does a sparse matrix-vector product
C     Q = A * P through ROWSTR, COLIDX and A, two dot products and three
C     vector updates.  An HPF expert distributes the vectors X, R, Q, Z
C     BLOCK, aligned with each other and with the row pointers ROWSTR
C     (each processor owns a block of rows), and keeps P, the vector read
C     through COLIDX (an indirection), whole on every processor; never
C     CYCLIC: it would scatter the stencil's neighbours.
      PROGRAM CGCSR
      INTEGER NX, NY, NZ, N, NNZMAX, NITER
      PARAMETER (NX = 16, NY = 16, NZ = 16, N = NX * NY * NZ)
      PARAMETER (NNZMAX = 7 * N, NITER = 25)
      INTEGER ROWSTR(N + 1), COLIDX(NNZMAX)
      DOUBLE PRECISION A(NNZMAX)
      DOUBLE PRECISION X(N), R(N), P(N), Q(N), Z(N)
      DOUBLE PRECISION RHO, RHO0, ALPHA, BETA, PQ, RNORM
      INTEGER I, J, K, ROW, NZ0, IT, KK
C     assembly: row ROW of the grid point (I,J,K), diagonal first
      NZ0 = 0
      DO 10 K = 1, NZ
      DO 10 J = 1, NY
      DO 10 I = 1, NX
         ROW = I + NX * ((J - 1) + NY * (K - 1))
         ROWSTR(ROW) = NZ0 + 1
         NZ0 = NZ0 + 1
         COLIDX(NZ0) = ROW
         A(NZ0) = 6.5D0
         IF (I .GT. 1) THEN
            NZ0 = NZ0 + 1
            COLIDX(NZ0) = ROW - 1
            A(NZ0) = -1.0D0
         END IF
         IF (I .LT. NX) THEN
            NZ0 = NZ0 + 1
            COLIDX(NZ0) = ROW + 1
            A(NZ0) = -1.0D0
         END IF
         IF (J .GT. 1) THEN
            NZ0 = NZ0 + 1
            COLIDX(NZ0) = ROW - NX
            A(NZ0) = -1.0D0
         END IF
         IF (J .LT. NY) THEN
            NZ0 = NZ0 + 1
            COLIDX(NZ0) = ROW + NX
            A(NZ0) = -1.0D0
         END IF
         IF (K .GT. 1) THEN
            NZ0 = NZ0 + 1
            COLIDX(NZ0) = ROW - NX * NY
            A(NZ0) = -1.0D0
         END IF
         IF (K .LT. NZ) THEN
            NZ0 = NZ0 + 1
            COLIDX(NZ0) = ROW + NX * NY
            A(NZ0) = -1.0D0
         END IF
   10 CONTINUE
      ROWSTR(N + 1) = NZ0 + 1
C     right-hand side and start
      DO 20 ROW = 1, N
         X(ROW) = 0.0D0
         R(ROW) = DBLE(MOD(ROW * 13, 17)) / 17.0D0
         P(ROW) = R(ROW)
   20 CONTINUE
      RHO = 0.0D0
      DO 30 ROW = 1, N
         RHO = RHO + R(ROW) * R(ROW)
   30 CONTINUE
      DO 100 IT = 1, NITER
C        Q = A * P
         DO 40 ROW = 1, N
            Q(ROW) = 0.0D0
            DO 35 KK = ROWSTR(ROW), ROWSTR(ROW + 1) - 1
               Q(ROW) = Q(ROW) + A(KK) * P(COLIDX(KK))
   35       CONTINUE
   40    CONTINUE
         PQ = 0.0D0
         DO 50 ROW = 1, N
            PQ = PQ + P(ROW) * Q(ROW)
   50    CONTINUE
         ALPHA = RHO / PQ
         DO 60 ROW = 1, N
            X(ROW) = X(ROW) + ALPHA * P(ROW)
            R(ROW) = R(ROW) - ALPHA * Q(ROW)
            Z(ROW) = R(ROW)
   60    CONTINUE
         RHO0 = RHO
         RHO = 0.0D0
         DO 70 ROW = 1, N
            RHO = RHO + R(ROW) * R(ROW)
   70    CONTINUE
         BETA = RHO / RHO0
         DO 80 ROW = 1, N
            P(ROW) = Z(ROW) + BETA * P(ROW)
   80    CONTINUE
  100 CONTINUE
      RNORM = 0.0D0
      DO 90 ROW = 1, N
         RNORM = RNORM + X(ROW) * X(ROW)
   90 CONTINUE
      WRITE (*,*) 'RESIDUAL ', SQRT(RHO), ' SOLUTION NORM ', SQRT(RNORM)
      END
