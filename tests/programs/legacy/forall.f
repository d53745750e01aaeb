C     HPF FORALL statements with one index, INDEPENDENT before some: a mask,
C     a stride, right sides that read the target at other elements (the
C     whole right side is read first), and an index named like a variable
C     of the program, which the FORALL leaves as it was.
      PROGRAM FORALS
      INTEGER I, N
      PARAMETER (N = 30)
      REAL A(N), C(0:N+1)
      DOUBLE PRECISION D(N)
      I = 77
CHPF$ INDEPENDENT
      FORALL (I = 1:N) A(I) = 1.5 * I - 7.0
      FORALL (I = 1:N:3, A(I) .GT. 3.0) A(I) = -A(I)
      C(0) = 1.0
      C(N+1) = 2.0
      FORALL (I = 1:N) C(I) = 0.5 * I
      FORALL (I = 2:N+1) C(I) = C(I-1) + A(I-1)
      FORALL (I = 1:N-1:2) C(I) = C(I+2) * 2.0
CHPF$ INDEPENDENT
      FORALL (I = 1:N/2) D(2*I) = SQRT(ABS(DBLE(C(I)))) + I
      FORALL (I = 1:N/2) D(2*I-1) = D(2*I) - A(N+1-I)
      PRINT *, I
      PRINT 100, A
      PRINT 100, C
      PRINT 110, D
  100 FORMAT (6F12.4)
  110 FORMAT (4F18.10)
      END
