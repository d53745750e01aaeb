! A free-form program with HPF directives: indented !HPF$ lines, a
! directive continued with '&' (both styles of continuation line), an
! INDEPENDENT inside a nest, ';' between statements, '&' continuations.
program heat
  implicit none
  integer, parameter :: n = 64, nsteps = 20
  real(kind=8) :: t(0:n+1, 0:n+1), tnew(0:n+1, 0:n+1)
  integer :: i, j, step
  !HPF$ PROCESSORS procs(2, 2)
  !HPF$ DISTRIBUTE t(BLOCK, &
  !HPF$& BLOCK) ONTO procs
  !HPF$ ALIGN tnew(i, j) &
  !HPF$   WITH t(i, j)
  t = 0.0d0; tnew = 0.0d0
  do i = 0, n + 1
     t(i, 0) = 1.0d0
  end do
  do step = 1, nsteps
     !HPF$ INDEPENDENT, NEW(i)
     do j = 1, n
        !hpf$ independent
        do i = 1, n
           tnew(i, j) = 0.25d0 * (t(i-1, j) + t(i+1, j) &
                      + t(i, j-1) + t(i, j+1))
        end do
     end do
     call copy(tnew, t, n)
  end do
  print *, 'T(32,1) =', t(32, 1)
end program heat

subroutine copy(from, to, n)
  integer :: n, i, j
  double precision :: from(0:n+1, 0:n+1), to(0:n+1, 0:n+1)
  do j = 1, n
     do i = 1, n
        to(i, j) = from(i, j)
     end do
  end do
end subroutine copy
