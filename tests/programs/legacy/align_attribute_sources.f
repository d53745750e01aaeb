c     HPF attribute-form ALIGN whose alignees carry their own dummy lists
      program aattr
      integer n, i, j
      parameter (n = 24)
      real field(0:n+1,3), x(n), a(n,n), b(n,n)
      character s(n)
chpf$ processors p(2)
chpf$ template t(n), g(n,n)
chpf$ distribute field(block,*) onto p
chpf$ distribute t(block) onto p
chpf$ distribute g(*,block) onto p
chpf$ align with field(i,*):: s(i)
chpf$ align with t(*):: x(*)
chpf$ align with g(i,j) :: a(i,j), b(j,i)
      do i = 0, n + 1
        field(i,1) = i
        field(i,2) = 0
        field(i,3) = 0
      end do
      do i = 1, n
        x(i) = 2 * i
        field(i,2) = field(i-1,1) + field(i+1,1)
        s(i) = 'a'
        if (field(i,2) .gt. n) s(i) = 'b'
      end do
      do j = 1, n
        do i = 1, n
          a(i,j) = i + j * x(i)
          b(i,j) = a(i,j) - i
        end do
      end do
      print *, field(5,2), x(n), a(3,4), b(n,1), s(1), s(n)
      end
