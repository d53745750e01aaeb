      SUBROUTINE LUFACT(A,LDA,N,IPIV,IERR)                              LUFA0010
C
C     LU FACTORIZATION WITH ROW PIVOTING, IN PLACE, WRITTEN IN THE
C     STYLE OF THE 1970S LIBRARIES FOR THE AUTODIST CORPUS: ONE-
C     ELEMENT DUMMY DIMENSIONS, GO TO'S, CARD SEQUENCE NUMBERS IN
C     COLUMNS 73-80, CALLS TO VECTOR KERNELS ON COLUMN SECTIONS.
C
      INTEGER LDA,N,IPIV(1),IERR                                        LUFA0080
      REAL A(LDA,1)                                                     LUFA0090
      INTEGER IMAXAB,I,J,K,IP,KNEXT                                     LUFA0100
      REAL PIV,R                                                        LUFA0110
      IERR = 0                                                          LUFA0120
      DO 90 K = 1, N                                                    LUFA0130
         IP = IMAXAB(N-K+1,A(K,K)) + K - 1                              LUFA0140
         IPIV(K) = IP                                                   LUFA0150
         PIV = A(IP,K)                                                  LUFA0160
         IF (PIV .NE. 0.0) GO TO 20                                     LUFA0170
         IERR = K                                                       LUFA0180
         GO TO 90                                                       LUFA0190
C     SWAP THE PIVOT ROW INTO PLACE, WHOLE ROWS AT ONCE
   20    IF (IP .EQ. K) GO TO 40                                        LUFA0210
         DO 30 J = 1, N                                                 LUFA0220
            R = A(K,J)                                                  LUFA0230
            A(K,J) = A(IP,J)                                            LUFA0240
            A(IP,J) = R                                                 LUFA0250
   30    CONTINUE                                                       LUFA0260
   40    IF (K .EQ. N) GO TO 90                                         LUFA0270
         KNEXT = K + 1                                                  LUFA0280
         CALL VSCAL(N-K,1.0/PIV,A(KNEXT,K))                             LUFA0290
         DO 80 J = KNEXT, N                                             LUFA0300
            R = -A(K,J)                                                 LUFA0310
            IF (R .EQ. 0.0) GO TO 80                                    LUFA0320
            CALL VAXPY(N-K,R,A(KNEXT,K),A(KNEXT,J))                     LUFA0330
   80    CONTINUE                                                       LUFA0340
   90 CONTINUE                                                          LUFA0350
      RETURN                                                            LUFA0360
      END                                                               LUFA0370
      SUBROUTINE LUSOLV(A,LDA,N,IPIV,B)                                 LUSO0010
      INTEGER LDA,N,IPIV(1)                                             LUSO0020
      REAL A(LDA,1),B(1)                                                LUSO0030
      REAL VDOT,R                                                       LUSO0040
      INTEGER I,K,IP                                                    LUSO0050
C     APPLY THE ROW INTERCHANGES TO B
      DO 10 K = 1, N                                                    LUSO0070
         IP = IPIV(K)                                                   LUSO0080
         IF (IP .EQ. K) GO TO 10                                        LUSO0090
         R = B(K)                                                       LUSO0100
         B(K) = B(IP)                                                   LUSO0110
         B(IP) = R                                                      LUSO0120
   10 CONTINUE                                                          LUSO0130
C     FORWARD SUBSTITUTION WITH THE UNIT LOWER TRIANGLE
      DO 20 I = 2, N                                                    LUSO0150
         B(I) = B(I) - VDOT(I-1,A(I,1),LDA,B(1))                        LUSO0160
   20 CONTINUE                                                          LUSO0170
C     BACK SUBSTITUTION WITH THE UPPER TRIANGLE, BOTTOM UP
      I = N                                                             LUSO0190
   30 IF (I .LT. 1) RETURN                                              LUSO0200
      IF (I .EQ. N) GO TO 40                                            LUSO0210
      B(I) = B(I) - VDOT(N-I,A(I,I+1),LDA,B(I+1))                       LUSO0220
   40 B(I) = B(I) / A(I,I)                                              LUSO0230
      I = I - 1                                                         LUSO0240
      GO TO 30                                                          LUSO0250
      END                                                               LUSO0260
      INTEGER FUNCTION IMAXAB(N,X)                                      IMAX0010
      INTEGER N,I                                                       IMAX0020
      REAL X(1),BIG                                                     IMAX0030
      IMAXAB = 1                                                        IMAX0040
      IF (N .LE. 1) RETURN                                              IMAX0050
      BIG = ABS(X(1))                                                   IMAX0060
      DO 10 I = 2, N                                                    IMAX0070
         IF (ABS(X(I)) .LE. BIG) GO TO 10                               IMAX0080
         BIG = ABS(X(I))                                                IMAX0090
         IMAXAB = I                                                     IMAX0100
   10 CONTINUE                                                          IMAX0110
      RETURN                                                            IMAX0120
      END                                                               IMAX0130
      SUBROUTINE VAXPY(N,S,X,Y)                                         VAXP0010
C     Y = Y + S*X, THE MAIN LOOP UNROLLED BY THREE AFTER A PROLOGUE
      INTEGER N,I,NREM                                                  VAXP0030
      REAL S,X(1),Y(1)                                                  VAXP0040
      IF (N .LE. 0) RETURN                                              VAXP0050
      NREM = MOD(N,3)                                                   VAXP0060
      IF (NREM .EQ. 0) GO TO 20                                         VAXP0070
      DO 10 I = 1, NREM                                                 VAXP0080
   10 Y(I) = Y(I) + S*X(I)                                              VAXP0090
   20 DO 30 I = NREM+1, N, 3                                            VAXP0100
         Y(I) = Y(I) + S*X(I)                                           VAXP0110
         Y(I+1) = Y(I+1) + S*X(I+1)                                     VAXP0120
         Y(I+2) = Y(I+2) + S*X(I+2)                                     VAXP0130
   30 CONTINUE                                                          VAXP0140
      RETURN                                                            VAXP0150
      END                                                               VAXP0160
      SUBROUTINE VSCAL(N,S,X)                                           VSCA0010
      INTEGER N,I                                                       VSCA0020
      REAL S,X(1)                                                       VSCA0030
      DO 10 I = 1, N                                                    VSCA0040
   10 X(I) = S*X(I)                                                     VSCA0050
      RETURN                                                            VSCA0060
      END                                                               VSCA0070
      REAL FUNCTION VDOT(N,X,INCX,Y)                                    VDOT0010
C     DOT PRODUCT OF A STRIDED X (A MATRIX ROW) WITH A CONTIGUOUS Y
      INTEGER N,INCX,I,IX                                               VDOT0030
      REAL X(1),Y(1)                                                    VDOT0040
      VDOT = 0.0                                                        VDOT0050
      IX = 1                                                            VDOT0060
      DO 10 I = 1, N                                                    VDOT0070
         VDOT = VDOT + X(IX)*Y(I)                                       VDOT0080
         IX = IX + INCX                                                 VDOT0090
   10 CONTINUE                                                          VDOT0100
      RETURN                                                            VDOT0110
      END                                                               VDOT0120
      SUBROUTINE SYMMV(NM,N,A,X,Y)                                      SYMM0010
C
C     Y = A*X FOR A SYMMETRIC MATRIX HELD IN ITS LOWER TRIANGLE: A
C     SHARED-TERMINATION NEST WITH COMMENT LINES BETWEEN THE DO
C     STATEMENTS, AN ARITHMETIC IF, A GO TO THE TERMINATING LABEL AND
C     A LOOP ENDING ON AN ASSIGNMENT.
C
      INTEGER NM,N,I,J,II                                               SYMM0080
      REAL A(NM,N),X(N),Y(N),S                                          SYMM0090
      DO 10 I = 1, N                                                    SYMM0100
   10 Y(I) = 0.0                                                        SYMM0110
      DO 30 J = 1, N                                                    SYMM0120
C        ... THE DIAGONAL AND BELOW ...
         S = X(J)                                                       SYMM0140
C     ---------------------------------------------------------------
         DO 30 II = J, N                                                SYMM0160
C           I RUNS DOWN THE COLUMN
            I = II                                                      SYMM0180
            IF (I - J) 30, 20, 25                                       SYMM0190
   20       Y(I) = Y(I) + A(I,J) * S                                    SYMM0200
            GO TO 30                                                    SYMM0210
   25       Y(I) = Y(I) + A(I,J) * S                                    SYMM0220
            Y(J) = Y(J) + A(I,J) * X(I)                                 SYMM0230
   30 CONTINUE                                                          SYMM0240
      RETURN                                                            SYMM0250
      END                                                               SYMM0260
      PROGRAM LSDRV                                                     LSDR0010
C     SOLVES A SMALL DIAGONALLY DOMINANT SYSTEM AND PRINTS THE ERROR
      INTEGER N                                                         LSDR0030
      PARAMETER (N = 20)                                                LSDR0040
      REAL A(N,N),B(N),X(N),ERR                                         LSDR0050
      INTEGER IPIV(N),I,J,IERR                                          LSDR0060
      DO 10 J = 1, N                                                    LSDR0070
      DO 10 I = 1, N                                                    LSDR0080
         A(I,J) = 1.0 / REAL(I + J)                                     LSDR0090
         IF (I .EQ. J) A(I,J) = A(I,J) + 2.0                            LSDR0100
   10 CONTINUE                                                          LSDR0110
      DO 20 I = 1, N                                                    LSDR0120
   20 X(I) = REAL(I)                                                    LSDR0130
      CALL SYMMV(N,N,A,X,B)                                             LSDR0140
      CALL LUFACT(A,N,N,IPIV,IERR)                                      LSDR0150
      CALL LUSOLV(A,N,N,IPIV,B)                                         LSDR0160
      ERR = 0.0                                                         LSDR0170
      DO 30 I = 1, N                                                    LSDR0180
   30 ERR = MAX(ERR, ABS(B(I) - X(I)))                                  LSDR0190
      WRITE (6,100) IERR, ERR                                           LSDR0200
  100 FORMAT (' IERR =', I3, '  MAX ERROR =', E12.4)                    LSDR0210
      STOP                                                              LSDR0220
      END                                                               LSDR0230
