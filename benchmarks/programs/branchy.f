C     A scalar-heavy kernel for bench_runtime: loops the vectorized path
C     cannot take (a GO TO in a gather, a recurrence through a CALL), next to
C     two it can (an initialisation with MOD, a sum).
      SUBROUTINE MIX(A, B, C)
      DOUBLE PRECISION A, B, C
      IF (B .LT. C) THEN
         A = 0.5D0 * (A + B)
      ELSE
         A = A * 0.999D0 + 1.0D-3 * C
      END IF
      END

      PROGRAM BRANCH
      INTEGER N, NITER
      PARAMETER (N = 20000, NITER = 10)
      DOUBLE PRECISION X(N), Y(N), S
      INTEGER IDX(N)
      INTEGER I, IT
C     Phase 1
      DO 1 I = 1, N
         IDX(I) = MOD(I * 7919, N) + 1
         X(I) = DBLE(MOD(I * 31, 97)) / 97.0D0
         Y(I) = 0.0D0
    1 CONTINUE
      DO 10 IT = 1, NITER
C        Phase 2: a gather with a branch left by GO TO
         DO 2 I = 1, N
            IF (X(IDX(I)) .GT. 0.5D0) GOTO 21
            Y(I) = X(I) + X(IDX(I)) * 0.5D0
            GOTO 2
   21       Y(I) = X(I) - X(IDX(I)) * 0.25D0
    2    CONTINUE
C        Phase 3: a recurrence through a subroutine
         DO 3 I = 2, N
            CALL MIX(X(I), Y(I), Y(I - 1))
    3    CONTINUE
   10 CONTINUE
C     Phase 4
      S = 0.0D0
      DO 4 I = 1, N
         S = S + X(I) * Y(I)
    4 CONTINUE
      WRITE (*,*) 'S =', S
      END
