      program ext
      implicit none
      integer n, i, nargs, count, rate
      parameter (n = 100)
      double precision x(n), y(n), t0, t1
      real tarray(2), elapsed, r
      character*32 arg, name
      nargs = iargc()
      if (nargs .gt. 0) call getarg(1, arg)
      t0 = second()
      call cpu_time(t1)
      call system_clock(count, rate)
      do i = 1, n
        x(i) = dfloat(i) / dfloat(n)
      end do
      do i = 1, n
        y(i) = rand(0) + x(i)
      end do
      elapsed = etime(tarray)
      name = 'abc  '
      print *, len_trim(name), trim(name), y(1), elapsed - dtime(tarray)
      call flush(6)
      call sub
      end
      subroutine sub
      intrinsic second, getarg, dfloat
      print *, second(), dfloat(2)
      end
