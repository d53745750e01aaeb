C     Level-1 BLAS routines as the reference BLAS writes them (simplified:
C     unit strides only), for --link.
      SUBROUTINE DAXPY(N, DA, DX, INCX, DY, INCY)
      INTEGER N, INCX, INCY, I
      DOUBLE PRECISION DA, DX(*), DY(*)
      IF (N .LE. 0 .OR. DA .EQ. 0.0D0) RETURN
      DO 10 I = 1, N
         DY(I) = DY(I) + DA * DX(I)
   10 CONTINUE
      END

      DOUBLE PRECISION FUNCTION DDOT(N, DX, INCX, DY, INCY)
      INTEGER N, INCX, INCY, I
      DOUBLE PRECISION DX(*), DY(*), S
      S = 0.0D0
      DO 10 I = 1, N
         S = S + DX(I) * DY(I)
   10 CONTINUE
      DDOT = S
      END

      SUBROUTINE DSCAL(N, DA, DX, INCX)
      INTEGER N, INCX, I
      DOUBLE PRECISION DA, DX(*)
      DO 10 I = 1, N
         DX(I) = DA * DX(I)
   10 CONTINUE
      END
