c     ETIME writes its argument: the loop cannot run in parallel
      program timing
      real tarray(2), t(10)
      integer i
      do i = 1, 10
        t(i) = etime(tarray) + tarray(1)
      end do
      print *, t
      end
