c     Derived types in an HPF-era program (as NPB 3.0 HPF LU): a TYPE
c     definition, scalar and array objects of it, components in loop
c     bounds and bodies, a TYPE dummy with INTENT; the program's own
c     mapping distributes X and Y.
      program dtype
      implicit none
      type bounds
        integer :: first, last
      end type bounds
      integer n, i
      parameter (n = 64)
      type(bounds) :: b
      type(bounds) :: parts(4)
      double precision x(n), y(n), s
!hpf$ distribute (block) :: x
!hpf$ align (:) with x :: y
      b%first = 2
      b%last = n - 1
      do i = 1, 4
        parts(i)%first = (i - 1) * 16 + 1
        parts(i)%last = i * 16
      end do
      do i = 1, n
        x(i) = dble(i)
        y(i) = 0.0d0
      end do
      do i = b%first, b%last
        y(i) = 0.5d0 * (x(i - 1) + x(i + 1))
      end do
      do i = 1, n
        y(i) = y(i) + b%first
        b%first = b%first + 1
      end do
      call total(b, y, n, s)
      print *, 'sum', s, parts(3)%last, b%first
      end

      subroutine total(c, y, n, s)
      implicit none
      type bounds
        integer :: first, last
      end type bounds
      type(bounds), intent(in) :: c
      integer n, i
      double precision y(n), s
      s = 0.0d0
      do i = 1, c%last
        s = s + y(i)
      end do
      end
