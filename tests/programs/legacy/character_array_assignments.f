C     Fortran 90 array assignments of CHARACTER arrays in an F77 program:
C     one character per element (a text plot row), whole arrays, values of
C     other lengths (padded and cut), concatenation, a rank-2 array and a
C     section overlapping its target; a DO loop copying shorter elements
C     into longer ones (blank-padded, as the assignments pad them).
      PROGRAM CHARAS
      INTEGER I, J, K
      CHARACTER Z(21)
      CHARACTER*4 W(8), V(3, 4)
      CHARACTER*2 T(8)
      Z = ' '
      Z(1:21) = '-'
      DO 10 I = 1, 21, 5
         Z(I) = '+'
   10 CONTINUE
      Z(2:20:6) = '*'
      WRITE (*, '(1X, 21A1)') Z
      DO 20 K = 0, 4
         Z = ' '
         Z(1 + 4 * K) = 'o'
         Z(21 - K:21) = '#'
         WRITE (*, '(1X, 21A1)') Z
   20 CONTINUE
      T = 'ab'
      T(3:8) = 'cdef'
      W = T
      W(2:8:2) = T(1:4) // 'XYZ'
      W(1:7) = W(2:8)
      WRITE (*, '(1X, 8(A, 1X))') W
      DO 25 I = 1, 8
         W(I) = T(9 - I)
   25 CONTINUE
      WRITE (*, '(1X, 8(A, 1X))') W
      V = 'v'
      V(2:3, 2:4) = V(1:2, 1:3) // W(1)
      V(1, 1:4) = '12345'
      DO 30 J = 1, 4
         WRITE (*, '(1X, 3(A, 1X))') (V(I, J), I = 1, 3)
   30 CONTINUE
      END
