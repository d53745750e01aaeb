C     Fortran 90 array constructors on the right side of rank-1 array
C     assignments in an F77 program: lists of constants and of expressions,
C     whole arrays and strided sections as targets, a constructor in an
C     expression with sections, values reading the target (the whole right
C     side is read first), and implied DOs whose variable is local to the
C     constructor.
      PROGRAM CONSTR
      INTEGER N, I, K
      PARAMETER (N = 6)
      DOUBLE PRECISION T(4), Y(4), X(N), A(N, 3)
      INTEGER IDX(N), JDX(10)
      CHARACTER*3 NAMES(3)
      T(1:4) = (/ 0.0D+00, 1.0D+00, 2.0D+00, 5.0D+00 /)
      Y = (/ 1.0D+00, -1.0D+00, 0.5D+00, T(4) /)
      K = 3
      X = 0.0D+00
      X(1:N:2) = (/ T(2) + K, DBLE(K * K), SQRT(T(4)) /)
      X(2:4) = (/ X(1), X(2), X(3) /) * 2.0D+00 + T(1:3)
      X(3:5) = (/ X(4), X(5), X(6) /)
      I = 99
      IDX = (/ (I * I, I = 1, N) /)
      JDX = 0
      JDX(10:1:-3) = (/ (2 * I - 1, I = K, K + 3) /)
      JDX(2:9:3) = [ 7, 8, 9 ]
      DO 10 K = 1, 3
         A(1:N, K) = (/ (DBLE(I + K), I = 1, 2 * N, 2) /) + X
   10 CONTINUE
      NAMES = (/ 'one', 'tw ', 'thr' /)
      PRINT 100, T, Y
      PRINT 100, X
      PRINT 110, I, IDX
      PRINT 110, (JDX(K), K = 1, 10, 3), JDX(2), JDX(5), JDX(8)
      PRINT 100, A
      PRINT '(1X, 3A4)', NAMES
  100 FORMAT (4F14.6)
  110 FORMAT (10I6)
      END
