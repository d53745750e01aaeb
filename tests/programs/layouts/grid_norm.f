C     Norms of a 5-component grid as the NAS solvers compute them: a
C     relaxation sweep over U(5,N,N,N), then per component the root mean
C     square and the largest change, summed into small vectors RMS(5) and
C     ERRMAX(5) over the whole grid in a subroutine that receives them as
C     dummies.  An expert distributes the grid along a grid dimension and
C     keeps the vectors whole: every processor adds its own points, and an
C     all-reduce of five values combines them.
      PROGRAM GRDNRM
      INTEGER N, NSTEP
      PARAMETER (N=20, NSTEP=8)
      DOUBLE PRECISION U(5,N,N,N), V(5,N,N,N), RMS(5), ERRMAX(5)
      INTEGER I, J, K, M, IT
      DO K = 1, N
        DO J = 1, N
          DO I = 1, N
            DO M = 1, 5
              U(M,I,J,K) = DBLE(M) + 0.01D0*DBLE(I*I + 2*J*K + 3*K)
              V(M,I,J,K) = U(M,I,J,K)
            ENDDO
          ENDDO
        ENDDO
      ENDDO
      DO IT = 1, NSTEP
        DO K = 2, N-1
          DO J = 2, N-1
            DO I = 2, N-1
              DO M = 1, 5
                V(M,I,J,K) = 0.25D0*(U(M,I-1,J,K) + U(M,I+1,J,K)
     &            + U(M,I,J-1,K) + U(M,I,J+1,K))
              ENDDO
            ENDDO
          ENDDO
        ENDDO
        CALL NORMS(U, V, N, RMS, ERRMAX)
        DO K = 2, N-1
          DO J = 2, N-1
            DO I = 2, N-1
              DO M = 1, 5
                U(M,I,J,K) = V(M,I,J,K)
              ENDDO
            ENDDO
          ENDDO
        ENDDO
        WRITE (*, '(I3, 5E20.12)') IT, (RMS(M), M = 1, 5)
        WRITE (*, '(3X, 5E20.12)') (ERRMAX(M), M = 1, 5)
      ENDDO
      END

      SUBROUTINE NORMS(U, V, N, RMS, ERRMAX)
      INTEGER N
      DOUBLE PRECISION U(5,N,N,N), V(5,N,N,N), RMS(5), ERRMAX(5)
      DOUBLE PRECISION ADD
      INTEGER I, J, K, M
      DO M = 1, 5
        RMS(M) = 0.0D0
        ERRMAX(M) = 0.0D0
      ENDDO
      DO K = 2, N-1
        DO J = 2, N-1
          DO I = 2, N-1
            DO M = 1, 5
              ADD = V(M,I,J,K) - U(M,I,J,K)
              RMS(M) = RMS(M) + ADD*ADD
              ERRMAX(M) = MAX(ERRMAX(M), ABS(ADD))
            ENDDO
          ENDDO
        ENDDO
      ENDDO
      DO M = 1, 5
        RMS(M) = SQRT(RMS(M) / DBLE((N-2)**3))
      ENDDO
      END
