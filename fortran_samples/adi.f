C     ADI: Alternating Direction Implicit integration kernel, laid out as
C     in Figure 1 of the DDT paper (Ayguade et al., Scientific Programming
C     6, 1997): three initialisation phases, then an iterative loop with a
C     forward and a backward sweep along the rows and then along the
C     columns -- nine phases.
C
C     What it exercises:
C       - PARAMETER folding in bounds and loop limits (N = 256);
C       - shared-termination DO nests (DO 4 J / DO 4 I / 4 CONTINUE);
C       - loops that carry a dependence in one dimension and are parallel
C         in the other: the row sweeps (phases 4-6) are parallel in I and
C         sequential in J; the column sweeps (phases 7-9) the reverse;
C       - the static/dynamic trade-off: (BLOCK,*) suits the row sweeps,
C         (*,BLOCK) the column sweeps; remapping X, A and B between them
C         pays on enough processors.
      PROGRAM ADI
      INTEGER N, NITER
      PARAMETER (N = 256, NITER = 10)
      DOUBLE PRECISION X(N,N), A(N,N), B(N,N)
      INTEGER I, J, ITER
C     Phase 1
      DO 1 J = 1, N
      DO 1 I = 1, N
         X(I,J) = DBLE(I + J) / DBLE(N)
    1 CONTINUE
C     Phase 2
      DO 2 J = 1, N
      DO 2 I = 1, N
         A(I,J) = 0.25D0 / DBLE(1 + MOD(I * J, 5))
    2 CONTINUE
C     Phase 3
      DO 3 J = 1, N
      DO 3 I = 1, N
         B(I,J) = 4.0D0 + DBLE(MOD(I + 2 * J, 3))
    3 CONTINUE
      DO 10 ITER = 1, NITER
C        ADI forward and backward sweeps along rows
C        Phase 4
         DO 4 J = 2, N
         DO 4 I = 1, N
            X(I,J) = X(I,J) - X(I,J-1) * A(I,J) / B(I,J-1)
            B(I,J) = B(I,J) - A(I,J) * A(I,J) / B(I,J-1)
    4    CONTINUE
C        Phase 5
         DO 5 I = 1, N
            X(I,N) = X(I,N) / B(I,N)
    5    CONTINUE
C        Phase 6
         DO 6 J = N - 1, 1, -1
         DO 6 I = 1, N
            X(I,J) = (X(I,J) - A(I,J+1) * X(I,J+1)) / B(I,J)
    6    CONTINUE
C        ADI forward and backward sweeps along columns
C        Phase 7
         DO 7 J = 1, N
         DO 7 I = 2, N
            X(I,J) = X(I,J) - X(I-1,J) * A(I,J) / B(I-1,J)
            B(I,J) = B(I,J) - A(I,J) * A(I,J) / B(I-1,J)
    7    CONTINUE
C        Phase 8
         DO 8 J = 1, N
            X(N,J) = X(N,J) / B(N,J)
    8    CONTINUE
C        Phase 9
         DO 9 J = 1, N
         DO 9 I = N - 1, 1, -1
            X(I,J) = (X(I,J) - A(I+1,J) * X(I+1,J)) / B(I,J)
    9    CONTINUE
   10 CONTINUE
      WRITE (*,*) 'X(1,1)     =', X(1,1)
      WRITE (*,*) 'X(128,128) =', X(128,128)
      WRITE (*,*) 'X(N,N)     =', X(N,N)
      END
