c---------------------------------------------------------------------
c     Sizes from DATA statements: a BLOCK DATA unit fills COMMON, a
c     routine keeps its sweep count in a local DATA.
c---------------------------------------------------------------------
      program cells
      integer ncell, nspec
      common /sizes/ ncell, nspec
      real conc(6, 64)
      common /state/ conc
      integer ic, is
      do ic = 1, ncell
         do is = 1, nspec
            conc(is, ic) = real(is) / real(ic)
         end do
      end do
      call smooth
      write (*, *) conc(1, 1)
      end

      block data sizes0
      integer ncell, nspec
      common /sizes/ ncell, nspec
      data ncell, nspec / 64, 6 /
      end

      subroutine smooth
      integer ncell, nspec
      common /sizes/ ncell, nspec
      real conc(6, 64)
      common /state/ conc
      integer nsweep, isweep, ic, is
      data nsweep / 3 /
      do isweep = 1, nsweep
         do ic = 2, ncell - 1
            do is = 1, nspec
               conc(is, ic) = 0.5 * conc(is, ic)
     >                      + 0.25 * (conc(is, ic-1) + conc(is, ic+1))
            end do
         end do
      end do
      return
      end
