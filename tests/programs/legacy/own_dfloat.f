      program own
      implicit none
      double precision dfloat, x
      x = dfloat(3)
      print *, x
      end
      double precision function dfloat(i)
      integer i
      dfloat = i
      end
