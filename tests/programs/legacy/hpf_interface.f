c     An HPF-compiler style program: interface blocks whose bodies carry
c     HPF prefixes and a directive of their own, a function typed only
c     by its interface, F90 attributes
      program hpfint
      implicit none
      integer n
      parameter (n = 64)
      interface
        extrinsic (hpf_local) subroutine scale(x, f)
          double precision, intent(inout) :: x(:)
          double precision, intent(in) :: f
!hpf$     distribute x(block)
        end subroutine scale
        pure extrinsic (hpf_local)
     >    integer function twice(k)
          integer, intent(in) :: k
        end function twice
      end interface
      double precision a(n)
      integer i
!hpf$ distribute a(block)
      do i = 1, n
        a(i) = twice(i)
      end do
      call scale(a, 2.0d0)
      print *, a(1), a(n)
      end

      extrinsic (hpf_local) subroutine scale(x, f)
      double precision, intent(inout) :: x(:)
      double precision, intent(in) :: f
      integer i
      do i = 1, size(x)
        x(i) = x(i) * f
      end do
      end

      pure extrinsic (hpf_local) integer function twice(k)
      integer, intent(in) :: k
      twice = 2 * k
      end
