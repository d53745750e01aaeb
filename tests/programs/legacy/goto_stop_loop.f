c     A time-step loop formed by GO TO whose only exit is a STOP inside
c     a block IF (as SPEC swim): the chain of runs must see that exit
      program gloop
      integer ncycle, itmax, i
      parameter (n = 64)
      real a(n), b(n)
      common /cons/ itmax
      call init
      ncycle = 0
   90 ncycle = ncycle + 1
      do i = 1, n
        b(i) = a(i) + 1.0
      end do
      if (ncycle .ge. itmax) then
        stop
      endif
      if (ncycle .le. 1) then
        do i = 1, n
          a(i) = b(i)
        end do
      else
        do i = 1, n
          a(i) = 0.5 * (a(i) + b(i))
        end do
      endif
      go to 90
      end

      subroutine init
      integer itmax, i
      parameter (n = 64)
      common /cons/ itmax
      itmax = 10
      end
