C     A file of routines with no main program: every routine nobody calls
C     is a root of its own, in the dynamic solution as in the static one.
      SUBROUTINE SCALE(X, N, A)
      INTEGER N, I
      REAL X(N), A
      DO 10 I = 1, N
         X(I) = A * X(I)
   10 CONTINUE
      END

      SUBROUTINE SMOOTH(X, Y, N)
      INTEGER N, I
      REAL X(N), Y(N)
      DO 20 I = 2, N - 1
         Y(I) = (X(I-1) + X(I) + X(I+1)) / 3.0
   20 CONTINUE
      END
