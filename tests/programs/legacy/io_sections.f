C     Array sections in I/O lists (a Fortran 90 form that F77-era programs
C     use to print a table's column or row): written and read in array
C     element order, with strides, inside implied DO loops, from a grid
C     whose loops autodist distributes.
      PROGRAM IOSECT
      INTEGER N
      PARAMETER (N = 48)
      DOUBLE PRECISION U(N, N), V(N, N), W(6)
      INTEGER I, J, K(4)
      CHARACTER*40 LINE
      DO J = 1, N
        DO I = 1, N
          U(I, J) = DBLE(I) + 0.01D0 * DBLE(J)
          V(I, J) = 0.0D0
        END DO
      END DO
      DO J = 2, N - 1
        DO I = 2, N - 1
          V(I, J) = 0.25D0 * (U(I-1, J) + U(I+1, J) + U(I, J-1)
     &              + U(I, J+1))
        END DO
      END DO
      DO J = 1, N, 16
        WRITE (*, '(8F9.3)') V(2:9, J + 1)
      END DO
      WRITE (*, '(6F9.3)') U(1:N:10, 3)
      WRITE (*, '(4F9.3)') (U(I, 2:N:20), I = 5, 7)
      WRITE (*, '(4F9.3)') V(3:4, 10:11)
      LINE = '1.5 2.5 3.5 4 5 6'
      READ (LINE, *) W(1:3), K(2:4)
      WRITE (*, '(3F6.2, 3I3)') W(1:3), K(2:4)
      WRITE (*, '(4F9.3)') U(:, N)
      END
