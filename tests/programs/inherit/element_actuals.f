C     A routine called per grid point on the 5 components of U(5,N,N)
C     and R(5,N,N), passed as the element actuals U(1,I,J), R(1,I,J):
C     each call reads and writes a 5-vector that lies in the component
C     dimension.  An HPF expert distributes U and R BLOCK along a grid
C     dimension (not the 5 components) and runs each call where its
C     element lives: the J and I loops around the call are parallel.
      PROGRAM ELEM
      INTEGER N
      PARAMETER (N=32)
      DOUBLE PRECISION U(5,N,N), R(5,N,N)
      INTEGER I, J, M, IT
      DO J = 1, N
        DO I = 1, N
          DO M = 1, 5
            U(M,I,J) = DBLE(M + I + 2*J)
            R(M,I,J) = 0.0D0
          END DO
        END DO
      END DO
      DO IT = 1, 10
        DO J = 1, N
          DO I = 1, N
            CALL SCALE(U(1,I,J), R(1,I,J))
          END DO
        END DO
        DO J = 2, N-1
          DO I = 2, N-1
            DO M = 1, 5
              U(M,I,J) = 0.25D0*(R(M,I-1,J)+R(M,I+1,J)+R(M,I,J-1)
     &                 + R(M,I,J+1))
            END DO
          END DO
        END DO
      END DO
      PRINT *, U(1,2,2), U(3,N/2,N/2), U(5,N-1,N-1)
      END

      SUBROUTINE SCALE(X, Y)
      DOUBLE PRECISION X(5), Y(5)
      INTEGER M
      DO M = 1, 5
        Y(M) = 2.0D0*X(M) + 1.0D0
      END DO
      END
