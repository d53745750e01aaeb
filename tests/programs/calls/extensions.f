      PROGRAM EXT
      REAL T0, T1, TA(2), TB(2), E0, R, S
      DOUBLE PRECISION C0
      INTEGER IC0, IC1, IRATE, IMAX, V(8), K, N
      CHARACTER*8 DAT
      T0 = SECOND()
      E0 = ETIME(TA)
      CALL CPU_TIME(C0)
      CALL SYSTEM_CLOCK(IC0, IRATE, IMAX)
      CALL DATE_AND_TIME(DAT, VALUES=V)
      S = 0.0
      DO 10 K = 1, 20000
         S = S + SQRT(REAL(K))
   10 CONTINUE
      T1 = SECOND()
      CALL SYSTEM_CLOCK(IC1)
      E0 = DTIME(TB)
      PRINT *, T1 .GE. T0, TA(2) .GE. 0.0, IC1 .GE. IC0, IRATE, IMAX
C     times differ from run to run: the arrays end as zeros
      TA(1) = 0.0
      TA(2) = 0.0
      TB(1) = 0.0
      TB(2) = 0.0
      PRINT *, V(1) .GT. 2000, V(2) .GE. 1, LEN(DAT), S
      DO 15 K = 1, 8
         V(K) = 0
   15 CONTINUE
      CALL SRAND(12345)
      DO 20 K = 1, 4
         R = RAND(0)
         N = IRAND(0)
         PRINT *, K, R, N
   20 CONTINUE
      PRINT *, RAND(7), IRAND(1), DFLOAT(IARGC())
      CALL FLUSH(6)
      END
