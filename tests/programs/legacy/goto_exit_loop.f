c     A time-step loop formed by GO TO whose only exit is a GO TO out of
c     a block IF (as Hpfc shallow): the chain of runs must see that exit
      program gexit
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
        print *, ncycle
        go to 1000
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
 1000 print *, a(1)
      end

      subroutine init
      integer itmax, i
      parameter (n = 64)
      common /cons/ itmax
      itmax = 10
      end
