C     Dummy arrays indexed past their declared bounds within the storage
C     of their actual argument (COMPLEX DATA(99) used as a 2*N work array
C     by an FFT, a dummy declared for one column swept over several): what
C     compiled Fortran addresses without complaint.  Two dummies may start
C     in one actual and each gives back its own stores; a dummy printed
C     whole shows its declared size.
      PROGRAM PASTDC
      INTEGER N, M
      PARAMETER (N = 40, M = 6)
      DOUBLE PRECISION A(N, M), B(2 * N), S, SUM2
      INTEGER I, J
      DO J = 1, M
        DO I = 1, N
          A(I, J) = DBLE(I) + 100.0D0 * DBLE(J)
        END DO
      END DO
      DO I = 1, 2 * N
        B(I) = 0.5D0 * DBLE(I)
      END DO
      CALL TWICE(B, N)
      CALL SWEEP(A(1, 2), N, M - 1)
      CALL SPLIT(A(1, 4), A(1, 1), N)
      CALL SHOW(A(N - 2, M))
      S = 0.0D0
      DO J = 1, M
        DO I = 1, N
          S = S + A(I, J) * DBLE(MOD(I + J, 7))
        END DO
      END DO
      WRITE (*, '(A, F16.4)') ' B SUM ', SUM2(B, 2 * N)
      WRITE (*, '(A, F16.4)') ' A SUM ', S
      WRITE (*, '(4F12.4)') (A(1, J), A(N, J), J = 1, M)
      END

      DOUBLE PRECISION FUNCTION SUM2(X, K)
      INTEGER K, I
      DOUBLE PRECISION X(K)
      SUM2 = 0.0D0
      DO I = 1, K
        SUM2 = SUM2 + X(I) * DBLE(I)
      END DO
      END

C     X is declared with N elements and used as 2*N.
      SUBROUTINE TWICE(X, N)
      INTEGER N, I
      DOUBLE PRECISION X(N)
      DO I = 2, 2 * N
        X(I) = X(I) + 0.25D0 * X(I - 1)
      END DO
      END

C     C is declared as one column; the loop walks K columns of it.
      SUBROUTINE SWEEP(C, N, K)
      INTEGER N, K, I, J
      DOUBLE PRECISION C(N)
      DO J = 0, K - 1
        DO I = 1, N
          C(I + J * N) = C(I + J * N) * 0.5D0 + DBLE(J)
        END DO
      END DO
      END

C     Q and P start in one actual, P's part reaching over Q's: each
C     gives back only what it stored.
      SUBROUTINE SPLIT(Q, P, N)
      INTEGER N, I
      DOUBLE PRECISION P(N), Q(N)
      DO I = 1, N
        Q(I) = Q(I) + 1.0D0
      END DO
      DO I = 1, N
        P(I + N) = -P(I)
      END DO
      END

C     T is printed whole: three elements, as declared.
      SUBROUTINE SHOW(T)
      DOUBLE PRECISION T(3)
      WRITE (*, '(3F12.4)') T
      END
