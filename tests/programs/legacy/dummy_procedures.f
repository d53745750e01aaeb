C     Routines passed as arguments (EXTERNAL and INTRINSIC names), called
C     through the dummy: a boundary-condition subroutine chosen by the
C     caller, passed on two levels, function dummies in expressions (a
C     FUNCTION of the program, a specific intrinsic), one that writes its
C     argument, and a call through a dummy inside a loop over an array.
      PROGRAM DPROC
      INTEGER N
      PARAMETER (N = 16)
      DOUBLE PRECISION X(N), H(N), S, SQ, CUBE, INTEG, OUTER
      INTEGER I, K, COUNT
      EXTERNAL BCA, BCB, SQ, CUBE, BUMP
      INTRINSIC DSIN, DEXP
      DO 10 I = 1, N
         X(I) = DBLE(I) / N
   10 CONTINUE
      CALL STEP(N, X, H, BCA)
      PRINT *, H(1), H(N), H(5)
      CALL STEP(N, X, H, BCB)
      PRINT *, H(1), H(N), H(5)
      CALL TWICE(N, X, H, BCA)
      PRINT *, H(1), H(N)
      S = INTEG(N, X, SQ)
      PRINT *, S, INTEG(N, X, CUBE), INTEG(N, X, DSIN)
      PRINT *, OUTER(N, X, DEXP), OUTER(N, X, SQ)
      K = 0
      DO 20 I = 1, 5
         CALL APPLY(K, BUMP)
   20 CONTINUE
      COUNT = 3
      CALL EACH(N, H, BCA, COUNT)
      PRINT *, K, COUNT, H(1), H(N)
      END

      SUBROUTINE STEP(N, X, H, BC)
      INTEGER N, I
      DOUBLE PRECISION X(N), H(N)
      EXTERNAL BC
      DO 20 I = 1, N
         H(I) = X(I) * 2.0D0
   20 CONTINUE
      CALL BC(N, X, 1.5D0, H)
      END

      SUBROUTINE TWICE(N, X, H, BC)
      INTEGER N
      DOUBLE PRECISION X(N), H(N)
      EXTERNAL BC
      CALL STEP(N, X, H, BC)
      CALL BC(N, X, 3.0D0, H)
      END

      SUBROUTINE EACH(N, H, BC, COUNT)
      INTEGER N, COUNT, I
      DOUBLE PRECISION H(N)
      EXTERNAL BC
      DO 30 I = 1, COUNT
         CALL BC(N, H, DBLE(I), H)
   30 CONTINUE
      COUNT = COUNT + 1
      END

      SUBROUTINE BCA(N, X, T, H)
      INTEGER N
      DOUBLE PRECISION X(N), T, H(N)
      H(1) = T
      H(N) = T + X(N)
      END

      SUBROUTINE BCB(N, X, T, H)
      INTEGER N
      DOUBLE PRECISION X(N), T, H(N)
      H(1) = -T
      H(N) = -T * X(1)
      END

      SUBROUTINE APPLY(K, F)
      INTEGER K, F, J
      EXTERNAL F
      J = F(K)
      K = K + J
      END

      INTEGER FUNCTION BUMP(K)
      INTEGER K
      K = K + 1
      BUMP = 10 * K
      END

      DOUBLE PRECISION FUNCTION INTEG(N, X, F)
      INTEGER N, I
      DOUBLE PRECISION X(N), F
      EXTERNAL F
      INTEG = 0.0D0
      DO 40 I = 1, N
         INTEG = INTEG + F(X(I)) / N
   40 CONTINUE
      END

      DOUBLE PRECISION FUNCTION OUTER(N, X, G)
      INTEGER N
      DOUBLE PRECISION X(N), G, INTEG
      EXTERNAL G
      OUTER = INTEG(N, X, G) + G(0.5D0)
      END

      DOUBLE PRECISION FUNCTION SQ(Y)
      DOUBLE PRECISION Y
      SQ = Y * Y
      END

      DOUBLE PRECISION FUNCTION CUBE(Y)
      DOUBLE PRECISION Y
      CUBE = Y * Y * Y
      END
