      PROGRAM CMFN
C     FUNCTIONs that change a COMMON scalar, called in the conditions of
C     block and logical IFs, ELSE IF, DO WHILE and in DO bounds, whose
C     bodies assign the same COMMON scalar (those assignments were lost).
      INTEGER N, K
      COMMON /C/ N
      N = 1
      K = 0
      IF (IFN(3) .GT. 100) THEN
         N = N - 1000
      ELSE IF (IFN(2) .GT. 0) THEN
         N = N + 10
      ELSE
         N = -N
      END IF
      PRINT *, N
      IF (IFN(1) .GT. 0) N = N * 2
      PRINT *, N
   10 IF (IFN(1) .LT. 60) THEN
         N = N + 5
         K = K + 1
         IF (K .LT. 5) GO TO 10
      END IF
      PRINT *, N, K
      DO WHILE (IFN(2) .LT. 200)
         N = N + 20
      END DO
      PRINT *, N
      DO 20 K = 1, MOD(IFN(0), 7)
         N = N + 100
   20 CONTINUE
      PRINT *, N, K
      END
      INTEGER FUNCTION IFN(I)
      INTEGER I, N
      COMMON /C/ N
      N = N + I
      IFN = N
      END
