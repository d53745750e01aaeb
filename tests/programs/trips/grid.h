c     grid.h: sizes and COMMON blocks of the relaxation solver
      integer problem_size, niter_default
      parameter (problem_size = 24, niter_default = 8)
      integer imax, jmax, kmax
      parameter (imax = problem_size, jmax = problem_size,
     >           kmax = problem_size)
      integer grid_points(3), niter, ncalls
      common /global/ grid_points, niter, ncalls
      double precision u(imax, jmax, kmax), rhs(imax, jmax, kmax)
      double precision resid(100)
      common /fields/ u, rhs, resid
