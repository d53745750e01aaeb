C     A block IF whose only statement is a FORMAT (its WRITE commented out).
      PROGRAM FMTIF
      INTEGER M
      M = 3
      IF (M .LT. 1 .OR. M .GT. 10) THEN
C       WRITE (6, 1) M
 1      FORMAT ('BAD M', I5)
      ENDIF
      PRINT *, M * 2
      END
