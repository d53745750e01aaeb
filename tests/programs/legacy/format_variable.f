C     A format held in a CHARACTER variable (built by an internal WRITE), in a
C     CHARACTER*12 variable, and a concatenation of constants.
      PROGRAM VARFMT
      CHARACTER*30 STRING
      CHARACTER*12 F2
      INTEGER N, I
      DOUBLE PRECISION X(3)
      N = 3
      DO 10 I = 1, N
         X(I) = I * 1.25D0
   10 CONTINUE
      WRITE (STRING, '(A1,I8,A1,I8,A1)') '(', N, 'G', 14, '.'
      WRITE (STRING(20:), '(A)') '6)'
      PRINT *, STRING
      WRITE (*, STRING) (X(I), I = 1, N)
      F2 = '(3F8.3)'
      WRITE (*, F2) X
      WRITE (*, '(' // 'I5' // ')') N
      END
