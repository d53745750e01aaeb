c     An unrolled matrix-vector product (LINPACK style): sixteen
c     overlapping references to M in one statement
      program unroll
      integer n, i, j
      parameter (n = 256)
      double precision y(n), x(n), m(n,n)
      do j = 1, n
        x(j) = 1.0d0 / j
        do i = 1, n
          m(i,j) = i + j
        end do
      end do
      do i = 1, n
        y(i) = 0.0d0
      end do
      do j = 16, n, 16
        do i = 1, n
      y(i) = y(i)
     &  + x(j-15)*m(i,j-15)
     &  + x(j-14)*m(i,j-14)
     &  + x(j-13)*m(i,j-13)
     &  + x(j-12)*m(i,j-12)
     &  + x(j-11)*m(i,j-11)
     &  + x(j-10)*m(i,j-10)
     &  + x(j-9)*m(i,j-9)
     &  + x(j-8)*m(i,j-8)
     &  + x(j-7)*m(i,j-7)
     &  + x(j-6)*m(i,j-6)
     &  + x(j-5)*m(i,j-5)
     &  + x(j-4)*m(i,j-4)
     &  + x(j-3)*m(i,j-3)
     &  + x(j-2)*m(i,j-2)
     &  + x(j-1)*m(i,j-1)
     &  + x(j-0)*m(i,j-0)
        end do
      end do
      print *, y(1), y(n)
      end
