C     A multigrid V-cycle for a 3-D Poisson problem, the structure of NAS
C     MG: the grids of all levels are packed one after the other in 1-D
C     work arrays U and R (level K starts at IR(K) and has M(K)**3
C     points, ghost faces included), and every operator is a subroutine
C     that receives one level as a 3-D dummy through an element actual,
C     CALL RESID(U(IR(K)), ...).  An HPF expert distributes every level
C     BLOCK along its last dimension (each level its own distributed
C     section of the packed array, as the HPF version of NAS MG does by
C     giving the levels a dimension of their own), so that the smoother,
C     the residual, the restriction and the interpolation are parallel
C     loops with nearest-neighbour exchanges.
      PROGRAM MGPACK
      INTEGER LT, NF, NTOT, NITER
      PARAMETER (LT = 4, NF = 34, NITER = 4)
      PARAMETER (NTOT = 34**3 + 18**3 + 10**3 + 6**3)
      DOUBLE PRECISION U(NTOT), R(NTOT), V(NF,NF,NF)
      INTEGER IR(LT), M(LT), K, IT, I1, I2, I3
      DOUBLE PRECISION RNORM
      DO 5 K = 1, LT
         M(K) = 2**(K + 1) + 2
    5 CONTINUE
      IR(LT) = 1
      DO 6 K = LT - 1, 1, -1
         IR(K) = IR(K + 1) + M(K + 1)**3
    6 CONTINUE
      DO 8 I3 = 1, NF
      DO 8 I2 = 1, NF
      DO 8 I1 = 1, NF
         V(I1,I2,I3) = DBLE(MOD(I1 * 3 + I2 * 5 + I3 * 7, 13) - 6)
     &                 / 64.0D0
    8 CONTINUE
      CALL ZERO3(U, NTOT)
      CALL ZERO3(R, NTOT)
      DO 100 IT = 1, NITER
C        down: residual on the finest level, restrictions to the coarsest
         CALL RESID(U(IR(LT)), V, R(IR(LT)), M(LT))
         DO 20 K = LT, 2, -1
            CALL RPRJ3(R(IR(K)), M(K), R(IR(K - 1)), M(K - 1))
   20    CONTINUE
C        coarsest level: one smoothing from zero
         CALL ZERO3(U(IR(1)), M(1)**3)
         CALL PSINV(R(IR(1)), U(IR(1)), M(1))
C        up: interpolate, residual, smooth
         DO 30 K = 2, LT - 1
            CALL ZERO3(U(IR(K)), M(K)**3)
            CALL INTERP(U(IR(K - 1)), M(K - 1), U(IR(K)), M(K))
            CALL RESID(U(IR(K)), R(IR(K)), R(IR(K)), M(K))
            CALL PSINV(R(IR(K)), U(IR(K)), M(K))
   30    CONTINUE
         CALL INTERP(U(IR(LT - 1)), M(LT - 1), U(IR(LT)), M(LT))
         CALL RESID(U(IR(LT)), V, R(IR(LT)), M(LT))
         CALL PSINV(R(IR(LT)), U(IR(LT)), M(LT))
  100 CONTINUE
      CALL RESID(U(IR(LT)), V, R(IR(LT)), M(LT))
      CALL NORM2(R(IR(LT)), M(LT), RNORM)
      WRITE (*,*) 'RESIDUAL NORM ', RNORM
      END

      SUBROUTINE ZERO3(Z, N)
      INTEGER N, I
      DOUBLE PRECISION Z(N)
      DO 10 I = 1, N
         Z(I) = 0.0D0
   10 CONTINUE
      END

C     R = V - A U, the 7-point Laplacian on the interior
      SUBROUTINE RESID(U, V, R, N)
      INTEGER N, I1, I2, I3
      DOUBLE PRECISION U(N,N,N), V(N,N,N), R(N,N,N)
      DO 10 I3 = 2, N - 1
      DO 10 I2 = 2, N - 1
      DO 10 I1 = 2, N - 1
         R(I1,I2,I3) = V(I1,I2,I3) - (6.0D0 * U(I1,I2,I3)
     &      - U(I1-1,I2,I3) - U(I1+1,I2,I3) - U(I1,I2-1,I3)
     &      - U(I1,I2+1,I3) - U(I1,I2,I3-1) - U(I1,I2,I3+1))
   10 CONTINUE
      END

C     U = U + R / 6, a Jacobi smoothing step on the interior
      SUBROUTINE PSINV(R, U, N)
      INTEGER N, I1, I2, I3
      DOUBLE PRECISION R(N,N,N), U(N,N,N)
      DO 10 I3 = 2, N - 1
      DO 10 I2 = 2, N - 1
      DO 10 I1 = 2, N - 1
         U(I1,I2,I3) = U(I1,I2,I3) + R(I1,I2,I3) / 6.0D0
   10 CONTINUE
      END

C     restriction: the coarse point averages its fine neighbourhood
      SUBROUTINE RPRJ3(R, M, S, N)
      INTEGER M, N, J1, J2, J3
      DOUBLE PRECISION R(M,M,M), S(N,N,N)
      DO 10 J3 = 2, N - 1
      DO 10 J2 = 2, N - 1
      DO 10 J1 = 2, N - 1
         S(J1,J2,J3) = 0.5D0 * R(2*J1-2,2*J2-2,2*J3-2)
     &      + 0.0625D0 * (R(2*J1-3,2*J2-2,2*J3-2)
     &      + R(2*J1-1,2*J2-2,2*J3-2) + R(2*J1-2,2*J2-3,2*J3-2)
     &      + R(2*J1-2,2*J2-1,2*J3-2) + R(2*J1-2,2*J2-2,2*J3-3)
     &      + R(2*J1-2,2*J2-2,2*J3-1))
   10 CONTINUE
      END

C     prolongation: each fine point takes its coarse parent's correction
      SUBROUTINE INTERP(Z, M, U, N)
      INTEGER M, N, I1, I2, I3
      DOUBLE PRECISION Z(M,M,M), U(N,N,N)
      DO 10 I3 = 2, N - 1
      DO 10 I2 = 2, N - 1
      DO 10 I1 = 2, N - 1
         U(I1,I2,I3) = U(I1,I2,I3) + Z(I1/2+1,I2/2+1,I3/2+1)
   10 CONTINUE
      END

      SUBROUTINE NORM2(R, N, RNORM)
      INTEGER N, I1, I2, I3
      DOUBLE PRECISION R(N,N,N), RNORM
      RNORM = 0.0D0
      DO 10 I3 = 2, N - 1
      DO 10 I2 = 2, N - 1
      DO 10 I1 = 2, N - 1
         RNORM = RNORM + R(I1,I2,I3)**2
   10 CONTINUE
      RNORM = SQRT(RNORM)
      END
