c     A relaxation sweep repeated by GO TO and left by a GO TO out of a
c     block IF (as Hpfc shallow): the chain of runs must see that exit
      program gexit
      integer m, it, k
      parameter (m = 50)
      double precision u(m), w(m), err
      call setup(m, u)
      it = 0
   10 it = it + 1
      do k = 2, m - 1
        w(k) = 0.5d0 * (u(k-1) + u(k+1))
      end do
      err = 0.0d0
      if (it .gt. 200) then
        write (*, *) 'no convergence'
        go to 20
      end if
      do k = 2, m - 1
        err = max(err, abs(w(k) - u(k)))
        u(k) = w(k)
      end do
      if (err .gt. 1.0d-6) go to 10
   20 write (*, *) it, u(m/2)
      end

      subroutine setup(m, u)
      integer m, k
      double precision u(m)
      do k = 1, m
        u(k) = 0.0d0
      end do
      u(m) = 1.0d0
      end
