c---------------------------------------------------------------------
c  header.h: sizes, constants and the COMMON blocks every routine of
c  the pseudo-application shares (NAS Parallel Benchmarks style).
c---------------------------------------------------------------------
      include 'npbparams.h'

      integer           isiz1, isiz2, isiz3
      parameter        (isiz1 = problem_size, isiz2 = problem_size,
     >                  isiz3 = problem_size)

      integer           grid_points(3), nx, ny, nz
      common /global/   grid_points, nx, ny, nz

      double precision  tx1, tx2, tx3, ty1, ty2, ty3, tz1, tz2, tz3,
     >                  dx1, dx2, dx3, dx4, dx5, dssp, dt,
     >                  ce(5,13), c1, c2, c3, c4, c5
      common /constants/ tx1, tx2, tx3, ty1, ty2, ty3, tz1, tz2, tz3,
     >                  dx1, dx2, dx3, dx4, dx5, dssp, dt,
     >                  ce, c1, c2, c3, c4, c5

      double precision
     >   u      (5, 0:isiz1-1, 0:isiz2-1, 0:isiz3-1),
     >   rhs    (5, 0:isiz1-1, 0:isiz2-1, 0:isiz3-1),
     >   forcing(5, 0:isiz1-1, 0:isiz2-1, 0:isiz3-1),
     >   us     (   0:isiz1-1, 0:isiz2-1, 0:isiz3-1),
     >   rho_i  (   0:isiz1-1, 0:isiz2-1, 0:isiz3-1),
     >   square (   0:isiz1-1, 0:isiz2-1, 0:isiz3-1)
      common /fields/ u, rhs, forcing, us, rho_i, square

      double precision cuf(0:isiz1-1), q(0:isiz1-1),
     >                 buf(0:isiz1-1,5), ue(0:isiz1-1,5)
      common /work_1d/ cuf, q, buf, ue
