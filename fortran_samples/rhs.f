C     RHS: the right-hand side of a 3-D compressible-flow solver in the
C     style of the NAS Parallel Benchmarks' APPSP/APPLU RHS routine: a
C     5-component solution U(5,NX,NY,NZ), inviscid fluxes and second-
C     difference artificial dissipation in the xi, eta and zeta
C     directions, on a 24 x 24 x 24 grid; the main program sets up a
C     smooth state, then takes three explicit pseudo-time steps.
C
C     What it exercises:
C       - 4-D arrays whose first dimension (the 5 components) is small
C         and never worth distributing, shared through COMMON blocks;
C       - per-direction phases: the xi sweep runs along the second
C         dimension, eta along the third, zeta along the fourth, each
C         through a work array FLUX(5,*) in /WORK/ (a private array per
C         line, reused by every direction);
C       - Shift patterns (I+1, I-1) on each of the three grid dimensions
C         in turn: the best distributed dimension differs per phase;
C       - loops nested four deep (K, J, I, M) with shared termination.
      PROGRAM RHSDRV
      INTEGER NX, NY, NZ, NMAX, NSTEP
      PARAMETER (NX = 24, NY = 24, NZ = 24, NMAX = 24, NSTEP = 3)
      DOUBLE PRECISION U(5,NX,NY,NZ), RSD(5,NX,NY,NZ),
     &                 FRCT(5,NX,NY,NZ)
      DOUBLE PRECISION FLUX(5,NMAX)
      DOUBLE PRECISION C1, C2, TX2, TY2, TZ2, DSSP, DT
      COMMON /CVAR/ U, RSD, FRCT
      COMMON /WORK/ FLUX
      COMMON /CPROP/ C1, C2, TX2, TY2, TZ2, DSSP, DT
      DOUBLE PRECISION X, Y, ZZ, RNORM(5)
      INTEGER I, J, K, M, ISTEP
      C1 = 1.4D0
      C2 = 0.4D0
      TX2 = 0.5D0 * DBLE(NX - 1)
      TY2 = 0.5D0 * DBLE(NY - 1)
      TZ2 = 0.5D0 * DBLE(NZ - 1)
      DSSP = 0.25D0
      DT = 0.002D0
C     A smooth initial state: density near 1, small momenta, energy 2.5
      DO 10 K = 1, NZ
      DO 10 J = 1, NY
      DO 10 I = 1, NX
         X = DBLE(I - 1) / DBLE(NX - 1)
         Y = DBLE(J - 1) / DBLE(NY - 1)
         ZZ = DBLE(K - 1) / DBLE(NZ - 1)
         U(1,I,J,K) = 1.0D0 + 0.1D0 * X * Y * ZZ
         U(2,I,J,K) = 0.05D0 * SIN(X)
         U(3,I,J,K) = 0.05D0 * SIN(Y)
         U(4,I,J,K) = 0.05D0 * SIN(ZZ)
         U(5,I,J,K) = 2.5D0 + 0.01D0 * (X + Y + ZZ)
         DO 10 M = 1, 5
            FRCT(M,I,J,K) = 0.001D0 * DBLE(M) * X
   10 CONTINUE
      DO 50 ISTEP = 1, NSTEP
         CALL RHS
         DO 20 K = 2, NZ - 1
         DO 20 J = 2, NY - 1
         DO 20 I = 2, NX - 1
         DO 20 M = 1, 5
            U(M,I,J,K) = U(M,I,J,K) + DT * RSD(M,I,J,K)
   20    CONTINUE
   50 CONTINUE
      DO 30 M = 1, 5
         RNORM(M) = 0.0D0
   30 CONTINUE
      DO 40 K = 2, NZ - 1
      DO 40 J = 2, NY - 1
      DO 40 I = 2, NX - 1
      DO 40 M = 1, 5
         RNORM(M) = RNORM(M) + RSD(M,I,J,K) * RSD(M,I,J,K)
   40 CONTINUE
      DO 45 M = 1, 5
         WRITE (*,*) 'RSD NORM', M, SQRT(RNORM(M))
   45 CONTINUE
      WRITE (*,*) 'U(5,12,12,12) =', U(5,12,12,12)
      END

      SUBROUTINE RHS
C     RSD = -FRCT - d(F)/dxi - d(G)/deta - d(H)/dzeta + dissipation
      INTEGER NX, NY, NZ, NMAX
      PARAMETER (NX = 24, NY = 24, NZ = 24, NMAX = 24)
      DOUBLE PRECISION U(5,NX,NY,NZ), RSD(5,NX,NY,NZ),
     &                 FRCT(5,NX,NY,NZ)
      DOUBLE PRECISION FLUX(5,NMAX)
      DOUBLE PRECISION C1, C2, TX2, TY2, TZ2, DSSP, DT
      COMMON /CVAR/ U, RSD, FRCT
      COMMON /WORK/ FLUX
      COMMON /CPROP/ C1, C2, TX2, TY2, TZ2, DSSP, DT
      DOUBLE PRECISION Q, VEL
      INTEGER I, J, K, M
      DO 10 K = 1, NZ
      DO 10 J = 1, NY
      DO 10 I = 1, NX
      DO 10 M = 1, 5
         RSD(M,I,J,K) = -FRCT(M,I,J,K)
   10 CONTINUE
C     xi-direction fluxes
      DO 100 K = 2, NZ - 1
      DO 100 J = 2, NY - 1
         DO 20 I = 1, NX
            VEL = U(2,I,J,K) / U(1,I,J,K)
            Q = 0.5D0 * (U(2,I,J,K) * U(2,I,J,K)
     &                 + U(3,I,J,K) * U(3,I,J,K)
     &                 + U(4,I,J,K) * U(4,I,J,K)) / U(1,I,J,K)
            FLUX(1,I) = U(2,I,J,K)
            FLUX(2,I) = U(2,I,J,K) * VEL + C2 * (U(5,I,J,K) - Q)
            FLUX(3,I) = U(3,I,J,K) * VEL
            FLUX(4,I) = U(4,I,J,K) * VEL
            FLUX(5,I) = (C1 * U(5,I,J,K) - C2 * Q) * VEL
   20    CONTINUE
         DO 30 I = 2, NX - 1
         DO 30 M = 1, 5
            RSD(M,I,J,K) = RSD(M,I,J,K)
     &                   - TX2 * (FLUX(M,I+1) - FLUX(M,I-1))
     &                   + DSSP * (U(M,I+1,J,K) - 2.0D0 * U(M,I,J,K)
     &                             + U(M,I-1,J,K))
   30    CONTINUE
  100 CONTINUE
C     eta-direction fluxes
      DO 200 K = 2, NZ - 1
      DO 200 I = 2, NX - 1
         DO 120 J = 1, NY
            VEL = U(3,I,J,K) / U(1,I,J,K)
            Q = 0.5D0 * (U(2,I,J,K) * U(2,I,J,K)
     &                 + U(3,I,J,K) * U(3,I,J,K)
     &                 + U(4,I,J,K) * U(4,I,J,K)) / U(1,I,J,K)
            FLUX(1,J) = U(3,I,J,K)
            FLUX(2,J) = U(2,I,J,K) * VEL
            FLUX(3,J) = U(3,I,J,K) * VEL + C2 * (U(5,I,J,K) - Q)
            FLUX(4,J) = U(4,I,J,K) * VEL
            FLUX(5,J) = (C1 * U(5,I,J,K) - C2 * Q) * VEL
  120    CONTINUE
         DO 130 J = 2, NY - 1
         DO 130 M = 1, 5
            RSD(M,I,J,K) = RSD(M,I,J,K)
     &                   - TY2 * (FLUX(M,J+1) - FLUX(M,J-1))
     &                   + DSSP * (U(M,I,J+1,K) - 2.0D0 * U(M,I,J,K)
     &                             + U(M,I,J-1,K))
  130    CONTINUE
  200 CONTINUE
C     zeta-direction fluxes
      DO 300 J = 2, NY - 1
      DO 300 I = 2, NX - 1
         DO 220 K = 1, NZ
            VEL = U(4,I,J,K) / U(1,I,J,K)
            Q = 0.5D0 * (U(2,I,J,K) * U(2,I,J,K)
     &                 + U(3,I,J,K) * U(3,I,J,K)
     &                 + U(4,I,J,K) * U(4,I,J,K)) / U(1,I,J,K)
            FLUX(1,K) = U(4,I,J,K)
            FLUX(2,K) = U(2,I,J,K) * VEL
            FLUX(3,K) = U(3,I,J,K) * VEL
            FLUX(4,K) = U(4,I,J,K) * VEL + C2 * (U(5,I,J,K) - Q)
            FLUX(5,K) = (C1 * U(5,I,J,K) - C2 * Q) * VEL
  220    CONTINUE
         DO 230 K = 2, NZ - 1
         DO 230 M = 1, 5
            RSD(M,I,J,K) = RSD(M,I,J,K)
     &                   - TZ2 * (FLUX(M,K+1) - FLUX(M,K-1))
     &                   + DSSP * (U(M,I,J,K+1) - 2.0D0 * U(M,I,J,K)
     &                             + U(M,I,J,K-1))
  230    CONTINUE
  300 CONTINUE
      RETURN
      END
