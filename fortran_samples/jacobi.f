C     JACOBI: two-dimensional Jacobi relaxation of Laplace's equation on
C     a 128 x 128 grid with a fixed boundary, 50 iterations.
C
C     What it exercises:
C       - PARAMETER folding in bounds with offsets (U(0:N+1,0:N+1)) and
C         in loop limits (N + 1);
C       - an initialisation phase (a shared-termination nest), a
C         boundary phase, then an iterative loop (DO 100 ITER) holding
C         a four-point stencil phase from U into UNEW (parallel in I and
C         J, Shift communication along both dimensions), a residual
C         reduction with MAX and ABS, and a copy-back phase written
C         with DO ... END DO;
C       - U and UNEW aligned identically: any (BLOCK,*) or (*,BLOCK)
C         layout pays only boundary shifts.
      PROGRAM JACOBI
      INTEGER N, NITER
      PARAMETER (N = 128, NITER = 50)
      DOUBLE PRECISION U(0:N+1, 0:N+1), UNEW(0:N+1, 0:N+1)
      DOUBLE PRECISION RESID, TOTAL
      INTEGER I, J, ITER
C     Initialisation: everything cold
      DO 10 J = 0, N + 1
      DO 10 I = 0, N + 1
         U(I,J) = 0.0D0
         UNEW(I,J) = 0.0D0
   10 CONTINUE
C     Boundary: the J = 0 edge is hot
      DO 20 I = 0, N + 1
         U(I,0) = 1.0D0
         UNEW(I,0) = 1.0D0
   20 CONTINUE
      DO 100 ITER = 1, NITER
C        Four-point stencil
         DO 30 J = 1, N
         DO 30 I = 1, N
            UNEW(I,J) = 0.25D0 * (U(I-1,J) + U(I+1,J)
     &                          + U(I,J-1) + U(I,J+1))
   30    CONTINUE
C        Residual: the largest change of this iteration
         RESID = 0.0D0
         DO 40 J = 1, N
         DO 40 I = 1, N
            RESID = MAX(RESID, ABS(UNEW(I,J) - U(I,J)))
   40    CONTINUE
C        Copy back
         DO J = 1, N
            DO I = 1, N
               U(I,J) = UNEW(I,J)
            END DO
         END DO
  100 CONTINUE
      TOTAL = 0.0D0
      DO 50 J = 1, N
      DO 50 I = 1, N
         TOTAL = TOTAL + U(I,J)
   50 CONTINUE
      WRITE (*,*) 'RESIDUAL =', RESID
      WRITE (*,*) 'TOTAL    =', TOTAL
      WRITE (*,*) 'U(64,1)  =', U(64,1)
      END
