c     HPF 1.x list-form ALIGN: two alignees, one WITH clause
      program alist
      integer n, i, j
      parameter (n = 32)
      real t(n,n), u(n,n,2), v(n,n)
chpf$ template domain(n,n)
chpf$ align v(i,j), u(i,j,*) with domain(i,j)
chpf$ align t(i,j) with domain(i,j)
chpf$ distribute domain(*,block)
      do j = 1, n
        do i = 1, n
          v(i,j) = i + j
          u(i,j,1) = v(i,j)
          u(i,j,2) = 2 * v(i,j)
          t(i,j) = u(i,j,1) + u(i,j,2)
        end do
      end do
      print *, t(1,1), t(n,n)
      end
