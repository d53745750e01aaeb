c     INDEPENDENT(I,J) over an imperfect nest (a statement before DO J),
c     as HPF compilers of the 1990s accepted
      program imperf
      integer n, i, j, k
      parameter (n = 40)
      integer image(20,n), table(n)
      do i = 1, n
        table(i) = i * i
      end do
!hpf$ independent(i,j), new(k)
      do i = 1, n
        k = (i + 9) / 10
        do j = 1, 20
          image(j,i) = table(k) + j
        end do
      end do
      print *, image(1,1), image(20,n)
      end
