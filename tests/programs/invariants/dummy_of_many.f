C     One routine called with several different arrays: its dummy is an
C     array of its own.  The main loop runs along the columns (a recurrence
C     down each column), the routine along the rows: a layout for the
C     dummy other than its actuals' costs a remapping at every call, in the
C     static solution as in the dynamic one.
      PROGRAM FIELDS
      INTEGER N
      PARAMETER (N = 128)
      REAL P(N,N), Q(N,N), R(N,N), S
      INTEGER I, J, K
      DO 10 J = 1, N
      DO 10 I = 1, N
         P(I,J) = REAL(I)
         Q(I,J) = REAL(J)
         R(I,J) = 0.0
   10 CONTINUE
      DO 30 K = 1, 10
         DO 20 J = 1, N
         DO 20 I = 2, N
            P(I,J) = P(I-1,J) + Q(I,J)
            R(I,J) = R(I-1,J) + P(I,J)
   20    CONTINUE
         CALL TOTAL(P, N, S)
         CALL TOTAL(Q, N, S)
         CALL TOTAL(R, N, S)
   30 CONTINUE
      WRITE (*,*) S
      END

      SUBROUTINE TOTAL(F, N, S)
      INTEGER N, I, J
      REAL F(N,N), S, ROW(128)
      DO 40 I = 1, N
         ROW(I) = 0.0
   40 CONTINUE
      DO 50 J = 2, N
      DO 50 I = 1, N
         ROW(I) = ROW(I) + F(I,J) * F(I,J-1)
   50 CONTINUE
      S = 0.0
      DO 60 I = 1, N
         S = S + ROW(I)
   60 CONTINUE
      END
