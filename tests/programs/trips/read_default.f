c---------------------------------------------------------------------
c     An SSOR-style sweep whose sizes are read from an input file when
c     there is one, else taken from the compiled defaults.
c---------------------------------------------------------------------
      program ssor2
      implicit none
      integer isiz1, isiz2, itmax_default
      parameter (isiz1 = 32, isiz2 = 32, itmax_default = 50)
      integer nx, ny, ist, iend, jst, jend, itmax
      common /cgcon/ nx, ny, ist, iend, jst, jend, itmax
      double precision v(isiz1, isiz2)
      common /cvar/ v
      integer istep, i, j

      call read_input
      do j = 1, ny
         do i = 1, nx
            v(i, j) = dble(i) * 1.0d-2 + dble(j)
         end do
      end do
      do istep = 1, itmax
         do j = jst, jend
            do i = ist, iend
               v(i, j) = v(i, j) + 0.25d0 * (v(i-1, j) + v(i, j-1)
     >                 - 2.0d0 * v(i, j))
            end do
         end do
      end do
      write (*, *) v(nx / 2, ny / 2)
      end

      subroutine read_input
      implicit none
      integer isiz1, isiz2, itmax_default
      parameter (isiz1 = 32, isiz2 = 32, itmax_default = 50)
      integer nx, ny, ist, iend, jst, jend, itmax
      common /cgcon/ nx, ny, ist, iend, jst, jend, itmax
      integer fstatus, nx0, ny0

      open (unit = 3, file = 'input.data', status = 'old',
     >      iostat = fstatus)
      if (fstatus .eq. 0) then
         read (3, *) itmax
         read (3, *) nx0, ny0
         close (3)
      else
         itmax = itmax_default
         nx0 = isiz1
         ny0 = isiz2
      end if
      nx = nx0
      ny = ny0
      ist = 2
      iend = nx - 1
      jst = 2
      jend = ny - 1
      return
      end
