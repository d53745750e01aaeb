C     SHALLOW: shallow-water equations on a periodic 64 x 64 grid,
C     structured like SPEC's swm256 (Sadourny's finite-difference scheme):
C     the main program calls INITAL, then iterates DO NCYCLE = 1, ITMAX
C     over CALC1 (mass fluxes, vorticity, height), CALC2 (new velocities
C     and pressure) and CALC3Z on the first step or CALC3 (time smoothing)
C     on the others.
C
C     What it exercises:
C       - arrays shared by all subroutines through COMMON blocks
C         (/ARRAYS/, /WORK/) and scalars through /CONS/;
C       - interprocedural phases: every subroutine is a sequence of
C         phases; the main loop is a chain of CALL phases with an IF
C         choosing CALC3Z or CALC3;
C       - stencils with offsets (U(I+1,J), V(I,J+1), Z(I+1,J+1)), i.e.
C         Shift communication along both dimensions;
C       - periodic boundary copies (U(1,J) = U(M+1,J)): a constant
C         subscript on a distributed dimension, One_to_All-like moves;
C       - single-precision REAL arithmetic, PARAMETERs in every unit.
      PROGRAM SHALOW
      INTEGER M, N, MP1, NP1, ITMAX
      PARAMETER (M = 64, N = 64, MP1 = M + 1, NP1 = N + 1, ITMAX = 12)
      REAL U(MP1,NP1), V(MP1,NP1), P(MP1,NP1), UNEW(MP1,NP1),
     &     VNEW(MP1,NP1), PNEW(MP1,NP1), UOLD(MP1,NP1),
     &     VOLD(MP1,NP1), POLD(MP1,NP1)
      REAL CU(MP1,NP1), CV(MP1,NP1), Z(MP1,NP1), H(MP1,NP1),
     &     PSI(MP1,NP1)
      REAL DT, TDT, DX, DY, A, ALPHA, EL, PI, TPI, DI, DJ, PCF
      COMMON /ARRAYS/ U, V, P, UNEW, VNEW, PNEW, UOLD, VOLD, POLD
      COMMON /WORK/ CU, CV, Z, H, PSI
      COMMON /CONS/ DT, TDT, DX, DY, A, ALPHA, EL, PI, TPI, DI, DJ, PCF
      REAL PCHECK, UCHECK, VCHECK
      INTEGER NCYCLE, I, J
      CALL INITAL
      TDT = DT
      DO 90 NCYCLE = 1, ITMAX
         CALL CALC1
         CALL CALC2
         IF (NCYCLE .LE. 1) THEN
            TDT = TDT + TDT
            CALL CALC3Z
         ELSE
            CALL CALC3
         ENDIF
   90 CONTINUE
      PCHECK = 0.0
      UCHECK = 0.0
      VCHECK = 0.0
      DO 95 J = 1, N
      DO 95 I = 1, M
         PCHECK = PCHECK + ABS(PNEW(I,J))
         UCHECK = UCHECK + ABS(UNEW(I,J))
         VCHECK = VCHECK + ABS(VNEW(I,J))
   95 CONTINUE
      WRITE (*,*) 'CYCLES =', ITMAX
      WRITE (*,*) 'PCHECK =', PCHECK
      WRITE (*,*) 'UCHECK =', UCHECK
      WRITE (*,*) 'VCHECK =', VCHECK
      END

      SUBROUTINE INITAL
C     Initial state: a stream function PSI gives U and V, a cosine
C     pressure field P; the old time level is a copy of the new one.
      INTEGER M, N, MP1, NP1
      PARAMETER (M = 64, N = 64, MP1 = M + 1, NP1 = N + 1)
      REAL U(MP1,NP1), V(MP1,NP1), P(MP1,NP1), UNEW(MP1,NP1),
     &     VNEW(MP1,NP1), PNEW(MP1,NP1), UOLD(MP1,NP1),
     &     VOLD(MP1,NP1), POLD(MP1,NP1)
      REAL CU(MP1,NP1), CV(MP1,NP1), Z(MP1,NP1), H(MP1,NP1),
     &     PSI(MP1,NP1)
      REAL DT, TDT, DX, DY, A, ALPHA, EL, PI, TPI, DI, DJ, PCF
      COMMON /ARRAYS/ U, V, P, UNEW, VNEW, PNEW, UOLD, VOLD, POLD
      COMMON /WORK/ CU, CV, Z, H, PSI
      COMMON /CONS/ DT, TDT, DX, DY, A, ALPHA, EL, PI, TPI, DI, DJ, PCF
      INTEGER I, J
      DT = 90.0
      DX = 1.0E5
      DY = 1.0E5
      A = 1.0E6
      ALPHA = 0.001
      EL = REAL(N) * DX
      PI = 4.0 * ATAN(1.0)
      TPI = PI + PI
      DI = TPI / REAL(M)
      DJ = TPI / REAL(N)
      PCF = PI * PI * A * A / (EL * EL)
      DO 50 J = 1, NP1
      DO 50 I = 1, MP1
         PSI(I,J) = A * SIN((REAL(I) - 0.5) * DI)
     &                * SIN((REAL(J) - 0.5) * DJ)
         P(I,J) = PCF * (COS(2.0 * REAL(I - 1) * DI)
     &                 + COS(2.0 * REAL(J - 1) * DJ)) + 50000.0
   50 CONTINUE
      DO 60 J = 1, N
      DO 60 I = 1, M
         U(I+1,J) = -(PSI(I+1,J+1) - PSI(I+1,J)) / DY
         V(I,J+1) = (PSI(I+1,J+1) - PSI(I,J+1)) / DX
   60 CONTINUE
C     Periodic continuation
      DO 70 J = 1, N
         U(1,J) = U(M+1,J)
         V(M+1,J+1) = V(1,J+1)
   70 CONTINUE
      DO 75 I = 1, M
         U(I+1,N+1) = U(I+1,1)
         V(I,1) = V(I,N+1)
   75 CONTINUE
      U(1,N+1) = U(M+1,1)
      V(M+1,1) = V(1,N+1)
      DO 86 J = 1, NP1
      DO 86 I = 1, MP1
         UOLD(I,J) = U(I,J)
         VOLD(I,J) = V(I,J)
         POLD(I,J) = P(I,J)
   86 CONTINUE
      RETURN
      END

      SUBROUTINE CALC1
C     Mass fluxes CU, CV, potential vorticity Z and height H.
      INTEGER M, N, MP1, NP1
      PARAMETER (M = 64, N = 64, MP1 = M + 1, NP1 = N + 1)
      REAL U(MP1,NP1), V(MP1,NP1), P(MP1,NP1), UNEW(MP1,NP1),
     &     VNEW(MP1,NP1), PNEW(MP1,NP1), UOLD(MP1,NP1),
     &     VOLD(MP1,NP1), POLD(MP1,NP1)
      REAL CU(MP1,NP1), CV(MP1,NP1), Z(MP1,NP1), H(MP1,NP1),
     &     PSI(MP1,NP1)
      REAL DT, TDT, DX, DY, A, ALPHA, EL, PI, TPI, DI, DJ, PCF
      COMMON /ARRAYS/ U, V, P, UNEW, VNEW, PNEW, UOLD, VOLD, POLD
      COMMON /WORK/ CU, CV, Z, H, PSI
      COMMON /CONS/ DT, TDT, DX, DY, A, ALPHA, EL, PI, TPI, DI, DJ, PCF
      REAL FSDX, FSDY
      INTEGER I, J
      FSDX = 4.0 / DX
      FSDY = 4.0 / DY
      DO 100 J = 1, N
      DO 100 I = 1, M
         CU(I+1,J) = 0.5 * (P(I+1,J) + P(I,J)) * U(I+1,J)
         CV(I,J+1) = 0.5 * (P(I,J+1) + P(I,J)) * V(I,J+1)
         Z(I+1,J+1) = (FSDX * (V(I+1,J+1) - V(I,J+1))
     &               - FSDY * (U(I+1,J+1) - U(I+1,J)))
     &              / (P(I,J) + P(I+1,J) + P(I+1,J+1) + P(I,J+1))
         H(I,J) = P(I,J) + 0.25 * (U(I+1,J) * U(I+1,J)
     &          + U(I,J) * U(I,J) + V(I,J+1) * V(I,J+1)
     &          + V(I,J) * V(I,J))
  100 CONTINUE
C     Periodic continuation
      DO 110 J = 1, N
         CU(1,J) = CU(M+1,J)
         CV(M+1,J+1) = CV(1,J+1)
         Z(1,J+1) = Z(M+1,J+1)
         H(M+1,J) = H(1,J)
  110 CONTINUE
      DO 115 I = 1, M
         CU(I+1,N+1) = CU(I+1,1)
         CV(I,1) = CV(I,N+1)
         Z(I+1,1) = Z(I+1,N+1)
         H(I,N+1) = H(I,1)
  115 CONTINUE
      CU(1,N+1) = CU(M+1,1)
      CV(M+1,1) = CV(1,N+1)
      Z(1,1) = Z(M+1,N+1)
      H(M+1,N+1) = H(1,1)
      RETURN
      END

      SUBROUTINE CALC2
C     New velocities UNEW, VNEW and pressure PNEW (leapfrog step TDT).
      INTEGER M, N, MP1, NP1
      PARAMETER (M = 64, N = 64, MP1 = M + 1, NP1 = N + 1)
      REAL U(MP1,NP1), V(MP1,NP1), P(MP1,NP1), UNEW(MP1,NP1),
     &     VNEW(MP1,NP1), PNEW(MP1,NP1), UOLD(MP1,NP1),
     &     VOLD(MP1,NP1), POLD(MP1,NP1)
      REAL CU(MP1,NP1), CV(MP1,NP1), Z(MP1,NP1), H(MP1,NP1),
     &     PSI(MP1,NP1)
      REAL DT, TDT, DX, DY, A, ALPHA, EL, PI, TPI, DI, DJ, PCF
      COMMON /ARRAYS/ U, V, P, UNEW, VNEW, PNEW, UOLD, VOLD, POLD
      COMMON /WORK/ CU, CV, Z, H, PSI
      COMMON /CONS/ DT, TDT, DX, DY, A, ALPHA, EL, PI, TPI, DI, DJ, PCF
      REAL TDTS8, TDTSDX, TDTSDY
      INTEGER I, J
      TDTS8 = TDT / 8.0
      TDTSDX = TDT / DX
      TDTSDY = TDT / DY
      DO 200 J = 1, N
      DO 200 I = 1, M
         UNEW(I+1,J) = UOLD(I+1,J) + TDTS8 * (Z(I+1,J+1) + Z(I+1,J))
     &        * (CV(I+1,J+1) + CV(I,J+1) + CV(I,J) + CV(I+1,J))
     &        - TDTSDX * (H(I+1,J) - H(I,J))
         VNEW(I,J+1) = VOLD(I,J+1) - TDTS8 * (Z(I+1,J+1) + Z(I,J+1))
     &        * (CU(I+1,J+1) + CU(I,J+1) + CU(I,J) + CU(I+1,J))
     &        - TDTSDY * (H(I,J+1) - H(I,J))
         PNEW(I,J) = POLD(I,J) - TDTSDX * (CU(I+1,J) - CU(I,J))
     &        - TDTSDY * (CV(I,J+1) - CV(I,J))
  200 CONTINUE
C     Periodic continuation
      DO 210 J = 1, N
         UNEW(1,J) = UNEW(M+1,J)
         VNEW(M+1,J+1) = VNEW(1,J+1)
         PNEW(M+1,J) = PNEW(1,J)
  210 CONTINUE
      DO 215 I = 1, M
         UNEW(I+1,N+1) = UNEW(I+1,1)
         VNEW(I,1) = VNEW(I,N+1)
         PNEW(I,N+1) = PNEW(I,1)
  215 CONTINUE
      UNEW(1,N+1) = UNEW(M+1,1)
      VNEW(M+1,1) = VNEW(1,N+1)
      PNEW(M+1,N+1) = PNEW(1,1)
      RETURN
      END

      SUBROUTINE CALC3Z
C     First time step: the old level takes the current values, the
C     current level the new ones (no smoothing).
      INTEGER M, N, MP1, NP1
      PARAMETER (M = 64, N = 64, MP1 = M + 1, NP1 = N + 1)
      REAL U(MP1,NP1), V(MP1,NP1), P(MP1,NP1), UNEW(MP1,NP1),
     &     VNEW(MP1,NP1), PNEW(MP1,NP1), UOLD(MP1,NP1),
     &     VOLD(MP1,NP1), POLD(MP1,NP1)
      COMMON /ARRAYS/ U, V, P, UNEW, VNEW, PNEW, UOLD, VOLD, POLD
      INTEGER I, J
      DO 400 J = 1, NP1
      DO 400 I = 1, MP1
         UOLD(I,J) = U(I,J)
         VOLD(I,J) = V(I,J)
         POLD(I,J) = P(I,J)
         U(I,J) = UNEW(I,J)
         V(I,J) = VNEW(I,J)
         P(I,J) = PNEW(I,J)
  400 CONTINUE
      RETURN
      END

      SUBROUTINE CALC3
C     Later time steps: Robert-Asselin time smoothing of the old level
C     (coefficient ALPHA), then the new level becomes current.
      INTEGER M, N, MP1, NP1
      PARAMETER (M = 64, N = 64, MP1 = M + 1, NP1 = N + 1)
      REAL U(MP1,NP1), V(MP1,NP1), P(MP1,NP1), UNEW(MP1,NP1),
     &     VNEW(MP1,NP1), PNEW(MP1,NP1), UOLD(MP1,NP1),
     &     VOLD(MP1,NP1), POLD(MP1,NP1)
      REAL DT, TDT, DX, DY, A, ALPHA, EL, PI, TPI, DI, DJ, PCF
      COMMON /ARRAYS/ U, V, P, UNEW, VNEW, PNEW, UOLD, VOLD, POLD
      COMMON /CONS/ DT, TDT, DX, DY, A, ALPHA, EL, PI, TPI, DI, DJ, PCF
      INTEGER I, J
      DO 300 J = 1, N
      DO 300 I = 1, M
         UOLD(I,J) = U(I,J) + ALPHA * (UNEW(I,J) - 2.0 * U(I,J)
     &             + UOLD(I,J))
         VOLD(I,J) = V(I,J) + ALPHA * (VNEW(I,J) - 2.0 * V(I,J)
     &             + VOLD(I,J))
         POLD(I,J) = P(I,J) + ALPHA * (PNEW(I,J) - 2.0 * P(I,J)
     &             + POLD(I,J))
         U(I,J) = UNEW(I,J)
         V(I,J) = VNEW(I,J)
         P(I,J) = PNEW(I,J)
  300 CONTINUE
C     Periodic continuation
      DO 320 J = 1, N
         UOLD(M+1,J) = UOLD(1,J)
         VOLD(M+1,J) = VOLD(1,J)
         POLD(M+1,J) = POLD(1,J)
         U(M+1,J) = U(1,J)
         V(M+1,J) = V(1,J)
         P(M+1,J) = P(1,J)
  320 CONTINUE
      DO 325 I = 1, M
         UOLD(I,N+1) = UOLD(I,1)
         VOLD(I,N+1) = VOLD(I,1)
         POLD(I,N+1) = POLD(I,1)
         U(I,N+1) = U(I,1)
         V(I,N+1) = V(I,1)
         P(I,N+1) = P(I,1)
  325 CONTINUE
      UOLD(M+1,N+1) = UOLD(1,1)
      VOLD(M+1,N+1) = VOLD(1,1)
      POLD(M+1,N+1) = POLD(1,1)
      U(M+1,N+1) = U(1,1)
      V(M+1,N+1) = V(1,1)
      P(M+1,N+1) = P(1,1)
      RETURN
      END
