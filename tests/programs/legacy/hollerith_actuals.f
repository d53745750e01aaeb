C     Hollerith constants as actual arguments (a deleted feature that
C     gfortran -std=legacy accepts, as SLATEC's XERROR(26HMESSAGE..., 26, ...)
C     passes messages): gfortran passes the characters blank-padded to a
C     multiple of 4 bytes, and a dummy of any type sees them byte for byte:
C     INTEGER and REAL arrays, INTEGER and DOUBLE PRECISION scalars, a
C     CHARACTER dummy of fixed length; in a logical IF and in a function
C     reference.
      PROGRAM HOLACT
      INTEGER IER, NCHARS
      EXTERNAL NCHARS
      IER = 1
      CALL MSG(26Habnormal return from dqag ,26, IER)
      IF (IER .NE. 0) CALL MSG(5Hlevel, 5, 2)
      CALL MSG(7Hit's ok, 7, 3)
      CALL WORDS(8HABCDEFGH, 2)
      CALL WORDS(3HXYZ, 1)
      CALL ONE(4HABCD, 6Hsix ch)
      CALL TEXT(6HHello.)
      PRINT *, NCHARS(9Hcounted..) + 1
      END

      SUBROUTINE MSG(MESSG, NMESSG, NERR)
      INTEGER NMESSG, NERR, I, NWORDS
      DIMENSION MESSG(NMESSG)
      NWORDS = (NMESSG + 3) / 4
      WRITE (*, '(1X, I3, 1X, 20A4)') NERR, (MESSG(I), I = 1, NWORDS)
      PRINT '(1X, 4I12)', (MESSG(I), I = 1, NWORDS)
      END

      SUBROUTINE WORDS(X, N)
      INTEGER N, I
      REAL X(N)
      PRINT '(1X, 2A4)', (X(I), I = 1, N)
      END

      SUBROUTINE ONE(K, D)
      INTEGER K
      DOUBLE PRECISION D
      PRINT '(1X, I12, 1X, A4)', K, K
      PRINT '(1X, A8, 1X, F8.1)', D, D * 0.0
      END

      SUBROUTINE TEXT(S)
      CHARACTER*8 S
      PRINT *, '[', S, ']', LEN(S)
      END

      INTEGER FUNCTION NCHARS(C)
      INTEGER C(3)
      NCHARS = 0
      DO 10 I = 1, 3
         IF (C(I) .NE. 0) NCHARS = NCHARS + 4
   10 CONTINUE
      END
