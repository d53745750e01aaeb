C     Distributed loop phases for the compiled path: BLOCK and CYCLIC
C     arrays, a sweep along the distributed dimension (pipelined), sums and
C     a maximum, a triangular nest, and a loop with a GO TO and a CALL
C     (run on replicated data).
      PROGRAM DISTR
      INTEGER N
      PARAMETER (N = 40)
      DOUBLE PRECISION A(N, N), B(N, N), V(N), S, AMAX
      REAL C(N)
      INTEGER I, J, K, ITER
CHPF$ PROCESSORS P(4)
CHPF$ DISTRIBUTE A(*, BLOCK) ONTO P
CHPF$ ALIGN B(I, J) WITH A(I, J)
CHPF$ DISTRIBUTE C(CYCLIC) ONTO P
      DO 10 J = 1, N
         DO 10 I = 1, N
            A(I, J) = DBLE(I + 2 * J) / DBLE(N)
            B(I, J) = 1.0D0 + DBLE(MOD(I * J, 7)) / 8.0D0
   10 CONTINUE
      DO 15 I = 1, N
         C(I) = REAL(I) * 0.25
         V(I) = 0.0D0
   15 CONTINUE
      DO 40 ITER = 1, 3
         DO 20 J = 2, N
            DO 20 I = 1, N
               A(I, J) = A(I, J) - A(I, J - 1) * B(I, J) / B(I, J - 1)
   20    CONTINUE
         DO 25 J = N - 1, 1, -1
            DO 25 I = 2, N - 1
               A(I, J) = (A(I, J) + A(I - 1, J + 1) * 0.25D0) / B(I, J)
   25    CONTINUE
         DO 30 I = 2, N, 2
            C(I) = C(I) * 0.5 + C(I - 1) / 3.0
   30    CONTINUE
   40 CONTINUE
      S = 0.0D0
      AMAX = 0.0D0
      DO 50 J = 1, N
         DO 50 I = 1, J
            S = S + A(I, J) * B(I, J)
            AMAX = MAX(AMAX, ABS(A(I, J)))
   50 CONTINUE
      K = 0
      DO 60 J = 1, N
         IF (A(1, J) .GT. 10.0D0) GOTO 70
         K = K + 1
         CALL ROW(A, N, J, V)
   60 CONTINUE
   70 CONTINUE
      PRINT *, S, AMAX, K
      PRINT *, A(1, 1), A(N, N), A(N / 2, N / 3), V(1), V(N)
      PRINT *, C(N), C(N - 1)
      END

      SUBROUTINE ROW(A, N, J, V)
      INTEGER N, J, I
      DOUBLE PRECISION A(N, N), V(N)
      DO 80 I = 1, N
         IF (A(I, J) .LT. 0.0D0) GOTO 80
         V(J) = V(J) + A(I, J) * 0.5D0
   80 CONTINUE
      END
