      PROGRAM TIMER
C     Times a relaxation with the NAS benchmarks' C timer WTIME (--link
C     wtime.c); prints only whether the times make sense, and the result.
      INTEGER N, NITER
      PARAMETER (N = 40, NITER = 5)
      DOUBLE PRECISION A(N), B(N), T0, T1, ELAPSED, S
      INTEGER I, IT
CHPF$ PROCESSORS P(3)
CHPF$ DISTRIBUTE A(BLOCK) ONTO P
CHPF$ DISTRIBUTE B(BLOCK) ONTO P
      CALL WTIME(T0)
      DO 10 I = 1, N
         A(I) = DBLE(I)
         B(I) = 0.0D0
   10 CONTINUE
      DO 30 IT = 1, NITER
         DO 20 I = 2, N - 1
            B(I) = (A(I-1) + A(I+1)) / 2.0D0
   20    CONTINUE
         DO 25 I = 2, N - 1
            A(I) = B(I)
   25    CONTINUE
   30 CONTINUE
      CALL WTIME(T1)
      ELAPSED = T1 - T0
      IF (T0 .GE. 0.0D0 .AND. ELAPSED .GE. 0.0D0 .AND.
     &    ELAPSED .LT. 60.0D0) THEN
         PRINT *, 'TIMES OK'
      ELSE
         PRINT *, 'BAD TIMES', T0, T1
      END IF
      S = 0.0D0
      DO 40 I = 1, N
         S = S + A(I)
   40 CONTINUE
      PRINT *, 'SUM', S
      END
