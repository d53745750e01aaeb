C     BLOCK DATA initializing a COMMON block seen with another shape, a
C     REAL seen as INTEGER bits in another unit.
      PROGRAM BDVIEW
      REAL T(2,3)
      INTEGER IW
      COMMON /TAB/ T, W
      CALL BITS(IW)
      PRINT *, T, IW
      END

      BLOCK DATA INIT
      REAL T(6), W
      COMMON /TAB/ T, W
      DATA T /1.0, 2.0, 3.0, 4.0, 5.0, 6.0/, W /2.5/
      END

      SUBROUTINE BITS(IW)
      INTEGER IW, IT(6), JW
      COMMON /TAB/ IT, JW
      IW = JW
      END
