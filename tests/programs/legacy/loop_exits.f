C     EXIT and CYCLE (Fortran 90 statements in F77 programs): in block and
C     labelled DO loops, nested loops, DO WHILE, next to a GO TO.
      PROGRAM EXITS
      INTEGER N
      PARAMETER (N = 20)
      DOUBLE PRECISION A(N), S
      INTEGER I, J, K, IT
      DO 10 I = 1, N
         A(I) = 1.0D0 / I
   10 CONTINUE
      S = 0.0D0
      DO I = 1, N
         IF (A(I) .LT. 0.1D0) EXIT
         S = S + A(I)
      END DO
      PRINT *, 'EXIT AT', I, S
      S = 0.0D0
      DO 20 I = 1, N
         IF (MOD(I, 3) .EQ. 0) CYCLE
         S = S + A(I)
   20 CONTINUE
      PRINT *, 'CYCLE', I, S
      K = 0
      DO I = 1, 5
         DO J = 1, 5
            IF (J .GT. I) EXIT
            IF (J .EQ. 2) CYCLE
            K = K + I * J
         END DO
         IF (K .GT. 30) EXIT
      END DO
      PRINT *, 'NESTED', I, J, K
      IT = 0
      DO WHILE (.TRUE.)
         IT = IT + 1
         IF (IT .LT. 4) THEN
            CYCLE
         ELSE IF (IT .GE. 7) THEN
            EXIT
         END IF
         A(IT) = -A(IT)
      END DO
      PRINT *, 'WHILE', IT, A(1), A(4), A(6), A(7)
      DO I = 1, N
         IF (I .EQ. 3) GO TO 30
         IF (A(I) .LT. 0.0D0) EXIT
         A(I) = A(I) * 2
   30    CONTINUE
      END DO
      PRINT *, 'MIXED', I, A(1), A(3), A(4)
      END
