      program main
      call test
      end

      subroutine test
      integer nx, nt, i
      parameter (nx = 21, nt = 201)
      double precision x(nx), t(nt), s
      call fill(nx, x)
      call fill(nt, t)
      s = 0.0d0
      do i = 1, nx
        x(i) = x(i) * 2.0d0
      end do
      do i = 1, nt
        t(i) = t(i) + 1.0d0
      end do
      print *, x(nx), t(nt)
      end

      subroutine fill(n, a)
      integer n, i
      double precision a(n)
      do i = 1, n
        a(i) = dble(i) / dble(n)
      end do
      end
