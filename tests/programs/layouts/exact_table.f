C     The constant tables of the NAS pseudo-applications, as they use them.
C     CE(5,13), in COMMON, is set element by element in a routine of its
C     own and read by EXACT, which evaluates a 5-component polynomial into
C     its dummy DTEMP, called at every grid point (DTEMP a local array of
C     the caller).  A verification step computes 5 relative errors in a
C     loop and writes them out in another.  An expert distributes the grid
C     and keeps every 5- and 13-element table whole: the few operations
C     over 5 components never pay for moving them.  The time steps are
C     timed as the NAS codes time them: START(N) = WALL() in a routine,
C     a table nothing gains from distributing either.
      PROGRAM EXACTT
      INTEGER N, NSTEP
      PARAMETER (N = 24, NSTEP = 20)
      DOUBLE PRECISION U(5,N,N,N), R(5,N,N,N)
      DOUBLE PRECISION CE(5,13)
      COMMON /CONSTS/ CE
      DOUBLE PRECISION DTEMP(5), XCR(5), XCRREF(5), XCRDIF(5)
      DOUBLE PRECISION XI, ETA, ZETA, EPS
      INTEGER I, J, K, M, STEP
      CALL SETCON
      CALL TSTART(1)
      DO 10 K = 1, N
         ZETA = DBLE(K - 1) / DBLE(N - 1)
         DO 10 J = 1, N
            ETA = DBLE(J - 1) / DBLE(N - 1)
            DO 10 I = 1, N
               XI = DBLE(I - 1) / DBLE(N - 1)
               CALL EXACT(XI, ETA, ZETA, DTEMP)
               DO 10 M = 1, 5
                  U(M,I,J,K) = DTEMP(M)
   10 CONTINUE
      DO 50 STEP = 1, NSTEP
         DO 20 K = 2, N - 1
         DO 20 J = 2, N - 1
         DO 20 I = 2, N - 1
         DO 20 M = 1, 5
            R(M,I,J,K) = 0.25D0 * (U(M,I-1,J,K) + U(M,I+1,J,K)
     &                 + U(M,I,J-1,K) + U(M,I,J+1,K))
     &                 - 0.5D0 * U(M,I,J,K-1) + 0.5D0 * U(M,I,J,K+1)
   20    CONTINUE
         DO 30 K = 2, N - 1
         DO 30 J = 2, N - 1
         DO 30 I = 2, N - 1
         DO 30 M = 1, 5
            U(M,I,J,K) = U(M,I,J,K) + 0.1D0 * R(M,I,J,K)
   30    CONTINUE
   50 CONTINUE
      CALL TSTOP(1)
      DO 60 M = 1, 5
         XCR(M) = U(M,N/2,N/2,N/2)
   60 CONTINUE
      XCRREF(1) = 1.0D0
      XCRREF(2) = 2.0D0
      XCRREF(3) = 3.0D0
      XCRREF(4) = 4.0D0
      XCRREF(5) = 5.0D0
      EPS = 1.0D-8
      DO 70 M = 1, 5
         XCRDIF(M) = DABS((XCR(M) - XCRREF(M)) / XCRREF(M))
   70 CONTINUE
      DO 80 M = 1, 5
         IF (XCRDIF(M) .LE. EPS) THEN
            WRITE (*, 90) M, XCR(M), XCRDIF(M), ' ok'
         ELSE
            WRITE (*, 90) M, XCR(M), XCRDIF(M), ' differs'
         END IF
   80 CONTINUE
   90 FORMAT (1X, I2, 2E20.12, A)
      END

      SUBROUTINE SETCON
      DOUBLE PRECISION CE(5,13)
      COMMON /CONSTS/ CE
      CE(1,1) = 2.0D0
      CE(2,1) = 1.0D0
      CE(3,1) = 2.0D0
      CE(4,1) = 2.0D0
      CE(5,1) = 5.0D0
      CE(1,2) = 0.0D0
      CE(2,2) = 0.0D0
      CE(3,2) = 2.0D0
      CE(4,2) = 2.0D0
      CE(5,2) = 4.0D-1
      CE(1,3) = 0.0D0
      CE(2,3) = 0.0D0
      CE(3,3) = 0.0D0
      CE(4,3) = 0.0D0
      CE(5,3) = 3.0D-1
      CE(1,4) = 4.0D0
      CE(2,4) = 0.0D0
      CE(3,4) = 0.0D0
      CE(4,4) = 0.0D0
      CE(5,4) = 2.0D-1
      CE(1,5) = 5.0D0
      CE(2,5) = 1.0D0
      CE(3,5) = 0.0D0
      CE(4,5) = 0.0D0
      CE(5,5) = 1.0D-1
      END

      SUBROUTINE EXACT(XI, ETA, ZETA, DTEMP)
      DOUBLE PRECISION XI, ETA, ZETA, DTEMP(5)
      DOUBLE PRECISION CE(5,13)
      COMMON /CONSTS/ CE
      INTEGER M
      DO 10 M = 1, 5
         DTEMP(M) = CE(M,1) + XI*(CE(M,2) + XI*CE(M,5))
     &            + ETA*(CE(M,3) + ETA*CE(M,4))
     &            + ZETA*(CE(M,4) + ZETA*CE(M,5))
   10 CONTINUE
      END

      SUBROUTINE TSTART(N)
      INTEGER N
      DOUBLE PRECISION START(8), ELAPS(8), WALL
      COMMON /TT/ START, ELAPS
      START(N) = WALL()
      END

      SUBROUTINE TSTOP(N)
      INTEGER N
      DOUBLE PRECISION START(8), ELAPS(8), WALL
      COMMON /TT/ START, ELAPS
      ELAPS(N) = ELAPS(N) + (WALL() - START(N))
      END

      DOUBLE PRECISION FUNCTION WALL()
      REAL T
      CALL CPU_TIME(T)
      WALL = DBLE(T)
      END
