c---------------------------------------------------------------------
c     A Jacobi relaxation in the style of the NAS benchmarks: the main
c     program calls an initialization routine that copies the compiled
c     problem size into COMMON, then runs NITER time steps.
c---------------------------------------------------------------------
      program relax3
      implicit none
      include 'grid.h'
      integer step, i
      double precision total

      call setup
      call initialize
      do step = 1, niter
         call relax
      end do
      total = 0.0d0
      do i = 1, ncalls
         total = total + resid(i)
      end do
      write (*, 100) total
 100  format(' residual sum ', e20.12)
      end

      subroutine setup
      implicit none
      include 'grid.h'
      grid_points(1) = problem_size
      grid_points(2) = problem_size
      grid_points(3) = problem_size
      niter = niter_default
      ncalls = 0
      return
      end

      subroutine initialize
      implicit none
      include 'grid.h'
      integer i, j, k
      do k = 1, grid_points(3)
         do j = 1, grid_points(2)
            do i = 1, grid_points(1)
               u(i, j, k) = dble(i * i + j + k)
               rhs(i, j, k) = 0.0d0
            end do
         end do
      end do
      return
      end

      subroutine relax
      implicit none
      include 'grid.h'
      integer i, j, k
      double precision r
      r = 0.0d0
      do k = 2, grid_points(3) - 1
         do j = 2, grid_points(2) - 1
            do i = 2, grid_points(1) - 1
               rhs(i, j, k) = (u(i-1, j, k) + u(i+1, j, k)
     >                      + u(i, j-1, k) + u(i, j+1, k)
     >                      + u(i, j, k-1) + u(i, j, k+1)) / 6.0d0
            end do
         end do
      end do
      do k = 2, grid_points(3) - 1
         do j = 2, grid_points(2) - 1
            do i = 2, grid_points(1) - 1
               r = r + (rhs(i, j, k) - u(i, j, k))**2
               u(i, j, k) = rhs(i, j, k)
            end do
         end do
      end do
      ncalls = ncalls + 1
      resid(ncalls) = r
      return
      end
