C     TRED2: reduction of a real symmetric matrix to symmetric
C     tridiagonal form by Householder reflections, accumulating the
C     orthogonal transformation, in the style of EISPACK's TRED2; the
C     main program reduces a 64 x 64 matrix and checks the result.
C
C     What it exercises:
C       - triangular loops (DO 40 K = 1, J; DO 60 K = J + 1, L) whose
C         bounds depend on outer loop variables: unequal work per
C         iteration, the case for CYCLIC distributions;
C       - a reversed outer loop written EISPACK's way (DO 100 II = 2, N
C         with I = N + 2 - II);
C       - GOTOs around blocks, an arithmetic IF, loops ending on an
C         assignment (  40 G = G + ...), shared-termination nests;
C       - adjustable dummy arrays A(NM,N), D(N), E(N), Z(NM,N);
C       - column and row accesses of Z in one loop body (Z(J,K) and
C         Z(K,J)): a transposition-like pattern.
      PROGRAM TRIDIA
      INTEGER NM, N
      PARAMETER (NM = 64, N = 64)
      DOUBLE PRECISION A(NM,N), D(N), E(N), Z(NM,N)
      DOUBLE PRECISION TRACE, SUMD, SUME2, ORTH, S
      INTEGER I, J, K
C     A symmetric, diagonally dominant test matrix
      DO 10 J = 1, N
      DO 10 I = 1, N
         A(I,J) = DBLE(MIN(I,J)) / DBLE(N)
         IF (I .EQ. J) A(I,J) = A(I,J) + DBLE(N)
   10 CONTINUE
      CALL TRED2(NM, N, A, D, E, Z)
C     The trace is invariant: sum of D equals sum of diag(A)
      TRACE = 0.0D0
      SUMD = 0.0D0
      SUME2 = 0.0D0
      DO 20 I = 1, N
         TRACE = TRACE + A(I,I)
         SUMD = SUMD + D(I)
         SUME2 = SUME2 + E(I) * E(I)
   20 CONTINUE
C     Z is orthogonal: the largest entry of Z'Z - I
      ORTH = 0.0D0
      DO 30 J = 1, N
      DO 30 I = 1, N
         S = 0.0D0
         DO 25 K = 1, N
   25    S = S + Z(K,I) * Z(K,J)
         IF (I .EQ. J) S = S - 1.0D0
         ORTH = MAX(ORTH, ABS(S))
   30 CONTINUE
      WRITE (*,*) 'TRACE(A)  =', TRACE
      WRITE (*,*) 'SUM(D)    =', SUMD
      WRITE (*,*) 'SUM(E**2) =', SUME2
      WRITE (*,*) 'ORTH ERR  =', ORTH
      END

      SUBROUTINE TRED2(NM, N, A, D, E, Z)
C     On return D holds the diagonal, E the subdiagonal (E(1) = 0) of
C     the tridiagonal matrix, and Z the orthogonal matrix of the
C     reduction.  Only the lower triangle of A is used; A is unchanged.
      INTEGER NM, N
      DOUBLE PRECISION A(NM,N), D(N), E(N), Z(NM,N)
      INTEGER I, J, K, L, II
      DOUBLE PRECISION F, G, H, HH, SCALE
      DO 5 J = 1, N
      DO 5 I = J, N
    5 Z(I,J) = A(I,J)
      IF (N .EQ. 1) GO TO 200
C     Rows N, N-1, ..., 2, each reduced by one reflection
      DO 100 II = 2, N
         I = N + 2 - II
         L = I - 1
         H = 0.0D0
         IF (L .LT. 2) GO TO 15
         SCALE = 0.0D0
         DO 10 K = 1, L
   10    SCALE = SCALE + DABS(Z(I,K))
         IF (SCALE .NE. 0.0D0) GO TO 20
   15    E(I) = Z(I,L)
         GO TO 90
C        The Householder vector, scaled to avoid underflow
   20    DO 25 K = 1, L
            Z(I,K) = Z(I,K) / SCALE
            H = H + Z(I,K) * Z(I,K)
   25    CONTINUE
         F = Z(I,L)
         G = -DSIGN(DSQRT(H), F)
         E(I) = SCALE * G
         H = H - F * G
         Z(I,L) = F - G
C        E(1:L) = A U / H, and F = U' E
         F = 0.0D0
         DO 70 J = 1, L
            Z(J,I) = Z(I,J) / H
            G = 0.0D0
            DO 40 K = 1, J
   40       G = G + Z(J,K) * Z(I,K)
            IF (J .EQ. L) GO TO 65
            DO 60 K = J + 1, L
   60       G = G + Z(K,J) * Z(I,K)
   65       E(J) = G / H
            F = F + E(J) * Z(I,J)
   70    CONTINUE
         HH = F / (H + H)
C        The rank-two update of the leading L x L block
         DO 80 J = 1, L
            F = Z(I,J)
            G = E(J) - HH * F
            E(J) = G
            DO 80 K = 1, J
               Z(J,K) = Z(J,K) - (F * E(K) + G * Z(I,K))
   80    CONTINUE
   90    D(I) = H
  100 CONTINUE
C     Accumulate the transformations
  200 D(1) = 0.0D0
      E(1) = 0.0D0
      DO 150 I = 1, N
         L = I - 1
         IF (D(I)) 110, 130, 110
  110    DO 120 J = 1, L
            G = 0.0D0
            DO 115 K = 1, L
  115       G = G + Z(I,K) * Z(K,J)
            DO 120 K = 1, L
               Z(K,J) = Z(K,J) - G * Z(K,I)
  120    CONTINUE
  130    D(I) = Z(I,I)
         Z(I,I) = 1.0D0
         IF (L .LT. 1) GO TO 150
         DO 140 J = 1, L
            Z(J,I) = 0.0D0
            Z(I,J) = 0.0D0
  140    CONTINUE
  150 CONTINUE
      RETURN
      END
