      PROGRAM CHARS
C     CHARACTER arrays: DATA, elements, substrings of elements, whole
C     arrays in output, CHARACTER*(*) and fixed-length dummy arrays,
C     COMMON, internal files that are elements or whole arrays, and a
C     distributed numeric array alongside.
      INTEGER N
      PARAMETER (N = 40)
      CHARACTER*8 NAMES(4)
      CHARACTER*3 MON(12)
      CHARACTER*10 LINES(3), TAG
      CHARACTER*6 LABEL(2, 2)
      COMMON /LBL/ LABEL
      DOUBLE PRECISION T(4), X(N)
      INTEGER I, J, K
CHPF$ DISTRIBUTE X(BLOCK)
CHPF$ DISTRIBUTE NAMES(CYCLIC)
      DATA MON /'JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG',
     &          'SEP', 'OCT', 'NOV', 'DEC'/
      DATA NAMES(4) /'total'/
      NAMES(1) = 'init'
      NAMES(2) = 'solve'
      NAMES(3) = 'a-name-longer-than-8'
      DO 10 I = 1, N
         X(I) = DBLE(I) * 0.5D0
   10 CONTINUE
      DO 20 I = 1, 4
         T(I) = X(I * 10)
   20 CONTINUE
      DO 30 I = 1, 4
         WRITE (*, 100) I, NAMES(I), T(I), MON(3 * I)(1:2), MON(I)(2:)
   30 CONTINUE
  100 FORMAT (1X, I2, 1X, A, F8.2, 1X, A, '/', A)
      PRINT *, NAMES
      PRINT *, (MON(I), I = 12, 1, -3)
C     substrings of elements, assignment into them, comparison, LEN, INDEX
      NAMES(2)(2:3) = 'XY'
      NAMES(1)(5:) = '-end'
      PRINT *, NAMES(2), '|', NAMES(1), '|', LEN(NAMES(1))
      PRINT *, NAMES(4) .EQ. 'total', NAMES(1) .LT. NAMES(2),
     &         INDEX(NAMES(3), 'name'), ICHAR(MON(2)(1:1))
      TAG = MON(1) // '-' // MON(12)
      PRINT *, TAG, '|', NAMES(3)(1:2) // NAMES(4)(1:3)
C     COMMON and dummy arrays
      CALL SETLBL
      DO 40 J = 1, 2
         PRINT *, (LABEL(I, J), I = 1, 2)
   40 CONTINUE
      CALL SHOW(NAMES, 4)
      CALL SHOW(MON, 12)
      CALL FIXED(NAMES)
      PRINT *, NAMES(4)
      CALL HALVES(NAMES, 8)
      PRINT *, NAMES(1)
C     internal files: an element, then the whole array (one record each)
      DO 50 I = 1, 3
         WRITE (LINES(I), '(A3, I4, F3.0)') MON(I), 10 * I, T(I)
   50 CONTINUE
      PRINT *, LINES
      WRITE (LINES, '(I5)') 1, 22, 333
      PRINT *, LINES
      READ (LINES(2), '(I5)') K
      PRINT *, K + 1
      READ (LINES, '(I5)') I, J, K
      PRINT *, I + J + K
      END
      SUBROUTINE SETLBL
      CHARACTER*6 LABEL(2, 2)
      COMMON /LBL/ LABEL
      INTEGER I, J
      DO 10 J = 1, 2
         DO 10 I = 1, 2
            LABEL(I, J) = 'L'
            WRITE (LABEL(I, J)(2:3), '(I1,I1)') I, J
   10 CONTINUE
      END
      SUBROUTINE SHOW(S, K)
      INTEGER K, J, L
      CHARACTER*(*) S(K)
      L = 0
      DO 10 J = 1, K
         L = L + LEN(S(J))
   10 CONTINUE
      PRINT *, K, L, S(K), S(1)(1:1)
      S(K)(1:1) = '*'
      END
      SUBROUTINE FIXED(S)
      CHARACTER*8 S(4)
      S(4) = 'changed'
      END
      SUBROUTINE HALVES(H, N)
C     CHARACTER*8 elements seen as twice as many CHARACTER*4 ones
      INTEGER N, I
      CHARACTER*4 H(N)
      PRINT *, (H(I), '|', I = 1, N)
      H(2) = 'ab'
      END
